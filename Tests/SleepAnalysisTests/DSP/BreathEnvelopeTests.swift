import XCTest

@testable import SleepAnalysis

/// `BreathEnvelope` (the C core's band filters, run side by side in vector lanes) against a plain double-precision
/// cascade of the same Butterworth sections, written out here one band and one sample at a time.
final class BreathEnvelopeTests: XCTestCase {
    /// Band edges of the envelope (Hz), as the header documents them.
    private static let bandEdges: [Double] = [150, 300, 600, 1_200, 2_400, 4_800, 7_000]

    /// One RBJ Butterworth section, transposed direct form II.
    private struct Section {
        var b0 = 0.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0, z1 = 0.0, z2 = 0.0

        init(sampleRate: Double, cutoff: Double, highPass: Bool) {
            let w0 = 2 * Double.pi * cutoff / sampleRate
            let alpha = sin(w0) / (2 * 0.5.squareRoot())
            let c = cos(w0)
            let a0 = 1 + alpha
            b0 = (highPass ? (1 + c) : (1 - c)) / 2 / a0
            b1 = (highPass ? -(1 + c) : (1 - c)) / a0
            b2 = b0
            a1 = -2 * c / a0
            a2 = (1 - alpha) / a0
        }

        mutating func run(_ x: Double) -> Double {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }
    }

    /// Log mean-square band energies per frame, band by band and sample by sample.
    private static func reference(_ samples: [Float], sampleRate: Double, hop: Int) -> [Float] {
        var sections: [(Section, Section)] = []
        for band in 0..<(bandEdges.count - 1) {
            let low = bandEdges[band]
            let high = min(bandEdges[band + 1], 0.45 * sampleRate)
            if high < 1.5 * low { break }
            sections.append(
                (
                    Section(sampleRate: sampleRate, cutoff: low, highPass: true),
                    Section(sampleRate: sampleRate, cutoff: high, highPass: false)
                ))
        }
        var frames: [Float] = []
        var energy = [Double](repeating: 0, count: sections.count)
        for (index, sample) in samples.enumerated() {
            for band in sections.indices {
                let y = sections[band].1.run(sections[band].0.run(Double(sample)))
                energy[band] += y * y
            }
            if (index + 1) % hop == 0 {
                frames += energy.map { Float(log($0 / Double(hop) + 1e-12)) }
                energy = energy.map { _ in 0 }
            }
        }
        return frames
    }

    /// Breath-like noise bursts at 0.25 Hz over a quiet floor, deterministic.
    private static func breathingNoise(seconds: Double, sampleRate: Double) -> [Float] {
        var generator = SplitMix64(seed: 7)
        return (0..<Int(seconds * sampleRate)).map { index in
            let time = Double(index) / sampleRate
            let gain = 0.002 + 0.05 * max(0, sin(2 * Double.pi * 0.25 * time))
            return Float(gain * (Double(generator.next() % 2_001) / 1_000 - 1))
        }
    }

    func testMatchesPlainCascadeAtEveryRateAndChunking() throws {
        for sampleRate in [8_000.0, 16_000.0, 44_100.0] {
            let samples = Self.breathingNoise(seconds: 6, sampleRate: sampleRate)
            let envelope = try BreathEnvelope(sampleRate: sampleRate, frameSeconds: 0.1)
            var frames: [Float] = []
            var start = 0
            var chunk = 1
            while start < samples.count {  // odd chunk sizes: frames must not depend on how audio arrives
                let end = min(samples.count, start + chunk)
                frames += envelope.process(Array(samples[start..<end]))
                start = end
                chunk = chunk * 3 % 2_903 + 1
            }
            let expected = Self.reference(samples, sampleRate: sampleRate, hop: envelope.hop)
            XCTAssertEqual(envelope.bandCount, 5, "bands at \(sampleRate) Hz")
            XCTAssertEqual(frames.count, expected.count, "frames at \(sampleRate) Hz")
            let worst = zip(frames, expected).map { abs($0 - $1) }.max() ?? .infinity
            XCTAssertLessThan(worst, 1e-4, "largest log-energy difference at \(sampleRate) Hz")
        }
    }

    func testResetForgetsFilterState() throws {
        let samples = Self.breathingNoise(seconds: 2, sampleRate: 16_000)
        let envelope = try BreathEnvelope(sampleRate: 16_000, frameSeconds: 0.1)
        let first = envelope.process(samples)
        _ = envelope.process(Array(samples[0..<777]))
        envelope.reset()
        XCTAssertEqual(envelope.process(samples), first)
    }
}
