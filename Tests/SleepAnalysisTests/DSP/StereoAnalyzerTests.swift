import XCTest

@testable import SleepAnalysis

/// GCC-PHAT time difference and level difference on synthetic delayed pairs.
final class StereoAnalyzerTests: XCTestCase {
    /// A noise burst (0.2 s in 0.5 s of silence) on the primary, and a copy delayed by `delay` samples (negative:
    /// the secondary leads) and attenuated by `attenuationDb` on the secondary.
    static func pair(delay: Int, attenuationDb: Double) -> (primary: [Float], secondary: [Float]) {
        var source = [Float](repeating: 0, count: 8_000)
        let burst = TestSignals.noise(count: 3_200, amplitude: 0.3, seed: 99)
        source.replaceSubrange(2_000..<5_200, with: burst)
        let gain = Float(pow(10, -attenuationDb / 20))
        let delayed = (0..<source.count).map { index -> Float in
            let from = index - delay
            return from >= 0 && from < source.count ? source[from] * gain : 0
        }
        return (source, delayed)
    }

    func test_stereo_recovers_delay_and_level_of_delayed_attenuated_copy() throws {
        for (delay, attenuation) in [(5, 6.0), (-12, 3.0), (0, 0.0), (40, 10.0)] {
            let analyzer = try StereoAnalyzer(sampleRate: 16_000, frameSize: 1_024, hopSize: 160)
            let (primary, secondary) = Self.pair(delay: delay, attenuationDb: attenuation)
            let cues = try analyzer.process(primary: primary, secondary: secondary)
            XCTAssertEqual(cues.count, 50)
            // Frames whose window lies inside the burst (samples 2000+40 ... 5200).
            let inside = cues.filter { cue in
                let end = Int(cue.frameIndex + 1) * 160
                return end - 1_024 >= 2_100 && end <= 5_100
            }
            XCTAssertFalse(inside.isEmpty)
            for cue in inside {
                XCTAssertEqual(cue.delaySeconds * 16_000, Double(delay), accuracy: 0.25, "delay \(delay)")
                XCTAssertEqual(cue.levelDifferenceDb, attenuation, accuracy: 0.5, "level for delay \(delay)")
                XCTAssertGreaterThan(cue.confidence, 0.5)
            }
        }
    }

    func test_stereo_is_chunking_independent_and_silence_has_no_confidence() throws {
        let (primary, secondary) = Self.pair(delay: 7, attenuationDb: 2)
        var interleaved = [Float](repeating: 0, count: 2 * primary.count)
        for index in primary.indices {
            interleaved[2 * index] = primary[index]
            interleaved[2 * index + 1] = secondary[index]
        }
        let whole = try StereoAnalyzer().process(interleaved: interleaved)
        let chunked = try StereoAnalyzer()
        var pieces: [StereoCues] = []
        for start in stride(from: 0, to: interleaved.count, by: 2 * 333) {
            pieces += try chunked.process(interleaved: Array(interleaved[start..<min(interleaved.count, start + 666)]))
        }
        XCTAssertEqual(whole, pieces)
        XCTAssertEqual(whole.first?.confidence, 0)
        XCTAssertEqual(whole.first?.delaySeconds, 0)
    }

    func test_stereoFrontEnd_gives_both_channels_and_cues_on_one_frame_grid() throws {
        let (primary, secondary) = Self.pair(delay: 3, attenuationDb: 6)
        var interleaved = [Float](repeating: 0, count: 2 * primary.count)
        for index in primary.indices {
            interleaved[2 * index] = primary[index]
            interleaved[2 * index + 1] = secondary[index]
        }
        let block = try StereoFrontEnd().process(interleaved: interleaved)
        XCTAssertEqual(block.primary.frameCount, 50)
        XCTAssertEqual(block.secondary.frameCount, 50)
        XCTAssertEqual(block.cues.count, 50)
        // Frame 30 (ends at sample 4800) lies inside the burst: the secondary is 6 dB quieter in both views.
        XCTAssertEqual(Double(block.primary.dbSpl[30] - block.secondary.dbSpl[30]), 6, accuracy: 0.5)
        XCTAssertEqual(block.cues[30].levelDifferenceDb, 6, accuracy: 0.5)
        XCTAssertThrowsError(try StereoFrontEnd().process(interleaved: [0]))
    }

    func test_stereo_rejects_unequal_channels_and_bad_configuration() throws {
        XCTAssertThrowsError(try StereoAnalyzer().process(primary: [0, 1], secondary: [0]))
        XCTAssertThrowsError(try StereoAnalyzer().process(interleaved: [0, 1, 2]))
        XCTAssertThrowsError(try StereoAnalyzer(sampleRate: 0))
        XCTAssertThrowsError(try StereoAnalyzer(frameSize: 2))
    }
}
