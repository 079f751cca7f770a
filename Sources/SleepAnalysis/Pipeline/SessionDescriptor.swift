import Foundation

/// A session as the pipeline runs it: who it is, which channel and sensors, its alarm, and when it began.
struct SessionDescriptor: Sendable {
    /// The session's identifier.
    let sessionId: UUID
    /// The channel it analyses.
    let channel: AnalysisChannel
    /// Its sensors.
    let config: SleepAnalysisConfig
    /// Its smart alarm, if any.
    var smartAlarmConfig: SmartAlarmConfig?
    /// When it began.
    let startTime: Date
}
