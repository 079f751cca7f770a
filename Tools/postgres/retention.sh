#!/usr/bin/env bash
# What retention and inspection cost on a large queue: inserts JOBS finished jobs (40 days old, 90 % done with a
# small result, 10 % failed) and 5,000 queued ones into a throw-away cluster with SQL, then times `queue metrics`,
# `queue status`, `queue list --state failed` and `queue prune --older-than 30d` once each.
#   swift build -c release --product sleepanalysis && Tools/postgres/retention.sh [JOBS]
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs="${1:-100000}"
tool="${SLEEPANALYSIS_TOOL:-.build/release/sleepanalysis}"
[ -x "$tool" ] || { echo "build it first: swift build -c release --product sleepanalysis" >&2; exit 64; }
if [ -z "${SLEEPANALYSIS_TEST_DATABASE_URL:-}" ]; then
    exec Tools/postgres/with-test-cluster.sh "$0" "$jobs"
fi
export SLEEPANALYSIS_DATABASE_URL="$SLEEPANALYSIS_TEST_DATABASE_URL"
"$tool" queue migrate >/dev/null
psql "$SLEEPANALYSIS_DATABASE_URL" -X -q -v ON_ERROR_STOP=1 -c "
INSERT INTO night_jobs (subject_id, audio_path, start_time, state, attempts, finished_at, idempotency_key, queue_name)
SELECT 's-' || (i % 100), '/n/' || i || '.flac', now(), CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'done' END, 1,
    now() - interval '40 days', 'k-' || i, CASE WHEN i % 2 = 0 THEN 'default' ELSE 'reanalysis' END
FROM generate_series(1, $jobs) i;
INSERT INTO night_results (job_id, session_id, result, written_by)
SELECT id, gen_random_uuid(), '{\"x\": 1}'::jsonb, 'w' FROM night_jobs WHERE state = 'done';
INSERT INTO night_jobs (subject_id, audio_path, start_time, idempotency_key)
SELECT 'q-' || i, '/n/q' || i || '.flac', now(), 'q-' || i FROM generate_series(1, 5000) i;"
timed() {
    local began ended
    began=$(date +%s.%N)
    "$tool" "$@" >/dev/null
    ended=$(date +%s.%N)
    awk -v s="$began" -v e="$ended" -v c="$*" 'BEGIN { printf "%s: %.2f s\n", c, e - s }'
}
timed queue metrics
timed queue status
timed queue list --state failed --limit 100 --format json
timed queue prune --older-than 30d
"$tool" queue status
