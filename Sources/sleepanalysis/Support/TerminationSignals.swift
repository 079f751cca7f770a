import Foundation

/// SIGTERM and SIGINT turned into calls: the handler gets how many such signals have arrived so far (1 for the
/// first), on a dispatch queue. The signals' default action (ending the process) is off while installed.
final class TerminationSignals {
    private let sources: [any DispatchSourceSignal]

    /// Starts handling SIGTERM and SIGINT.
    ///
    /// - Parameter handler: Called with the running count of signals received.
    init(_ handler: @escaping @Sendable (Int) -> Void) {
        let queue = DispatchQueue(label: "sleepanalysis.signals")
        let counter = SignalCounter()
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(counter.increment()) }
            source.resume()
            return source
        }
    }

    /// Stops handling the signals.
    func cancel() {
        for source in sources { source.cancel() }
    }
}

/// A counter used only on the signal queue.
private final class SignalCounter: @unchecked Sendable {
    private var count = 0

    /// Adds one and returns the new count (called on the serial signal queue only).
    func increment() -> Int {
        count += 1
        return count
    }
}
