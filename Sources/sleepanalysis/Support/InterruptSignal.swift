import Foundation
import SleepAnalysis

/// Delivers SIGINT (Ctrl-C) and SIGTERM as values instead of letting them end the process, so that a command can
/// stop cleanly and print what it has.
///
/// A signal, once it arrived, stays: every later wait returns it at once, so that a command analysing several
/// nights stops them all. Waits can be cancelled any number of times without losing later signals.
final class InterruptSignal: @unchecked Sendable {
    // `sources` is written once in `init` and only kept alive afterwards; `received` and `waiters` under `lock`.
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()
    private var received: Int32?
    private var waiters: [UUID: CheckedContinuation<Int32?, Never>] = [:]

    /// Ignores the signals' default action (ending the process) and starts listening for them.
    init() {
        var made: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Waits for a signal.
    ///
    /// - Returns: The signal's number, or nil when the waiting task was cancelled first.
    func wait() async -> Int32? {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.lock()
                defer { lock.unlock() }
                if let received {
                    continuation.resume(returning: received)
                } else if Task.isCancelled {
                    continuation.resume(returning: nil)
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            lock.lock()
            let waiter = waiters.removeValue(forKey: id)
            lock.unlock()
            waiter?.resume(returning: nil)
        }
    }

    /// Keeps the signal and wakes every waiter.
    private func deliver(_ number: Int32) {
        lock.lock()
        received = received ?? number
        let woken = waiters
        waiters = [:]
        lock.unlock()
        for waiter in woken.values { waiter.resume(returning: number) }
    }

    /// Waits until `source` has delivered all its data or a signal arrives, whichever comes first.
    ///
    /// - Parameter source: A running data source.
    /// - Returns: The signal's number, or nil when the source finished.
    func wait(for source: any DataSource) async -> Int32? {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                await source.waitUntilFinished(); return nil
            }
            group.addTask { await self.wait() }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
