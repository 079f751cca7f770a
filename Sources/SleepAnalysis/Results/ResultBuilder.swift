import Foundation

/// Assembles a session's `AnalysisResult` from what its engines produced.
struct ResultBuilder {
    var sessionId: UUID
    var startTime: Date
    var endTime: Date
    var timeZone: TimeZone
    var events: [Event]
    var breathingRates: [BreathingRate]
    var realTimePredictions: [SleepStagePrediction]
    /// Whole-night predictions; nil when the licence leaves whole-night staging out.
    var wholeNight: [SleepStagePrediction]?
    /// Which inputs staged the night, when it was staged.
    var stagingBasis: StagingBasis?
    var audioStatistics: AudioStatistics?
    var includeRealTime: Bool
    var smartAlarmEvents: [SmartAlarmEvent]

    /// Whether the microphone gave no signal for the whole session: every audio health interval is a flat line
    /// or missing input (a dead, muted or unplugged microphone; an all-NaN file, repaired to silence).
    var heardNothing: Bool {
        guard let intervals = audioStatistics?.healthIntervals, !intervals.isEmpty else { return false }
        return intervals.allSatisfy { $0.status != .healthy }
    }

    /// The result. A night staged from sound alone (or from the time of night) whose microphone heard nothing is
    /// not staged at all: its stages would be made up. It carries a `noAudioSignal` warning, and its
    /// `scoreUnavailableReason` is `noSignal`.
    func build() -> AnalysisResult {
        // In time order whatever the order they were found, journaled and restored in (a resumed night).
        let events = events.sorted { $0.interval.start < $1.interval.start }
        let silent = heardNothing
        let stagedFromSound = stagingBasis.map { [.soundOnly, .timeOnly].contains($0.mode) } ?? true
        let unstaged = silent && stagedFromSound
        let wholeNight = unstaged ? nil : self.wholeNight
        let predictions = clipped(wholeNight ?? [])
        let realTimePredictions = unstaged ? [] : clipped(realTimePredictions)
        let statistics = wholeNight.map { _ in
            SleepStatisticsCalculator().statistics(
                predictions: predictions, session: DateInterval(start: startTime, end: endTime), events: events,
                snoreSessions: SnoreSessionBuilder().sessions(from: events))
        }
        var result = AnalysisResult(
            sessionId: sessionId, startTime: startTime, endTime: endTime, timeZone: timeZone, events: events,
            breathingRates: breathingRates,
            sleepStageIntervals: SleepStageIntervals.from(predictions),
            realTimeSleepStageIntervals: includeRealTime ? SleepStageIntervals.from(realTimePredictions) : [],
            sleepStagePredictions: predictions, statistics: statistics, audioStatistics: audioStatistics,
            smartAlarmEvents: smartAlarmEvents, stagingBasis: predictions.isEmpty ? nil : stagingBasis)
        if silent {
            result.warnings = [
                AnalysisWarning(
                    kind: .noAudioSignal,
                    message: "the microphone gave no signal for the whole recording (a flat line: dead, muted or "
                        + "unplugged, or samples that were all NaN)"
                        + (unstaged
                            ? ": nothing could be heard, so the night was not staged or scored"
                            : "; the night was staged from its other sensors"))
            ]
        }
        return result
    }

    /// The epochs within the session: a last epoch staged from its first half ends where the session ends, so no
    /// stage outlasts the time in bed (a 20-second clip is not "light 1 min").
    private func clipped(_ predictions: [SleepStagePrediction]) -> [SleepStagePrediction] {
        predictions.compactMap { prediction in
            let start = max(prediction.interval.start, startTime)
            let end = min(prediction.interval.end, endTime)
            guard end > start else { return nil }
            var inSession = prediction
            inSession.interval = DateInterval(start: start, end: end)
            return inSession
        }
    }
}
