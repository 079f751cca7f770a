import XCTest

@testable import SleepAnalysis

/// `BreathEnvelope` (the C core reading the band energies from the front end's log-mel frames) against a plain
/// double-precision reference written out here from the definitions, and against what the bands' filters pass
/// when run over the samples one by one.
final class BreathEnvelopeTests: XCTestCase {
    /// Band edges of the envelope (Hz), as the header documents them; 5 bands at 16 kHz.
    private static let bandEdges: [Double] = [150, 300, 600, 1_200, 2_400, 4_800]
    private static let frontEnd = FrontEndConfiguration.standard

    /// One RBJ Butterworth section (Q = 1/√2): its gain and, run in transposed direct form II, its output.
    private struct Section {
        var b0 = 0.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0, z1 = 0.0, z2 = 0.0

        init(cutoff: Double, highPass: Bool) {
            let w0 = 2 * Double.pi * cutoff / frontEnd.sampleRate
            let alpha = sin(w0) / (2 * 0.5.squareRoot())
            let c = cos(w0)
            let a0 = 1 + alpha
            b0 = (highPass ? (1 + c) : (1 - c)) / 2 / a0
            b1 = (highPass ? -(1 + c) : (1 - c)) / a0
            b2 = b0
            a1 = -2 * c / a0
            a2 = (1 - alpha) / a0
        }

        /// |H(f)|².
        func gain(at frequency: Double) -> Double {
            let w = 2 * Double.pi * frequency / frontEnd.sampleRate
            let numerator = (b0 + b1 * cos(w) + b2 * cos(2 * w), -(b1 * sin(w) + b2 * sin(2 * w)))
            let denominator = (1 + a1 * cos(w) + a2 * cos(2 * w), -(a1 * sin(w) + a2 * sin(2 * w)))
            return (numerator.0 * numerator.0 + numerator.1 * numerator.1)
                / (denominator.0 * denominator.0 + denominator.1 * denominator.1)
        }

        mutating func run(_ x: Double) -> Double {
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            return y
        }
    }

    private static func sections() -> [(Section, Section)] {
        (0..<(bandEdges.count - 1)).map {
            (Section(cutoff: bandEdges[$0], highPass: true), Section(cutoff: bandEdges[$0 + 1], highPass: false))
        }
    }

    /// Slaney's mel scale (linear below 1 kHz), as `FrontEndConfiguration` documents it.
    private static func mel(_ hz: Double) -> Double {
        hz < 1_000 ? hz * 3 / 200 : 15 + 27 * log(hz / 1_000) / log(6.4)
    }

    private static func hertz(_ mel: Double) -> Double {
        mel < 15 ? mel * 200 / 3 : 1_000 * exp((mel - 15) * log(6.4) / 27)
    }

    /// Log mean-square band energies per 100-ms frame from the front end's frames: each mel band's energy weighted
    /// by the band's |H|² at the mel peak and the mel band's half-width, scaled by Parseval's 2 / (N × Σ w²).
    private static func reference(_ block: FeatureBlock) -> [Float] {
        let bands = block.melBandCount
        let low = mel(frontEnd.melLowHz), high = mel(frontEnd.melHighHz)
        let points = (0..<(bands + 2)).map { hertz(low + (high - low) * Double($0) / Double(bands + 1)) }
        let n = Double(frontEnd.fftSize)
        let windowEnergy = (0..<frontEnd.fftSize).reduce(0.0) { sum, i in
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / n)
            return sum + w * w
        }
        let weights = sections().map { pair in
            (0..<bands).map { m in
                pair.0.gain(at: points[m + 1]) * pair.1.gain(at: points[m + 1]) * (points[m + 2] - points[m]) / 2
                    * 2 / (n * windowEnergy)
            }
        }
        var frames: [Float] = []
        for group in 0..<(block.frameCount / 10) {
            var energy = [Double](repeating: 0, count: bands)
            for frame in (group * 10)..<(group * 10 + 10) {
                for m in 0..<bands {
                    energy[m] += exp(Double(block.logMel[frame * bands + m])) - Double(frontEnd.logFloor)
                }
            }
            for w in weights {
                let sum = zip(w, energy).reduce(0.0) { $0 + $1.0 * max(0, $1.1) }
                frames.append(Float(log(sum / 10 + 1e-12)))
            }
        }
        return frames
    }

    /// Log mean-square band energies per 100-ms frame of the samples run through each band's two sections.
    private static func filtered(_ samples: [Float]) -> [Float] {
        var pairs = sections()
        var frames: [Float] = []
        var energy = [Double](repeating: 0, count: pairs.count)
        for (index, sample) in samples.enumerated() {
            for band in pairs.indices {
                let y = pairs[band].1.run(pairs[band].0.run(Double(sample)))
                energy[band] += y * y
            }
            if (index + 1) % 1_600 == 0 {
                frames += energy.map { Float(log($0 / 1_600 + 1e-12)) }
                energy = energy.map { _ in 0 }
            }
        }
        return frames
    }

    /// Breath-like noise bursts at 0.25 Hz over a quiet floor, deterministic.
    private static func breathingNoise(seconds: Double) -> [Float] {
        var generator = SplitMix64(seed: 7)
        return (0..<Int(seconds * frontEnd.sampleRate)).map { index in
            let time = Double(index) / frontEnd.sampleRate
            let gain = 0.002 + 0.05 * max(0, sin(2 * Double.pi * 0.25 * time))
            return Float(gain * (Double(generator.next() % 2_001) / 1_000 - 1))
        }
    }

    /// Feeds `block` in odd-sized pieces: frames must not depend on how the front end's frames arrive.
    private static func envelope(of block: FeatureBlock, in envelope: BreathEnvelope) -> [Float] {
        var frames: [Float] = []
        var start = 0
        var piece = 1
        while start < block.frameCount {
            let end = min(block.frameCount, start + piece)
            frames += envelope.process(block, frames: start..<end)
            start = end
            piece = piece * 7 % 23 + 1
        }
        return frames
    }

    func testMatchesPlainReferenceFromTheMelFramesHoweverTheyArrive() throws {
        let block = try FrontEnd().process(Self.breathingNoise(seconds: 6))
        let envelope = try BreathEnvelope(frontEnd: .standard, frameSeconds: 0.1)
        XCTAssertEqual(envelope.restart(at: block.firstFrameIndex), 0)
        let frames = Self.envelope(of: block, in: envelope)
        let expected = Self.reference(block)
        XCTAssertEqual(envelope.bandCount, 5)
        XCTAssertEqual(frames.count, 60 * 5)
        XCTAssertEqual(frames.count, expected.count)
        let worst = zip(frames, expected).map { abs($0 - $1) }.max() ?? .infinity
        XCTAssertLessThan(worst, 1e-5, "largest log-energy difference")
    }

    func testTracksWhatTheBandFiltersPassOverTheSamples() throws {
        // Breath bursts swing each band's log energy by about 6 (0.002 to 0.052 in amplitude); the envelope's
        // spectra are 32-ms Hann windows ending 10 ms apart, the filters' frames hard-edged 100-ms blocks.
        let samples = Self.breathingNoise(seconds: 8)
        let block = try FrontEnd().process(samples)
        let envelope = try BreathEnvelope(frontEnd: .standard, frameSeconds: 0.1)
        _ = envelope.restart(at: 0)
        let frames = envelope.process(block, frames: 0..<block.frameCount)
        let filtered = Self.filtered(samples)
        XCTAssertEqual(frames.count, filtered.count)
        // The first frame's filters start from rest and its spectra from zeros before the stream: skip it.
        let differences = zip(frames, filtered).dropFirst(5).map { abs($0 - $1) }.sorted()
        XCTAssertLessThan(differences[differences.count / 2], 0.05, "median log-energy difference")
        XCTAssertLessThan(differences.last ?? .infinity, 0.4, "largest log-energy difference")
    }

    func testRestartSkipsToTheNextFrameBoundaryAndForgetsThePartialFrame() throws {
        let block = try FrontEnd().process(Self.breathingNoise(seconds: 3))
        let envelope = try BreathEnvelope(frontEnd: .standard, frameSeconds: 0.1)
        XCTAssertEqual(envelope.restart(at: 0), 0)
        let whole = envelope.process(block, frames: 0..<block.frameCount)
        // A partial frame, then a restart at frame 13: the first frame is the one made of frames 20 to 29.
        _ = envelope.process(block, frames: 0..<7)
        XCTAssertEqual(envelope.restart(at: 13), 20)
        XCTAssertFalse(envelope.continues(block))
        let restarted = envelope.process(block, frames: 13..<block.frameCount)
        XCTAssertEqual(restarted, Array(whole[(2 * 5)...]))
    }

    func testIgnoresFramesWithAnotherNumberOfMelBands() throws {
        let envelope = try BreathEnvelope(frontEnd: .standard, frameSeconds: 0.1)
        _ = envelope.restart(at: 0)
        let narrow = FeatureBlock(
            firstFrameIndex: 0, frameCount: 20, melBandCount: 32, logMel: [Float](repeating: -3, count: 20 * 32),
            dbSpl: [Float](repeating: 40, count: 20), dbfs: [Float](repeating: -60, count: 20))
        XCTAssertEqual(envelope.process(narrow, frames: 0..<20), [])
    }

    func testRejectsAFrameLengthThatIsNotAWholeNumberOfHops() {
        XCTAssertThrowsError(try BreathEnvelope(frontEnd: .standard, frameSeconds: 0.105))
    }
}
