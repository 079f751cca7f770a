import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

final class SDKLifecycleTests: SDKTestCase {
    func test_startAnalysis_throws_notInitialized_before_initialize() async throws {
        do {
            try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig())
            XCTFail("expected notInitialized")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .notInitialized)
        }
    }

    func test_initialize_returns_licensed_features_and_isFeatureEnabled_reflects_them() async throws {
        let features = try await initializeSDK(features: SleepAnalysisFeatures(multiChannelAnalysis: true))
        XCTAssertTrue(features.multiChannelAnalysis)
        XCTAssertTrue(SleepCycleSdk.isFeatureEnabled(\.multiChannelAnalysis))
        XCTAssertFalse(SleepCycleSdk.isFeatureEnabled(\.audioEvents))
        await SleepCycleSdk.deinitialize()
        XCTAssertFalse(SleepCycleSdk.isFeatureEnabled(\.multiChannelAnalysis))
    }

    func test_initialize_rejects_a_key_from_an_untrusted_issuer() async throws {
        let licence = try TestLicenses.make(features: .none)
        do {
            try await SleepCycleSdk.initialize(apiKey: licence.apiKey, storageDirectory: storage.url)
            XCTFail("expected invalidApiKey")
        } catch let error as SleepCycleSdkError {
            guard case .invalidApiKey = error else { return XCTFail("got \(error)") }
        }
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .uninitialized)
    }

    func test_stateStream_reports_initialized_running_initialized() async throws {
        let stream = await SleepCycleSdk.stateStream
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first, .uninitialized)
        try await initializeSDK(features: .none)
        let audio = try writeNoiseFile(seconds: 3, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source)
        await source.waitUntilFinished()
        _ = try await SleepCycleSdk.stopAnalysis()
        var seen: [SleepCycleSdkState] = []
        for _ in 0..<3 { if let state = await iterator.next() { seen.append(state) } }
        XCTAssertEqual(seen, [.initialized, .running, .initialized])
    }

    func test_startAnalysis_twice_throws_analysisAlreadyRunning() async throws {
        try await initializeSDK(features: .none)
        let audio = try writeNoiseFile(seconds: 2, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, pace: .realTime)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source)
        do {
            try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source)
            XCTFail("expected analysisAlreadyRunning")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .analysisAlreadyRunning)
        }
        _ = try await SleepCycleSdk.stopAnalysis()
    }

    func test_stopAnalysis_without_a_session_throws_analysisNotActive() async throws {
        try await initializeSDK(features: .none)
        do {
            _ = try await SleepCycleSdk.stopAnalysis()
            XCTFail("expected analysisNotActive")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .analysisNotActive)
        }
    }

    func test_smartAlarm_without_the_feature_throws_featureNotEnabled() async throws {
        try await initializeSDK(features: .none)
        let audio = try writeNoiseFile(seconds: 2, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil)
        let window = DateInterval(start: Date(), duration: 600)
        do {
            try await SleepCycleSdk.startAnalysis(
                config: SleepAnalysisConfig(), using: source, smartAlarmConfig: SmartAlarmConfig(wakeupWindow: window))
            XCTFail("expected featureNotEnabled")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .featureNotEnabled("smartAlarm"))
        }
    }

    func test_session_without_sensors_is_an_invalid_configuration() async throws {
        try await initializeSDK(features: .none)
        let audio = try writeNoiseFile(seconds: 1, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil)
        do {
            try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: false), using: source)
            XCTFail("expected invalidConfiguration")
        } catch let error as SleepCycleSdkError {
            guard case .invalidConfiguration = error else { return XCTFail("got \(error)") }
        }
    }

    func test_missing_audio_file_fails_at_start_with_invalidInput() async throws {
        try await initializeSDK(features: .none)
        let source = SleepCycleSdk.createFileDataSource(
            audio: storage.url.appendingPathComponent("absent.wav"), accelerometer: nil)
        do {
            try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source)
            XCTFail("expected invalidInput")
        } catch let error as SleepCycleSdkError {
            guard case .invalidInput = error else { return XCTFail("got \(error)") }
        }
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .initialized)
    }
}
