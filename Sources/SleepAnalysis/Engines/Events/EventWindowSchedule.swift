import Foundation

/// When the event engine classifies a window: every `hopFrames` frames once `windowFrames` frames exist, plus,
/// at the end of the stream, one last window over the final `windowFrames` frames when at least half a hop
/// is left uncovered, or one window over everything when the stream is shorter than a window. The training
/// tool (`Tools/events/features_ref.py: window_starts`) uses the same rule.
package struct EventWindowSchedule: Sendable, Equatable {
    /// Frames per window (100 = 1 s).
    package var windowFrames: Int
    /// Frames between window starts (50 = 0.5 s).
    var hopFrames: Int
    /// A stream shorter than this many frames gets no window at all.
    var minimumFrames: Int = 10

    /// The schedule of the shipped model: 1-s windows every 0.5 s.
    package static let standard = EventWindowSchedule(windowFrames: 100, hopFrames: 50)

    /// The start of the window that ends with frame count `totalFrames`, if one does.
    package func windowEnding(atFrameCount totalFrames: Int64) -> Int64? {
        let window = Int64(windowFrames)
        guard totalFrames >= window, (totalFrames - window) % Int64(hopFrames) == 0 else { return nil }
        return totalFrames - window
    }

    /// The last window at the end of a stream: (start, frames), or nil when none is due.
    ///
    /// - Parameters:
    ///   - totalFrames: Frames in the whole stream.
    ///   - lastStart: Start of the last window already classified, if any.
    package func finalWindow(totalFrames: Int64, lastStart: Int64?) -> (start: Int64, frames: Int)? {
        let window = Int64(windowFrames)
        if let lastStart {
            guard totalFrames - (lastStart + window) >= Int64(hopFrames / 2) else { return nil }
            return (totalFrames - window, windowFrames)
        }
        guard totalFrames >= Int64(minimumFrames) else { return nil }
        return (0, Int(min(totalFrames, window)))
    }
}
