import Foundation

/// Why a result has no sleep score: the score rates a night, and some recordings are not one.
public enum SleepScoreUnavailableReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The recording was not staged (the licence leaves staging out, or no epoch was complete).
    case notStaged
    /// Less than `AnalysisResult.minimumScoredTimeInBed` (3 hours) in bed: a nap or a short recording.
    case shortRecording
    /// The night was staged, but no epoch was asleep.
    case noSleepFound
    /// The night's only input was a microphone that gave no signal (a `noAudioSignal` warning): it was not staged.
    case noSignal

    /// A sentence for reports.
    public var message: String {
        switch self {
        case .notStaged: "the recording was not staged"
        case .shortRecording: "the recording is short (a score needs 3 hours in bed)"
        case .noSleepFound: "no sleep was found in the recording"
        case .noSignal: "the microphone gave no signal (dead, muted or unplugged): nothing was staged"
        }
    }
}

extension AnalysisResult {
    /// The least time in bed a night needs for a sleep score: 3 hours.
    public static let minimumScoredTimeInBed: TimeInterval = 3 * 3600

    /// Why the night has no sleep score, or nil when it can be scored: not staged, less than 3 hours in bed (the
    /// session's length when the statistics carry no time in bed), or no sleep at all, in that order; `noSignal`
    /// instead of `notStaged` when a dead microphone was the night's only input.
    public var scoreUnavailableReason: SleepScoreUnavailableReason? {
        guard let statistics else {
            return warnings.contains { $0.kind == .noAudioSignal } ? .noSignal : .notStaged
        }
        let timeInBed = statistics.timeInBed ?? endTime.timeIntervalSince(startTime)
        if !(timeInBed >= Self.minimumScoredTimeInBed) { return .shortRecording }
        if !((statistics.totalSleepDuration ?? 0) > 0) { return .noSleepFound }
        return nil
    }
}
