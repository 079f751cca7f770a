import Foundation
import XCTest

@testable import SleepAnalysis

/// Two sleepers: a clipped microphone is reported to the sleeper whose channel clipped, not to the other one.
final class ClippedStereoCommandTests: XCTestCase {
    func test_only_the_clipped_channels_sleeper_gets_the_clipping_warning() throws {
        // Given: two minutes of stereo room tone in which the left channel clips in a loud tone every 20 s.
        let directory = try makeTemporaryDirectory(self)
        let url = directory.appendingPathComponent("left-clips.wav")
        var generator = SplitMix64(seed: 31)
        var samples: [Float] = []
        for index in 0..<(16_000 * 120) {
            let noise = { Float(Double(generator.next() % 2_001) / 100_000 - 0.01) }
            let burst = index % (16_000 * 20) < 8_000 ? 1.5 * sinf(2 * .pi * 300 * Float(index) / 16_000) : 0
            samples += [min(1, max(-1, noise() + burst)), noise()]
        }
        let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: 2, format: .wav16)
        try writer.write(samples)
        try writer.close()

        // When
        let run = try runCommandLineTool(
            [
                "analyze", url.path, "--stereo", "--no-store", "--quiet", "--format", "json", "--storage",
                directory.appendingPathComponent("state").path,
            ], timeout: 60)

        // Then
        XCTAssertEqual(run.status, 0, run.standardError)
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(document["schemaVersion"] as? Int, SleepAnalysisJSON.schemaVersion)
        let results = try XCTUnwrap(document["channels"] as? [String: [String: Any]])
        let kinds = { (sleeper: String) in
            ((results[sleeper]?["warnings"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String }
        }
        XCTAssertEqual(kinds("primary"), ["clippedAudio"])
        XCTAssertEqual(kinds("secondary"), [])
        let message = (results["primary"]?["warnings"] as? [[String: Any]])?.first?["message"] as? String
        XCTAssertTrue(message?.contains("of channel 1") ?? false, message ?? "no message")
        XCTAssertEqual(try JSONSchemaValidator.errors(in: run.standardOutput, schema: "channel-results"), [])
    }
}
