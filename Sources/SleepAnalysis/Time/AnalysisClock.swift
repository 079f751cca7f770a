import Foundation

/// A source of the current time for time-driven components.
///
/// Engines that decide *when* something happens (the smart alarm, epoch boundaries, health timeouts)
/// never read the system clock themselves: they are given the time, so that a recorded night replays
/// faster than real time with exactly the results it would give live, and tests can use a manual clock.
public protocol AnalysisClock: Sendable {
    /// The current time.
    var now: Date { get }
}

/// The wall clock: `Date()`.
public struct SystemAnalysisClock: AnalysisClock {
    /// Creates the wall clock.
    public init() {}

    /// The current wall-clock time.
    public var now: Date { Date() }
}
