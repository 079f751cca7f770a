import Foundation

@testable import SleepAnalysis

/// Deterministic test signals for the breathing and audio-health tests: noise from a fixed-seed generator.
struct SyntheticSignals {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    /// A uniform value in -1...1 (xorshift64*).
    mutating func uniform() -> Float {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let bits = (state &* 0x2545_F491_4F6C_DD1D) >> 40
        return Float(bits) / Float(1 << 23) - 1
    }

    /// Room tone: low-passed noise at about `rms`.
    mutating func roomTone(seconds: Double, rms: Float, rate: Int = 16_000) -> [Float] {
        var out = [Float](repeating: 0, count: Int(seconds * Double(rate)))
        var low: Float = 0
        for i in out.indices {
            low += 0.3 * (uniform() - low)
            out[i] = low * rms * 4
        }
        return out
    }

    /// Breath noise at `bpm`: each cycle a bright inhale (about 35 % of it) and a duller, weaker exhale (40 %),
    /// with 5 % jitter of the period, added at peak amplitude `amplitude` on top of `base`.
    mutating func addBreaths(to base: inout [Float], bpm: Double, amplitude: Float, rate: Int = 16_000) {
        var t = 0.0
        let total = Double(base.count) / Double(rate)
        var low: Float = 0
        while t < total {
            let period = 60 / bpm * (1 + 0.05 * Double(uniform()))
            let inhale = period * 0.35, gap = period * 0.05, exhale = period * 0.4
            let start = Int(t * Double(rate))
            for k in 0..<Int((inhale + gap + exhale) * Double(rate)) where start + k < base.count {
                let s = Double(k) / Double(rate)
                let noise = uniform()
                low += 0.2 * (noise - low)
                if s < inhale {
                    let shape = Float(sin(Double.pi * s / inhale))
                    base[start + k] += amplitude * shape * (noise - low)
                } else if s >= inhale + gap {
                    let u = (s - inhale - gap) / exhale
                    let shape = Float(min(1, u * 8) * (1 - u))
                    base[start + k] += amplitude * 0.6 * shape * low * 3
                }
            }
            t += period
        }
    }

    /// One-second batches of `samples` (16 kHz) starting at `start`, with their front-end features, as the pipeline
    /// makes them.
    static func batches(_ samples: [Float], start: Date) throws -> [AudioBatch] {
        let rate = AudioBatch.sampleRate
        let frontEnd = try FrontEnd()
        return stride(from: 0, to: samples.count, by: rate).map { offset in
            let batch = Array(samples[offset..<min(samples.count, offset + rate)])
            return AudioBatch(
                firstSampleIndex: Int64(offset), startTime: start.addingTimeInterval(Double(offset) / Double(rate)),
                samples: batch, features: frontEnd.process(batch))
        }
    }

    /// Accelerometer readings of a phone on a mattress at `hz`: gravity on z, chest motion at `bpm` of
    /// `amplitudeG`, sensor noise, and a movement burst from `movementAt` for 4 s if given.
    mutating func accelerometer(
        seconds: Double, bpm: Double, amplitudeG: Double, hz: Double = 20, start: Date,
        movementAt: Double? = nil
    ) -> [AccelerometerSample] {
        (0..<Int(seconds * hz)).map { i in
            let t = Double(i) / hz
            let breath = amplitudeG * sin(2 * Double.pi * bpm / 60 * t)
            var x = 0.02 + 0.3 * breath + 0.0004 * Double(uniform())
            var y = -0.03 + 0.4 * breath + 0.0004 * Double(uniform())
            var z = 1.0 + 0.85 * breath + 0.0004 * Double(uniform())
            if let movementAt, t >= movementAt, t < movementAt + 4 {
                x += 0.08 * Double(uniform())
                y += 0.08 * Double(uniform())
                z += 0.08 * Double(uniform())
            }
            if let movementAt, t >= movementAt + 4 { x += 0.01 }
            return AccelerometerSample(timestamp: start.addingTimeInterval(t), x: x, y: y, z: z)
        }
    }
}
