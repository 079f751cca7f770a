import Foundation
import SleepAnalysis

/// The night service's tables, as versioned migrations (see `PostgresMigrator`), beside the night queue's. Never
/// edit a published migration: append a new one.
///
/// A session belongs to one tenant (a licence key's subject) and one of its users; its chunks are rows here and
/// files in the service's chunk directory. Finishing a session queues one `night_jobs` row (`job_id`); the
/// session's state after that is the job's.
enum NightServiceSchema {
    /// The schema's name in `sleepanalysis_schema_versions`.
    static let name = "night-service"

    /// The migrator for the current schema.
    static let migrator = PostgresMigrator(schemaName: name, migrations: [version1])

    /// Version 1: sessions and their chunks.
    static let version1 = [
        """
        CREATE TABLE night_service_sessions (
            id uuid PRIMARY KEY,
            tenant text NOT NULL,
            user_id text NOT NULL,
            start_time timestamptz NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            finished_at timestamptz,
            job_id bigint
        )
        """,
        "CREATE INDEX night_service_sessions_by_user ON night_service_sessions (tenant, user_id, start_time)",
        "CREATE INDEX night_service_sessions_by_job ON night_service_sessions (job_id)",
        """
        CREATE TABLE night_service_chunks (
            session_id uuid NOT NULL REFERENCES night_service_sessions (id) ON DELETE CASCADE,
            kind text NOT NULL CHECK (kind IN ('audio', 'accelerometer', 'heart-rate')),
            sequence integer NOT NULL CHECK (sequence >= 0),
            file_name text NOT NULL,
            bytes bigint NOT NULL,
            received_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (session_id, kind, sequence)
        )
        """,
    ]
}
