import Foundation

/// What the journal keeps about an active session: everything needed to rebuild its pipeline after a crash.
@_spi(Internal)
public struct JournalSession: Sendable, Hashable, Codable {
    /// The session.
    public var sessionId: UUID
    /// The channel it analyses.
    public var channel: AnalysisChannel
    /// Its sensors.
    public var config: SleepAnalysisConfig
    /// Its smart alarm, if any (kept current by `SessionJournal.updateSmartAlarm`).
    public var smartAlarmConfig: SmartAlarmConfig?
    /// When the session started.
    public var startTime: Date
    /// The identifier of the time zone in force at the start (e.g. `Europe/Berlin`).
    public var timeZoneIdentifier: String
    /// The names of the licence features enabled for the session (`SleepAnalysisFeatures.enabledNames`).
    public var enabledFeatures: [String]
    /// A description of the data source (device name or file paths), to reopen it on resume.
    public var sourceDescription: String
    /// The time of the data source's first sample.
    public var sourceStartTime: Date
    /// What identified the source's input (nil in journals written before fingerprints, or for sources that
    /// give none); a resume on input with another fingerprint is refused.
    public var inputFingerprint: DataSourceFingerprint?

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - channel: The channel it analyses.
    ///   - config: Its sensors.
    ///   - smartAlarmConfig: Its smart alarm, if any (kept current by `SessionJournal.updateSmartAlarm`).
    ///   - startTime: When the session started.
    ///   - timeZoneIdentifier: The identifier of the time zone in force at the start (e.g. `Europe/Berlin`).
    ///   - enabledFeatures: The names of the licence features enabled for the session
    ///     (`SleepAnalysisFeatures.enabledNames`).
    ///   - sourceDescription: A description of the data source (device name or file paths), to reopen it on resume.
    ///   - sourceStartTime: The time of the data source's first sample.
    ///   - inputFingerprint: What identified the source's input, if it said.
    public init(
        sessionId: UUID, channel: AnalysisChannel, config: SleepAnalysisConfig, smartAlarmConfig: SmartAlarmConfig?,
        startTime: Date, timeZoneIdentifier: String, enabledFeatures: [String], sourceDescription: String,
        sourceStartTime: Date, inputFingerprint: DataSourceFingerprint? = nil
    ) {
        self.inputFingerprint = inputFingerprint
        self.sessionId = sessionId
        self.channel = channel
        self.config = config
        self.smartAlarmConfig = smartAlarmConfig
        self.startTime = startTime
        self.timeZoneIdentifier = timeZoneIdentifier
        self.enabledFeatures = enabledFeatures
        self.sourceDescription = sourceDescription
        self.sourceStartTime = sourceStartTime
    }

    /// The public view returned by `SleepCycleSdk.resumeAnalysis()`.
    public var resumedSession: ResumedSession {
        ResumedSession(sessionId: sessionId, channel: channel, smartAlarmConfig: smartAlarmConfig)
    }

    /// The session's time zone (the current one if the identifier is unknown on this machine).
    public var timeZone: TimeZone { TimeZone(identifier: timeZoneIdentifier) ?? .current }
}

/// How far the pipeline had processed a session's input when it last committed.
@_spi(Internal)
public struct JournalCheckpoint: Sendable, Hashable, Codable {
    /// The end of the last fully processed stretch of input (e.g. the end of the last epoch).
    public var processedUntil: Date
    /// The index of the next input sample (at the analysis rate) the pipeline needs.
    public var sampleIndex: Int64

    /// Creates a checkpoint.
    ///
    /// - Parameters:
    ///   - processedUntil: The end of the last fully processed stretch of input (e.g. the end of the last epoch).
    ///   - sampleIndex: The index of the next input sample (at the analysis rate) the pipeline needs.
    public init(processedUntil: Date, sampleIndex: Int64) {
        self.processedUntil = processedUntil
        self.sampleIndex = sampleIndex
    }
}

/// One record to append to the journal: a kind, a time and an encoded payload.
@_spi(Internal)
public struct JournalEntry: Sendable, Hashable {
    /// What the payload is (see `JournalKind`).
    public var kind: String
    /// The time the record concerns (e.g. the epoch's end).
    public var time: Date
    /// The payload, encoded.
    public var payload: Data
    /// Whether this record replaces the session's earlier records of the same kind (snapshots, checkpoints).
    public var replacesPrevious: Bool

    /// Encodes a payload into an entry that adds to the earlier records of its kind.
    ///
    /// - Parameters:
    ///   - payload: The payload, encoded.
    ///   - kind: What the payload is (see `JournalKind`).
    ///   - time: The time the record concerns (e.g. the epoch's end).
    /// - Throws: `SleepCycleSdkError.storageFailure` when the payload cannot be encoded.
    public init<Payload: Encodable>(_ payload: Payload, kind: String, time: Date) throws {
        self.kind = kind
        self.time = time
        self.payload = try PersistenceCoding.encode(payload, what: "a '\(kind)' journal record")
        self.replacesPrevious = false
    }

    /// Encodes a snapshot: an entry that replaces the earlier records of its kind, so only the newest is kept.
    ///
    /// - Parameters:
    ///   - payload: The payload, encoded.
    ///   - kind: What the payload is (see `JournalKind`).
    ///   - time: The time the record concerns.
    /// - Returns: The entry.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the payload cannot be encoded.
    public static func snapshot<Payload: Encodable>(
        _ payload: Payload, kind: String, time: Date
    ) throws -> JournalEntry {
        var entry = try JournalEntry(payload, kind: kind, time: time)
        entry.replacesPrevious = true
        return entry
    }
}

/// The record kinds the pipeline journals, one name each.
@_spi(Internal)
public enum JournalKind {
    /// The features of one 30-s epoch (staging input).
    public static let epochFeatures = "epochFeatures"
    /// A detected event.
    public static let event = "event"
    /// A breathing-rate measurement.
    public static let breathingRate = "breathingRate"
    /// A real-time stage prediction.
    public static let realTimePrediction = "realTimePrediction"
    /// An audio health change.
    public static let healthUpdate = "healthUpdate"
    /// The smart alarm's state (a snapshot: only the latest is kept).
    public static let alarmState = "alarmState"
    /// Which event model the session's detector chose (a snapshot: `EventsModelChoice`), so a live session resumed
    /// after an interruption keeps it.
    public static let eventsModel = "eventsModel"
    /// The channel separation of a two-sleeper source (a snapshot), so a resumed night separates alike.
    public static let channelSeparation = "channelSeparation"
    /// What the source had read of its input when the epoch was committed (a snapshot: `DataSourceFingerprint`
    /// with its `contents`), so a resume proves it continues the same content.
    public static let inputFingerprint = "inputFingerprint"
    /// An engine's internal state needed to continue seamlessly (a snapshot).
    public static let engineCheckpoint = "engineCheckpoint"
}
