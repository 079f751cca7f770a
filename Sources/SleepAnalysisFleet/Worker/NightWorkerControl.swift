import Foundation
import SleepAnalysis

/// The shared state of a `NightWorker`'s tasks: whether it is stopping (and how), the runs in progress, the
/// idle slots waiting for work, and a fault that ends the worker.
actor NightWorkerControl {
    /// How the worker stops.
    enum StopMode: Sendable, Hashable {
        /// Claim no more; finish the running nights.
        case drain
        /// Claim no more; give the running nights back at once.
        case release
    }

    private(set) var stopMode: StopMode?
    private(set) var fault: (any Error)?
    private var runs: [Int64: NightAnalysisRun] = [:]
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// True while the worker should claim jobs.
    var isClaiming: Bool { stopMode == nil }
    /// True once the worker gives its running nights back.
    var isReleasing: Bool { stopMode == .release }

    /// Asks the worker to stop; `release` overrides an earlier `drain`, never the reverse.
    ///
    /// - Parameter mode: How.
    func stop(_ mode: StopMode) {
        if stopMode != .release { stopMode = mode }
        if mode == .release {
            for run in runs.values { run.abort(.released) }
        }
        wakeAll()
    }

    /// Records a fault that makes the worker unfit (a bad licence, a login the database refuses) and stops it,
    /// releasing its jobs.
    ///
    /// - Parameter error: What is wrong.
    func fail(_ error: any Error) {
        if fault == nil { fault = error }
        stop(.release)
    }

    /// Tracks a run so that a release can abort it (at once when the worker is already releasing).
    ///
    /// - Parameters:
    ///   - run: The run.
    ///   - id: Its job.
    func register(_ run: NightAnalysisRun, job id: Int64) {
        runs[id] = run
        if stopMode == .release { run.abort(.released) }
    }

    /// Stops tracking the run of job `id`.
    func unregister(job id: Int64) {
        runs[id] = nil
    }

    /// Waits until `wakeAll` (new work, stopping) or `seconds` have passed.
    ///
    /// - Parameter seconds: The longest wait.
    func wait(upTo seconds: TimeInterval) async {
        guard stopMode == nil else { return }
        let id = UUID()
        await withCheckedContinuation { continuation in
            waiters[id] = continuation
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
                self.resume(id)
            }
        }
    }

    /// Wakes every waiting slot.
    func wakeAll() {
        let waiting = waiters
        waiters.removeAll()
        for continuation in waiting.values { continuation.resume() }
    }

    private func resume(_ id: UUID) {
        waiters.removeValue(forKey: id)?.resume()
    }
}
