import Foundation
import SleepAnalysis

/// How many of the library's own threads run now (analysis pipelines, file replays, live captures), for tests
/// that check that stopped or cancelled work has ended.
public struct LibraryThreadCounts: Equatable, Sendable, CustomStringConvertible {
    /// Running analysis pipelines' threads.
    public var pipelines: Int
    /// Running file replays' threads.
    public var fileReplays: Int
    /// Running live captures' threads.
    public var liveCaptures: Int

    /// The counts now.
    public static var now: LibraryThreadCounts {
        LibraryThreadCounts(
            pipelines: LibraryThreads.count(.pipeline), fileReplays: LibraryThreads.count(.fileReplay),
            liveCaptures: LibraryThreads.count(.liveCapture))
    }

    /// True when no count exceeds `other`'s (threads other tests left behind may end meanwhile).
    ///
    /// - Parameter other: The counts to compare with.
    /// - Returns: Whether every count is at most `other`'s.
    public func isAtMost(_ other: LibraryThreadCounts) -> Bool {
        pipelines <= other.pipelines && fileReplays <= other.fileReplays && liveCaptures <= other.liveCaptures
    }

    /// Waits up to `timeout` seconds until the counts are at most `limit`.
    ///
    /// - Parameters:
    ///   - limit: The counts to come down to (typically those before the test started its work).
    ///   - timeout: The longest wait, in seconds.
    /// - Returns: The counts at the end of the wait.
    public static func waitUntil(atMost limit: LibraryThreadCounts, timeout: TimeInterval) async -> LibraryThreadCounts
    {
        let deadline = Date().addingTimeInterval(timeout)
        while !now.isAtMost(limit) && Date() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return now
    }

    public var description: String {
        "\(pipelines) pipeline(s), \(fileReplays) file replay(s), \(liveCaptures) live capture(s)"
    }
}
