import Foundation

/// Features aimed at wake after sleep onset: activity and heart rate over windows of 10 to 40 minutes, centred
/// on the epoch for the whole night and trailing (the epoch and earlier ones) in real time.
///
/// - Activity: the mean of `log(1 + count / night mean)` over centred windows (whole night only; the trailing
///   means are among the extractor's other features), the highest percentile within the night over each window,
///   and log(1 + epochs) since (whole night: also until) the nearest epoch above the night's mean count (a
///   movement bout of any size; quiet wake rarely stays below the mean for long).
/// - Heart rate: the epoch's level above the night's 5th percentile and above the lowest epoch of each window
///   (in units of the night's spread), and the root mean square of successive differences of the readings
///   pooled over each window, as log of its ratio to the night's median epoch value.
///
/// "The night" is the night so far in real time, so every value of epoch *i* depends on epochs 0...*i* only.
struct StagingLongWindowFeatures: Sendable {
    /// The sensor inputs read.
    let inputs: StagingInputs
    /// Causal (trailing windows) or whole night (centred windows).
    let context: StagingContext

    /// Window lengths in epochs for activity (10, 20, 40 minutes).
    static let activityWindows = [20, 40, 80]
    /// Window lengths in epochs for the heart-rate level above the window's lowest epoch.
    static let heartRateLevelWindows = [20, 40]
    /// Window lengths in epochs for heart-rate variability from the readings (3, 5, 10 minutes).
    static let variabilityWindows = [6, 10, 20]
    /// Epochs looked back or ahead for a movement bout at most.
    static let movementHorizon = 240
    /// The low percentile of the night's heart rate the level is measured from.
    static let lowHeartRateQuantile = 0.05

    private var direction: String { context == .wholeNight ? "centred" : "past" }

    /// The names of the features, in vector order.
    var names: [String] {
        var names: [String] = []
        if inputs.usesActivity {
            if context == .wholeNight { names += Self.activityWindows.map { "act_centred_mean_\($0)" } }
            names += Self.activityWindows.map { "act_\(direction)_maxrank_\($0)" }
            names.append("act_since_moved")
            if context == .wholeNight { names.append("act_until_moved") }
        }
        if inputs.usesHeartRate {
            names.append("hr_above_low_5pct")
            names += Self.heartRateLevelWindows.map { "hr_\(direction)_above_min_\($0)" }
            names += Self.variabilityWindows.map { "hr_\(direction)_reading_rmssd_\($0)" }
        }
        return names
    }

    /// The values of epoch `index` (NaN marks a missing value).
    ///
    /// - Parameters:
    ///   - night: the epochs; in the causal context, the night up to and including `index`.
    ///   - index: the epoch.
    /// - Returns: one value per name in `names`.
    func values(of night: NightSeries, at index: Int) -> [Double] {
        let end = context == .causal ? index + 1 : night.count
        var values: [Double] = []
        if inputs.usesActivity { values += activityValues(night, index: index, end: end) }
        if inputs.usesHeartRate { values += heartRateValues(night, index: index, end: end) }
        return values
    }

    /// The epochs a window of `length` covers: trailing when causal, centred for the whole night.
    func window(_ length: Int, index: Int, end: Int) -> Range<Int> {
        switch context {
        case .causal: max(0, index - length + 1)..<(index + 1)
        case .wholeNight: max(0, index - length / 2)..<min(end, index + length / 2 + 1)
        }
    }

    // MARK: - Activity

    private func activityValues(_ night: NightSeries, index: Int, end: Int) -> [Double] {
        let distribution = night.activityDistribution
        let mean = distribution.mean ?? 0
        let scale = mean > 0 ? mean : 1
        var values: [Double] = []
        if context == .wholeNight {
            for length in Self.activityWindows {
                let logged = window(length, index: index, end: end).compactMap { night.activity[$0] }
                    .map { log1p($0 / scale) }
                values.append(logged.isEmpty ? .nan : logged.reduce(0, +) / Double(logged.count))
            }
        }
        for length in Self.activityWindows {
            let highest = window(length, index: index, end: end).compactMap { night.activity[$0] }.max()
            values.append(highest.flatMap { distribution.percentileRank(of: $0) } ?? .nan)
        }
        values.append(epochsToMovement(night, from: index, through: max(0, index - Self.movementHorizon + 1)))
        if context == .wholeNight {
            values.append(epochsToMovement(night, from: index, through: min(end, index + Self.movementHorizon) - 1))
        }
        return values
    }

    /// log(1 + epochs) from `index` to the nearest epoch (towards `limit`) whose count is above the night's mean;
    /// NaN without activity, log(1 + horizon) when none is that close.
    private func epochsToMovement(_ night: NightSeries, from index: Int, through limit: Int) -> Double {
        guard let mean = night.activityDistribution.mean else { return .nan }
        for position in stride(from: index, through: limit, by: limit < index ? -1 : 1) {
            if let count = night.activity[position], count > mean {
                return log1p(Double(abs(position - index)))
            }
        }
        return log1p(Double(Self.movementHorizon))
    }

    // MARK: - Heart rate

    private func heartRateValues(_ night: NightSeries, index: Int, end: Int) -> [Double] {
        let count = 1 + Self.heartRateLevelWindows.count + Self.variabilityWindows.count
        let distribution = night.heartRateDistribution
        guard let q25 = distribution.quantile(0.25), let q75 = distribution.quantile(0.75),
            let low = distribution.quantile(Self.lowHeartRateQuantile)
        else { return Array(repeating: .nan, count: count) }
        let scale = max((q75 - q25) / 1.349, 1)
        let current = night.heartRate[index]
        var values = [current.map { ($0 - low) / scale } ?? .nan]
        for length in Self.heartRateLevelWindows {
            let lowest = window(length, index: index, end: end).compactMap { night.heartRate[$0] }.min()
            if let current, let lowest { values.append((current - lowest) / scale) } else { values.append(.nan) }
        }
        let typical = max(night.successiveDifferenceDistribution.quantile(0.5) ?? .nan, 0.5)
        for length in Self.variabilityWindows {
            var squares = 0.0
            var differences = 0
            for position in window(length, index: index, end: end) {
                guard let epoch = night.heartRateSuccessiveDifferences[position] else { continue }
                squares += epoch.squares
                differences += epoch.count
            }
            values.append(
                differences >= 3 && typical.isFinite
                    ? log((squares / Double(differences)).squareRoot() / typical + 0.05) : .nan)
        }
        return values
    }
}
