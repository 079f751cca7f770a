import Foundation
import SleepAnalysis

/// Delivers SIGINT (Ctrl-C) and SIGTERM as values instead of letting them end the process, so that a command can
/// stop cleanly and print what it has.
final class InterruptSignal: @unchecked Sendable {
    // `sources` is written once in `init` and only kept alive afterwards.
    private let sources: [any DispatchSourceSignal]
    private let signalled = AsyncStream<Int32>.makeStream()

    /// Ignores the signals' default action (ending the process) and starts listening for them.
    init() {
        var made: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let continuation = signalled.continuation
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Waits for a signal.
    ///
    /// - Returns: The signal's number, or nil when the waiting task was cancelled first.
    func wait() async -> Int32? {
        for await number in signalled.stream { return number }
        return nil
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
