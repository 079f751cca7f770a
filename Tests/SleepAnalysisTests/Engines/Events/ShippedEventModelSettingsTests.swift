import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The bundled event models run with the per-type settings their figures were measured with: the on-thresholds
/// and minimum durations in each model file equal the `finalThresholds` and `finalMinDurationSeconds` of
/// `Models/<name>.figures.json`, which `tune_thresholds.py` writes in the same run. A retrain that rewrites one and
/// not the other (the band-limited model's thresholds are tuned on band-limited audio, the full-band model's on clean
/// clips) would ship settings the model card does not describe.
final class ShippedEventModelSettingsTests: XCTestCase {
    private struct TunedSettings: Decodable {
        let finalThresholds: [String: Double]
        let finalMinDurationSeconds: [String: Double]
    }

    private func tunedSettings(_ name: String) throws -> TunedSettings {
        let url = FixturePaths.repositoryRoot.appendingPathComponent("Models/\(name).figures.json")
        return try JSONDecoder().decode(TunedSettings.self, from: try Data(contentsOf: url))
    }

    private func assertModel(
        _ model: EventClassifierModel, carries settings: TunedSettings, _ name: String
    ) {
        XCTAssertEqual(
            Set(settings.finalThresholds.keys), Set(model.onThreshold.keys.map(\.rawValue)), "\(name): types")
        for (type, on) in model.onThreshold {
            let tuned = settings.finalThresholds[type.rawValue]
            XCTAssertEqual(Double(on), tuned ?? -1, accuracy: 1e-6, "\(name): \(type) on-threshold")
            XCTAssertEqual(
                model.minDuration[type] ?? -1, settings.finalMinDurationSeconds[type.rawValue] ?? -2,
                accuracy: 1e-9, "\(name): \(type) minimum duration")
        }
    }

    func test_fullBandModel_runsWithTheSettingsOfItsFigures() throws {
        assertModel(try EventClassifierModel.bundled(), carries: try tunedSettings("events"), "events")
    }

    func test_bandLimitedModel_runsWithTheSettingsTunedOnBandLimitedAudio() throws {
        let model = try EventClassifierModel.bundledBandLimited()
        assertModel(model, carries: try tunedSettings("events-band-limited"), "events-band-limited")
        // Tuned on band-limited audio, its coughing threshold sits below the full-band model's: at 4 kHz a cough
        // lacks the upper band that makes the network confident (Models/events.md, "Band-limited model").
        let full = try EventClassifierModel.bundled()
        XCTAssertLessThan(try XCTUnwrap(model.onThreshold[.coughing]), try XCTUnwrap(full.onThreshold[.coughing]))
    }
}
