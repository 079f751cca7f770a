import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The result says which inputs staged the night and whether that mode is validated.
final class StagingBasisTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let start = Date(timeIntervalSince1970: 1_796_500_000)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "staging-basis")
    }

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }

    private func analyse(audio: URL?, accelerometer: URL?) async throws -> AnalysisResult {
        let licence = try TestLicenses.make()
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .error, apiKey: licence.apiKey,
            storageDirectory: directory.url.appendingPathComponent("state-\(UUID().uuidString)"),
            trustedIssuerKeys: [licence.trustedKey])
        let source = analyzer.createFileDataSource(audio: audio, accelerometer: accelerometer, startTime: start)
        try await analyzer.startAnalysis(
            config: SleepAnalysisConfig(useAudio: audio != nil, useAccelerometer: accelerometer != nil),
            using: source)
        await source.waitUntilFinished()
        let result = try await analyzer.stopAnalysis()
        await analyzer.deinitialize()
        return result
    }

    /// Four minutes of a phone on the mattress at 10 Hz: still, with a turn every minute.
    private func accelerometer() throws -> URL {
        var rows = ["timestamp,x,y,z"]
        for index in 0..<2_400 {
            let turning = index % 600 < 20
            let wobble = turning ? 0.3 * sin(Double(index)) : 0.002 * sin(Double(index) * 0.7)
            rows.append(String(format: "%.1f,%.4f,%.4f,%.4f", Double(index) / 10, wobble, -wobble, 1 + wobble / 3))
        }
        let url = directory.url.appendingPathComponent("phone.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func test_sound_only_nights_say_they_are_not_validated() async throws {
        let night = try AnalyzerNights.write(index: 0, into: directory.url)
        let result = try await analyse(audio: night, accelerometer: nil)
        XCTAssertEqual(result.stagingBasis, StagingBasis(mode: .soundOnly))
        XCTAssertEqual(result.stagingBasis?.isValidated, false)
        XCTAssertTrue(result.stagingBasis?.summary.contains("not validated") ?? false)
    }

    func test_nights_with_movement_are_staged_from_it_and_validated() async throws {
        let night = try AnalyzerNights.write(index: 0, into: directory.url)
        let result = try await analyse(audio: night, accelerometer: try accelerometer())
        XCTAssertEqual(result.stagingBasis?.mode, .activity)
        XCTAssertEqual(result.stagingBasis?.isValidated, true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(result), as: UTF8.self)
        XCTAssertTrue(json.contains(#""stagingBasis":{"isValidated":true,"mode":"activity"}"#))
    }

    func test_unstaged_nights_have_no_basis() throws {
        let result = AnalysisResult(sessionId: UUID(), startTime: start, endTime: start)
        XCTAssertNil(result.stagingBasis)
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        XCTAssertFalse(json.contains("stagingBasis"))
    }
}
