import Foundation
import SleepAnalysis

/// ISO 8601 intervals: the bytes as text go through `DateInterval(iso8601Interval:timeZone:)` (the date-time and
/// duration parser, `ISO8601DateTimeParser`), in UTC and in a zone with daylight saving time, where some local
/// times do not exist. Rejections must be `invalidInput`.
enum ISO8601IntervalHarness {
    /// The zones date-times without a zone are read in.
    private static let zones: [TimeZone] = [
        TimeZone(secondsFromGMT: 0), TimeZone(identifier: "Europe/Stockholm"),
    ].compactMap { $0 }

    /// The harness.
    static let harness = FuzzHarness(
        name: "iso8601-interval", summary: "DateInterval(iso8601Interval:): START/END, START/DURATION, DURATION/END"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        var accepted = false
        for zone in zones {
            do {
                _ = try DateInterval(iso8601Interval: text, timeZone: zone)
                accepted = true
            } catch {
                FuzzContract.requireDocumented(error, harness: "iso8601-interval") {
                    if case .invalidInput = $0 { true } else { false }
                }
            }
        }
        return accepted
    }
}
