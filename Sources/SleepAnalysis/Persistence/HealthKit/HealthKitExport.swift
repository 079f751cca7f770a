import Foundation

/// Plain-file exports of HealthKit-style sleep samples, for import tools and spreadsheets.
///
/// JSON: an array of objects `{"sessionId", "value" (HealthKit raw value), "valueName", "startDate",
/// "endDate" (ISO 8601, UTC, milliseconds), "timeZone"}`. CSV: the same columns, header first.
public enum HealthKitExport {
    /// The CSV header line (without the newline).
    public static let csvHeader = "session_id,value,value_name,start_date,end_date,time_zone"

    /// The samples as a JSON array.
    ///
    /// - Parameter samples: The samples, in the order to write them.
    /// - Returns: UTF-8 JSON, pretty-printed with sorted keys.
    /// - Throws: `SleepCycleSdkError.storageFailure` if encoding fails.
    public static func json(_ samples: [HealthKitSleepSample]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(samples.map(ExportedSample.init))
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot encode HealthKit samples: \(error)")
        }
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
    ///
    /// - Parameter date: The date.
    /// - Returns: The text.
    public static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// The JSON shape of one sample.
    private struct ExportedSample: Encodable {
        var sessionId: UUID
        var value: Int
        var valueName: String
        var startDate: String
        var endDate: String
        var timeZone: String

        init(_ sample: HealthKitSleepSample) {
            sessionId = sample.sessionId
            value = sample.value.rawValue
            valueName = sample.value.description
            startDate = HealthKitExport.timestamp(sample.startDate)
            endDate = HealthKitExport.timestamp(sample.endDate)
            timeZone = sample.timeZone
        }
    }
}
