import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The analyzer reads time from the clock it is given, never from the wall clock, for live sessions.
final class AnalyzerClockTests: XCTestCase {
    /// A live source (not finite) that delivers nothing until it is stopped.
    private final class SilentLiveSource: DataSource, @unchecked Sendable {
        let startTime: Date
        let channelCount = 1
        let isFinite = false
        private let lock = NSLock()
        private var sink: (any SensorDataSink)?

        init(startTime: Date) { self.startTime = startTime }

        func start(delivering sink: any SensorDataSink) throws { lock.withLock { self.sink = sink } }

        func stop() {
            let sink = lock.withLock {
                defer { self.sink = nil }
                return self.sink
            }
            sink?.finish(error: nil)
        }

        func waitUntilFinished() async {}
    }

    func test_liveSession_startsAndStops_atTheInjectedClocksTime() async throws {
        let storage = try TemporaryDirectory(prefix: "analyzer-clock")
        defer { storage.remove() }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let clock = ManualAnalysisClock(start: start)
        let licence = try TestLicenses.make()
        let analyzer = SleepAnalyzer(clock: clock)
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: storage.url,
            trustedIssuerKeys: [licence.trustedKey])
        try await analyzer.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true), using: SilentLiveSource(startTime: start))
        clock.advance(by: 90)
        let result = try await analyzer.stopAnalysis()
        XCTAssertEqual(result.startTime, start)
        XCTAssertEqual(result.endTime, start.addingTimeInterval(90))
        await analyzer.deinitialize()
    }
}
