import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The two-sleeper life cycle through the public API: data source first, then a session per channel.
final class StereoSessionLifecycleTests: SDKTestCase {
    // No model-backed feature: these tests need no provisioned model.
    private let twoSleepers = SleepAnalysisFeatures(multiChannelAnalysis: true)

    private var filesWritten = 0

    /// A stereo recording in a file of its own (a source may still be reading an earlier one).
    private func stereoSource(seconds: Double = 3, pace: ReplayPace = .asFastAsPossible) throws -> any DataSource {
        filesWritten += 1
        let audio = try writeNoiseFile(
            seconds: seconds, sampleRate: 16_000, channels: 2, name: "stereo-\(filesWritten).wav")
        return SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, pace: pace)
    }

    private func assertThrows(
        _ expected: SleepCycleSdkError, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            XCTFail("expected \(expected)", file: file, line: line)
        } catch let error as SleepCycleSdkError {
            switch (expected, error) {
            case (.invalidConfiguration, .invalidConfiguration): break
            default: XCTAssertEqual(error, expected, file: file, line: line)
            }
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
    }

    func test_startDataSource_throws_notInitialized_beforeInitialize() async throws {
        let source = try stereoSource()
        await assertThrows(.notInitialized) { try await SleepCycleSdk.startDataSource(using: source) }
    }

    func test_startDataSource_throws_featureNotEnabled_withoutMultiChannelAnalysis() async throws {
        try await initializeSDK(features: .none)
        let source = try stereoSource()
        await assertThrows(.featureNotEnabled("multiChannelAnalysis")) {
            try await SleepCycleSdk.startDataSource(using: source)
        }
    }

    func test_startDataSource_rejectsAMonoSource_withInvalidConfiguration() async throws {
        try await initializeSDK(features: twoSleepers)
        let audio = try writeNoiseFile(seconds: 2, sampleRate: 16_000, channels: 1)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil)
        await assertThrows(.invalidConfiguration("")) { try await SleepCycleSdk.startDataSource(using: source) }
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .initialized)
    }

    func test_startDataSource_rejectsABadSeparationConfig_withInvalidConfiguration() async throws {
        try await initializeSDK(features: twoSleepers)
        var config = ChannelSeparationConfig.bedSideMics
        config.ambiguityZone = 2
        let source = try stereoSource()
        await assertThrows(.invalidConfiguration("")) {
            try await SleepCycleSdk.startDataSource(using: source, channelSeparationConfig: config)
        }
    }

    func test_startDataSource_twice_throws_analysisAlreadyRunning() async throws {
        try await initializeSDK(features: twoSleepers)
        try await SleepCycleSdk.startDataSource(using: try stereoSource(pace: .realTime))
        let second = try stereoSource()
        await assertThrows(.analysisAlreadyRunning) { try await SleepCycleSdk.startDataSource(using: second) }
        await SleepCycleSdk.stopDataSource()
    }

    func test_startMultiChannelAnalysis_withoutADataSource_throws_analysisNotActive() async throws {
        try await initializeSDK(features: twoSleepers)
        await assertThrows(.analysisNotActive) {
            try await SleepCycleSdk.startMultiChannelAnalysis(channel: .primary, config: SleepAnalysisConfig())
        }
    }

    func test_startMultiChannelAnalysis_onAOneSleeperSource_throws_analysisNotActive() async throws {
        try await initializeSDK(features: twoSleepers)
        let audio = try writeNoiseFile(seconds: 2, sampleRate: 16_000, channels: 2)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, pace: .realTime)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source)
        await assertThrows(.analysisNotActive) {
            try await SleepCycleSdk.startMultiChannelAnalysis(channel: .secondary, config: SleepAnalysisConfig())
        }
        _ = try await SleepCycleSdk.stopAnalysis()
    }

    func test_startMultiChannelAnalysis_onTheSameChannelTwice_throws_analysisAlreadyRunning() async throws {
        try await initializeSDK(features: twoSleepers)
        try await SleepCycleSdk.startDataSource(using: try stereoSource(pace: .realTime))
        try await SleepCycleSdk.startMultiChannelAnalysis(channel: .secondary, config: SleepAnalysisConfig())
        await assertThrows(.analysisAlreadyRunning) {
            try await SleepCycleSdk.startMultiChannelAnalysis(channel: .secondary, config: SleepAnalysisConfig())
        }
        await SleepCycleSdk.stopDataSource()
    }

    func test_smartAlarm_onTheSecondaryChannel_throws_invalidConfiguration_andLeavesTheChannelFree() async throws {
        try await initializeSDK(features: twoSleepers)
        try await SleepCycleSdk.startDataSource(using: try stereoSource(pace: .realTime))
        let alarm = SmartAlarmConfig(wakeupWindow: DateInterval(start: Date(), duration: 1_800))
        await assertThrows(.invalidConfiguration("")) {
            try await SleepCycleSdk.startMultiChannelAnalysis(
                channel: .secondary, config: SleepAnalysisConfig(), smartAlarmConfig: alarm)
        }
        // On the primary channel an alarm is a matter of the licence, not of the channel.
        await assertThrows(.featureNotEnabled("smartAlarm")) {
            try await SleepCycleSdk.startMultiChannelAnalysis(
                channel: .primary, config: SleepAnalysisConfig(), smartAlarmConfig: alarm)
        }
        let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary, config: SleepAnalysisConfig())
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: SleepAnalysisConfig())
        XCTAssertNotEqual(primary, secondary)
        await SleepCycleSdk.stopDataSource()
    }

    func test_stopAnalysis_perChannel_returnsEachSessionsOwnResult() async throws {
        try await initializeSDK(features: twoSleepers)
        let source = try stereoSource(seconds: 3, pace: .speed(4))
        try await SleepCycleSdk.startDataSource(using: source)
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: SleepAnalysisConfig())
        let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary, config: SleepAnalysisConfig())
        await source.waitUntilFinished()
        let secondaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: secondary)
        let primaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: primary)
        XCTAssertEqual(primaryResult.sessionId, primary)
        XCTAssertEqual(secondaryResult.sessionId, secondary)
        XCTAssertGreaterThan(primaryResult.endTime, primaryResult.startTime)
        XCTAssertGreaterThan(secondaryResult.endTime, secondaryResult.startTime)
        // The source keeps running after its sessions stop, until stopDataSource().
        let running = await SleepCycleSdk.currentState
        XCTAssertEqual(running, .running)
        await SleepCycleSdk.stopDataSource()
        let stopped = await SleepCycleSdk.currentState
        XCTAssertEqual(stopped, .initialized)
        await assertThrows(.analysisNotActive) { _ = try await SleepCycleSdk.stopAnalysis(sessionId: primary) }
    }

    func test_sessionsStartedAfterAReplayBegan_stillCoverTheRecordingFromItsStart() async throws {
        try await initializeSDK(features: twoSleepers)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let audio = try writeNoiseFile(seconds: 3, sampleRate: 16_000, channels: 2, name: "replayed.wav")
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        try await SleepCycleSdk.startDataSource(using: source)
        await source.waitUntilFinished()
        // The whole recording has been analysed before either session starts.
        let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary, config: SleepAnalysisConfig())
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: SleepAnalysisConfig())
        for id in [primary, secondary] {
            let result = try await SleepCycleSdk.stopAnalysis(sessionId: id)
            XCTAssertEqual(result.startTime.timeIntervalSince(start), 0, accuracy: 1e-6)
            XCTAssertEqual(result.endTime.timeIntervalSince(start), 3, accuracy: 0.05)
        }
        await SleepCycleSdk.stopDataSource()
    }

    /// With both sleepers' sessions running nothing is late: the kept start is let go, so a session started again
    /// on a channel begins where the analysis is, not at the recording's start. Here that is the recording's end,
    /// so the session gets no data and its stop says so (`emptyTimeRange`, naming the session's start).
    func test_once_both_channels_have_sessions_a_restarted_session_begins_where_the_analysis_is() async throws {
        try await initializeSDK(features: twoSleepers)
        let start = Date(timeIntervalSince1970: 1_780_200_000)
        let audio = try writeNoiseFile(seconds: 3, sampleRate: 16_000, channels: 2, name: "restarted.wav")
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        try await SleepCycleSdk.startDataSource(using: source)
        await source.waitUntilFinished()
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: SleepAnalysisConfig())
        let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary, config: SleepAnalysisConfig())
        _ = try await SleepCycleSdk.stopAnalysis(sessionId: primary)
        let again = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: SleepAnalysisConfig())
        do {
            let result = try await SleepCycleSdk.stopAnalysis(sessionId: again)
            XCTFail("a session after the recording's end gave a result from \(result.startTime)")
        } catch SleepCycleSdkError.emptyTimeRange(let why) {
            let end = SleepAnalysisJSON.timestamp(start.addingTimeInterval(3)).prefix(19)
            XCTAssertTrue(why.contains(String(end)), why)
        }
        _ = try await SleepCycleSdk.stopAnalysis(sessionId: secondary)
        await SleepCycleSdk.stopDataSource()
    }

    /// Writes 20 s of accelerometer readings at 50 Hz: still, four seconds of vigorous shaking from 8 s, still again.
    private func writeShakenAccelerometer(name: String) throws -> URL {
        var rows = ["timestamp,x,y,z"]
        for index in 0..<(20 * 50) {
            let time = Double(index) / 50
            let shake = time >= 8 && time < 12 ? (index % 2 == 0 ? 1.5 : -1.5) : 0
            rows.append("\(time),\(shake),\(shake / 2),\(1 + shake)")
        }
        let csv = storage.url.appendingPathComponent(name)
        try rows.joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
        return csv
    }

    func test_accelerometerReadings_goToThePrimarySession_only() async throws {
        try await initializeSDK(features: twoSleepers)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let audio = try writeNoiseFile(seconds: 20, sampleRate: 16_000, channels: 2, name: "shaken.wav")
        let csv = try writeShakenAccelerometer(name: "shaken.csv")
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: csv, startTime: start)
        try await SleepCycleSdk.startDataSource(using: source)
        let motionOnly = SleepAnalysisConfig(useAudio: false, useAccelerometer: true)
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(channel: .primary, config: motionOnly)
        let secondary = try await SleepCycleSdk.startMultiChannelAnalysis(channel: .secondary, config: motionOnly)
        await source.waitUntilFinished()
        let primaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: primary)
        XCTAssertFalse(primaryResult.events.filter { $0.source == .accelerometer }.isEmpty)
        // The secondary sleeper's motion-only session gets none of the phone's readings, so no data at all: its
        // stop is an empty time range, not an empty night.
        do {
            let secondaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: secondary)
            XCTAssertTrue(secondaryResult.events.filter { $0.source == .accelerometer }.isEmpty)
            XCTFail("the secondary session got no data and still gave a result")
        } catch SleepCycleSdkError.emptyTimeRange {
        }
        await SleepCycleSdk.stopDataSource()
    }

    /// A primary session started after a short stereo replay has ended still gets the phone's readings from
    /// the recording's start, as it gets the audio (they are kept with the first minute of batches).
    func test_a_late_primary_session_gets_the_kept_accelerometer_readings() async throws {
        try await initializeSDK(features: twoSleepers)
        let start = Date(timeIntervalSince1970: 1_780_100_000)
        let audio = try writeNoiseFile(seconds: 20, sampleRate: 16_000, channels: 2, name: "late.wav")
        let csv = try writeShakenAccelerometer(name: "late.csv")
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: csv, startTime: start)
        try await SleepCycleSdk.startDataSource(using: source)
        await source.waitUntilFinished()
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: SleepAnalysisConfig(useAudio: false, useAccelerometer: true))
        let result = try await SleepCycleSdk.stopAnalysis(sessionId: primary)
        await SleepCycleSdk.stopDataSource()
        XCTAssertFalse(result.events.filter { $0.source == .accelerometer }.isEmpty)
    }

    func test_stopDataSource_withAnActiveSession_discardsIt() async throws {
        try await initializeSDK(features: twoSleepers)
        try await SleepCycleSdk.startDataSource(using: try stereoSource(pace: .realTime))
        let kept = try await SleepCycleSdk.startMultiChannelAnalysis(channel: .primary, config: SleepAnalysisConfig())
        let dropped = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary, config: SleepAnalysisConfig())
        let keptResult = try await SleepCycleSdk.stopAnalysis(sessionId: kept)
        XCTAssertEqual(keptResult.sessionId, kept)
        await SleepCycleSdk.stopDataSource()
        await assertThrows(.analysisNotActive) { _ = try await SleepCycleSdk.stopAnalysis(sessionId: dropped) }
        // The SDK is free again for a new source.
        try await SleepCycleSdk.startDataSource(using: try stereoSource(pace: .realTime))
        await SleepCycleSdk.stopDataSource()
    }

    func test_stopDataSource_withoutASource_doesNothing() async throws {
        try await initializeSDK(features: twoSleepers)
        await SleepCycleSdk.stopDataSource()
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .initialized)
    }
}
