import TestSupport
import XCTest

@testable import SleepAnalysis

final class LoggingTests: XCTestCase {
    func test_logLevel_orders_bySeverity() {
        XCTAssertEqual(LogLevel.allCases.sorted(), [.debug, .info, .warning, .error, .noLog])
        XCTAssertLessThan(LogLevel.warning, LogLevel.error)
    }

    func test_sdkLogger_drops_messagesBelowThreshold() {
        // Given a logger at .warning
        let recorder = RecordingLogger()
        let logger = SDKLogger(threshold: .warning, destination: recorder)
        // When every level logs
        logger.debug("d")
        logger.info("i")
        logger.warning("w")
        logger.error("e")
        // Then only warning and error pass, with their levels
        XCTAssertEqual(recorder.messages.map(\.message), ["w", "e"])
        XCTAssertEqual(recorder.messages.map(\.level), [.warning, .error])
    }

    func test_namedAnalyzer_tagsItsMessages_withItsName() async throws {
        let storage = try TemporaryDirectory(prefix: "named-analyzer")
        defer { storage.remove() }
        let recorder = RecordingLogger()
        let analyzer = SleepAnalyzer(name: "job-7")
        // A key the analyzer rejects makes it log the failure (at debug: the thrown error is the report).
        await assertThrowsSdkError({
            try await analyzer.initialize(
                logLevel: .debug, logger: recorder, apiKey: "sa1.not-a-key.at-all", storageDirectory: storage.url)
        }) {
            if case .invalidApiKey = $0 { return true }
            return false
        }
        XCTAssertFalse(recorder.messages.isEmpty)
        XCTAssertTrue(recorder.metadata.allSatisfy { $0["analyzer"] == "job-7" }, "\(recorder.metadata)")
    }

    func test_sdkLogger_passesNothing_atNoLog() {
        let recorder = RecordingLogger()
        let logger = SDKLogger(threshold: .noLog, destination: recorder)
        logger.critical("c")
        logger.error("e")
        XCTAssertTrue(recorder.messages.isEmpty)
    }

    func test_sdkLogger_doesNotBuildMessage_whenFiltered() {
        let logger = SDKLogger(threshold: .error, destination: RecordingLogger())
        var built = false
        func expensive() -> String {
            built = true
            return "x"
        }
        logger.debug(expensive())
        XCTAssertFalse(built)
    }

    func test_sdkLogger_defaultsTo_standardErrorLogger() {
        XCTAssertTrue(SDKLogger(threshold: .info).destination is StandardErrorLogHandler)
    }
}
