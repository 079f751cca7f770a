import Foundation

/// Tolerant queries: a row whose bytes do not decode is reported and skipped, so that one damaged night does not
/// hide every other one (`nights(in:)` and `result(sessionId:)` fail instead).
extension SessionStore {
    /// The nights that overlap a date range, earliest start first, skipping rows that do not decode.
    ///
    /// - Parameter range: The range, as for `nights(in:)`.
    /// - Returns: The readable nights' summaries, and the rows that could not be read.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the query itself fails.
    public func readableNights(in range: DateInterval) throws -> (nights: [StoredNight], unreadable: [UnreadableNight])
    {
        try readableRows(in: range, column: .summary) {
            try PersistenceCoding.decode(StoredNight.self, from: $0, what: "its summary")
        }
    }

    /// The full results of the nights that overlap a date range, earliest start first, skipping rows whose result
    /// does not decode.
    ///
    /// - Parameter range: The range, as for `nights(in:)`.
    /// - Returns: The readable results, and the rows that could not be read.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the query itself fails.
    public func readableResults(
        in range: DateInterval
    ) throws -> (results: [AnalysisResult], unreadable: [UnreadableNight]) {
        try readableRows(in: range, column: .result) {
            try PersistenceCoding.decode(AnalysisResult.self, from: $0, what: "its result")
        }
    }

    /// Decodes one encoded column of the nights overlapping `range`, collecting the rows that fail.
    private func readableRows<Value>(
        in range: DateInterval, column: SessionStoreColumn, decode: (Data) throws -> Value
    ) throws -> ([Value], [UnreadableNight]) {
        var values: [Value] = []
        var unreadable: [UnreadableNight] = []
        for row in try backend.nights(overlapping: range, column: column) {
            do {
                values.append(try decode(try row.bytes.get()))
            } catch {
                let reason: String
                if case SleepCycleSdkError.storageFailure(let why) = error {
                    reason = why.message
                } else {
                    reason = "\(error)"
                }
                unreadable.append(
                    UnreadableNight(
                        rowId: row.rowId, sessionId: row.sessionId, startTime: row.startTime, reason: reason))
            }
        }
        return (values, unreadable)
    }
}
