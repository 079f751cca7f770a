import Foundation

/// One analyzer's live streams, a broadcaster each; its sessions publish into them through `AnalysisOutputSink`.
struct AnalysisStreams: AnalysisOutputSink {
    let state = StreamBroadcaster<SleepCycleSdkState>()
    let events = StreamBroadcaster<[Event]>()
    let breathingRates = StreamBroadcaster<BreathingRate>()
    let sleepStages = StreamBroadcaster<SleepStagePrediction>()
    /// A new subscriber first gets the current status.
    let audioHealth = StreamBroadcaster<AudioHealthUpdate>(replaysLatest: true)
    /// A new subscriber first gets the alarm's latest event (e.g. `.armed`) while its session runs.
    let smartAlarm = StreamBroadcaster<SmartAlarmEvent>(replaysLatest: true)

    /// Forgets the state streams' latest elements when no session runs any more.
    func sessionsEnded() {
        audioHealth.forgetLatest()
        smartAlarm.forgetLatest()
    }

    func publish(events: [Event]) { self.events.yield(events) }
    func publish(breathingRate: BreathingRate) { breathingRates.yield(breathingRate) }
    func publish(sleepStage: SleepStagePrediction) { sleepStages.yield(sleepStage) }
    func publish(audioHealth: AudioHealthUpdate) { self.audioHealth.yield(audioHealth) }
    func publish(smartAlarm: SmartAlarmEvent) { self.smartAlarm.yield(smartAlarm) }
}
