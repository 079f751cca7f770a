import Foundation
import SleepAnalysis

/// A monotonic clock that moves only when someone waits on it or a test moves it: every wait passes at once and
/// moves the clock by the time waited, so a paced replay runs at full speed while its pacing is kept in clock time.
package final class ManualMonotonicClock: MonotonicClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: UInt64
    private var waits = 0

    /// Creates a clock showing `start`.
    ///
    /// - Parameter start: The initial time, in nanoseconds.
    package init(start: UInt64 = 0) {
        current = start
    }

    /// The time the clock shows, in nanoseconds.
    package var uptimeNanoseconds: UInt64 {
        lock.withLock { current }
    }

    /// How many times something has waited on the clock.
    package var waitCount: Int {
        lock.withLock { waits }
    }

    /// Returns at once, the clock moved on by `nanoseconds` (up to `UInt64.max`).
    ///
    /// - Parameters:
    ///   - condition: Not waited on.
    ///   - nanoseconds: How far the clock moves.
    package func wait(on condition: NSCondition, upTo nanoseconds: UInt64) {
        lock.withLock {
            let (sum, overflow) = current.addingReportingOverflow(nanoseconds)
            current = overflow ? .max : sum
            waits += 1
        }
    }
}
