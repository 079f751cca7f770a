import Foundation

/// Turns irregular accelerometer readings into frames on a regular grid (linear interpolation, milli-g) and flags
/// body movement, which would swamp the respiratory micro-motion.
struct AccelerometerFrames {
    /// Frame length (seconds).
    let frameSeconds: Double
    /// Deviation from the recent mean (milli-g) that counts as movement.
    let movementThreshold: Double
    /// Frames masked before and after a movement.
    let movementMargin: Int
    /// A pause longer than this (seconds) between readings starts a new run.
    let maximumGap: Double = 2

    private var previous: AccelerometerSample?
    private var nextFrameEnd: Date?
    private var mean: SIMD3<Double>?
    private var holdInvalid = 0

    /// Creates a resampler.
    init(frameSeconds: Double, movementThresholdG: Double) {
        self.frameSeconds = frameSeconds
        self.movementThreshold = movementThresholdG * 1000
        self.movementMargin = Int((1.0 / frameSeconds).rounded())
    }

    /// Feeds readings in time order, appending frames to `window` (restarting it after a gap).
    mutating func feed(_ samples: [AccelerometerSample], into window: inout FrameWindow) {
        for sample in samples {
            guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else { continue }
            guard let last = previous, let frameEnd = nextFrameEnd,
                sample.timestamp > last.timestamp,
                sample.timestamp.timeIntervalSince(last.timestamp) <= maximumGap
            else {
                if let last = previous, sample.timestamp <= last.timestamp { continue }
                window.restart(at: sample.timestamp)
                previous = sample
                nextFrameEnd = sample.timestamp.addingTimeInterval(frameSeconds)
                mean = nil
                holdInvalid = 0
                continue
            }
            var end = frameEnd
            let span = sample.timestamp.timeIntervalSince(last.timestamp)
            while end <= sample.timestamp {
                let w = end.timeIntervalSince(last.timestamp) / span
                let v =
                    SIMD3(
                        last.x + (sample.x - last.x) * w, last.y + (sample.y - last.y) * w,
                        last.z + (sample.z - last.z) * w) * 1000
                appendFrame(v, into: &window)
                end = end.addingTimeInterval(frameSeconds)
            }
            nextFrameEnd = end
            previous = sample
        }
    }

    private mutating func appendFrame(_ v: SIMD3<Double>, into window: inout FrameWindow) {
        let reference = mean ?? v
        let d = v - reference
        let deviation = (d * d).sum().squareRoot()
        var isValid = true
        if deviation > movementThreshold {
            if holdInvalid == 0 { window.invalidateLast(movementMargin) }
            holdInvalid = movementMargin
            isValid = false
            mean = v
        } else {
            mean = reference + (v - reference) * 0.05
            if holdInvalid > 0 {
                holdInvalid -= 1
                isValid = false
            }
        }
        window.append([Float(v.x), Float(v.y), Float(v.z)], isValid: isValid)
    }
}
