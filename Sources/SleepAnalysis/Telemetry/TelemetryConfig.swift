import Foundation

/// Which telemetry the SDK records, and where it goes.
///
/// The two switches are independent. With `analytics` off no analytics event is queued at all; with
/// `errorReporting` off no diagnostic report is recorded, but failures still reach the `Logger`.
public struct TelemetryConfig: Sendable {
    /// Session analytics events (off by default).
    public var analytics: Bool
    /// Diagnostic reports describing technical failures (on by default).
    public var errorReporting: Bool
    /// Where events go; nil means a spool file (`telemetry.jsonl`) in the SDK's state directory.
    public var sink: (any TelemetrySink)?

    /// Creates a telemetry configuration.
    ///
    /// - Parameters:
    ///   - analytics: Record session analytics events.
    ///   - errorReporting: Record diagnostic reports of failures.
    ///   - sink: Where events go; nil for the local spool file.
    public init(analytics: Bool = false, errorReporting: Bool = true, sink: (any TelemetrySink)? = nil) {
        self.analytics = analytics
        self.errorReporting = errorReporting
        self.sink = sink
    }
}
