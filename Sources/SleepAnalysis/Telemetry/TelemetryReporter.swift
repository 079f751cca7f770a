import Foundation

/// The SDK's single way to record telemetry: honours `TelemetryConfig`, stamps events with the machine
/// description, scrubs the user's name and home directory from details, and always logs failures.
struct TelemetryReporter: Sendable {
    /// The caller's configuration.
    let config: TelemetryConfig
    /// Where events go (the configured sink, or the spool file).
    let sink: any TelemetrySink
    /// The SDK logger (failures reach it whatever `errorReporting` says).
    let logger: SDKLogger
    /// The machine description stamped on events.
    let machine: MachineDescription

    /// Creates a reporter.
    ///
    /// - Parameters:
    ///   - config: The caller's telemetry configuration.
    ///   - defaultSpoolFile: The spool file used when `config.sink` is nil.
    ///   - logger: The SDK logger.
    ///   - machine: The machine description (injectable for tests).
    init(
        config: TelemetryConfig, defaultSpoolFile: URL, logger: SDKLogger, machine: MachineDescription = .current
    ) {
        self.config = config
        self.sink = config.sink ?? SpoolFileTelemetrySink(fileURL: defaultSpoolFile)
        self.logger = logger
        self.machine = machine
    }

    /// Records an analytics event, only if `analytics` is on.
    ///
    /// - Parameters:
    ///   - name: The event name, e.g. `analysis.started`.
    ///   - sessionId: The session it belongs to.
    ///   - attributes: Non-identifying details.
    func analytics(_ name: String, sessionId: UUID? = nil, attributes: [String: String] = [:]) {
        guard config.analytics else { return }
        sink.record(makeEvent(.analytics, name, sessionId, attributes))
    }

    /// Logs a failure at `.debug` (the caller is handed the error itself), and records an error report if
    /// `errorReporting` is on.
    ///
    /// - Parameters:
    ///   - name: Where it failed, e.g. `initialize`.
    ///   - error: The failure.
    ///   - sessionId: The session it belongs to.
    ///   - file: The file that reports it, for the log record.
    ///   - function: The function that reports it.
    ///   - line: The line that reports it.
    func failure(
        _ name: String, _ error: any Error, sessionId: UUID? = nil, file: String = #fileID,
        function: String = #function, line: UInt = #line
    ) {
        // At debug: the caller is given the error (thrown), which is its report; logging it as an error too would
        // report it twice.
        logger.debug("\(name) failed: \(error)", file: file, function: function, line: line)
        guard config.errorReporting else { return }
        var attributes = ["error": String(describing: error)]
        if let sdkError = error as? SleepCycleSdkError { attributes["case"] = sdkError.caseName }
        sink.record(makeEvent(.error, name, sessionId, attributes))
    }

    private func makeEvent(
        _ kind: TelemetryEvent.Kind, _ name: String, _ sessionId: UUID?, _ attributes: [String: String]
    ) -> TelemetryEvent {
        TelemetryEvent(
            kind: kind, name: name, sessionId: sessionId, time: Date(), machineModel: machine.model,
            osVersion: machine.osVersion, libraryVersion: SleepAnalysisVersion.current,
            attributes: attributes.mapValues(Self.scrub))
    }

    /// Replaces the home directory with `~` and the user name with `<user>` in `text`.
    static func scrub(_ text: String) -> String {
        var result = text
        let home = NSHomeDirectory()
        if home.count > 1 { result = result.replacingOccurrences(of: home, with: "~") }
        let user = NSUserName()
        if user.count >= 3 { result = result.replacingOccurrences(of: user, with: "<user>") }
        return result
    }
}

extension SleepCycleSdkError {
    /// The case's name without its message (e.g. `invalidApiKey`), for telemetry.
    var caseName: String {
        switch self {
        case .notInitialized: "notInitialized"
        case .invalidApiKey: "invalidApiKey"
        case .featureNotEnabled: "featureNotEnabled"
        case .analysisAlreadyRunning: "analysisAlreadyRunning"
        case .analysisNotActive: "analysisNotActive"
        case .invalidConfiguration: "invalidConfiguration"
        case .dataSourceFailure: "dataSourceFailure"
        case .invalidInput: "invalidInput"
        case .storageFailure: "storageFailure"
        case .resourceUnavailable: "resourceUnavailable"
        case .resourceDownloadFailed: "resourceDownloadFailed"
        case .modelNotProvisioned: "modelNotProvisioned"
        case .modelIntegrityCheckFailed: "modelIntegrityCheckFailed"
        case .modelUnavailable: "modelUnavailable"
        case .noResumableSession: "noResumableSession"
        case .emptyTimeRange: "emptyTimeRange"
        }
    }
}
