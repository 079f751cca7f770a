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

    func test_records_carry_severity_label_metadata_and_the_calls_module_file_function_and_line() {
        let recorder = RecordingLogger()
        let logger = SDKLogger(threshold: .debug, destination: recorder).with("analyzer", "night-1")
        let line: UInt = #line + 1
        logger.notice("n")
        let record = recorder.records.first
        XCTAssertEqual(record?.severity, .notice)
        XCTAssertEqual(record?.label, "SleepAnalysis")
        XCTAssertEqual(record?.message, "n")
        XCTAssertEqual(record?.metadata, ["analyzer": .string("night-1")])
        XCTAssertEqual(record?.source, "SleepAnalysisTests")
        XCTAssertEqual(record?.file, "SleepAnalysisTests/LoggingTests.swift")
        XCTAssertEqual(record?.function, #function)
        XCTAssertEqual(record?.line, line)
        XCTAssertEqual(record?.description, "[NOTICE] SleepAnalysis: n analyzer=night-1")
    }

    func test_the_library_logs_from_its_own_module_with_its_own_file_and_line() async throws {
        let recorder = RecordingLogger()
        let licence = try TestLicenses.make()
        let storage = try TemporaryDirectory(prefix: "log-origin")
        defer { storage.remove() }
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .info, logger: recorder, apiKey: licence.apiKey, storageDirectory: storage.url,
            trustedIssuerKeys: [licence.trustedKey])
        await analyzer.deinitialize()
        let verified = try XCTUnwrap(recorder.records.first { $0.message.contains("verified") })
        XCTAssertEqual(verified.source, "SleepAnalysis")
        XCTAssertEqual(verified.file, "SleepAnalysis/LicenseAuthorizer.swift")
        XCTAssertEqual(verified.function, "authorize(apiKey:forceRefresh:now:)")
        XCTAssertGreaterThan(verified.line, 0)
    }

    func test_severities_are_swift_logs_seven_levels_and_the_log_level_a_threshold_over_them() {
        XCTAssertEqual(
            SleepAnalysisLogRecord.Severity.allCases.map(\.rawValue),
            ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        XCTAssertEqual(SleepAnalysisLogRecord.Severity.allCases.sorted(), SleepAnalysisLogRecord.Severity.allCases)
        let admitted = LogLevel.allCases.map { level in
            SleepAnalysisLogRecord.Severity.allCases.filter { level.admits($0) }
        }
        XCTAssertEqual(
            admitted,
            [
                [.trace, .debug, .info, .notice, .warning, .error, .critical],
                [.info, .notice, .warning, .error, .critical],
                [.warning, .error, .critical], [.error, .critical], [],
            ])
    }

    func test_metadata_values_have_swift_logs_shapes() {
        let value: SleepAnalysisLogRecord.MetadataValue = [
            "name": "night", "count": .stringConvertible(3), "tags": ["a", .stringConvertible(1.5)],
        ]
        XCTAssertEqual(value.description, "[count: 3, name: night, tags: [a, 1.5]]")
        XCTAssertEqual(SleepAnalysisLogRecord.MetadataValue.stringConvertible(3), .stringConvertible("3"))
        XCTAssertNotEqual(SleepAnalysisLogRecord.MetadataValue.string("3"), .stringConvertible(3))
    }

    func test_sdkLogger_defaultsTo_standardErrorLogger() {
        XCTAssertTrue(SDKLogger(threshold: .info).destination is StandardErrorLogHandler)
    }
}
