import Foundation

/// Plain-file exports of HealthKit-style sleep samples, for import tools and spreadsheets.
///
/// JSON (`Schemas/healthkit-export.schema.json`, written with ``SleepAnalysisJSON``): `{"schemaVersion",
/// "samples"}`, each sample an object `{"sessionId", "value" (HealthKit raw value), "valueName", "startDate",
/// "endDate" (ISO 8601, UTC, milliseconds), "timeZone"}`. CSV: the same columns, header first.
public enum HealthKitExport {
    /// The CSV header line (without the newline).
    public static let csvHeader = "session_id,value,value_name,start_date,end_date,time_zone"

    /// The samples as a JSON document, `{"schemaVersion", "samples": [...]}`.
    ///
    /// - Parameter samples: The samples, in the order to write them.
    /// - Returns: UTF-8 JSON, pretty-printed with sorted keys.
    /// - Throws: `SleepCycleSdkError.invalidInput` if encoding fails.
    public static func json(_ samples: [HealthKitSleepSample]) throws -> Data {
        try SleepAnalysisJSON.encode(ExportDocument(samples: samples.map(ExportedSample.init)))
    }

    /// The samples as CSV with a header line.
    ///
    /// - Parameter samples: The samples, in the order to write them.
    /// - Returns: The CSV text, every line ending in a newline.
    public static func csv(_ samples: [HealthKitSleepSample]) -> String {
        var text = csvHeader + "\n"
        for sample in samples {
            let fields = [
                sample.sessionId.uuidString, String(sample.value.rawValue), sample.value.description,
                timestamp(sample.startDate), timestamp(sample.endDate), sample.timeZone,
            ]
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// A date as ISO 8601 in UTC with milliseconds, e.g. `2026-11-30T23:00:00.000Z`.
    private static func timestamp(_ date: Date) -> String { SleepAnalysisJSON.timestamp(date) }

    /// The JSON document.
    private struct ExportDocument: Encodable {
        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var samples: [ExportedSample]
    }

    /// The JSON shape of one sample.
    private struct ExportedSample: Encodable {
        var sessionId: UUID
        var value: Int
        var valueName: String
        var startDate: Date
        var endDate: Date
        var timeZone: String

        init(_ sample: HealthKitSleepSample) {
            sessionId = sample.sessionId
            value = sample.value.rawValue
            valueName = sample.value.description
            startDate = sample.startDate
            endDate = sample.endDate
            timeZone = sample.timeZone
        }
    }
}
