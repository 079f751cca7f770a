import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Replays: the pace changes only the waiting, never the result; clips come from events; the smart-alarm calls'
/// rules hold.
final class SDKReplayTests: SDKTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func analyse(
        _ audio: URL, pace: ReplayPace, listeners: [any AudioEventListener & Sendable] = []
    ) async throws
        -> AnalysisResult
    {
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start, pace: pace)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source, eventListeners: listeners)
        await source.waitUntilFinished()
        return try await SleepCycleSdk.stopAnalysis()
    }

    private func withoutSession(_ result: AnalysisResult) throws -> Data {
        var copy = result
        copy.sessionId = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        copy.events = copy.events.map {
            var e = $0; e.sessionId = copy.sessionId; return e
        }
        copy.breathingRates = copy.breathingRates.map {
            var r = $0; r.sessionId = copy.sessionId; return r
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(copy)
    }

    func test_replay_gives_identical_results_at_every_pace() async throws {
        try await initializeSDK(features: SleepAnalysisFeatures(sleepStaging: true, realTimeSleepStaging: true))
        let audio = try writeNoiseFile(seconds: 65, sampleRate: 44_100)
        let fast = try await analyse(audio, pace: .asFastAsPossible)
        let paced = try await analyse(audio, pace: .speed(200))
        XCTAssertEqual(fast.sleepStagePredictions.count, 2)
        XCTAssertEqual(try withoutSession(fast), try withoutSession(paced))
    }

    func test_stopAnalysis_at_a_time_returns_the_night_until_then() async throws {
        try await initializeSDK(features: SleepAnalysisFeatures(sleepStaging: true))
        let audio = try writeNoiseFile(seconds: 95, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source)
        await source.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis(at: start.addingTimeInterval(60))
        XCTAssertEqual(result.endTime, start.addingTimeInterval(60))
        XCTAssertEqual(result.sleepStagePredictions.count, 2)
        XCTAssertTrue(result.sleepStagePredictions.allSatisfy { $0.interval.end <= result.endTime })
    }

    func test_smartAlarmStream_opened_after_start_begins_with_armed() async throws {
        try await initializeSDK(features: SleepAnalysisFeatures(sleepStaging: true, smartAlarm: true))
        let audio = try writeNoiseFile(seconds: 3, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(
            audio: audio, accelerometer: nil, startTime: start, pace: .realTime)
        let window = DateInterval(start: start.addingTimeInterval(3600), duration: 600)
        try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(), using: source, smartAlarmConfig: SmartAlarmConfig(wakeupWindow: window))
        var late = await SleepCycleSdk.smartAlarmStream.makeAsyncIterator()
        let first = await late.next()
        XCTAssertEqual(first?.type, .armed)
        _ = try await SleepCycleSdk.stopAnalysis()
    }

    func test_updateSmartAlarm_without_a_session_throws_analysisNotActive() async throws {
        try await initializeSDK(features: .all)
        do {
            try await SleepCycleSdk.updateSmartAlarm(config: nil)
            XCTFail("expected analysisNotActive")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .analysisNotActive)
        }
    }

    func test_smartAlarm_with_a_past_window_fires_windowEnd_and_reaches_the_stream() async throws {
        try await initializeSDK(features: SleepAnalysisFeatures(sleepStaging: true, smartAlarm: true))
        let alarms = await SleepCycleSdk.smartAlarmStream
        let audio = try writeNoiseFile(seconds: 40, sampleRate: 16_000)
        let window = DateInterval(start: start.addingTimeInterval(5), duration: 10)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(), using: source, smartAlarmConfig: SmartAlarmConfig(wakeupWindow: window))
        await source.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()
        var iterator = alarms.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        XCTAssertEqual(first?.type, .armed)
        XCTAssertEqual(second?.type, .triggered(reason: .windowEnd))
        XCTAssertEqual(second?.timestamp ?? .distantPast, window.end, accuracy: 1.01)
        XCTAssertEqual(result.smartAlarmEvents.map(\.type), [.armed, .triggered(reason: .windowEnd)])
    }
}

private func XCTAssertEqual(
    _ date: Date, _ other: Date, accuracy: TimeInterval, file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertEqual(date.timeIntervalSince1970, other.timeIntervalSince1970, accuracy: accuracy, file: file, line: line)
}
