import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Many nights in one process: analyzers run side by side, each with its own pipeline, journal and streams.
final class ConcurrentAnalyzersTests: XCTestCase {
    private var storage: TemporaryDirectory!

    override func setUp() async throws {
        try await super.setUp()
        storage = try TemporaryDirectory(prefix: "analyzers")
    }

    override func tearDown() async throws {
        storage.remove()
        try await super.tearDown()
    }

    private func directory(_ name: String) throws -> URL {
        let url = storage.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func test_fourAnalyzersAtOnce_eachEqualsItsNightAnalysedAlone() async throws {
        let licence = try TestLicenses.make()
        let nights = try (0..<4).map { try AnalyzerNights.write(index: $0, into: storage.url) }

        var alone: [String] = []
        for (index, night) in nights.enumerated() {
            let result = try await AnalyzerNights.analyse(
                night, startTime: AnalyzerNights.startTime(of: index), storage: try directory("alone-\(index)"),
                licence: licence)
            alone.append(try AnalyzerNights.comparable(result))
        }

        let storages = try (0..<4).map { try directory("together-\($0)") }
        let together = try await withThrowingTaskGroup(of: (Int, AnalysisResult).self) { group in
            for (index, night) in nights.enumerated() {
                group.addTask {
                    let result = try await AnalyzerNights.analyse(
                        night, startTime: AnalyzerNights.startTime(of: index), storage: storages[index],
                        licence: licence)
                    return (index, result)
                }
            }
            var results: [Int: AnalysisResult] = [:]
            for try await (index, result) in group { results[index] = result }
            return results
        }

        XCTAssertEqual(together.count, 4)
        for index in 0..<4 {
            let result = try XCTUnwrap(together[index])
            XCTAssertEqual(result.startTime, AnalyzerNights.startTime(of: index))
            XCTAssertFalse(result.sleepStagePredictions.isEmpty, "night \(index) was staged")
            XCTAssertEqual(try AnalyzerNights.comparable(result), alone[index], "night \(index) differs")
        }
        // The nights differ from each other, so equal results above are each night's own.
        XCTAssertEqual(Set(alone).count, 4)
        // The demo night's snoring episode falls in the first two nights: the events are not empty everywhere.
        XCTAssertTrue(together.values.contains { $0.events.contains { $0.type == .snoring } })
    }

    func test_twoAnalyzers_inOneStorageDirectory_secondGetsAClearError() async throws {
        let licence = try TestLicenses.make()
        let shared = try directory("shared")
        let first = SleepAnalyzer()
        try await first.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: shared, trustedIssuerKeys: [licence.trustedKey])
        let second = SleepAnalyzer()
        do {
            try await second.initialize(
                logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: shared,
                trustedIssuerKeys: [licence.trustedKey])
            XCTFail("a second analyzer initialized in a directory in use")
        } catch let error as SleepCycleSdkError {
            guard case .storageFailure(let message) = error else { return XCTFail("unexpected \(error)") }
            XCTAssertTrue(message.message.contains("in use by another SleepAnalyzer"), message.message)
            XCTAssertTrue(error.localizedDescription.contains("in use by another SleepAnalyzer"))
        }
        let secondState = await second.currentState
        XCTAssertEqual(secondState, .uninitialized)
        // Once the first lets go, the directory is free.
        await first.deinitialize()
        try await second.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: shared, trustedIssuerKeys: [licence.trustedKey])
        let state = await second.currentState
        XCTAssertEqual(state, .initialized)
        await second.deinitialize()
    }

    func test_analyzerStreams_carryOnlyTheirOwnSessionsEvents() async throws {
        let licence = try TestLicenses.make()
        let nights = try (0..<2).map { try AnalyzerNights.write(index: $0, into: storage.url) }
        let analyzers = [SleepAnalyzer(), SleepAnalyzer()]
        var sessionIds: [UUID] = []
        var collectors: [Task<Set<UUID>, Never>] = []
        for (index, analyzer) in analyzers.enumerated() {
            try await analyzer.initialize(
                logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: try directory("streams-\(index)"),
                trustedIssuerKeys: [licence.trustedKey])
            let stream = analyzer.breathingRateStream
            collectors.append(
                Task {
                    var seen: Set<UUID> = []
                    for await rate in stream { seen.insert(rate.sessionId) }
                    return seen
                })
        }
        for (index, analyzer) in analyzers.enumerated() {
            let source = analyzer.createFileDataSource(
                audio: nights[index], accelerometer: nil, startTime: AnalyzerNights.startTime(of: index))
            sessionIds.append(try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: source))
        }
        for analyzer in analyzers {
            _ = try await analyzer.stopAnalysisWhenFinished()
            await analyzer.deinitialize()
        }
        for collector in collectors { collector.cancel() }
        for (index, collector) in collectors.enumerated() {
            let seen = await collector.value
            XCTAssertTrue(seen.isSubset(of: [sessionIds[index]]), "analyzer \(index) streamed another's rates")
        }
    }

    func test_misuse_throwsTypedErrors_neverTraps() async throws {
        let analyzer = SleepAnalyzer()
        await assertThrowsSdkError({ try await analyzer.stopAnalysis() }) { $0 == .notInitialized }
        let licence = try TestLicenses.make()
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: try directory("misuse"),
            trustedIssuerKeys: [licence.trustedKey])
        await assertThrowsSdkError({ try await analyzer.stopAnalysis() }) { $0 == .analysisNotActive }
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        let source = analyzer.createFileDataSource(audio: night, accelerometer: nil, startTime: Date())
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: source)
        let again = analyzer.createFileDataSource(audio: night, accelerometer: nil, startTime: Date())
        await assertThrowsSdkError({ try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: again) }) {
            $0 == .analysisAlreadyRunning
        }
        await analyzer.deinitialize()
        await assertThrowsSdkError({ try await analyzer.stopAnalysis() }) { $0 == .notInitialized }
        await assertThrowsSdkError({ try await analyzer.updateSmartAlarm(config: nil) }) { $0 == .notInitialized }
    }
}

extension SleepAnalyzer {
    /// Stops the primary session once its file source has delivered everything.
    fileprivate func stopAnalysisWhenFinished() async throws -> AnalysisResult {
        await pipeline?.source.waitUntilFinished()
        return try await stopAnalysis()
    }
}
