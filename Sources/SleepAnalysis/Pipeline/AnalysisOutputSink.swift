import Foundation

/// Where the sessions on a pipeline publish what they find as the night goes. The analyzer that owns the pipeline
/// provides it (its live streams); the pipeline calls it from its own thread, in data order.
protocol AnalysisOutputSink: Sendable {
    /// Events that completed.
    func publish(events: [Event])
    /// A breathing-rate measurement.
    func publish(breathingRate: BreathingRate)
    /// A real-time stage prediction for an epoch that closed.
    func publish(sleepStage: SleepStagePrediction)
    /// A change of the audio input's health.
    func publish(audioHealth: AudioHealthUpdate)
    /// A smart-alarm life-cycle event.
    func publish(smartAlarm: SmartAlarmEvent)
}
