#!/usr/bin/env bash
# Installs what is missing, builds the command-line tool, and analyses the bundled night in Fixtures/.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-dependencies.sh
swift build -c release --product sleepanalysis >&2
night=Fixtures/night_short.ogg
args=(analyze "$night" --start 2026-12-01T23:00:00Z --format text)
[ -f Fixtures/night_short_accelerometer.csv ] && args+=(--accelerometer Fixtures/night_short_accelerometer.csv)
exec .build/release/sleepanalysis "${args[@]}" "$@"
