import SleepAnalysisEvaluation
import XCTest

@testable import SleepAnalysis

final class EventClipEvaluatorTests: XCTestCase {
    func test_report_scoresPrecisionRecallAndConfusion() {
        let pairs: [(truth: EventType?, predicted: EventType?)] = [
            (.snoring, .snoring), (.snoring, .snoring), (.snoring, nil), (nil, .snoring), (.coughing, .coughing),
            (nil, nil),
        ]
        let report = EventClipReport.score(pairs)
        XCTAssertEqual(report.classes["snoring"]?.precision ?? 0, 2.0 / 3.0, accuracy: 1e-9)
        XCTAssertEqual(report.classes["snoring"]?.recall ?? 0, 2.0 / 3.0, accuracy: 1e-9)
        XCTAssertEqual(report.classes["coughing"]?.f1 ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(report.macroF1, (2.0 / 3.0 + 1) / 2, accuracy: 1e-9)
        XCTAssertEqual(report.confusion["none"]?["snoring"], 1)
        XCTAssertEqual(report.confusion["snoring"]?["none"], 1)
        XCTAssertNil(report.classes["none"])
    }

    func test_evaluate_tinyManifest_givesJSONWithEveryPresentType() throws {
        // Given a manifest with two room-tone negatives and, when the shared data is there, a snoring clip.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("events-eval-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        var lines = ["class\tfile\tgroup"]
        try EventTestSignals.writeWav(
            EventTestSignals.roomTone(seconds: 3, level: -60),
            to: root.appendingPathComponent("a.wav"))
        try EventTestSignals.writeWav(
            EventTestSignals.fanNoise(seconds: 2, level: -50),
            to: root.appendingPathComponent("b.wav"))
        lines += ["other\ta.wav\tg1", "breathing\tb.wav\tg2"]
        if let snore = try EventTestSignals.sharedClip("snoring/esc50_snoring_4-180337-A-28.flac") {
            try EventTestSignals.writeWav(snore, to: root.appendingPathComponent("s.wav"))
            lines.append("snoring\ts.wav\tg3")
        }
        let manifestURL = root.appendingPathComponent("MANIFEST.tsv")
        try (lines.joined(separator: "\n") + "\n").write(to: manifestURL, atomically: true, encoding: .utf8)
        // When it is evaluated with the shipped model.
        let manifest = try EventClipManifest(manifest: manifestURL, root: root)
        let report = try EventClipEvaluator(model: try EventClassifierModel.bundled()).evaluate(manifest)
        // Then the negatives are "none", and the JSON has the documented keys.
        XCTAssertEqual(report.confusion["none"]?["none"], 2)
        XCTAssertEqual(report.clips, lines.count - 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: try encoder.encode(report)) as? [String: Any])
        XCTAssertNotNil(json["macroF1"])
        XCTAssertNotNil(json["classes"])
        XCTAssertNotNil(json["confusion"])
        if lines.count == 4 {
            XCTAssertEqual(report.classes["snoring"]?.recall, 1)
        }
    }

    func test_manifest_rejectsHeaderWithoutClassOrFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).tsv")
        try "label\tpath\nsnoring\tx.wav\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try EventClipManifest(manifest: url, root: url.deletingLastPathComponent())) { error in
            guard case SleepCycleSdkError.invalidInput = error else { return XCTFail("got \(error)") }
        }
    }
}
