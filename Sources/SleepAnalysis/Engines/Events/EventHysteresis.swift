import Foundation

/// Turns one event type's sequence of window probabilities into events: an event opens when a window reaches
/// the on-threshold, grows over windows at or above the off-threshold, survives gaps shorter than the merge
/// gap, and closes once a gap reaches it (or at the end of the stream). Events shorter than the minimum
/// duration are dropped; an event is announced as started once it reaches that duration.
///
/// Times are seconds from the start of the stream. Each window counts for the half-hop span around its centre.
struct EventHysteresis {
    /// An event being tracked or just closed.
    struct Span: Equatable {
        /// Start and end, seconds from the start of the stream.
        var start: Double
        var end: Double
        /// The highest window probability inside the event.
        var peakProbability: Float
        /// Windows at or above the off-threshold inside the event.
        var windowCount: Int
        /// Whether `started` has been reported for it.
        var announced: Bool
    }

    /// What one step produced.
    struct Step: Equatable {
        /// An event that reached the minimum duration in this step (report it as started).
        var started: Span?
        /// An event that closed in this step (complete, at least the minimum duration).
        var ended: Span?
        /// Whether the window was part of an open event (at or above the off-threshold while open).
        var windowInEvent: Bool
    }

    let onThreshold: Float
    let offThreshold: Float
    let minDuration: Double
    let mergeGap: Double
    /// The event currently open, if any.
    private(set) var open: Span?

    /// Creates a tracker.
    init(onThreshold: Float, offThreshold: Float, minDuration: Double, mergeGap: Double) {
        self.onThreshold = onThreshold
        self.offThreshold = offThreshold
        self.minDuration = minDuration
        self.mergeGap = mergeGap
    }

    /// Feeds one window.
    ///
    /// - Parameters:
    ///   - probability: The window's probability for this type.
    ///   - start: Start of the window's span (seconds).
    ///   - end: End of the window's span (seconds).
    /// - Returns: Events started and ended by this window.
    mutating func step(probability: Float, start: Double, end: Double) -> Step {
        var result = Step(started: nil, ended: nil, windowInEvent: false)
        if var span = open {
            if start - span.end >= mergeGap {
                result.ended = close()
            } else if probability >= offThreshold {
                span.end = max(span.end, end)
                span.peakProbability = max(span.peakProbability, probability)
                span.windowCount += 1
                result.windowInEvent = true
                open = span
                result.started = announceIfLongEnough()
                return result
            } else {
                return result
            }
        }
        if probability >= onThreshold {
            open = Span(start: start, end: end, peakProbability: probability, windowCount: 1, announced: false)
            result.windowInEvent = true
            result.started = announceIfLongEnough()
        }
        return result
    }

    /// Closes the open event (end of stream).
    ///
    /// - Returns: The event, when it reached the minimum duration.
    mutating func finish() -> Span? {
        close()
    }

    private mutating func announceIfLongEnough() -> Span? {
        guard var span = open, !span.announced, span.end - span.start >= minDuration - 1e-9 else { return nil }
        span.announced = true
        open = span
        return span
    }

    private mutating func close() -> Span? {
        defer { open = nil }
        guard let span = open, span.end - span.start >= minDuration - 1e-9 else { return nil }
        return span
    }
}
