import Foundation

/// Computes a night's `SleepStatistics` from its whole-night predictions and snoring events.
///
/// Definitions (durations in seconds, every epoch counts its own length):
/// - time in bed: the session's length (its start to its end; without a session, the predictions' span);
/// - sleep onset: the start of the first run of `onsetEpochs` consecutive sleep epochs (light, deep or REM);
///   sleep onset latency: from the session start to sleep onset;
/// - final wake time: the end of the last sleep epoch; the sleep period runs from onset to final wake;
/// - total sleep: sleep epochs inside the sleep period; wake after sleep onset: wake epochs inside it;
/// - awakenings: runs of at least `minimumAwakeningEpochs` wake epochs inside the sleep period;
/// - efficiency: total sleep / time in bed;
/// - per-stage durations: every epoch of the night, awake included;
/// - snoring: snore sessions as given, or built from `.snoring` events (events closer than
///   `snoreSessionGap` join one session); snore time is the length of the stretches of snoring
///   (`SnoreSessionBuilder.snoreTime`: events less than 10 s apart join, the breath between them included), or
///   the sum of the sessions' `snoreDuration` when only sessions are given; snore count is the number of snoring
///   events.
/// Without any sleep epoch, onset latency, final wake time and awakenings are nil and total sleep is 0.
package struct SleepStatisticsCalculator: Sendable {
    /// Consecutive sleep epochs that mark sleep onset.
    package var onsetEpochs: Int
    /// Wake epochs in a row that count as an awakening.
    package var minimumAwakeningEpochs: Int
    /// Largest gap, in seconds, between snoring events of one snore session.
    package var snoreSessionGap: TimeInterval

    /// Creates a calculator.
    ///
    /// - Parameters:
    ///   - onsetEpochs: consecutive sleep epochs that mark sleep onset (at least 1; default 3, 90 s).
    ///   - minimumAwakeningEpochs: wake epochs in a row that count as an awakening (at least 1; default 1).
    ///   - snoreSessionGap: largest gap between snoring events of one session (default 120 s).
    package init(onsetEpochs: Int = 3, minimumAwakeningEpochs: Int = 1, snoreSessionGap: TimeInterval = 120) {
        self.onsetEpochs = max(1, onsetEpochs)
        self.minimumAwakeningEpochs = max(1, minimumAwakeningEpochs)
        self.snoreSessionGap = max(0, snoreSessionGap)
    }

    /// Computes the statistics.
    ///
    /// - Parameters:
    ///   - predictions: whole-night predictions, one per epoch.
    ///   - session: the session's start and end (nil: the span of the predictions).
    ///   - events: the night's events (only `.snoring` ones are read).
    ///   - snoreSessions: snore sessions when already known (nil: built from the events).
    /// - Returns: every field filled (optional ones nil when undefined, as described above).
    package func statistics(
        predictions: [SleepStagePrediction], session: DateInterval? = nil, events: [Event] = [],
        snoreSessions: [SnoreSession]? = nil
    ) -> SleepStatistics {
        let epochs = predictions.sorted { $0.interval.start < $1.interval.start }
        let span =
            session ?? epochs.first.map {
                let last = epochs.last?.interval.end ?? $0.interval.end
                return DateInterval(start: $0.interval.start, end: max(last, $0.interval.end))
            } ?? DateInterval(start: Date(timeIntervalSince1970: 0), duration: 0)
        var durations = Dictionary(uniqueKeysWithValues: SleepStage.allCases.map { ($0, 0.0) })
        for epoch in epochs { durations[epoch.stage, default: 0] += epoch.interval.duration }

        let snoring = events.filter { $0.type == .snoring }.sorted { $0.interval.start < $1.interval.start }
        let sessions = snoreSessions ?? SnoreSessionBuilder(maximumGap: snoreSessionGap).sessions(from: snoring)
        let snoreTime =
            snoring.isEmpty
            ? sessions.reduce(0) { $0 + $1.snoreDuration } : SnoreSessionBuilder().snoreTime(from: snoring)
        var result = SleepStatistics(
            totalSleepDuration: 0, sleepEfficiency: 0, snoreTime: snoreTime, snoreSessions: sessions,
            sleepStageDurations: durations, timeInBed: span.duration, wakeAfterSleepOnset: 0,
            snoreCount: snoring.isEmpty ? sessions.reduce(0) { $0 + $1.eventCount } : snoring.count)

        guard let onset = onsetIndex(epochs), let last = epochs.lastIndex(where: { $0.stage != .awake }) else {
            return result
        }
        let period = epochs[onset...last]
        let sleep = period.filter { $0.stage != .awake }.reduce(0) { $0 + $1.interval.duration }
        result.totalSleepDuration = sleep
        result.wakeAfterSleepOnset = period.filter { $0.stage == .awake }.reduce(0) { $0 + $1.interval.duration }
        result.sleepOnsetLatency = max(0, epochs[onset].interval.start.timeIntervalSince(span.start))
        result.finalWakeTime = epochs[last].interval.end
        result.sleepEfficiency = span.duration > 0 ? min(1, sleep / span.duration) : 0
        result.numberOfAwakenings = awakenings(in: Array(period))
        return result
    }

    private func onsetIndex(_ epochs: [SleepStagePrediction]) -> Int? {
        var run = 0
        for (index, epoch) in epochs.enumerated() {
            run = epoch.stage == .awake ? 0 : run + 1
            if run == onsetEpochs { return index - onsetEpochs + 1 }
        }
        return nil
    }

    private func awakenings(in period: [SleepStagePrediction]) -> Int {
        var count = 0
        var run = 0
        for epoch in period {
            if epoch.stage == .awake {
                run += 1
            } else {
                if run >= minimumAwakeningEpochs { count += 1 }
                run = 0
            }
        }
        return count
    }

    /// Seconds covered by the union of the events' intervals.
}
