import Foundation

/// The figures the sleep score needs from one night, with fallbacks when parts of the result are missing.
///
/// Each figure comes from `statistics` when present, else from the hypnogram (the whole-night
/// `sleepStageIntervals`, else the per-epoch `sleepStagePredictions`, else the real-time intervals), else
/// from the session's start and end (asleep the whole time in bed: `hasStaging` is then false).
struct NightSummary: Sendable, Hashable {
    /// The shortest wake run that counts as an awakening in the quality score (5 minutes).
    static let longAwakeningSeconds: TimeInterval = 300

    /// The session: from going to bed to getting up.
    var inBed: DateInterval
    /// The start of the first sleep.
    var sleepOnset: Date
    /// The end of the last sleep.
    var finalWake: Date
    /// Seconds asleep.
    var totalSleep: TimeInterval
    /// Time asleep over time in bed, 0...1.
    var efficiency: Double
    /// Seconds from going to bed to sleep onset, when staging ran.
    var onsetLatency: TimeInterval?
    /// Seconds awake between sleep onset and final wake, when staging ran.
    var wakeAfterSleepOnset: TimeInterval?
    /// Wake runs of at least 5 minutes between sleep onset and final wake, when a hypnogram exists.
    var longAwakenings: Int?
    /// Seconds in each stage, when staging ran.
    var stageDurations: [SleepStage: Double]?
    /// Whether any staging (statistics or hypnogram) was available.
    var hasStaging: Bool
    /// The zone of the sleeper's clock that night.
    var timeZone: TimeZone

    /// Summarises a result.
    ///
    /// - Parameter result: The night's analysis result.
    init(_ result: AnalysisResult) {
        let inBed = DateInterval(start: result.startTime, end: max(result.startTime, result.endTime))
        let stats = result.statistics
        let hypnogram = Hypnogram(result)
        self.inBed = inBed
        self.timeZone = result.timeZone

        let asleepFromHypnogram = hypnogram?.totalSleep
        let onsetFromStatistics = stats?.sleepOnsetLatency.map { inBed.start.addingTimeInterval($0) }
        sleepOnset = onsetFromStatistics ?? hypnogram?.sleepOnset ?? inBed.start
        finalWake = max(sleepOnset, stats?.finalWakeTime ?? hypnogram?.finalWake ?? inBed.end)
        totalSleep = max(0, stats?.totalSleepDuration ?? asleepFromHypnogram ?? inBed.duration)
        let measuredEfficiency =
            stats?.sleepEfficiency
            ?? (inBed.duration > 0 ? totalSleep / inBed.duration : (totalSleep > 0 ? 1 : 0))
        efficiency = min(1, max(0, measuredEfficiency))
        onsetLatency = stats?.sleepOnsetLatency ?? hypnogram?.sleepOnset.map { $0.timeIntervalSince(inBed.start) }
        wakeAfterSleepOnset = stats?.wakeAfterSleepOnset ?? hypnogram?.wakeAfterSleepOnset
        longAwakenings = hypnogram?.awakenings(atLeast: Self.longAwakeningSeconds)
        stageDurations = stats?.sleepStageDurations ?? hypnogram?.stageDurations
        hasStaging = stats?.totalSleepDuration != nil || hypnogram != nil
    }
}

/// A night's stages as time-ordered runs, for figures the statistics do not carry.
struct Hypnogram: Sendable, Hashable {
    /// The runs, sorted by start.
    var intervals: [SleepStageInterval]

    /// The result's best hypnogram: whole-night intervals, else per-epoch predictions, else real-time
    /// intervals; nil when it has none.
    init?(_ result: AnalysisResult) {
        let candidates = [
            result.sleepStageIntervals,
            result.sleepStagePredictions.map { SleepStageInterval(stage: $0.stage, interval: $0.interval) },
            result.realTimeSleepStageIntervals,
        ]
        guard let chosen = candidates.first(where: { !$0.isEmpty }) else { return nil }
        intervals = chosen.sorted { $0.interval.start < $1.interval.start }
    }

    private var sleep: [SleepStageInterval] { intervals.filter { $0.stage != .awake } }

    /// The start of the first sleep run.
    var sleepOnset: Date? { sleep.first?.interval.start }

    /// The end of the last sleep run.
    var finalWake: Date? { sleep.map(\.interval.end).max() }

    /// Seconds asleep.
    var totalSleep: TimeInterval { sleep.map(\.interval.duration).reduce(0, +) }

    /// Seconds in each stage.
    var stageDurations: [SleepStage: Double] {
        intervals.reduce(into: [:]) { $0[$1.stage, default: 0] += $1.interval.duration }
    }

    /// Seconds awake between sleep onset and final wake.
    var wakeAfterSleepOnset: TimeInterval {
        awakeRunsAfterOnset.map(\.duration).reduce(0, +)
    }

    /// The number of wake runs of at least `seconds` between sleep onset and final wake.
    func awakenings(atLeast seconds: TimeInterval) -> Int {
        awakeRunsAfterOnset.filter { $0.duration >= seconds }.count
    }

    /// Wake runs strictly between sleep onset and final wake, adjacent ones (within 1 s) merged.
    private var awakeRunsAfterOnset: [DateInterval] {
        guard let onset = sleepOnset, let end = finalWake else { return [] }
        var runs: [DateInterval] = []
        for run in intervals where run.stage == .awake {
            let start = max(run.interval.start, onset)
            let stop = min(run.interval.end, end)
            guard stop > start else { continue }
            if let last = runs.last, start.timeIntervalSince(last.end) <= 1 {
                runs[runs.count - 1] = DateInterval(start: last.start, end: max(last.end, stop))
            } else {
                runs.append(DateInterval(start: start, end: stop))
            }
        }
        return runs
    }
}
