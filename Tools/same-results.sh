#!/usr/bin/env bash
# Whether this checkout gives the same results as an earlier revision on the shared data and the demo night:
#   Tools/same-results.sh REV [DATA_DIR]   (DATA_DIR default ../shared/data; from the repository root)
# Builds REV's command-line tool in a clone of its own (${TMPDIR:-/tmp}/sleepanalysis-same-results/REV) and this
# checkout's, then compares, byte for byte: the staging features of the Walch nights (`features staging`, what
# `evaluate staging` and the staging training read), `evaluate events` with the shipped model on the shared clips,
# the breathing figures on the paced recordings (`evaluate_breathing.py rrujo`) and the demo night's JSON result
# (session ids aside). Prints SAME or DIFFERENT per comparison and exits 1 when any differs. About 15 minutes, most
# of it the release build of REV.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: Tools/same-results.sh REV [DATA_DIR]}
data=${2:-../shared/data}
work="${TMPDIR:-/tmp}/sleepanalysis-same-results/$rev"
mkdir -p "$work"
[ -d "$work/clone" ] || git clone -q . "$work/clone"
git -C "$work/clone" checkout -q "$rev"
(cd "$work/clone" && swift build -c release --product sleepanalysis >/dev/null)
swift build -c release --product sleepanalysis >/dev/null
status=0
for side in before after; do
    binary=$([ $side = before ] && echo "$work/clone/.build/release/sleepanalysis" || echo "$PWD/.build/release/sleepanalysis")
    "$binary" features staging --dataset walch --root "$data/staging/walch" --out "$work/walch-$side.csv"
    "$binary" evaluate events --manifest "$data/audio/MANIFEST.tsv" --root "$data/audio" --format json \
        >"$work/events-$side.json"
    python3 Tools/breathing/evaluate_breathing.py rrujo --data "$data" --binary "$binary" >"$work/breathing-$side.txt"
    XDG_STATE_HOME="$work/state-$side" XDG_DATA_HOME="$work/data-$side" "$binary" analyze Fixtures/night_short.ogg \
        --start 2026-12-01T23:00:00Z --accelerometer Fixtures/night_short_accelerometer.csv --format json 2>/dev/null |
        python3 -m json.tool | grep -v '"sessionId"' >"$work/demo-$side.json"
    rm -rf "$work/state-$side" "$work/data-$side"
done
for name in walch.csv events.json breathing.txt demo.json; do
    if cmp -s "$work/${name%.*}-before.${name##*.}" "$work/${name%.*}-after.${name##*.}"; then
        echo "SAME       $name"
    else
        echo "DIFFERENT  $name ($work/${name%.*}-before.${name##*.}, …-after.${name##*.})"
        status=1
    fi
done
exit $status
