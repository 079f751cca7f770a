import Foundation

/// The SDK's live streams, one broadcaster each, shared by every session.
struct SdkStreams: Sendable {
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
}
