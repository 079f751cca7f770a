import Foundation

/// Band-pass filter of the acceleration magnitude: a second-order Butterworth high-pass (removes gravity and
/// posture) followed by a second-order Butterworth low-pass (removes vibration and sensor noise), both as
/// biquads whose coefficients are computed from the sample rate (bilinear transform, RBJ cookbook form).
///
/// The filter starts in the steady state of its first input, so a constant 1 g gives no start-up transient.
struct MagnitudeBandPass: Sendable {
    private var highPass: Biquad
    private var lowPass: Biquad
    private var started = false

    /// Creates the filter.
    ///
    /// - Parameters:
    ///   - sampleRate: samples per second.
    ///   - lowCutoff: high-pass corner, Hz.
    ///   - highCutoff: low-pass corner, Hz (clamped below 0.45 × the sample rate).
    init(sampleRate: Double, lowCutoff: Double = 0.25, highCutoff: Double = 3) {
        highPass = Biquad(kind: .highPass, cutoff: lowCutoff, sampleRate: sampleRate)
        lowPass = Biquad(kind: .lowPass, cutoff: min(highCutoff, 0.45 * sampleRate), sampleRate: sampleRate)
    }

    /// Filters the next magnitude sample (g).
    mutating func process(_ magnitude: Double) -> Double {
        if !started {
            highPass.settle(at: magnitude)
            lowPass.settle(at: 0)
            started = true
        }
        return lowPass.process(highPass.process(magnitude))
    }
}

/// A direct-form-I second-order section with a Butterworth (Q = 1/√2) response.
struct Biquad: Sendable {
    enum Kind { case lowPass, highPass }

    private let b0, b1, b2, a1, a2: Double
    private let dcGain: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    init(kind: Kind, cutoff: Double, sampleRate: Double) {
        let omega = 2 * Double.pi * cutoff / sampleRate
        let quality = 1 / 2.0.squareRoot()
        let alpha = sin(omega) / (2 * quality)
        let cosine = cos(omega)
        let a0 = 1 + alpha
        switch kind {
        case .lowPass:
            b0 = (1 - cosine) / 2 / a0
            b1 = (1 - cosine) / a0
            b2 = (1 - cosine) / 2 / a0
            dcGain = 1
        case .highPass:
            b0 = (1 + cosine) / 2 / a0
            b1 = -(1 + cosine) / a0
            b2 = (1 + cosine) / 2 / a0
            dcGain = 0
        }
        a1 = -2 * cosine / a0
        a2 = (1 - alpha) / a0
    }

    /// Sets the state as if `input` had always been applied.
    mutating func settle(at input: Double) {
        x1 = input
        x2 = input
        y1 = input * dcGain
        y2 = input * dcGain
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
