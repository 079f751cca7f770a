import Foundation
import SleepAnalysis

/// How `NightJob`s are selected and read back.
enum NightJobRow {
    /// The SELECT list every job query uses, in the order `job(from:)` reads (`j` is `night_jobs`).
    static let columns = """
        j.id, j.subject_id, j.audio_path, j.accelerometer_path, j.heart_rate_path, extract(epoch FROM j.start_time),
        j.state, j.attempts, j.max_attempts, extract(epoch FROM j.submitted_at), extract(epoch FROM j.available_at),
        extract(epoch FROM j.started_at), extract(epoch FROM j.finished_at), j.leased_by,
        extract(epoch FROM j.lease_expires_at), j.last_error, j.queue_name, j.priority, j.idempotency_key
        """

    /// How many columns `columns` selects (a query may add its own after them).
    static let columnCount = 19

    /// The job in a row selected with `columns`.
    ///
    /// - Throws: `FleetDatabaseError` (`unexpectedResult`) when a column does not parse.
    static func job(from row: PostgresRow) throws -> NightJob {
        let stateText = try row.text(6)
        guard let state = NightJobState(rawValue: stateText) else {
            throw FleetDatabaseError(kind: .unexpectedResult, message: "unknown job state '\(stateText)'")
        }
        let submission = NightSubmission(
            audio: NightInputLocation.url(stored: try row.text(2)),
            accelerometer: row[3].map(NightInputLocation.url(stored:)),
            heartRate: row[4].map(NightInputLocation.url(stored:)), startTime: try row.date(5),
            subjectId: try row.text(1),
            maxAttempts: Int(try row.int64(8)), queue: try row.text(16), priority: Int(try row.int64(17)))
        return NightJob(
            id: try row.int64(0), submission: submission, state: state, attempts: Int(try row.int64(7)),
            submittedAt: try row.date(9), availableAt: try row.date(10), startedAt: try row.optionalDate(11),
            finishedAt: try row.optionalDate(12), leasedBy: row[13], leaseExpiresAt: try row.optionalDate(14),
            lastError: row[15], idempotencyKey: row[18])
    }
}
