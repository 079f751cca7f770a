import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// What the input-answer suites share: a folder for the files each test writes, a licence, and a night analysed
/// through an analyzer of its own, with the source's error thrown when it ended with one.
class InputAnswersTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var licence: (apiKey: String, trustedKey: String)!
    let start = Date(timeIntervalSince1970: 1_796_000_000)

    override func setUp() async throws {
        try await super.setUp()
        directory = try TemporaryDirectory(prefix: "input-answers")
        licence = try TestLicenses.make(features: .all)
    }

    override func tearDown() async throws {
        directory.remove()
        try await super.tearDown()
    }

    /// Analyses the files (sensor local times read in `zone`) and returns the result.
    func analyse(
        _ audio: URL?, accelerometer: URL? = nil, heartRate: URL? = nil, zone: TimeZone? = nil
    ) async throws -> AnalysisResult {
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .error, apiKey: licence.apiKey, storageDirectory: directory.url.appendingPathComponent("state"),
            trustedIssuerKeys: [licence.trustedKey])
        let source = analyzer.createFileDataSource(
            audio: audio, accelerometer: accelerometer, heartRate: heartRate, startTime: start, sensorTimeZone: zone)
        do {
            try await analyzer.startAnalysis(
                config: SleepAnalysisConfig(
                    useAudio: audio != nil, useAccelerometer: accelerometer != nil, useHeartRate: heartRate != nil),
                using: source)
        } catch {
            await analyzer.deinitialize()
            throw error
        }
        await source.waitUntilFinished()
        let result = try await analyzer.stopAnalysis()
        let sourceError = await analyzer.dataSourceError
        await analyzer.deinitialize()
        if let sourceError { throw sourceError }
        return result
    }

    /// Asserts that `body` throws `SleepCycleSdkError.invalidInput` with a message holding every fragment.
    func assertInvalidInput(
        _ body: () async throws -> Void, mentions fragments: [String], file: StaticString = #filePath,
        line: UInt = #line
    ) async {
        do {
            try await body()
            XCTFail("no error", file: file, line: line)
        } catch SleepCycleSdkError.invalidInput(let message) {
            for fragment in fragments {
                XCTAssertTrue(
                    message.message.contains(fragment), "'\(message.message)' lacks '\(fragment)'", file: file,
                    line: line)
            }
        } catch {
            XCTFail("\(error) is not invalidInput", file: file, line: line)
        }
    }
}
