import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// A resumed two-sleeper night separates its sleepers with the configuration it started with.
final class StereoResumeTests: SDKTestCase {
    func test_resumed_two_sleeper_sessions_keep_their_channel_separation() async throws {
        let licence = try TestLicenses.make(features: SleepAnalysisFeatures(multiChannelAnalysis: true))
        func initialize() async throws {
            try await SleepCycleSdk.initialize(
                logLevel: .warning, apiKey: licence.apiKey, storageDirectory: storage.url,
                trustedIssuerKeys: [licence.trustedKey])
        }
        try await initialize()
        let audio = try writeNoiseFile(seconds: 4, sampleRate: 16_000, channels: 2)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var separation = ChannelSeparationConfig.centeredMicArray
        separation.ambiguityZone = 0.33
        // Given a two-sleeper night left unfinished
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        try await SleepCycleSdk.startDataSource(using: source, channelSeparationConfig: separation)
        let primary = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary, config: SleepAnalysisConfig(useAudio: true))
        await source.waitUntilFinished()
        await SleepCycleSdk.deinitialize()

        // When the host comes back and resumes it
        try await initialize()
        let again = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        let resumed = try await SleepCycleSdk.resumeAnalysis(using: again)

        // Then the session continues with the separation it started with
        XCTAssertEqual(resumed.map(\.sessionId), [primary])
        let inForce = await SleepCycleSdk.analyzer.channelSeparation
        XCTAssertEqual(inForce, separation)
        await again.waitUntilFinished()
        _ = try await SleepCycleSdk.stopAnalysis(sessionId: primary)
        await SleepCycleSdk.stopDataSource()
    }
}
