import Foundation
import SleepAnalysis

/// The PostgreSQL session store's writes, on a connection inside the caller's transaction: shared by the store and
/// by the night queue, which saves a finished night in the transaction that stores the job's result.
///
/// Each write first takes the subject's next anchor (locking the subject's row until the transaction ends, which
/// keeps anchors in commit order) and sends a `NOTIFY` that is delivered when the transaction commits.
extension PostgresConnection {
    /// Replaces a subject's night (rows, stage samples, tombstone) under the subject's next anchor.
    ///
    /// - Parameters:
    ///   - record: The night, encoded.
    ///   - subject: Whose night it is.
    /// - Returns: The anchor the save took.
    /// - Throws: `FleetDatabaseError`.
    func saveNight(_ record: SessionStoreRecord, subject: String) throws -> SessionStoreAnchor {
        let anchor = try nextSessionStoreAnchor(subject: subject)
        let night = record.night
        let session = night.sessionId.uuidString
        try execute("DELETE FROM session_nights WHERE subject_id = $1 AND session_id = $2::uuid", [subject, session])
        try execute(
            "DELETE FROM session_tombstones WHERE subject_id = $1 AND session_id = $2::uuid", [subject, session])
        try execute(
            """
            INSERT INTO session_nights (subject_id, session_id, start_time, end_time, time_zone, anchor, summary, result)
            VALUES ($1, $2::uuid, $3::float8, $4::float8, $5, $6::bigint, $7::jsonb, $8::jsonb)
            """,
            [
                subject, session, String(night.startTime.timeIntervalSince1970),
                String(night.endTime.timeIntervalSince1970), night.timeZone.identifier, String(anchor.rawValue),
                String(decoding: record.summary, as: UTF8.self), String(decoding: record.result, as: UTF8.self),
            ])
        if !record.samples.isEmpty {
            try execute(
                """
                INSERT INTO session_stage_samples (subject_id, session_id, start_time, end_time, stage)
                SELECT $1, $2::uuid, sample.start_time, sample.end_time, sample.stage
                FROM unnest($3::float8[], $4::float8[], $5::text[]) AS sample (start_time, end_time, stage)
                """,
                [
                    subject, session, Self.array(record.samples.map { String($0.startDate.timeIntervalSince1970) }),
                    Self.array(record.samples.map { String($0.endDate.timeIntervalSince1970) }),
                    Self.array(record.samples.map { Self.quoted($0.stage.rawValue) }),
                ])
        }
        try notify(PostgresSessionStoreSchema.channel, payload: subject)
        return anchor
    }

    /// Deletes a subject's night, leaving a tombstone under the subject's next anchor.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - subject: Whose night it is.
    /// - Returns: The anchor, or nil when the subject has no such night (the caller must then roll back: the anchor
    ///   was taken).
    /// - Throws: `FleetDatabaseError`.
    func deleteNight(_ sessionId: UUID, subject: String) throws -> SessionStoreAnchor? {
        let anchor = try nextSessionStoreAnchor(subject: subject)
        let session = sessionId.uuidString
        let deleted = try execute(
            "DELETE FROM session_nights WHERE subject_id = $1 AND session_id = $2::uuid", [subject, session]
        ).affectedRows
        guard deleted == 1 else { return nil }
        try execute(
            """
            INSERT INTO session_tombstones (subject_id, session_id, anchor) VALUES ($1, $2::uuid, $3::bigint)
            ON CONFLICT (subject_id, session_id) DO UPDATE SET anchor = EXCLUDED.anchor
            """, [subject, session, String(anchor.rawValue)])
        try notify(PostgresSessionStoreSchema.channel, payload: subject)
        return anchor
    }

    /// Takes the subject's next anchor, locking the subject's row until the transaction ends.
    private func nextSessionStoreAnchor(subject: String) throws -> SessionStoreAnchor {
        let row = try execute(
            """
            INSERT INTO session_store_subjects (subject_id, anchor) VALUES ($1, 1)
            ON CONFLICT (subject_id) DO UPDATE SET anchor = session_store_subjects.anchor + 1
            RETURNING anchor
            """, [subject]
        ).rows.first
        guard let row else {
            throw FleetDatabaseError(kind: .unexpectedResult, message: "taking a session-store anchor returned no row")
        }
        return SessionStoreAnchor(rawValue: try row.int64(0))
    }

    /// A PostgreSQL array literal of already formatted elements.
    private static func array(_ elements: [String]) -> String { "{" + elements.joined(separator: ",") + "}" }

    /// An array element quoted (backslashes and double quotes escaped).
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
