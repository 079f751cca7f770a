import Foundation
import SleepAnalysis

/// A phone lying on the mattress, as `ComposedNightWriter` composes one: gravity on z, 1 mg of sensor noise and
/// 2 mg of breathing motion at 15 breaths a minute, and a 3-second burst of 80 mg noise at each body movement.
enum PhoneOnMattress {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let rate = 10.0

    /// `epochs` 30-second epochs of samples at 10 Hz, with a body movement 10 s into each epoch in `moving`.
    static func samples(epochs: Int, moving: Set<Int>, seed: UInt64 = 1) -> [AccelerometerSample] {
        var random = SplitMix64(seed: seed)
        // Uniform noise in ±√3 g·scale has the standard deviation `scale`.
        let noise = { (scale: Double) in Double(random.nextSigned()) * 3.0.squareRoot() * scale }
        return (0..<Int(Double(epochs) * 30 * rate)).map { index in
            let t = Double(index) / rate
            let epoch = Int(t / 30)
            let offset = t - Double(epoch) * 30
            let burst = moving.contains(epoch) && offset >= 10 && offset < 13
            let spread = burst ? 0.08 : 0.001
            let breath = burst ? 0 : 0.002 * sin(2 * Double.pi * t * 15 / 60)
            return AccelerometerSample(
                timestamp: start.addingTimeInterval(t), x: noise(spread), y: noise(spread),
                z: 1 + breath + noise(spread))
        }
    }

    /// The activity counts of `samples`, one per epoch.
    static func counts(_ samples: [AccelerometerSample]) throws -> [Double] {
        var counter = try ActivityCounter(sessionStart: start, sampleRate: rate)
        counter.add(samples)
        return counter.finish().map(\.activityCount)
    }
}
