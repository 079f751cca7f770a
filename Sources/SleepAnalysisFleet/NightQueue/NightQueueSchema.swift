import Foundation
import SleepAnalysis

/// The night queue's tables, as versioned migrations (see `PostgresMigrator`). Never edit a published
/// migration: append a new one.
enum NightQueueSchema {
    /// The schema's name in `sleepanalysis_schema_versions`.
    static let name = "night-queue"
    /// The channel a `NOTIFY` goes to when a job becomes claimable (submitted or retried).
    static let channel = "sleepanalysis_night_jobs"

    /// The migrator for the current schema.
    static let migrator = PostgresMigrator(schemaName: name, migrations: [version1, version2, version3])

    /// Version 1: jobs, their leases and their results (at most one per job).
    static let version1 = [
        """
        CREATE TABLE night_jobs (
            id bigserial PRIMARY KEY,
            subject_id text NOT NULL,
            audio_path text NOT NULL,
            accelerometer_path text,
            heart_rate_path text,
            start_time timestamptz NOT NULL,
            state text NOT NULL DEFAULT 'queued'
                CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
            attempts integer NOT NULL DEFAULT 0,
            max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
            submitted_at timestamptz NOT NULL DEFAULT now(),
            available_at timestamptz NOT NULL DEFAULT now(),
            started_at timestamptz,
            finished_at timestamptz,
            lease_token uuid,
            leased_by text,
            lease_expires_at timestamptz,
            last_error text,
            CHECK ((state = 'running') = (lease_token IS NOT NULL AND lease_expires_at IS NOT NULL))
        )
        """,
        "CREATE INDEX night_jobs_waiting ON night_jobs (available_at, id) WHERE state = 'queued'",
        "CREATE INDEX night_jobs_leased ON night_jobs (lease_expires_at) WHERE state = 'running'",
        """
        CREATE TABLE night_results (
            job_id bigint PRIMARY KEY REFERENCES night_jobs (id) ON DELETE CASCADE,
            session_id uuid NOT NULL,
            result jsonb NOT NULL,
            written_by text NOT NULL,
            written_at timestamptz NOT NULL DEFAULT now()
        )
        """,
    ]

    /// Version 2: the running night's session journal (a consistent SQLite snapshot), so that a worker taking
    /// over a dead worker's job resumes the night instead of starting it again.
    static let version2 = [
        """
        CREATE TABLE night_checkpoints (
            job_id bigint PRIMARY KEY REFERENCES night_jobs (id) ON DELETE CASCADE,
            journal bytea NOT NULL,
            epochs integer NOT NULL,
            written_by text NOT NULL,
            written_at timestamptz NOT NULL DEFAULT now()
        )
        """
    ]

    /// Version 3: idempotency keys (one job per key), named queues, priorities, the lease's length (a lease is not
    /// taken over until that long after the server started: an outage does not count against it), and an index for
    /// pruning finished jobs. Empty subjects are refused from now on (`NOT VALID`: rows already there stay).
    static let version3 = [
        "ALTER TABLE night_jobs ADD COLUMN idempotency_key text",
        "ALTER TABLE night_jobs ADD COLUMN queue_name text NOT NULL DEFAULT 'default'",
        "ALTER TABLE night_jobs ADD COLUMN priority integer NOT NULL DEFAULT 0",
        "ALTER TABLE night_jobs ADD COLUMN lease_seconds double precision",
        "ALTER TABLE night_jobs ADD CONSTRAINT night_jobs_subject_present CHECK (subject_id <> '') NOT VALID",
        "CREATE UNIQUE INDEX night_jobs_idempotency ON night_jobs (idempotency_key)",
        "DROP INDEX night_jobs_waiting",
        "CREATE INDEX night_jobs_ready ON night_jobs (queue_name, priority DESC, available_at, id) WHERE state = 'queued'",
        """
        CREATE INDEX night_jobs_finished ON night_jobs (finished_at)
        WHERE state IN ('done', 'failed', 'cancelled')
        """,
    ]
}
