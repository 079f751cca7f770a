-- Least privilege for the night queue and the PostgreSQL session store: three group roles and their rights.
--
-- Run after `sleepanalysis queue migrate` (again after every migration), as the role that owns the tables, holding
-- CREATEROLE (or as a superuser):
--     psql "$OWNER_URL" -v ON_ERROR_STOP=1 -f Tools/postgres/roles.sql
-- then give each login role one group:
--     CREATE ROLE ingest LOGIN PASSWORD '…' IN ROLE sleepanalysis_submitter;
--     CREATE ROLE worker_a LOGIN PASSWORD '…' IN ROLE sleepanalysis_worker;
--     CREATE ROLE grafana LOGIN PASSWORD '…' IN ROLE sleepanalysis_reader;
--     CREATE ROLE front LOGIN PASSWORD '…' IN ROLE sleepanalysis_service;
--
-- sleepanalysis_submitter  queue submit, status, list, metrics, result, cancel, retry, prune (--including-nights)
-- sleepanalysis_worker     worker (claim, renew, checkpoint, complete, fail, release, its periodic prune),
--                          status, list, metrics, result; it can neither cancel nor retry a job
-- sleepanalysis_reader     status, list, metrics, result, history --database, export --database
-- sleepanalysis_service    serve (the night service): its sessions and chunks, the jobs its finished sessions
--                          queue, the results and nights it reads, and a user's erasure (DELETE /v1/users/…)
-- Only the owner runs `queue migrate` (DDL). Row-level security on night_jobs keeps a worker to the jobs it may
-- work on: it updates queued and running jobs only, into queued, running, done or failed (so no cancel), and it
-- never sees a failed or cancelled job as updatable (so no retry); submitters and workers delete finished jobs only.
-- The owner bypasses these policies.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sleepanalysis_submitter') THEN
        CREATE ROLE sleepanalysis_submitter NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sleepanalysis_worker') THEN
        CREATE ROLE sleepanalysis_worker NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sleepanalysis_reader') THEN
        CREATE ROLE sleepanalysis_reader NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sleepanalysis_service') THEN
        CREATE ROLE sleepanalysis_service NOLOGIN;
    END IF;
END
$$;

-- Nothing beyond what is granted here (PostgreSQL 15 already keeps CREATE on public from PUBLIC).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public
    TO sleepanalysis_submitter, sleepanalysis_worker, sleepanalysis_reader, sleepanalysis_service;

-- Every opener checks the schemas' versions.
GRANT SELECT ON sleepanalysis_schema_versions
    TO sleepanalysis_submitter, sleepanalysis_worker, sleepanalysis_reader, sleepanalysis_service;

-- Reading: everyone.
GRANT SELECT ON night_jobs, night_results, night_checkpoints,
    session_store_subjects, session_nights, session_stage_samples, session_tombstones
    TO sleepanalysis_submitter, sleepanalysis_worker, sleepanalysis_reader, sleepanalysis_service;

-- Submitters: add jobs, cancel and retry them, prune finished ones (with their nights when asked).
GRANT INSERT, UPDATE, DELETE ON night_jobs TO sleepanalysis_submitter;
GRANT USAGE ON SEQUENCE night_jobs_id_seq TO sleepanalysis_submitter;
GRANT DELETE ON night_results, night_checkpoints TO sleepanalysis_submitter;
GRANT INSERT, UPDATE, DELETE ON session_store_subjects, session_nights, session_stage_samples, session_tombstones
    TO sleepanalysis_submitter;

-- Workers: lease and end jobs, checkpoints, results, the night in the session store; prune finished jobs.
GRANT UPDATE, DELETE ON night_jobs TO sleepanalysis_worker;
GRANT INSERT, DELETE ON night_results TO sleepanalysis_worker;
GRANT INSERT, UPDATE, DELETE ON night_checkpoints TO sleepanalysis_worker;
GRANT INSERT, UPDATE, DELETE ON session_store_subjects, session_nights, session_stage_samples, session_tombstones
    TO sleepanalysis_worker;

-- The night service: its own tables; jobs for the sessions it finishes; everything of a user it erases.
GRANT SELECT, INSERT, UPDATE, DELETE ON night_service_sessions, night_service_chunks TO sleepanalysis_service;
GRANT INSERT, DELETE ON night_jobs TO sleepanalysis_service;
GRANT USAGE ON SEQUENCE night_jobs_id_seq TO sleepanalysis_service;
GRANT DELETE ON night_results, night_checkpoints,
    session_store_subjects, session_nights, session_stage_samples, session_tombstones
    TO sleepanalysis_service;

-- Which rows each role may change.
ALTER TABLE night_jobs ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS night_jobs_read ON night_jobs;
CREATE POLICY night_jobs_read ON night_jobs FOR SELECT
    TO sleepanalysis_submitter, sleepanalysis_worker, sleepanalysis_reader, sleepanalysis_service USING (true);
DROP POLICY IF EXISTS night_jobs_submit ON night_jobs;
CREATE POLICY night_jobs_submit ON night_jobs FOR INSERT TO sleepanalysis_submitter, sleepanalysis_service
    WITH CHECK (state = 'queued' AND attempts = 0 AND lease_token IS NULL);
DROP POLICY IF EXISTS night_jobs_operate ON night_jobs;
CREATE POLICY night_jobs_operate ON night_jobs FOR UPDATE TO sleepanalysis_submitter
    USING (true) WITH CHECK (true);
DROP POLICY IF EXISTS night_jobs_work ON night_jobs;
CREATE POLICY night_jobs_work ON night_jobs FOR UPDATE TO sleepanalysis_worker
    USING (state IN ('queued', 'running')) WITH CHECK (state IN ('queued', 'running', 'done', 'failed'));
DROP POLICY IF EXISTS night_jobs_prune ON night_jobs;
CREATE POLICY night_jobs_prune ON night_jobs FOR DELETE TO sleepanalysis_submitter, sleepanalysis_worker
    USING (state IN ('done', 'failed', 'cancelled'));
-- The service erases a user's jobs in any state (a worker analysing one then loses its lease).
DROP POLICY IF EXISTS night_jobs_erase ON night_jobs;
CREATE POLICY night_jobs_erase ON night_jobs FOR DELETE TO sleepanalysis_service USING (true);
