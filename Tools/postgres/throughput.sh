#!/usr/bin/env bash
# Queue throughput on this machine: submits NIGHTS copies of a night (the 30-minute demo night, or the audio file in
# $SLEEPANALYSIS_NIGHT, e.g. an 8-hour WAV) to a throw-away cluster, runs one release-built worker with
# --concurrency C until the queue is empty, and prints nights per hour, the speed in multiples of real time, the
# worker's CPU, and the database's size per night.
#   swift build -c release --product sleepanalysis && Tools/postgres/throughput.sh [NIGHTS] [CONCURRENCY]
set -euo pipefail
cd "$(dirname "$0")/../.."
nights="${1:-8}"
concurrency="${2:-2}"
tool="${SLEEPANALYSIS_TOOL:-.build/release/sleepanalysis}"
[ -x "$tool" ] || { echo "build it first: swift build -c release --product sleepanalysis" >&2; exit 64; }

if [ -z "${SLEEPANALYSIS_TEST_DATABASE_URL:-}" ]; then
    exec Tools/postgres/with-test-cluster.sh "$0" "$nights" "$concurrency"
fi
export SLEEPANALYSIS_DATABASE_URL="$SLEEPANALYSIS_TEST_DATABASE_URL"
night="${SLEEPANALYSIS_NIGHT:-$PWD/Fixtures/night_short.ogg}"
# The night's length (Python's soundfile from Tools/requirements.txt; the demo night is 30 minutes).
night_seconds=$(python3 -c "import soundfile, sys; print(soundfile.info(sys.argv[1]).duration)" "$night" 2>/dev/null \
    || { [ -z "${SLEEPANALYSIS_NIGHT:-}" ] && echo 1800; }) \
    || { echo "throughput.sh: cannot read the length of $night (pip install soundfile)" >&2; exit 66; }
"$tool" queue migrate >/dev/null
for index in $(seq 1 "$nights"); do
    "$tool" queue submit "$night" --start "2026-12-01T23:00:00Z" --subject "throughput-$index" >/dev/null
done
start=$(date +%s.%N)
cpu_file=$(mktemp)
/usr/bin/time -f "%U %S" -o "$cpu_file" "$tool" worker --exit-when-idle --concurrency "$concurrency" --log-level warning \
    --input-root "$(dirname "$night")"
end=$(date +%s.%N)
cpu=$(awk '{ print $1 + $2 }' "$cpu_file")
rm -f "$cpu_file"
"$tool" queue status
# What the nights take in the database: the queue's tables and the session store's, per night.
psql "$SLEEPANALYSIS_DATABASE_URL" -X -q -A -t -c "SELECT 'database per night: ' || pg_size_pretty(
    (pg_total_relation_size('night_jobs') + pg_total_relation_size('night_results')
    + pg_total_relation_size('night_checkpoints') + pg_total_relation_size('session_nights')
    + pg_total_relation_size('session_stage_samples') + pg_total_relation_size('session_tombstones')
    + pg_total_relation_size('session_store_subjects')) / $nights) || ' (results ' || pg_size_pretty(
    pg_total_relation_size('night_results') / $nights) || ', session store ' || pg_size_pretty(
    (pg_total_relation_size('session_nights') + pg_total_relation_size('session_stage_samples')) / $nights) || ')'"
awk -v n="$nights" -v s="$start" -v e="$end" -v c="$concurrency" -v cpu="$cpu" -v d="$night_seconds" 'BEGIN {
    t = e - s
    printf "%d nights of %.0f min, concurrency %d: %.1f s, %.0f nights/hour, %.0fx real time\n", n, d / 60, c, t, n * 3600 / t, n * d / t
    printf "worker CPU %.1f s (%.2f s a night), %.2f cores busy on average\n", cpu, cpu / n, cpu / t
}'
