import Foundation

/// Where telemetry events go. The default is a local spool file; the SDK never sends anything over the network.
///
/// Implement it to forward events yourself (after your own consent checks). It is called from any task.
public protocol TelemetrySink: Sendable {
    /// Receives one event.
    ///
    /// - Parameter event: The event; it carries no user or device identifier.
    func record(_ event: TelemetryEvent)
}
