import Foundation

/// Finds the nights in a multi-day accelerometer file: the longest rest period of each day.
///
/// The method is the HDCZA heuristic of van Hees et al. (2018, "Estimating sleep parameters using an
/// accelerometer without sleep diary", Scientific Reports 8:12975), which needs no sleep diary:
/// 1. the z-angle of each 5-second epoch (`ZAngleEpochs`), and its absolute change from the epoch before;
/// 2. the rolling median of those changes over 5 minutes;
/// 3. a day's threshold: 15 × the 10th percentile of its rolling medians, kept within 0.13°–0.50° (the bounds
///    GGIR, the method's reference implementation, applies), so that a device that lay still all night does not
///    get a threshold below its own noise;
/// 4. runs under the threshold lasting over 30 minutes are rest; rest runs less than 60 minutes apart are joined;
/// 5. each day (noon to noon in the given zone, so that a night is never cut at midnight) gets its longest run.
///
/// Epochs without readings are not rest: a gap in the file ends a run. The method was validated on wrist-worn
/// devices against polysomnography and sleep diaries by its authors; it is not validated here on phones on a
/// mattress (the package's own tests use synthetic days).
package enum RestPeriodFinder {
    /// The rolling median's length, in 5-second epochs (5 minutes).
    static let medianEpochs = 60
    /// The threshold as a multiple of the day's 10th percentile of the rolling medians.
    static let percentileMultiple = 15.0
    /// The bounds of the threshold, in degrees.
    static let thresholdBounds = 0.13...0.50
    /// The shortest rest run kept, in epochs (30 minutes).
    static let shortestRestEpochs = 360
    /// The longest gap between rest runs that joins them, in epochs (60 minutes).
    static let longestJoinedGapEpochs = 720

    /// The nights of an accelerometer file, one per day that has a rest period.
    ///
    /// - Parameters:
    ///   - url: The accelerometer CSV file (any layout and unit `analyze --accelerometer` reads).
    ///   - startTime: What relative timestamps in the file count from.
    ///   - timeZone: The zone whose noons divide the days.
    ///   - localZone: The zone of timestamps written without one.
    /// - Returns: The nights, in time order.
    /// - Throws: `SleepCycleSdkError.invalidInput` for an unreadable file; `NightSplitError.noRestPeriod` when no
    ///   day has a rest period.
    package static func nights(
        inAccelerometerFile url: URL, startTime: Date, timeZone: TimeZone, localZone: TimeZone? = nil
    ) throws -> [DateInterval] {
        try nights(in: ZAngleEpochs(url: url, startTime: startTime, localZone: localZone), timeZone: timeZone)
    }

    /// The nights of the epochs' days.
    static func nights(in epochs: ZAngleEpochs, timeZone: TimeZone) throws(NightSplitError) -> [DateInterval] {
        let medians = rollingMedians(of: changes(epochs.angles))
        var nights: [DateInterval] = []
        for day in days(epochs, timeZone: timeZone) {
            let dayMedians = medians[day].compactMap { $0 }.sorted()
            guard !dayMedians.isEmpty else { continue }
            let percentile = dayMedians[Int(Double(dayMedians.count - 1) * 0.1)]
            let threshold = min(
                max(percentile * percentileMultiple, thresholdBounds.lowerBound), thresholdBounds.upperBound)
            let rest = day.map { medians[$0].map { $0 < threshold } ?? false }
            guard let longest = restRuns(rest).max(by: { $0.count < $1.count }) else { continue }
            let seconds = ZAngleEpochs.epochSeconds
            nights.append(
                DateInterval(
                    start: epochs.origin.addingTimeInterval(Double(day.lowerBound + longest.lowerBound) * seconds),
                    end: epochs.origin.addingTimeInterval(Double(day.lowerBound + longest.upperBound) * seconds)))
        }
        guard !nights.isEmpty else {
            let end = epochs.origin.addingTimeInterval(Double(epochs.angles.count) * ZAngleEpochs.epochSeconds)
            throw .noRestPeriod(readings: DateInterval(start: epochs.origin, end: end))
        }
        return nights
    }

    /// The absolute change of each epoch's angle from the epoch before (nil where either has none).
    static func changes(_ angles: [Double?]) -> [Double?] {
        angles.indices.map { index in
            guard index > 0, let angle = angles[index], let previous = angles[index - 1] else { return nil }
            return abs(angle - previous)
        }
    }

    /// The median of each centred 5-minute window of `values` (nil where the epoch itself has no value).
    static func rollingMedians(of values: [Double?]) -> [Double?] {
        let half = medianEpochs / 2
        return values.indices.map { index in
            guard values[index] != nil else { return nil }
            let window = values[max(0, index - half)..<min(values.count, index + half)].compactMap { $0 }.sorted()
            return window[window.count / 2]
        }
    }

    /// The epoch ranges of each noon-to-noon day of `timeZone` that the epochs reach.
    static func days(_ epochs: ZAngleEpochs, timeZone: TimeZone) -> [Range<Int>] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let count = epochs.angles.count
        var noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: epochs.origin) ?? epochs.origin
        if noon > epochs.origin { noon = calendar.date(byAdding: .day, value: -1, to: noon) ?? noon }
        var days: [Range<Int>] = []
        var first = 0
        while first < count {
            let next = calendar.date(byAdding: .day, value: 1, to: noon) ?? noon.addingTimeInterval(86_400)
            let last = min(count, Int((next.timeIntervalSince(epochs.origin) / ZAngleEpochs.epochSeconds).rounded(.up)))
            if last > first { days.append(first..<last) }
            first = max(first, last)
            noon = next
        }
        return days
    }

    /// The rest runs of a day: runs of rest over 30 minutes, joined across gaps under 60 minutes.
    static func restRuns(_ rest: [Bool]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for (index, resting) in (rest + [false]).enumerated() {
            if resting, start == nil { start = index }
            if !resting, let first = start {
                if index - first > shortestRestEpochs { runs.append(first..<index) }
                start = nil
            }
        }
        var joined: [Range<Int>] = []
        for run in runs {
            if let last = joined.last, run.lowerBound - last.upperBound < longestJoinedGapEpochs {
                joined[joined.count - 1] = last.lowerBound..<run.upperBound
            } else {
                joined.append(run)
            }
        }
        return joined
    }
}
