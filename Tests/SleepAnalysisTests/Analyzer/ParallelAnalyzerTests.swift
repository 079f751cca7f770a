import Foundation
import TestSupport
import Testing

@testable import SleepAnalysis

/// Swift Testing runs these in parallel: each test analyses its own night through its own analyzer, as a service
/// or a test suite would, and must see only its own session.
@Suite("Nights analysed in parallel, one analyzer each")
struct ParallelAnalyzerTests {
    @Test("A night through its own analyzer", arguments: 0..<4)
    func nightThroughItsOwnAnalyzer(index: Int) async throws {
        let storage = try TemporaryDirectory(prefix: "parallel-\(index)")
        defer { storage.remove() }
        let licence = try TestLicenses.make()
        let night = try AnalyzerNights.write(index: index, into: storage.url)
        let start = AnalyzerNights.startTime(of: index)
        let stateDirectory = storage.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)

        let result = try await AnalyzerNights.analyse(
            night, startTime: start, storage: stateDirectory, licence: licence)

        let end = start.addingTimeInterval(Double(AnalyzerNights.nightSeconds))
        #expect(result.startTime == start)
        #expect(abs(result.endTime.timeIntervalSince(end)) < 0.001)
        #expect(result.sleepStagePredictions.count == AnalyzerNights.nightSeconds / 30)
        #expect(!result.breathingRates.isEmpty)
        #expect(result.events.allSatisfy { $0.sessionId == result.sessionId })
        #expect(result.breathingRates.allSatisfy { $0.sessionId == result.sessionId })
        #expect(result.events.allSatisfy { $0.interval.start >= start && $0.interval.start < end })
    }

    @Test("Two sessions of one night in parallel give the same result")
    func sameNightTwiceInParallel() async throws {
        let storage = try TemporaryDirectory(prefix: "parallel-same")
        defer { storage.remove() }
        let licence = try TestLicenses.make()
        let night = try AnalyzerNights.write(index: 2, into: storage.url)
        let start = AnalyzerNights.startTime(of: 2)
        let directories = try (0..<2).map { index in
            let url = storage.url.appendingPathComponent("state-\(index)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        async let first = AnalyzerNights.analyse(night, startTime: start, storage: directories[0], licence: licence)
        async let second = AnalyzerNights.analyse(night, startTime: start, storage: directories[1], licence: licence)
        let results = try await [first, second]
        #expect(results[0].sessionId != results[1].sessionId)
        #expect(try AnalyzerNights.comparable(results[0]) == AnalyzerNights.comparable(results[1]))
        #expect(results[0].events.contains { $0.type == .snoring })
    }
}
