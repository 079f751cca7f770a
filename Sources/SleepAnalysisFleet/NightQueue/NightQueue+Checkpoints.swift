import Foundation
import SleepAnalysis

/// A running night's journal, saved in the queue by its worker so that a worker taking the job over resumes it.
public struct NightCheckpoint: Sendable, Hashable {
    /// The session journal: a consistent SQLite database file (`SessionJournal.copy(to:)`).
    public var journal: Data
    /// The 30-s epochs journaled in it.
    public var epochs: Int
    /// The worker that saved it.
    public var writtenBy: String
}

/// Checkpoints: the session journal of a running night, kept beside its job (one per job, the latest wins).
extension NightQueue {
    /// Saves the journal of a leased job, replacing the previous checkpoint.
    ///
    /// - Parameters:
    ///   - lease: The lease.
    ///   - checkpoint: The journal and what it holds.
    /// - Returns: False when the lease is no longer held (nothing was saved).
    /// - Throws: `FleetDatabaseError`.
    @discardableResult
    public func saveCheckpoint(_ lease: NightLease, _ checkpoint: NightCheckpoint) async throws -> Bool {
        let parameters = [
            String(lease.job.id), lease.token.uuidString, checkpoint.journal.base64EncodedString(),
            String(checkpoint.epochs), checkpoint.writtenBy,
        ]
        return try await database.run { connection in
            try connection.execute(
                """
                INSERT INTO night_checkpoints (job_id, journal, epochs, written_by)
                SELECT id, decode($3, 'base64'), $4::integer, $5 FROM night_jobs
                WHERE id = $1 AND lease_token = $2::uuid AND state = 'running'
                ON CONFLICT (job_id) DO UPDATE SET journal = EXCLUDED.journal, epochs = EXCLUDED.epochs,
                    written_by = EXCLUDED.written_by, written_at = now()
                """, parameters
            ).affectedRows == 1
        }
    }

    /// The latest checkpoint of a job, or nil.
    ///
    /// - Parameter id: The job's identifier.
    /// - Returns: The checkpoint.
    /// - Throws: `FleetDatabaseError`.
    public func checkpoint(jobId id: Int64) async throws -> NightCheckpoint? {
        let row = try await database.run { connection in
            try connection.execute(
                "SELECT encode(journal, 'base64'), epochs, written_by FROM night_checkpoints WHERE job_id = $1",
                [String(id)]
            ).rows.first
        }
        guard let row else { return nil }
        // PostgreSQL's base64 output breaks lines every 76 characters.
        let text = try row.text(0).filter { !$0.isNewline }
        guard let journal = Data(base64Encoded: text) else {
            throw FleetDatabaseError(kind: .unexpectedResult, message: "the checkpoint of job \(id) is not base64")
        }
        return NightCheckpoint(journal: journal, epochs: Int(try row.int64(1)), writtenBy: try row.text(2))
    }
}
