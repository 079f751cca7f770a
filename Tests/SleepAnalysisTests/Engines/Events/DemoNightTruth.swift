import Foundation
import TestSupport

@testable import SleepAnalysisEvaluation

/// The bundled demo night (`Fixtures/night_short.ogg`) and its labelled events (`Fixtures/night_short_truth.json`).
struct DemoNightTruth: Decodable {
    /// One labelled event: its type name and its span in seconds from the start of the night.
    struct Event: Decodable {
        var type: String
        var start_s: Double
        var end_s: Double
    }

    var events: [Event]

    /// The truth file.
    static func load() throws -> DemoNightTruth {
        let url = FixturePaths.fixtures.appendingPathComponent("night_short_truth.json")
        return try JSONDecoder().decode(DemoNightTruth.self, from: Data(contentsOf: url))
    }

    /// The night's samples (16 kHz mono).
    static func samples() throws -> [Float] {
        try EventClipAudio.load(FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
    }
}
