import Foundation
import SleepAnalysis

/// The PostgreSQL session store's tables, as versioned migrations (see `PostgresMigrator`). Never edit a published
/// migration: append a new one.
///
/// Every row belongs to a subject. Times are seconds since 1970 (`double precision`, exactly the `Date`s saved,
/// as in the SQLite store); summaries and results are the same JSON, as `jsonb`. Each subject has its own anchor
/// counter, incremented under its row lock, so a subject's anchors commit in order and without gaps.
enum PostgresSessionStoreSchema {
    /// The schema's name in `sleepanalysis_schema_versions`.
    static let name = "session-store"
    /// The channel a `NOTIFY` goes to when a subject's nights change; the payload is the subject id.
    static let channel = "sleepanalysis_session_store"

    /// The migrator for the current schema.
    static let migrator = PostgresMigrator(schemaName: name, migrations: [version1])

    /// Version 1: subjects' anchors, nights, stage samples and tombstones.
    static let version1 = [
        """
        CREATE TABLE session_store_subjects (
            subject_id text PRIMARY KEY,
            anchor bigint NOT NULL
        )
        """,
        """
        CREATE TABLE session_nights (
            subject_id text NOT NULL,
            session_id uuid NOT NULL,
            start_time double precision NOT NULL,
            end_time double precision NOT NULL,
            time_zone text NOT NULL,
            anchor bigint NOT NULL,
            summary jsonb NOT NULL,
            result jsonb NOT NULL,
            PRIMARY KEY (subject_id, session_id)
        )
        """,
        "CREATE INDEX session_nights_by_start ON session_nights (subject_id, start_time)",
        "CREATE INDEX session_nights_by_anchor ON session_nights (subject_id, anchor)",
        """
        CREATE TABLE session_stage_samples (
            subject_id text NOT NULL,
            session_id uuid NOT NULL,
            start_time double precision NOT NULL,
            end_time double precision NOT NULL,
            stage text NOT NULL,
            FOREIGN KEY (subject_id, session_id) REFERENCES session_nights (subject_id, session_id) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX session_stage_samples_by_start ON session_stage_samples (subject_id, start_time)",
        "CREATE INDEX session_stage_samples_by_session ON session_stage_samples (subject_id, session_id)",
        """
        CREATE TABLE session_tombstones (
            subject_id text NOT NULL,
            session_id uuid NOT NULL,
            anchor bigint NOT NULL,
            PRIMARY KEY (subject_id, session_id)
        )
        """,
        "CREATE INDEX session_tombstones_by_anchor ON session_tombstones (subject_id, anchor)",
    ]
}
