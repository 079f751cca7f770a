import Foundation

/// One thing a session records as the night goes.
enum JournaledRecord {
    case epoch(EpochObservation)
    case realTimePrediction(SleepStagePrediction)
    case event(Event)
    case breathing(BreathingRate)
    case health(AudioHealthUpdate)
    case alarmState(SmartAlarmState)
    case eventsModel(EventsModelChoice)
}

/// Which model a session's events detector runs, once it has chosen (`BandLimitedModelChoice`).
struct EventsModelChoice: Sendable, Hashable, Codable {
    /// True for the band-limited model, false for the full-band one.
    var bandLimited: Bool
}

/// Keeps a session's records so that an interrupted session can be continued: once per epoch, the records since
/// the last commit and a checkpoint, atomically. Failures are the recorder's to report, never thrown into the
/// analysis.
protocol SessionRecorder: Sendable {
    /// Keeps `records` and the checkpoint `processedUntil`, all or nothing.
    func commit(_ records: [JournaledRecord], sessionId: UUID, processedUntil: Date)
}

/// What was recorded of an interrupted session: enough to continue it so that its result covers the whole night.
struct RestoredSessionState: Sendable {
    /// The time zone in force when the session began.
    let timeZone: TimeZone
    /// The end of the data analysed before the interruption, nil when no epoch was recorded.
    let processedUntil: Date?
    /// The closed epochs.
    let observations: [EpochObservation]
    /// Their real-time predictions.
    let realTimePredictions: [SleepStagePrediction]
    /// The events found.
    let events: [Event]
    /// The breathing rates measured.
    let breathingRates: [BreathingRate]
    /// The audio health changes.
    let healthUpdates: [AudioHealthUpdate]
    /// The smart alarm's last state.
    let alarmState: SmartAlarmState?
    /// The events detector's choice of model, once made.
    var eventsModel: EventsModelChoice? = nil
}
