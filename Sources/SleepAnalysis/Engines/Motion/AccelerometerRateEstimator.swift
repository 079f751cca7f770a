import Foundation

/// Finds an accelerometer's sample rate from its timestamps when the caller does not give it, for every engine that
/// filters the accelerometer (activity counts, movements), so that they agree on it.
///
/// The rate is one over the median positive interval of the first ``sampleCount`` samples (a median, so a late or
/// repeated timestamp does not move it; 50 Hz when no interval is positive). When the input ends before that many
/// samples, it is the mean rate over the samples there are. The samples are held until the rate is known and then
/// handed back, so none is lost.
struct AccelerometerRateEstimator: Sendable {
    /// How many samples the rate is estimated from.
    static let sampleCount = 64
    /// The rate taken when the timestamps do not tell (none apart, or a single sample).
    static let fallbackRate = 50.0

    private var pending: [AccelerometerSample] = []

    /// Holds `samples` until ``sampleCount`` have come.
    ///
    /// - Parameter samples: the next readings, in time order.
    /// - Returns: once enough samples have come, the rate and every sample held so far (this call's included);
    ///   before that, nil.
    mutating func add(_ samples: [AccelerometerSample]) -> (rate: Double, samples: [AccelerometerSample])? {
        pending += samples
        guard pending.count >= Self.sampleCount else { return nil }
        let intervals = zip(pending.dropFirst(), pending).map { $0.timestamp.timeIntervalSince($1.timestamp) }
            .filter { $0 > 0 }.sorted()
        let rate = intervals.isEmpty ? Self.fallbackRate : 1 / intervals[intervals.count / 2]
        return handOver(rate: rate)
    }

    /// Ends the input before ``sampleCount`` samples came.
    ///
    /// - Returns: the mean rate over the samples held and those samples, or nil when none is held.
    mutating func finish() -> (rate: Double, samples: [AccelerometerSample])? {
        guard let first = pending.first, let last = pending.last else { return nil }
        let span = last.timestamp.timeIntervalSince(first.timestamp)
        return handOver(rate: span > 0 ? Double(pending.count - 1) / span : Self.fallbackRate)
    }

    private mutating func handOver(rate: Double) -> (rate: Double, samples: [AccelerometerSample]) {
        let held = pending
        pending = []
        return (rate, held)
    }
}
