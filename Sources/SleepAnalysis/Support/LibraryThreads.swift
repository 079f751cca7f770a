import Foundation
import Synchronization

/// The library's own long-lived threads that are running, by role, so that tests can check that stopped or
/// cancelled work has ended (Linux shows no name for Foundation's threads, so `/proc` cannot tell them apart).
package enum LibraryThreads {
    /// What a thread does.
    package enum Role: String, Sendable, CaseIterable {
        /// An analysis pipeline's thread (`AnalysisPipeline`).
        case pipeline
        /// A `FileDataSource`'s replay thread.
        case fileReplay
        /// A `LiveDataSource`'s capture thread.
        case liveCapture
    }

    private static let running = Mutex<[Role: Int]>([:])

    /// Runs `body` on the calling thread, counted as a running thread of `role` until it returns.
    ///
    /// - Parameters:
    ///   - role: What the thread does.
    ///   - body: The thread's work.
    package static func run(as role: Role, _ body: () -> Void) {
        running.withLock { $0[role, default: 0] += 1 }
        defer { running.withLock { $0[role, default: 0] -= 1 } }
        body()
    }

    /// How many threads of `role` are running now.
    ///
    /// - Parameter role: What the threads do.
    /// - Returns: The count.
    package static func count(_ role: Role) -> Int {
        running.withLock { $0[role, default: 0] }
    }
}
