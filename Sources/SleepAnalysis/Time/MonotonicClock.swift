import Foundation

/// A monotonic clock a thread can wait on: what a paced replay holds its data back with.
///
/// `AnalysisClock` gives engines the wall-clock date; this one measures elapsed time for waiting and never jumps
/// with the wall clock. It is injected (`FileDataSource(…, pacingClock:)`) so that tests drive a paced replay with
/// a manual clock whose waits pass at once.
package protocol MonotonicClock: Sendable {
    /// Nanoseconds since a fixed, arbitrary origin; never decreases.
    var uptimeNanoseconds: UInt64 { get }

    /// Lets up to `nanoseconds` pass on this clock while waiting on `condition`, which the caller has locked.
    ///
    /// It may return earlier (the condition was signalled, or the clock waits in slices): the caller re-reads
    /// `uptimeNanoseconds` and its own state, and waits again if need be.
    ///
    /// - Parameters:
    ///   - condition: The locked condition whose signal cuts the wait short.
    ///   - nanoseconds: The longest wait.
    func wait(on condition: NSCondition, upTo nanoseconds: UInt64)
}

/// The system's monotonic clock, `DispatchTime`.
package struct SystemMonotonicClock: MonotonicClock {
    /// The longest single wait: `NSCondition` waits until a wall-clock date, so a wall-clock jump shifts a
    /// wake-up by one slice at most.
    static let sliceNanoseconds: UInt64 = 50_000_000

    /// Creates the system clock.
    package init() {}

    /// `DispatchTime.now().uptimeNanoseconds`.
    package var uptimeNanoseconds: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Waits on `condition` for `nanoseconds`, at most one slice.
    ///
    /// - Parameters:
    ///   - condition: The locked condition whose signal cuts the wait short.
    ///   - nanoseconds: The longest wait.
    package func wait(on condition: NSCondition, upTo nanoseconds: UInt64) {
        let slice = min(nanoseconds, Self.sliceNanoseconds)
        _ = condition.wait(until: Date(timeIntervalSinceNow: Double(slice) / 1e9))
    }
}
