import Foundation

/// Words and numbers for people, shared by every page drawn from results: counts with the right plural, durations,
/// percentages, dates with the weekday and month written out, clock times, and time zones.
enum ReportText {
    /// `1 snoring event`, `3 snoring events`; `plural` for nouns that do not take an s.
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? singular : plural ?? singular + "s")
    }

    /// `2 h 05 min`, `42 min`; `–` for none.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "–" }
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? String(format: "%d h %02d min", minutes / 60, minutes % 60) : "\(minutes) min"
    }

    /// `12 s` under a minute, else as `duration` (`3 min`, `1 h 05 min`): how long a short stretch lasted.
    static func span(_ seconds: Double) -> String {
        seconds < 59.5 ? "\(Int(seconds.rounded())) s" : duration(seconds)
    }

    /// `88 %` for 0.88; `–` for none.
    static func percent(_ fraction: Double?) -> String {
        guard let fraction, fraction.isFinite else { return "–" }
        return String(format: "%.0f %%", fraction * 100)
    }

    /// `Tuesday 1 December 2026` in `zone`.
    static func longDate(_ date: Date, _ zone: TimeZone) -> String { formatted(date, zone, "EEEE d MMMM yyyy") }

    /// `Tue 1 Dec` in `zone`.
    static func shortDate(_ date: Date, _ zone: TimeZone) -> String { formatted(date, zone, "EEE d MMM") }

    /// `2026` in `zone`.
    static func year(_ date: Date, _ zone: TimeZone) -> String { formatted(date, zone, "yyyy") }

    /// `2026-12-01` in `zone` (for tables sorted by date and for machines).
    static func isoDate(_ date: Date, _ zone: TimeZone) -> String { formatted(date, zone, "yyyy-MM-dd") }

    /// `06:42` in `zone`.
    static func clock(_ date: Date, _ zone: TimeZone) -> String { formatted(date, zone, "HH:mm") }

    /// The evening a night belongs to: its start's date, or the day before for a night begun between midnight and
    /// 6 in the morning (going to bed at 00:30 on Wednesday is Tuesday's night).
    static func nightDate(_ start: Date, _ zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.component(.hour, from: start) < 6 ? start.addingTimeInterval(-6 * 3600) : start
    }

    /// `UTC`, or the zone's identifier with its offset at `date`: `Europe/Stockholm (UTC+1)`,
    /// `Asia/Kolkata (UTC+5:30)`.
    static func zone(_ zone: TimeZone, at date: Date) -> String {
        let seconds = zone.secondsFromGMT(for: date)
        if seconds == 0 && ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Z"].contains(zone.identifier) { return "UTC" }
        let sign = seconds < 0 ? "−" : "+"
        let minutes = abs(seconds) / 60
        let offset = minutes % 60 == 0 ? "\(minutes / 60)" : String(format: "%d:%02d", minutes / 60, minutes % 60)
        return "\(zone.identifier) (UTC\(sign)\(offset))"
    }

    private static func formatted(_ date: Date, _ zone: TimeZone, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
