import Foundation

/// Turns a night of epochs into the model's input vector for one epoch.
///
/// Per-night normalisation makes the features independent of the device's scale:
/// - activity `x = log(1 + count / mean count of the night)`, its mid-rank percentile within the night,
///   and "still" epochs (count ≤ 5 % of the night's mean);
/// - heart rate `z = (bpm − night median) / max(IQR / 1.349, 1 bpm)`, its percentile, and the within-epoch
///   spread divided by the night's median spread.
/// On top of those: multi-scale context windows (past windows only when causal; past and future windows for
/// the whole night), variability (standard deviation and RMS of successive differences of `z`), time since
/// the last large movement, and time since the session began.
///
/// In the causal context "the night" is the night so far: the features of epoch *i* depend only on epochs
/// 0...*i*, so appending epochs never changes an earlier real-time output.
package struct StagingFeatureExtractor: Sendable {
    /// The sensor inputs read.
    let inputs: StagingInputs
    /// Causal or whole night.
    let context: StagingContext

    private static let activityWindows = [3, 10, 20, 40, 80, 160]
    private static let heartRateWindows = [5, 10, 20, 40, 80, 160]
    private static let variabilityWindows = [10, 20, 40]
    private static let stillFraction = 0.05
    private static let bigMovementRank = 0.9
    private static let movementHorizon = 240

    /// Creates an extractor.
    ///
    /// - Parameters:
    ///   - inputs: The sensor inputs read.
    ///   - context: Causal or whole night.
    package init(inputs: StagingInputs, context: StagingContext) {
        self.inputs = inputs
        self.context = context
    }

    /// The names of the features, in vector order (the model file lists them and must match).
    package var featureNames: [String] {
        var names = ["time_hours"]
        if context == .wholeNight { names += ["time_fraction", "time_to_end_hours"] }
        let directions = context == .wholeNight ? ["past", "future"] : ["past"]
        if inputs.usesActivity {
            names += ["act_rank", "act_log"]
            for direction in directions {
                names += Self.activityWindows.map { "act_\(direction)_mean_\($0)" }
                names += [
                    "act_\(direction)_still_20", "act_\(direction)_still_60", "act_\(direction)_maxrank_10",
                    "act_\(direction)_big_epochs",
                ]
            }
        }
        if inputs.usesHeartRate {
            names += ["hr_z", "hr_rank", "hr_spread"]
            for direction in directions {
                names += Self.heartRateWindows.map { "hr_\(direction)_mean_\($0)" }
                names += Self.variabilityWindows.map { "hr_\(direction)_sd_\($0)" }
                names += Self.variabilityWindows.map { "hr_\(direction)_rmssd_\($0)" }
                names += ["hr_\(direction)_spread_10", "hr_\(direction)_above_low_10"]
            }
        }
        return names
    }

    /// The feature vector of epoch `index` (NaN marks a missing value).
    ///
    /// - Parameters:
    ///   - night: the epochs; in the causal context, the night up to and including `index`.
    ///   - index: the epoch.
    /// - Returns: one value per name in `featureNames`.
    package func features(of night: NightSeries, at index: Int) -> [Double] {
        let end = context == .causal ? index + 1 : night.count
        var values = [night.hoursSinceStart[index]]
        if context == .wholeNight {
            values.append(Double(index + 1) / Double(max(end, 1)))
            values.append(Double(end - index - 1) * EpochFeatures.duration / 3600)
        }
        let ranges = windowRanges(index: index, end: end)
        if inputs.usesActivity { values += activityFeatures(night, index: index, end: end, ranges: ranges) }
        if inputs.usesHeartRate { values += heartRateFeatures(night, index: index, ranges: ranges) }
        return values
    }

    // MARK: - Windows

    /// For each direction, a function from window length to the index range it covers.
    private func windowRanges(index: Int, end: Int) -> [(Int) -> Range<Int>] {
        let past: (Int) -> Range<Int> = { length in max(0, index - length + 1)..<(index + 1) }
        guard context == .wholeNight else { return [past] }
        let future: (Int) -> Range<Int> = { length in index..<min(end, index + length) }
        return [past, future]
    }

    // MARK: - Activity

    private func activityFeatures(
        _ night: NightSeries, index: Int, end: Int, ranges: [(Int) -> Range<Int>]
    ) -> [Double] {
        let distribution = night.activityDistribution
        let mean = distribution.mean ?? 0
        let scale = mean > 0 ? mean : 1
        let logged: (Int) -> Double? = { position in night.activity[position].map { log1p($0 / scale) } }
        let rank: (Int) -> Double? = { position in
            night.activity[position].flatMap { distribution.percentileRank(of: $0) }
        }
        var values = [rank(index) ?? .nan, logged(index) ?? .nan]
        for (directionIndex, range) in ranges.enumerated() {
            for length in Self.activityWindows {
                values.append(Self.mean(range(length).compactMap(logged)))
            }
            for length in [20, 60] {
                let still = range(length).compactMap { night.activity[$0] }
                    .map { $0 <= Self.stillFraction * mean ? 1.0 : 0 }
                values.append(Self.mean(still))
            }
            values.append(range(10).compactMap(rank).max() ?? .nan)
            values.append(epochsToBigMovement(night, index: index, end: end, forward: directionIndex == 1))
        }
        return values
    }

    /// log(1 + epochs) to the nearest epoch whose activity is in the night's top 10 %, looking back or ahead.
    private func epochsToBigMovement(_ night: NightSeries, index: Int, end: Int, forward: Bool) -> Double {
        guard let threshold = night.activityDistribution.quantile(Self.bigMovementRank) else { return .nan }
        let strides =
            forward
            ? Array(index..<min(end, index + Self.movementHorizon))
            : Array(stride(from: index, through: max(0, index - Self.movementHorizon + 1), by: -1))
        for position in strides {
            if let value = night.activity[position], value >= threshold, value > 0 {
                return log1p(Double(abs(position - index)))
            }
        }
        return log1p(Double(Self.movementHorizon))
    }

    // MARK: - Heart rate

    private func heartRateFeatures(_ night: NightSeries, index: Int, ranges: [(Int) -> Range<Int>]) -> [Double] {
        let distribution = night.heartRateDistribution
        guard let median = distribution.quantile(0.5), let q25 = distribution.quantile(0.25),
            let q75 = distribution.quantile(0.75), let low = distribution.quantile(0.1)
        else {
            return Array(
                repeating: .nan,
                count: 3 + ranges.count
                    * (Self.heartRateWindows.count
                        + 2 * Self.variabilityWindows.count + 2))
        }
        let scale = max((q75 - q25) / 1.349, 1)
        let z: (Int) -> Double? = { position in night.heartRate[position].map { ($0 - median) / scale } }
        let spreadScale = max(night.spreadDistribution.quantile(0.5) ?? 1, 0.5)
        let spread: (Int) -> Double? = { position in night.heartRateSpread[position].map { $0 / spreadScale } }
        var values = [
            z(index) ?? .nan,
            night.heartRate[index].flatMap { distribution.percentileRank(of: $0) } ?? .nan,
            spread(index) ?? .nan,
        ]
        for range in ranges {
            for length in Self.heartRateWindows {
                values.append(Self.mean(range(length).compactMap(z)))
            }
            for length in Self.variabilityWindows {
                values.append(Self.standardDeviation(range(length).compactMap(z)))
            }
            for length in Self.variabilityWindows {
                values.append(Self.successiveDifferenceRMS(range(length).map(z)))
            }
            values.append(Self.mean(range(10).compactMap(spread)))
            let recent = Self.mean(range(10).compactMap { night.heartRate[$0] })
            values.append(recent.isNaN ? .nan : (recent - low) / scale)
        }
        return values
    }

    // MARK: - Statistics

    private static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    private static func standardDeviation(_ values: [Double]) -> Double {
        guard values.count >= 3 else { return .nan }
        let average = mean(values)
        return (values.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(values.count)).squareRoot()
    }

    private static func successiveDifferenceRMS(_ values: [Double?]) -> Double {
        var sum = 0.0
        var count = 0
        for position in values.indices.dropFirst() {
            if let current = values[position], let previous = values[position - 1] {
                sum += (current - previous) * (current - previous)
                count += 1
            }
        }
        return count >= 2 ? (sum / Double(count)).squareRoot() : .nan
    }
}
