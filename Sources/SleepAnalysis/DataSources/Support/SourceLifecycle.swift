import Foundation

/// The run state a data source shares between its callers and its worker thread: started or not, stop
/// requested or not, finished or not, and who is waiting for the end. All of it behind one lock. A wait that is
/// cancelled stops the run, so no wait outlives its source's work.
///
/// The worker thread sleeps through `sleep(untilUptimeNanoseconds:on:)`, which `requestStop()` cuts short, so a
/// paced replay stops promptly.
final class SourceLifecycle: @unchecked Sendable {
    private enum Phase {
        case idle
        case running
        case finished
    }

    private let condition = NSCondition()
    private var phase: Phase = .idle
    private var stopRequested = false
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// Marks the source running.
    ///
    /// - Throws: `SleepCycleSdkError.analysisAlreadyRunning` when it is running already.
    func begin() throws {
        condition.lock()
        defer { condition.unlock() }
        guard phase != .running else { throw SleepCycleSdkError.analysisAlreadyRunning }
        phase = .running
        stopRequested = false
    }

    /// Undoes `begin()` when the start failed before the worker thread was launched.
    func abandonStart() {
        condition.lock()
        phase = .idle
        condition.unlock()
    }

    /// Asks the worker to stop and wakes it if it is sleeping.
    func requestStop() {
        condition.lock()
        if phase == .running { stopRequested = true }
        condition.broadcast()
        condition.unlock()
    }

    /// True once `requestStop()` was called during this run.
    var isStopRequested: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopRequested
    }

    /// Sleeps until `clock` reaches `deadline`, or a stop is requested.
    ///
    /// - Parameters:
    ///   - deadline: The time on `clock` to wake up at, in nanoseconds.
    ///   - clock: The monotonic clock to wait on.
    /// - Returns: false when a stop was requested (the caller should wind down), true when the deadline passed.
    func sleep(untilUptimeNanoseconds deadline: UInt64, on clock: any MonotonicClock) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopRequested {
            let now = clock.uptimeNanoseconds
            if now >= deadline { return true }
            clock.wait(on: condition, upTo: deadline - now)
        }
        return false
    }

    /// Marks the run finished and releases everyone in `waitUntilFinished()`. Called by the worker thread after
    /// it has called the sink's `finish(error:)`.
    func markFinished() {
        condition.lock()
        phase = .finished
        let released = waiters.values
        waiters.removeAll()
        condition.broadcast()
        condition.unlock()
        for waiter in released { waiter.resume() }
    }

    /// Returns when the current run has finished (at once when the source is not running: never started, its
    /// start failed, or it finished already). Cancelling the waiting task stops the run: the wait then returns as
    /// soon as the worker has wound down and finished the sink, which a stop makes prompt.
    func waitUntilFinished() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                condition.lock()
                guard phase == .running else {
                    condition.unlock()
                    continuation.resume()
                    return
                }
                waiters[id] = continuation
                // A task cancelled before it got here stops the run as the cancellation handler would have.
                if Task.isCancelled {
                    stopRequested = true
                    condition.broadcast()
                }
                condition.unlock()
            }
        } onCancel: {
            requestStop()
        }
    }
}
