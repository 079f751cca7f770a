import Foundation
import SleepAnalysis

/// A clock that only moves when a test moves it, for time-driven engines.
public final class ManualAnalysisClock: AnalysisClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock showing `start`.
    ///
    /// - Parameter start: The initial time.
    public init(start: Date) {
        current = start
    }

    /// The time the clock shows.
    public var now: Date {
        lock.withLock { current }
    }

    /// Moves the clock forward (or back, with a negative interval).
    ///
    /// - Parameter interval: Seconds to move by.
    public func advance(by interval: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(interval) }
    }

    /// Sets the clock to a time.
    ///
    /// - Parameter date: The new time.
    public func set(to date: Date) {
        lock.withLock { current = date }
    }
}
