import TestSupport
import XCTest

@testable import SleepAnalysis

final class TelemetryTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory.remove() }

    private func reporter(_ config: TelemetryConfig, logger: RecordingLogger = RecordingLogger()) -> TelemetryReporter {
        TelemetryReporter(
            config: config, defaultSpoolFile: directory.url.appendingPathComponent("telemetry.jsonl"),
            logger: SDKLogger(threshold: .debug, destination: logger))
    }

    func test_telemetryConfig_defaults_analyticsOff_errorReportingOn() {
        let config = TelemetryConfig()
        XCTAssertFalse(config.analytics)
        XCTAssertTrue(config.errorReporting)
        XCTAssertNil(config.sink)
    }

    func test_reporter_queuesNothing_whenAnalyticsOff() {
        // Given analytics off, with a recording sink and the default spool location both watched
        let sink = RecordingTelemetrySink()
        let withSink = reporter(TelemetryConfig(analytics: false, errorReporting: false, sink: sink))
        let withSpool = reporter(TelemetryConfig(analytics: false, errorReporting: false))
        // When analytics events are sent
        withSink.analytics("analysis.started", sessionId: UUID())
        withSpool.analytics("analysis.started", sessionId: UUID())
        // Then nothing is queued anywhere
        XCTAssertTrue(sink.events.isEmpty)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("telemetry.jsonl").path))
    }

    func test_reporter_recordsAnalyticsEvent_whenAnalyticsOn() throws {
        let sink = RecordingTelemetrySink()
        let session = UUID()
        reporter(TelemetryConfig(analytics: true, sink: sink)).analytics(
            "analysis.started", sessionId: session, attributes: ["channel": "primary"])
        let event = try XCTUnwrap(sink.events.first)
        XCTAssertEqual(event.kind, .analytics)
        XCTAssertEqual(event.sessionId, session)
        XCTAssertEqual(event.libraryVersion, SleepAnalysisVersion.current)
        XCTAssertFalse(event.machineModel.isEmpty)
        XCTAssertFalse(event.osVersion.isEmpty)
        XCTAssertLessThan(abs(event.time.timeIntervalSinceNow), 60)
    }

    func test_reporter_logsFailure_evenWhenErrorReportingOff() {
        // Given error reporting off
        let sink = RecordingTelemetrySink()
        let logger = RecordingLogger()
        let reporter = reporter(TelemetryConfig(analytics: true, errorReporting: false, sink: sink), logger: logger)
        // When a failure is reported
        reporter.failure("initialize", SleepCycleSdkError.resourceDownloadFailed("offline"))
        // Then the logger has it, at debug (the caller gets the error thrown), and the sink does not
        XCTAssertTrue(sink.events.isEmpty)
        XCTAssertEqual(logger.messages.count, 1)
        XCTAssertEqual(logger.messages.first?.level, .debug)
        XCTAssertTrue(logger.messages.first?.message.contains("offline") ?? false)
    }

    func test_reporter_recordsErrorEvent_withCaseName_whenErrorReportingOn() throws {
        let sink = RecordingTelemetrySink()
        reporter(TelemetryConfig(sink: sink)).failure("initialize", SleepCycleSdkError.modelUnavailable("events"))
        let event = try XCTUnwrap(sink.events.first)
        XCTAssertEqual(event.kind, .error)
        XCTAssertEqual(event.attributes["case"], "modelUnavailable")
    }

    func test_event_carriesNoUserOrDeviceIdentifier() throws {
        // Given an error whose message contains the home directory (and so the user name)
        let sink = RecordingTelemetrySink()
        let reporter = reporter(TelemetryConfig(analytics: true, sink: sink))
        reporter.analytics("analysis.stopped", sessionId: UUID())
        reporter.failure("initialize", SleepCycleSdkError.storageFailure("cannot write \(NSHomeDirectory())/x"))
        // When the events are serialised as the spool file does
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(sink.events), as: UTF8.self)
        // Then no host name, user name, home directory or machine id appears
        let hostName = Self.hostName()
        XCTAssertFalse(hostName.count >= 3 && json.contains(hostName), "host name leaked")
        let user = NSUserName()
        XCTAssertFalse(user.count >= 3 && json.contains(user), "user name leaked")
        XCTAssertFalse(NSHomeDirectory().count > 1 && json.contains(NSHomeDirectory()), "home directory leaked")
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let id = try? String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines),
                !id.isEmpty
            {
                XCTAssertFalse(json.contains(id), "machine id leaked")
            }
        }
        // And an event has exactly the documented fields
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: try encoder.encode(sink.events[0])) as? [String: Any])
        XCTAssertEqual(
            Set(object.keys),
            ["kind", "name", "sessionId", "time", "machineModel", "osVersion", "libraryVersion", "attributes"])
    }

    func test_spoolSink_appendsJSONLines_andReadsThemBack() {
        let sink = SpoolFileTelemetrySink(fileURL: directory.url.appendingPathComponent("spool/t.jsonl"))
        let event = TelemetryEvent(kind: .analytics, name: "a", machineModel: "m", osVersion: "o")
        sink.record(event)
        sink.record(event)
        XCTAssertEqual(sink.spooledEvents().count, 2)
        XCTAssertEqual(sink.spooledEvents().first?.name, "a")
    }

    func test_spoolSink_rotates_whenCapReached() throws {
        // Given a 1 KiB cap
        let file = directory.url.appendingPathComponent("t.jsonl")
        let sink = SpoolFileTelemetrySink(fileURL: file, maximumBytes: 1024)
        // When far more than that is recorded
        for index in 0..<100 {
            sink.record(TelemetryEvent(kind: .analytics, name: "event-\(index)", machineModel: "m", osVersion: "o"))
        }
        // Then neither file exceeds the cap, and the newest event is in the current file
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)
        XCTAssertLessThanOrEqual(size.intValue, 1024)
        let rotated = try XCTUnwrap(
            try FileManager.default.attributesOfItem(atPath: file.path + ".1")[.size] as? NSNumber)
        XCTAssertLessThanOrEqual(rotated.intValue, 1024)
        XCTAssertEqual(sink.spooledEvents().last?.name, "event-99")
    }

    func test_reporter_defaultsTo_spoolFileInStateDirectory() {
        let reporter = reporter(TelemetryConfig(analytics: true))
        reporter.analytics("analysis.started")
        XCTAssertTrue(reporter.sink is SpoolFileTelemetrySink)
        XCTAssertEqual((reporter.sink as? SpoolFileTelemetrySink)?.spooledEvents().count, 1)
    }

    func test_machineDescription_isNotHostName() {
        let hostName = Self.hostName()
        XCTAssertNotEqual(MachineDescription.current.model, hostName)
        XCTAssertFalse(MachineDescription.current.osVersion.isEmpty)
    }

    private static func hostName() -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
