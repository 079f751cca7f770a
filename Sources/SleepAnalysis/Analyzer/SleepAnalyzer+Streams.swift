import Foundation

extension SleepAnalyzer {
    /// Batches of detected events, as they complete. Each call returns a new stream; any number may be open.
    public nonisolated var eventStream: AsyncStream<[Event]> {
        streams.events.makeStream()
    }

    /// Breathing-rate measurements, about every 30 seconds while breathing is heard or felt.
    public nonisolated var breathingRateStream: AsyncStream<BreathingRate> {
        streams.breathingRates.makeStream()
    }

    /// One real-time prediction per 30-second epoch (needs the `realTimeSleepStaging` feature).
    public nonisolated var sleepStageStream: AsyncStream<SleepStagePrediction> {
        streams.sleepStages.makeStream()
    }

    /// Changes of the audio input's health. While a session runs, a new stream starts with the current status.
    public nonisolated var audioHealthStream: AsyncStream<AudioHealthUpdate> {
        streams.audioHealth.makeStream()
    }

    /// Smart-alarm life-cycle events: armed, triggered. While a session runs, a new stream starts with the alarm's
    /// latest event, so a stream opened just after `startAnalysis` still sees `.armed`.
    public nonisolated var smartAlarmStream: AsyncStream<SmartAlarmEvent> {
        streams.smartAlarm.makeStream()
    }
}
