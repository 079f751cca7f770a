import Foundation

extension SleepCycleSdk {
    /// Batches of detected events, as they complete. Each call returns a new stream; any number may be open.
    public static var eventStream: AsyncStream<[Event]> {
        get async { streams.events.makeStream() }
    }

    /// Breathing-rate measurements, about every 30 seconds while breathing is heard or felt.
    public static var breathingRateStream: AsyncStream<BreathingRate> {
        get async { streams.breathingRates.makeStream() }
    }

    /// One real-time prediction per 30-second epoch (needs the `realTimeSleepStaging` feature).
    public static var sleepStageStream: AsyncStream<SleepStagePrediction> {
        get async { streams.sleepStages.makeStream() }
    }

    /// Changes of the audio input's health. While a session runs, a new stream starts with the current status.
    public static var audioHealthStream: AsyncStream<AudioHealthUpdate> {
        get async { streams.audioHealth.makeStream() }
    }

    /// Smart-alarm life-cycle events: armed, triggered. While a session runs, a new stream starts with the alarm's
    /// latest event, so a stream opened just after `startAnalysis` still sees `.armed`.
    public static var smartAlarmStream: AsyncStream<SmartAlarmEvent> {
        get async { streams.smartAlarm.makeStream() }
    }
}
