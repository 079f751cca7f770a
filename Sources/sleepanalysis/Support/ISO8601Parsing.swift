import Foundation

/// Parses ISO 8601 instants given on the command line.
enum ISO8601Parsing {
    /// `2026-12-01T23:00:00Z`, with or without fractional seconds, `Z` or an offset.
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
