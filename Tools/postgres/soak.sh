#!/usr/bin/env bash
# Soak: NIGHTS short nights (2, 3, 4 and 5 minutes cut from the demo night) through WORKERS workers on a throw-away
# cluster, a random worker killed with SIGKILL every KILL_SECONDS on average (0.5 s to twice that; 0 for none) and
# restarted at once. At the end it checks that every job is done with exactly one result and one night in its subject's session
# store, that every result of a clip is the same (session ids aside), and that the results equal the uninterrupted
# single-process analysis (`analyze`) of their clips, for every clip and SAMPLE random jobs. Exit 0 when all hold.
#   swift build -c release --product sleepanalysis && Tools/postgres/soak.sh [NIGHTS] [WORKERS] [KILL_SECONDS] [SAMPLE] [PACE]
# PACE (e.g. 30: thirty times real time) slows the workers so that kills land mid-night and the nights taken over
# resume from their checkpoints; by default they analyse as fast as possible.
# SLEEPANALYSIS_TOOL selects another build of the tool (e.g. .build/debug/sleepanalysis). Needs python3 with
# soundfile (Tools/requirements.txt) to cut the clips, jq and psql.
set -euo pipefail
cd "$(dirname "$0")/../.."
nights="${1:-1000}"
workers="${2:-3}"
kill_seconds="${3:-5}"
sample="${4:-20}"
pace="${5:-}"
tool="${SLEEPANALYSIS_TOOL:-.build/release/sleepanalysis}"
[ -x "$tool" ] || { echo "build it first: swift build -c release --product sleepanalysis" >&2; exit 64; }
for needed in jq psql python3; do
    command -v "$needed" >/dev/null || { echo "$needed is needed" >&2; exit 69; }
done

if [ -z "${SLEEPANALYSIS_TEST_DATABASE_URL:-}" ]; then
    exec Tools/postgres/with-test-cluster.sh "$0" "$nights" "$workers" "$kill_seconds" "$sample" ${pace:+"$pace"}
fi
export SLEEPANALYSIS_DATABASE_URL="$SLEEPANALYSIS_TEST_DATABASE_URL"
tool="$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")"
work="$(mktemp -d "${TMPDIR:-/tmp}/sleepanalysis-soak.XXXXXX")"
declare -a pids=()
cleanup() {
    status=$?
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
sql() { psql "$SLEEPANALYSIS_DATABASE_URL" -X -q -A -t -v ON_ERROR_STOP=1 -c "$1"; }
# A result as `queue result` or `analyze --format json` prints it, without its session ids, keys sorted.
normalised() { jq -S 'walk(if type == "object" then del(.sessionId) else . end)'; }

# The clips (minutes:offset in minutes) and their uninterrupted references.
start_time="2026-12-01T23:00:00Z"
mapfile -t clips < <(python3 Tools/postgres/soak_clips.py Fixtures/night_short.ogg "$work/clips" 2:0 3:4 4:9 5:15)
for clip in "${clips[@]}"; do
    XDG_DATA_HOME="$work/reference-data" "$tool" analyze "$clip" --start "$start_time" --format json --no-store \
        --storage "$work/reference-storage" --quiet | normalised >"$clip.reference.json"
done

# The queue: night i is clip i mod 4, subjects soak-0 … soak-99.
"$tool" queue migrate >/dev/null # the tables, as their owner; every other command only checks their version
# Each night has its own idempotency key: the same clip of the same subject comes back every 100 nights, and the
# default key (subject, start, content) would rightly make those one job.
seq 0 $((nights - 1)) | xargs -P 4 -I{} sh -c '
    i={}; set -- '"${clips[*]}"'; shift $((i % 4)); exec "$0" queue submit "$1" --start '"$start_time"' \
        --subject "soak-$((i % 100))" --key "soak-night-$i" --max-attempts 50 --input-root '"$work/clips"' \
        >/dev/null' "$tool"
[ "$(sql "SELECT count(*) FROM night_jobs")" -eq "$nights" ] || { echo "not every night was submitted" >&2; exit 1; }

generation=0
start_worker() {
    generation=$((generation + 1))
    local name="w$1-$generation"
    "$tool" worker --name "$name" --lease-seconds 3 --poll-seconds 0.5 --log-level info ${pace:+--pace "$pace"} \
        --storage "$work/storage/w$1" --input-root "$work/clips" 2>>"$work/workers.log" >/dev/null &
    pids[$1]=$!
}
for k in $(seq 0 $((workers - 1))); do start_worker "$k"; done

began=$(date +%s.%N)
kills=0
# The pause before the next kill: 0.5 s to twice KILL_SECONDS (KILL_SECONDS 0: no kills).
pause() { awk -v r="$RANDOM" -v k="$kill_seconds" 'BEGIN { printf "%.2f", 0.5 + r / 32767 * (2 * k - 0.5) }'; }
next_kill=$(awk -v now="$(date +%s.%N)" -v p="$(pause)" 'BEGIN { printf "%.2f", now + p }')
while [ "$(sql "SELECT count(*) FROM night_jobs WHERE state IN ('done', 'failed', 'cancelled')")" -lt "$nights" ]; do
    sleep 0.5
    if [ "$kill_seconds" != 0 ] && awk -v now="$(date +%s.%N)" -v at="$next_kill" 'BEGIN { exit !(now >= at) }'; then
        victim=$((RANDOM % workers))
        if kill -KILL "${pids[$victim]}" 2>/dev/null; then kills=$((kills + 1)); fi
        wait "${pids[$victim]}" 2>/dev/null || true
        start_worker "$victim"
        next_kill=$(awk -v now="$(date +%s.%N)" -v p="$(pause)" 'BEGIN { printf "%.2f", now + p }')
    fi
    # A worker that stopped by itself is reported, and restarted so the count can finish.
    for k in $(seq 0 $((workers - 1))); do
        if ! kill -0 "${pids[$k]}" 2>/dev/null; then
            echo "worker $k had stopped by itself (its log is printed at the end)" >&2
            start_worker "$k"
        fi
    done
done
ended=$(date +%s.%N)
for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
wait 2>/dev/null || true
pids=()

failures=0
check() { # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok    $1: $3"; else echo "FAIL  $1: expected $2, got $3"; failures=$((failures + 1)); fi
}
echo "soak: $nights nights (2-5 min) through $workers workers${pace:+ at pace $pace}, $kills workers killed with SIGKILL"
check "jobs done" "$nights" "$(sql "SELECT count(*) FROM night_jobs WHERE state = 'done'")"
check "results (one per job)" "$nights $nights" "$(sql "SELECT count(*) || ' ' || count(DISTINCT job_id) FROM night_results")"
check "nights in the session store" "$nights" "$(sql "
    SELECT count(*) FROM night_results r JOIN night_jobs j ON j.id = r.job_id
    JOIN session_nights s ON s.subject_id = j.subject_id AND s.session_id = r.session_id")"
check "session-store nights in all" "$nights" "$(sql "SELECT count(*) FROM session_nights")"
check "checkpoints left" "0" "$(sql "SELECT count(*) FROM night_checkpoints")"
# Each worker slot reuses its storage root, so every restart removes what the killed worker left there.
check "job folders left by killed workers" "0" "$(find "$work/storage" -mindepth 1 -maxdepth 1 -name 'job-*' -type d | wc -l)"
check "distinct results per clip (session ids aside)" "1 1 1 1" "$(sql "
    SELECT string_agg(n::text, ' ') FROM (
        SELECT count(DISTINCT regexp_replace(r.result::text, r.session_id::text, '', 'gi')) AS n
        FROM night_results r JOIN night_jobs j ON j.id = r.job_id GROUP BY j.audio_path ORDER BY j.audio_path) c")"
# Every clip's first job, and SAMPLE random jobs, against the uninterrupted analysis.
mapfile -t compared < <(sql "
    (SELECT min(id) FROM night_jobs GROUP BY audio_path)
    UNION (SELECT id FROM night_jobs ORDER BY random() LIMIT $sample)")
mismatches=0
for id in "${compared[@]}"; do
    clip="$(sql "SELECT audio_path FROM night_jobs WHERE id = $id")"
    if ! "$tool" queue result "$id" | normalised | cmp -s - "$clip.reference.json"; then
        mismatches=$((mismatches + 1))
        echo "job $id differs from the uninterrupted analysis of $(basename "$clip")" >&2
    fi
done
check "results equal to the uninterrupted analysis (${#compared[@]} jobs)" "0 differ" "$mismatches differ"

sql "SELECT 'attempts: ' || string_agg(attempts || ' x' || n, ', ' ORDER BY attempts) FROM (
        SELECT attempts, count(*) AS n FROM night_jobs GROUP BY attempts) a"
awk -v n="$nights" -v s="$began" -v e="$ended" -v w="$workers" 'BEGIN {
    t = e - s
    printf "time: %.0f s, %.0f nights/hour with %d workers\n", t, n * 3600 / t, w
}'
sql "SELECT 'database: night_results ' || pg_size_pretty(pg_total_relation_size('night_results'))
    || ', night_jobs ' || pg_size_pretty(pg_total_relation_size('night_jobs'))
    || ', session store ' || pg_size_pretty(pg_total_relation_size('session_nights')
        + pg_total_relation_size('session_stage_samples') + pg_total_relation_size('session_tombstones')
        + pg_total_relation_size('session_store_subjects'))
    || '; per night ' || pg_size_pretty((pg_total_relation_size('night_results')
        + pg_total_relation_size('night_jobs') + pg_total_relation_size('night_checkpoints')
        + pg_total_relation_size('session_nights') + pg_total_relation_size('session_stage_samples')
        + pg_total_relation_size('session_tombstones') + pg_total_relation_size('session_store_subjects')) / $nights)"
if [ "$failures" -ne 0 ]; then
    echo "the soak failed ($failures checks); the workers' log:" >&2
    tail -n 40 "$work/workers.log" >&2
    exit 1
fi
echo "taken over from a killed worker: $(sql "SELECT count(*) FROM night_jobs WHERE attempts > 1") jobs;" \
    "$(grep -c 'resuming after' "$work/workers.log" || true) takeovers resumed from a checkpoint (a job may be" \
    "taken over more than once; a night killed before its first checkpoint starts again)"
