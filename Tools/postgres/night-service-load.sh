#!/usr/bin/env bash
# Night-service load on loopback: CLIENTS clients (default 50) upload a MINUTES-minute night each (default 10), all
# at once, in 30-second WAV chunks with curl to a release-built `sleepanalysis serve` on 127.0.0.1, then finish
# their sessions. Prints the uploads by status, chunk latency (p50/p90/p99/max), the server's peak memory (VmHWM)
# and checks that no chunk was lost (every session has all its chunks, no gap, and is queued). Bounded: each
# request has a 120-second limit; the clients stop after their night.
#   swift build -c release --product sleepanalysis && Tools/postgres/night-service-load.sh [CLIENTS] [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/../.."
clients="${1:-50}"
minutes="${2:-10}"
tool="${SLEEPANALYSIS_TOOL:-.build/release/sleepanalysis}"
[ -x "$tool" ] || { echo "build it first: swift build -c release --product sleepanalysis" >&2; exit 64; }
if [ -z "${SLEEPANALYSIS_TEST_DATABASE_URL:-}" ]; then
    exec Tools/postgres/with-test-cluster.sh "$0" "$clients" "$minutes"
fi
export SLEEPANALYSIS_DATABASE_URL="$SLEEPANALYSIS_TEST_DATABASE_URL"
work="$(mktemp -d)"
server=""
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

per_client=$(python3 Tools/postgres/night_service_load.py chunks "$work/night" "$minutes")
"$tool" license keygen --out "$work/issuer" >/dev/null
key=$("$tool" license issue --private-key "$work/issuer/private.key" --features all --subject load \
    --expires "$(date -u -d '+2 days' +%F)")
"$tool" serve --migrate --port 0 --chunks "$work/chunks" --trusted-keys "$(cat "$work/issuer/public.key")" \
    --rate 100000 --burst 100000 --max-connections 512 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 1 100); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$work/serve.out")
[ -n "$base" ] || { cat "$work/serve.err" >&2; exit 1; }
rss_before=$(awk '/VmRSS/ { print $2 }' "/proc/$server/status")

# One client: create a session, upload its chunks in order, one request at a time, then finish.
client() {
    local index="$1" session
    session=$(curl -sS --max-time 120 -H "Authorization: Bearer $key" -H "Content-Type: application/json" \
        -d "{\"userId\": \"user-$index\", \"startTime\": \"2026-12-01T23:00:00Z\"}" "$base/v1/sessions" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["sessionId"])')
    for sequence in $(seq 0 $((per_client - 1))); do
        curl -sS --max-time 120 -o /dev/null -w '%{http_code} %{time_total}\n' -X PUT \
            -H "Authorization: Bearer $key" --data-binary "@$work/night/$(printf %04d "$sequence").wav" \
            "$base/v1/sessions/$session/audio/$sequence" >>"$work/times.$index"
    done
    curl -sS --max-time 120 -o /dev/null -X POST -H "Authorization: Bearer $key" \
        "$base/v1/sessions/$session/finish"
    echo "$session" >"$work/session.$index"
}
started=$(date +%s.%N)
for index in $(seq 1 "$clients"); do client "$index" & done
wait $(jobs -p | grep -v "^$server\$") 2>/dev/null || true
ended=$(date +%s.%N)
cat "$work"/times.* >"$work/times"
peak=$(awk '/VmHWM/ { print $2 }' "/proc/$server/status")

# No chunk lost: every session has all its chunks, without a gap, and is queued.
lost=0
for index in $(seq 1 "$clients"); do
    session=$(cat "$work/session.$index" 2>/dev/null || echo none)
    curl -sS --max-time 30 -H "Authorization: Bearer $key" "$base/v1/sessions/$session" >"$work/state.$index" || true
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["chunks"]["audio"] == int(sys.argv[2]) and not d["missing"] and d["state"] == "queued" else 1)' \
        "$work/state.$index" "$per_client" || lost=$((lost + 1))
done
files=$(find "$work/chunks" -name '*.wav' | wc -l)
echo "$clients clients x $per_client chunks of 30 s ($(du -sh "$work/night" | cut -f1) a night), $(awk -v s="$started" -v e="$ended" 'BEGIN { printf "%.1f", e - s }') s"
status=0
python3 Tools/postgres/night_service_load.py report "$work/times" "$clients" "$per_client" || status=1
echo "chunk files stored: $files; sessions incomplete or not queued: $lost"
echo "server memory: $((rss_before / 1024)) MiB before, peak $((peak / 1024)) MiB (VmHWM)"
[ "$lost" -eq 0 ] && [ "$files" -eq $((clients * per_client)) ] || status=1
exit $status
