#!/usr/bin/env bash
# CI check of an installed binary working on its own: installs the debug build (already built by CI) into a
# temporary PREFIX with Tools/install.sh, then analyses the demo night with PREFIX/bin/sleepanalysis from another
# working directory, far from the build folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
"$root/Tools/install.sh" --debug --skip-build "$prefix"
cd "$work"
XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" "$prefix/bin/sleepanalysis" analyze \
    "$root/Fixtures/night_short.ogg" --no-store --quiet --format json >result.json
grep -q '"sessionId"' result.json
grep -q '"sleepStagePredictions"' result.json
echo "check-install: $prefix/bin/sleepanalysis analysed the night from $work"
