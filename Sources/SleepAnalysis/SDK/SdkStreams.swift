import Foundation

/// The SDK's live streams, one broadcaster each, shared by every session.
struct SdkStreams: Sendable {
    let state = StreamBroadcaster<SleepCycleSdkState>()
    let events = StreamBroadcaster<[Event]>()
    let breathingRates = StreamBroadcaster<BreathingRate>()
    let sleepStages = StreamBroadcaster<SleepStagePrediction>()
    let audioHealth = StreamBroadcaster<AudioHealthUpdate>()
    let smartAlarm = StreamBroadcaster<SmartAlarmEvent>()
}
