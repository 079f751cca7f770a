import Foundation

/// One analysed night as a JSON document: what `sleepanalysis analyze --format json`, `record`, `queue result`
/// and the HTTP service's result write (`Schemas/analysis-result.schema.json`).
///
/// The members are `schemaVersion`, the ``AnalysisResult`` members under their Swift names, `score` (the
/// ``SleepScore``; absent when the result's `scoreUnavailableReason` says why) and `smartAlarm` (the
/// ``SmartAlarmEventJSON`` of each smart-alarm event, in order). It is written with ``SleepAnalysisJSON``.
///
/// ```swift
/// let result = try await analyzer.stopAnalysis()
/// let document = AnalysisResultDocument(result: result, score: SleepScoring.score(result: result))
/// try SleepAnalysisJSON.encode(document).write(to: URL(fileURLWithPath: "night.json"))
/// ```
public struct AnalysisResultDocument: Sendable, Hashable, Encodable {
    /// The night.
    public var result: AnalysisResult
    /// Its sleep score, nil when the night cannot be scored.
    public var score: SleepScore?

    /// Creates the document of a night.
    ///
    /// - Parameters:
    ///   - result: The night.
    ///   - score: Its sleep score (`SleepScoring.score(result:history:)`), nil when it has none.
    public init(result: AnalysisResult, score: SleepScore?) {
        self.result = result
        self.score = score
    }

    private enum ExtraKeys: String, CodingKey {
        case schemaVersion, score, smartAlarm
    }

    /// Encodes `schemaVersion`, the result's members, `score` and `smartAlarm` in one object.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
        var extra = encoder.container(keyedBy: ExtraKeys.self)
        try extra.encode(SleepAnalysisJSON.schemaVersion, forKey: .schemaVersion)
        try extra.encodeIfPresent(score, forKey: .score)
        try extra.encode(result.smartAlarmEvents.map(\.json), forKey: .smartAlarm)
    }
}

/// The nights of a two-sleeper analysis as one JSON document: `schemaVersion` and `channels`, each channel's
/// ``AnalysisResultDocument`` under its name (`primary`, `secondary`)
/// (`Schemas/channel-results.schema.json`).
public struct ChannelResultsDocument: Sendable, Hashable, Encodable {
    /// Each channel's night, by channel name.
    public var channels: [String: AnalysisResultDocument]

    /// Creates the document.
    ///
    /// - Parameter channels: Each channel's night, by channel name.
    public init(channels: [String: AnalysisResultDocument]) {
        self.channels = channels
    }

    /// Encodes `schemaVersion` and `channels`.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        try SleepAnalysisJSON.encodeDocument(channels, under: "channels", to: encoder)
    }
}

/// Several nights of one multi-day recording as one JSON document: `schemaVersion` and `nights`, each night's
/// ``AnalysisResultDocument`` under its name, the local date its rest period starts on (`2026-12-01`); what
/// `sleepanalysis analyze --split-nights --format json` writes (`Schemas/nights.schema.json`).
public struct NightsDocument: Sendable, Hashable, Encodable {
    /// Each night, by name.
    public var nights: [String: AnalysisResultDocument]

    /// Creates the document.
    ///
    /// - Parameter nights: Each night, by name.
    public init(nights: [String: AnalysisResultDocument]) {
        self.nights = nights
    }

    /// Encodes `schemaVersion` and `nights`.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        try SleepAnalysisJSON.encodeDocument(nights, under: "nights", to: encoder)
    }
}
