import Foundation

/// The engines one session runs; each is nil when the session's sensors or the licence leave it out.
struct SessionEngines {
    /// Sound events (needs audio and an events feature).
    var events: (any AudioEventsEngine)?
    /// Breathing rate (audio and/or accelerometer).
    var breathing: (any BreathingEngine)?
    /// Audio input health (needs audio).
    var audioHealth: (any AudioHealthEngine)?
    /// Movement and activity from the accelerometer.
    var motion: (any MotionEngine)?
    /// Sleep staging (needs a staging or alarm feature).
    var staging: (any StagingEngine)?
    /// The smart alarm (primary channel, `smartAlarm` feature).
    var smartAlarm: (any SmartAlarmDriver)?
}

/// What a session publishes live, and to whom.
struct SessionPublishing {
    /// Publish real-time stage predictions on `sleepStageStream` (`realTimeSleepStaging`).
    var realTimeStages: Bool
    /// Put the whole-night staging in the result (`sleepStaging`).
    var wholeNightStages: Bool
}

/// Boxes the caller's listeners, which need not be `Sendable`: the public calls take them `sending`, so the
/// compiler has checked that the caller no longer touches a non-`Sendable` one, and from then on they are only
/// ever called from the pipeline thread, one batch after another.
struct ListenerBox: @unchecked Sendable {
    let listeners: [any AudioEventListener]
}
