import Foundation
import Synchronization

/// Turns bytes received into a fraction 0...1 for `onDownloadProgress`: never decreasing, and ending at exactly 1.
final class DownloadProgress: Sendable {
    private struct State {
        var completed: Int64
        var lastReported = -1.0
    }

    private let total: Int64
    private let state: Mutex<State>
    private let report: (@Sendable (Double) -> Void)?

    /// Creates a tracker.
    ///
    /// - Parameters:
    ///   - total: The bytes that make up 100 %.
    ///   - alreadyDone: Bytes already on disk (resumed partial files).
    ///   - report: The caller's callback, or nil.
    init(total: Int64, alreadyDone: Int64, report: (@Sendable (Double) -> Void)?) {
        let total = max(0, total)
        self.total = total
        state = Mutex(State(completed: min(max(0, alreadyDone), total)))
        self.report = report
    }

    /// Reports the current fraction (once, at the start).
    func start() { publish() }

    /// Adds `bytes` received and reports the new fraction if it moved by at least 0.1 % .
    func add(_ bytes: Int) {
        state.withLock { $0.completed = min(total, $0.completed + Int64(bytes)) }
        publish(minimumStep: 0.001)
    }

    /// Takes back `bytes` (a restarted download); the reported fraction does not go down.
    func remove(_ bytes: Int64) {
        state.withLock { $0.completed = max(0, $0.completed - bytes) }
    }

    /// Reports 1.
    func finish() {
        state.withLock { $0.completed = total }
        publish()
    }

    private func publish(minimumStep: Double = 0) {
        let total = total
        let fraction: Double? = state.withLock { state in
            let fraction = total == 0 ? 1 : min(1, Double(state.completed) / Double(total))
            guard fraction > state.lastReported + minimumStep || (fraction == 1 && state.lastReported < 1) else {
                return nil
            }
            state.lastReported = fraction
            return fraction
        }
        if let fraction { report?(fraction) }
    }
}
