import Foundation
import SleepAnalysis

/// A `TelemetrySink` that keeps every event in memory, for tests.
public final class RecordingTelemetrySink: TelemetrySink, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TelemetryEvent] = []

    /// Creates an empty sink.
    public init() {}

    /// Keeps the event.
    public func record(_ event: TelemetryEvent) {
        lock.lock()
        recorded.append(event)
        lock.unlock()
    }

    /// The events so far.
    public var events: [TelemetryEvent] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
