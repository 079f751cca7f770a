import Foundation

// The small internal protocols behind which the engines sit. The pipeline only knows these; each engine's
// folder makes its concrete type conform (see the `+Pipeline.swift` adapter files), and tests use fakes.

/// Detects sound events in the analysed audio.
package protocol AudioEventsEngine: AnyObject {
    /// Analyses one batch.
    func process(_ batch: AudioBatch) -> EventDetectorOutput
    /// Closes events still open at the end of the stream.
    func finish() -> EventDetectorOutput
    /// How far back the events reported from now on (by `process` or `finish`) can begin; nil when the engine
    /// cannot tell.
    var eventReach: EventReach? { get }
    /// Whether the engine chose its model for band-limited audio: nil while undecided or when it has no choice to
    /// make.
    var bandLimitedModelChoice: Bool? { get }
    /// Takes a choice made before an interruption, for a session that continues without the audio it was made on.
    func adoptModelChoice(bandLimited: Bool)
}

extension AudioEventsEngine {
    /// Unknown: every event start is possible.
    package var eventReach: EventReach? { nil }
    /// No choice of model.
    package var bandLimitedModelChoice: Bool? { nil }
    /// No choice of model to take.
    package func adoptModelChoice(bandLimited: Bool) {}
}

/// Measures the breathing rate.
protocol BreathingEngine: AnyObject {
    /// Analyses one audio batch; returns the measurements completed by it.
    func process(_ batch: AudioBatch) -> [BreathingRate]
    /// Analyses accelerometer readings; returns the measurements completed by them.
    func process(accelerometer: [AccelerometerSample]) -> [BreathingRate]
    /// Returns the measurements still pending at the end of the stream.
    func finish() -> [BreathingRate]
}

/// Watches the health of the audio input.
protocol AudioHealthEngine: AnyObject {
    /// Analyses one batch; returns status changes.
    func process(_ batch: AudioBatch) -> [AudioHealthUpdate]
    /// Reports `.missingInput` when no audio arrived for too long before `now`.
    func checkForMissingInput(now: Date) -> [AudioHealthUpdate]
    /// The health intervals covering the session up to `end`.
    func finish(at end: Date) -> AudioStatistics
}

/// Turns accelerometer readings (or device activity counts) into movement events and per-epoch activity.
protocol MotionEngine: AnyObject {
    /// Analyses readings; returns movement events completed by them.
    func process(_ samples: [AccelerometerSample]) -> [Event]
    /// Takes device activity counts.
    func process(activityCounts: [ActivityCountSample])
    /// The activity measure for an epoch, nil when no motion data covers it.
    func activity(in epoch: DateInterval) -> Double?
    /// Movement events still open at the end of the stream.
    func finish() -> [Event]
}

/// Everything observed during one 30-second epoch, as the staging engine consumes it.
struct EpochObservation: Sendable, Hashable, Codable {
    /// The epoch.
    var interval: DateInterval
    /// Activity measure from the motion engine, nil without motion data.
    var activity: Double?
    /// Heart-rate readings inside the epoch (bpm).
    var heartRates: [Double] = []
    /// Seconds of the epoch covered by snoring events.
    var snoringSeconds: Double = 0
    /// Movement events (audio or accelerometer) overlapping the epoch.
    var movementEventCount: Int = 0
    /// Other sound events (talking, coughing, …) overlapping the epoch.
    var soundEventCount: Int = 0
    /// Mean A-weighted level (dB SPL) of the epoch's audio frames, nil without audio.
    var meanDbSpl: Double?
    /// Standard deviation of the frame levels, nil without audio.
    var dbSplDeviation: Double?
    /// The latest breathing rate measured up to the epoch's end, and its confidence.
    var breathingRate: Double?
    /// Confidence of `breathingRate`, 0...1.
    var breathingConfidence: Double?
}

/// Stages sleep, epoch by epoch in real time and over the whole night at the end.
protocol StagingEngine: AnyObject {
    /// Adds the next epoch; returns its causal (real-time) prediction.
    func addEpoch(_ epoch: EpochObservation) -> SleepStagePrediction
    /// The whole-night predictions of every epoch added so far.
    func wholeNight() -> [SleepStagePrediction]
    /// The inputs that staged most epochs so far; nil before any epoch.
    var basis: StagingBasis? { get }
}

/// Decides when the smart alarm fires.
protocol SmartAlarmDriver: AnyObject {
    /// Replaces, adds or cancels the alarm.
    func update(configuration: SmartAlarmConfig?, now: Date) -> [SmartAlarmEvent]
    /// The sleeper touched the device.
    func notifyUserInteraction(at time: Date) -> [SmartAlarmEvent]
    /// Advances data time; `stage` is the latest real-time prediction, `movement` whether movement was seen
    /// since the previous tick.
    func tick(now: Date, stage: SleepStagePrediction?, movement: Bool) -> [SmartAlarmEvent]
    /// The alarm's state, for the journal.
    var state: SmartAlarmState { get }
}
