import Foundation

/// Smooths epoch activity counts over the past few minutes with a Gaussian weight, as the Walch training counts
/// were smoothed (σ = 50 s), but from this epoch and earlier ones only, so a real-time count never waits for the
/// future.
///
/// The training counts spread each movement over the minutes around it, so an awake stretch with a movement every
/// few epochs has no epoch at 0; unsmoothed per-epoch counts would show the epochs between movements as still as
/// sleep. The smoothed count of epoch *i* is `Σ w(i − j) · count(j) / Σ w(i − j)` over the epochs *j* with data in
/// the last 5 minutes, `w(k) = exp(−½ (30 k / 50)²)`.
struct CausalCountSmoother: Sendable {
    /// The recent epochs with data, oldest first.
    private var recent: [(epoch: Int, count: Double)] = []

    /// The Gaussian's standard deviation, seconds (Walch et al. 2019).
    static let sigmaSeconds = 50.0
    /// How many earlier epochs are weighed (5 minutes, about 6 σ).
    static let spanEpochs = 10

    /// Creates a smoother with no history.
    init() {}

    /// The smoothed count of the next epoch.
    ///
    /// - Parameters:
    ///   - count: the epoch's count.
    ///   - epoch: the epoch's index (increasing; gaps are epochs without data).
    /// - Returns: the weighted mean of this epoch's and the earlier epochs' counts.
    mutating func smooth(_ count: Double, epoch: Int) -> Double {
        guard count.isFinite else { return count }
        recent.append((epoch, count))
        recent.removeAll { epoch - $0.epoch > Self.spanEpochs }
        var weighted = 0.0
        var total = 0.0
        for entry in recent {
            let seconds = Double(epoch - entry.epoch) * EpochFeatures.duration
            let weight = exp(-0.5 * (seconds / Self.sigmaSeconds) * (seconds / Self.sigmaSeconds))
            weighted += weight * entry.count
            total += weight
        }
        return weighted / total
    }
}
