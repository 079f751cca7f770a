import Foundation
import SleepAnalysis
import Synchronization

/// Delivers SIGINT (Ctrl-C) and SIGTERM as values instead of letting them end the process, so that a command can
/// stop cleanly and print what it has.
///
/// A signal, once it arrived, stays: every later wait returns it at once, so that a command analysing several
/// nights stops them all. Waits can be cancelled any number of times without losing later signals.
final class InterruptSignal: @unchecked Sendable {
    /// What the mutex guards: the first signal, and the waits it will end.
    private struct State {
        var received: Int32?
        var waiters: [UUID: CheckedContinuation<Int32?, Never>] = [:]
    }

    // `@unchecked` for `sources` alone: written once in `init` and only kept alive afterwards.
    private var sources: [any DispatchSourceSignal] = []
    private let state = Mutex(State())

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
                state.withLock { state in
                    if let received = state.received {
                        continuation.resume(returning: received)
                    } else if Task.isCancelled {
                        continuation.resume(returning: nil)
                    } else {
                        state.waiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }

    /// Keeps the signal and wakes every waiter.
    private func deliver(_ number: Int32) {
        let woken = state.withLock { state in
            state.received = state.received ?? number
            defer { state.waiters = [:] }
            return state.waiters
        }
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
