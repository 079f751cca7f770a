import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Base class for tests that use the shared SDK: a storage directory of their own, and the SDK torn down after.
class SDKTestCase: XCTestCase {
    var storage: TemporaryDirectory!

    override func setUp() async throws {
        try await super.setUp()
        await SleepCycleSdk.deinitialize()
        storage = try TemporaryDirectory(prefix: "sdk-test")
    }

    override func tearDown() async throws {
        await SleepCycleSdk.deinitialize()
        storage.remove()
        try await super.tearDown()
    }

    /// Initializes the SDK with a test licence granting `features`.
    @discardableResult
    func initializeSDK(features: SleepAnalysisFeatures) async throws -> SleepAnalysisFeatures {
        let licence = try TestLicenses.make(features: features)
        return try await SleepCycleSdk.initialize(
            logLevel: .warning, apiKey: licence.apiKey, storageDirectory: storage.url,
            trustedIssuerKeys: [licence.trustedKey])
    }

    /// Writes `seconds` of quiet noise with a faint tone to a WAV file at `sampleRate` with `channels` channels.
    func writeNoiseFile(
        seconds: Double, sampleRate: Int, channels: Int = 1, name: String = "night.wav",
        seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    ) throws -> URL {
        let url = storage.url.appendingPathComponent(name)
        let writer = try AudioFileWriter(url: url, sampleRate: sampleRate, channelCount: channels, format: .wav16)
        var state = seed
        let frames = Int(seconds * Double(sampleRate))
        var block: [Float] = []
        block.reserveCapacity(sampleRate * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Float(Int64(bitPattern: state >> 11) % 2000) / 2000 * 0.01
                let tone = 0.02 * Float(sin(2 * Double.pi * 440 * Double(frame) / Double(sampleRate) + Double(channel)))
                block.append(noise + tone)
            }
            if block.count >= sampleRate * channels {
                try writer.write(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty { try writer.write(block) }
        try writer.close()
        return url
    }
}
