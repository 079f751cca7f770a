import Foundation
import SleepAnalysisEvaluation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Every staging mode, real time and whole night, keeps to the sleep architecture of the Sleep-EDF nights (the
/// ranges `Tools/staging/architecture.py` measured, carried by the bundled prior). The inputs are real: the first three
/// Walch nights by subject number (wrist activity counts, heart rate), with the inputs a mode lacks removed; the sound modes hear
/// the night's movement as movement sounds (its activity counts, rounded, stand in for the count of movement
/// sounds), the time-only mode has no input at all.
final class SleepArchitectureTests: XCTestCase {
    private static let subjects = ["1360686", "1449548", "1455390"]

    private struct Architecture {
        var firstDeepMinutes: Double?
        var firstRemMinutes: Double?
        var deepShare: Double
        var remShare: Double
    }

    private func nights() throws -> [WalchNight] {
        let override = ProcessInfo.processInfo.environment["SLEEPANALYSIS_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
        guard let shared = FixturePaths.sharedData ?? override else {
            throw XCTSkip("needs ../shared/data (walch staging data)")
        }
        let root = shared.appendingPathComponent("staging/walch")
        guard FileManager.default.fileExists(atPath: root.path) else {
            throw XCTSkip("needs ../shared/data/staging/walch")
        }
        return try Self.subjects.map { try WalchNight(subjectId: $0, root: root) }
    }

    /// The night's epochs with only the inputs of `mode`.
    private func epochs(of night: WalchNight, as mode: StagingBasis.Mode) -> [EpochFeatures] {
        night.epochs.map { epoch in
            let sounds = epoch.activityCount.map { Int(max($0, 0).rounded()) }
            let heartRate =
                [.activityAndHeartRate, .heartRate, .soundAndHeartRate].contains(mode) ? epoch.heartRate : nil
            let activity = [.activityAndHeartRate, .activity].contains(mode) ? epoch.activityCount : nil
            let audio =
                [.soundAndHeartRate, .soundOnly].contains(mode)
                ? AudioEpochCues(snoringFraction: 0, movementSoundCount: sounds ?? 0, meanDbA: 30) : nil
            return EpochFeatures(start: epoch.start, activityCount: activity, heartRate: heartRate, audio: audio)
        }
    }

    private func architecture(_ stages: [SleepStage]) -> Architecture? {
        guard let onset = stages.firstIndex(where: { $0 != .awake }) else { return nil }
        let sleep = stages.filter { $0 != .awake }
        func minutes(to stage: SleepStage) -> Double? {
            stages[onset...].firstIndex(of: stage).map { Double($0 - onset) / 2 }
        }
        return Architecture(
            firstDeepMinutes: minutes(to: .deep), firstRemMinutes: minutes(to: .rem),
            deepShare: Double(sleep.filter { $0 == .deep }.count) / Double(sleep.count),
            remShare: Double(sleep.filter { $0 == .rem }.count) / Double(sleep.count))
    }

    private func check(_ mode: StagingBasis.Mode) throws {
        let model = try StagingModel.bundled()
        let population = try XCTUnwrap(model.architecture.population["sleepEDF"])
        for night in try nights() {
            var stager = SleepStager(model: model, sessionStart: night.sessionStart)
            epochs(of: night, as: mode).forEach { stager.addEpoch($0) }
            XCTAssertEqual(stager.basis, mode)
            for (context, predictions) in [
                ("real time", stager.realTimePredictions), ("whole night", stager.wholeNight()),
            ] {
                let stages = predictions.map(\.stage)
                let measured = try XCTUnwrap(architecture(stages), "\(night.subjectId) \(mode.rawValue): no sleep")
                let label = "\(night.subjectId) \(mode.rawValue), \(context): \(measured)"

                if let deep = measured.firstDeepMinutes {
                    XCTAssertGreaterThanOrEqual(deep, population.firstDeepMinutes.p05, "\(label): first deep sleep")
                }
                if let rem = measured.firstRemMinutes {
                    XCTAssertGreaterThanOrEqual(rem, population.firstRemMinutes.p05, "\(label): first REM")
                }
                XCTAssertLessThanOrEqual(measured.deepShare, population.deepShare.max, "\(label): deep share")
                XCTAssertLessThanOrEqual(measured.remShare, population.remShare.max, "\(label): REM share")
            }
        }
    }

    func test_activity_and_heart_rate() throws { try check(.activityAndHeartRate) }
    func test_activity() throws { try check(.activity) }
    func test_heart_rate() throws { try check(.heartRate) }
    func test_sound_and_heart_rate() throws { try check(.soundAndHeartRate) }
    func test_sound_only() throws { try check(.soundOnly) }
    func test_time_only() throws { try check(.timeOnly) }
}
