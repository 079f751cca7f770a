import Foundation

/// How far back the events an events engine reports from now on can begin: what a two-sleeper source needs to
/// measure its stereo cues only where an event can lie (see `StereoEventArbiter`).
package struct EventReach: Sendable, Hashable {
    /// The start of the earliest event the engine is tracking but has not reported as ended, nil when none is.
    package var openEventStart: Date?
    /// The earliest start an event that opens later can have.
    package var earliestNewEventStart: Date

    /// Creates a reach.
    ///
    /// - Parameters:
    ///   - openEventStart: The start of the earliest open event, nil when none is open.
    ///   - earliestNewEventStart: The earliest start an event that opens later can have.
    package init(openEventStart: Date?, earliestNewEventStart: Date) {
        self.openEventStart = openEventStart
        self.earliestNewEventStart = earliestNewEventStart
    }

    /// An engine that never reports an event.
    package static let never = EventReach(openEventStart: nil, earliestNewEventStart: .distantFuture)
}
