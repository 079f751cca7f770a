/// Which spellings of an ISO 8601 date-time a caller accepts, beyond the grammar every caller shares.
///
/// Every caller reads `YYYY-MM-DD(T|t| )hh:mm[:ss[(.|,)fraction]][Z|z|±hh|±hh:mm|±hhmm]`; a syntax says which of the
/// optional parts are required and whether the end of a day may be written `24:00`.
package struct ISO8601Syntax: Sendable, Hashable {
    /// Whether a zone (`Z`, `±hh`, `±hh:mm`, `±hhmm`) must be written. A date-time without one is local time.
    package var requiresZone: Bool
    /// Whether the seconds must be written (`hh:mm:ss`), or `hh:mm` is enough.
    package var requiresSeconds: Bool
    /// Whether `24:00`, `24:00:00` (the end of the day, the next day's midnight) is accepted.
    package var allowsEndOfDay: Bool

    /// An instant written in full: `YYYY-MM-DD(T|t| )hh:mm:ss[(.|,)fraction](Z|z|±hh:mm|±hhmm|±hh)`.
    ///
    /// CSV timestamps and command-line dates: a date without a zone would silently depend on the machine's zone.
    package static let timestamp = ISO8601Syntax(requiresZone: true, requiresSeconds: true, allowsEndOfDay: false)
    /// CSV timestamps of files in local time (the caller names the zone): the zone may be left out.
    package static let localTimestamp = ISO8601Syntax(
        requiresZone: false, requiresSeconds: true, allowsEndOfDay: false)

    /// The extended format of time intervals: seconds and zone optional, `24:00` allowed.
    package static let interval = ISO8601Syntax(requiresZone: false, requiresSeconds: false, allowsEndOfDay: true)
}
