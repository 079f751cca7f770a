import Foundation

/// Deterministic test signals and measurements for the DSP tests.
enum TestSignals {
    /// A sine of `amplitude` at `frequency` Hz, `count` samples at `sampleRate`.
    static func sine(
        frequency: Double, amplitude: Double, sampleRate: Double, count: Int, phase: Double = 0
    )
        -> [Float]
    {
        // A rotating phasor (renormalised every 1024 steps) is much faster than sin() per sample in debug builds.
        var output = [Float](repeating: 0, count: count)
        let step = 2 * Double.pi * frequency / sampleRate
        let (stepSin, stepCos) = (sin(step), cos(step))
        var (re, im) = (cos(phase), sin(phase))
        output.withUnsafeMutableBufferPointer { buffer in
            for index in 0..<count {
                buffer[index] = Float(amplitude * im)
                (re, im) = (re * stepCos - im * stepSin, re * stepSin + im * stepCos)
                if index & 1023 == 1023 {
                    let angle = step * Double(index + 1) + phase
                    (re, im) = (cos(angle), sin(angle))
                }
            }
        }
        return output
    }

    /// Uniform white noise in −amplitude...amplitude from a fixed seed (xorshift64*).
    static func noise(count: Int, amplitude: Double = 1, seed: UInt64 = 12345) -> [Float] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let value = Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
            return Float(amplitude * (2 * value - 1))
        }
    }

    /// RMS of `samples` in dB relative to 1 (not dBFS).
    static func rmsDb<C: Collection>(_ samples: C) -> Double where C.Element == Float {
        let energy = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(max(energy / Double(max(1, samples.count)), 1e-30))
    }

    /// Amplitude of the component at `frequency` (least-squares projection on sine and cosine), in dB re 1.
    static func toneAmplitudeDb(_ samples: ArraySlice<Float>, frequency: Double, sampleRate: Double) -> Double {
        var c = 0.0
        var s = 0.0
        for (offset, value) in samples.enumerated() {
            let angle = 2 * Double.pi * frequency * Double(samples.startIndex + offset) / sampleRate
            c += Double(value) * cos(angle)
            s += Double(value) * sin(angle)
        }
        let amplitude = 2 * sqrt(c * c + s * s) / Double(samples.count)
        return 20 * log10(max(amplitude, 1e-30))
    }
}
