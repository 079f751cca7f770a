import Foundation

/// A night of epochs as the feature extractor sees them: raw per-epoch inputs by epoch index, plus per-night
/// running distributions used to normalise them (so that any device scale gives the same features).
///
/// Epochs are appended in time order; gaps are filled with empty epochs by the caller.
package struct NightSeries: Sendable {
    /// Epoch activity counts (nil when unknown).
    private(set) var activity: [Double?] = []
    /// Epoch mean heart rate (nil when unknown).
    private(set) var heartRate: [Double?] = []
    /// Epoch heart-rate standard deviation within the epoch (nil when unknown or from one reading).
    private(set) var heartRateSpread: [Double?] = []
    /// Hours from the session start to each epoch's start.
    private(set) var hoursSinceStart: [Double] = []

    private(set) var activityDistribution = RunningDistribution()
    private(set) var heartRateDistribution = RunningDistribution()
    private(set) var spreadDistribution = RunningDistribution()

    /// An empty night.
    package init() {}

    /// Number of epochs.
    package var count: Int { hoursSinceStart.count }

    /// Appends the next epoch.
    package mutating func append(_ epoch: EpochFeatures, hoursSinceStart hours: Double) {
        let activityValue = epoch.activityCount.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        activity.append(activityValue)
        if let activityValue { activityDistribution.insert(activityValue) }
        let bpm = epoch.heartRate.flatMap { $0.meanBpm.isFinite ? $0.meanBpm : nil }
        heartRate.append(bpm)
        if let bpm { heartRateDistribution.insert(bpm) }
        let spread = epoch.heartRate.flatMap { $0.sampleCount >= 2 ? $0.standardDeviation : nil }
        heartRateSpread.append(spread)
        if let spread { spreadDistribution.insert(spread) }
        hoursSinceStart.append(hours)
    }

    /// Epochs that carry an activity count.
    var activityEpochCount: Int { activityDistribution.count }
    /// Epochs that carry heart rate.
    var heartRateEpochCount: Int { heartRateDistribution.count }
}
