import Foundation

/// Turns bytes received into a fraction 0...1 for `onDownloadProgress`: never decreasing, and ending at exactly 1.
final class DownloadProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int64
    private var completed: Int64
    private var lastReported = -1.0
    private let report: (@Sendable (Double) -> Void)?

    /// Creates a tracker.
    ///
    /// - Parameters:
    ///   - total: The bytes that make up 100 %.
    ///   - alreadyDone: Bytes already on disk (resumed partial files).
    ///   - report: The caller's callback, or nil.
    init(total: Int64, alreadyDone: Int64, report: (@Sendable (Double) -> Void)?) {
        self.total = max(0, total)
        self.completed = min(max(0, alreadyDone), self.total)
        self.report = report
    }

    /// Reports the current fraction (once, at the start).
    func start() { publish() }

    /// Adds `bytes` received and reports the new fraction if it moved by at least 0.1 % .
    func add(_ bytes: Int) {
        lock.lock()
        completed = min(total, completed + Int64(bytes))
        lock.unlock()
        publish(minimumStep: 0.001)
    }

    /// Takes back `bytes` (a restarted download); the reported fraction does not go down.
    func remove(_ bytes: Int64) {
        lock.lock()
        completed = max(0, completed - bytes)
        lock.unlock()
    }

    /// Reports 1.
    func finish() {
        lock.lock()
        completed = total
        lock.unlock()
        publish()
    }

    private func publish(minimumStep: Double = 0) {
        lock.lock()
        let fraction = total == 0 ? 1 : min(1, Double(completed) / Double(total))
        let send = fraction > lastReported + minimumStep || (fraction == 1 && lastReported < 1)
        if send { lastReported = fraction }
        lock.unlock()
        if send { report?(fraction) }
    }
}
