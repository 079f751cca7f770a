import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Breathing rate on the generated fixtures (Tools/fixtures/make_fixtures.py), through the file analysis path.
final class BreathingFixtureTests: XCTestCase {
    private let origin = Date(timeIntervalSince1970: 0)

    private func fixture(_ name: String) -> URL { FixturePaths.fixtures.appendingPathComponent(name) }

    /// The truth file's per-window rates, by window end (seconds).
    private func truthWindows(_ name: String) throws -> [Int: Double] {
        struct Truth: Decodable {
            struct Window: Decodable {
                var end_s: Double
                var bpm: Double
            }
            struct Breathing: Decodable { var windows: [Window] }
            var windows: [Window]?
            var breathing: Breathing?
        }
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: fixture(name)))
        let windows = truth.windows ?? truth.breathing?.windows ?? []
        return Dictionary(uniqueKeysWithValues: windows.map { (Int($0.end_s.rounded()), $0.bpm) })
    }

    func test_breathingAnalysis_within1bpm_on_the_15bpm_clip_from_audio_accelerometer_and_both() throws {
        let audio = fixture("clip_breathing_15bpm.ogg")
        let motion = fixture("clip_breathing_15bpm_accelerometer.csv")
        let truth = try truthWindows("clip_breathing_15bpm_truth.json")
        for (audioURL, motionURL) in [(audio, nil), (nil, motion), (audio, motion)] as [(URL?, URL?)] {
            let rates = try BreathingAnalysis.analyze(audio: audioURL, accelerometer: motionURL, startTime: origin)
            XCTAssertFalse(rates.isEmpty)
            for rate in rates {
                let end = Int(rate.timestamp.timeIntervalSince(origin).rounded())
                XCTAssertEqual(rate.bpm, truth[end] ?? 15, accuracy: 1, "window ending at \(end) s")
            }
        }
    }

    func test_breathingAnalysis_tracks_the_demo_night_with_median_error_under_1bpm() throws {
        let truth = try truthWindows("night_short_truth.json")
        let rates = try BreathingAnalysis.analyze(
            audio: fixture("night_short.ogg"), accelerometer: fixture("night_short_accelerometer.csv"),
            startTime: origin)
        let errors = rates.compactMap { rate -> Double? in
            truth[Int(rate.timestamp.timeIntervalSince(origin).rounded())].map { abs($0 - rate.bpm) }
        }.sorted()
        // One estimate per 30 s from the first minute on: 59 windows in 30 minutes
        XCTAssertGreaterThanOrEqual(errors.count, 50)
        XCTAssertLessThanOrEqual(errors[errors.count / 2], 1)
        XCTAssertGreaterThanOrEqual(Double(errors.filter { $0 <= 1.5 }.count) / Double(errors.count), 0.8)
    }

    func test_breathingAnalysis_throws_invalidInput_without_files_or_for_a_missing_file() {
        XCTAssertThrowsError(try BreathingAnalysis.analyze(audio: nil)) { error in
            guard case SleepCycleSdkError.invalidInput = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try BreathingAnalysis.analyze(audio: fixture("no_such_file.flac"))) { error in
            guard case SleepCycleSdkError.invalidInput = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(
            try BreathingAnalysis.analyze(
                audio: fixture("clip_dead_mic.flac"), options: BreathingAnalysisOptions(windowSeconds: 5))
        ) { error in
            guard case SleepCycleSdkError.invalidConfiguration = error else { return XCTFail("\(error)") }
        }
    }
}
