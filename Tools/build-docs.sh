#!/usr/bin/env bash
# Builds the DocC documentation of the SleepAnalysis library and of the SleepAnalysisFleet library (into
# SleepAnalysisFleet.doccarchive beside the library's archive) and fails on any warning (a broken symbol link, a
# malformed article). The swift-docc-plugin cannot be fetched here, so the symbol graphs come from
# Tools/api/symbol-graphs.sh (the same extraction as the API check) and `docc convert` runs on them.
#
# usage: Tools/build-docs.sh [OUTPUT.doccarchive]     (default: .build/docs/SleepAnalysis.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-.build/docs/SleepAnalysis.doccarchive}"
swift_bin="$(dirname "$(command -v swift)")"
docc="${DOCC:-$(command -v docc || echo "$swift_bin/docc")}"
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT

fleet_output="$(dirname "$output")/SleepAnalysisFleet.doccarchive"
mkdir -p "$(dirname "$output")"
# Each module's symbol graphs in a folder of their own (the fleet's include its extensions of the library's types,
# `SleepAnalysisFleet@SleepAnalysis.symbols.json`).
for documented in "SleepAnalysis Sources/SleepAnalysis/Docs.docc $output" \
    "SleepAnalysisFleet Sources/SleepAnalysisFleet/Docs.docc $fleet_output"; do
    read -r module catalog archive <<<"$documented"
    Tools/api/symbol-graphs.sh "$graphs/$module" "$module"
    rm -rf "$archive"
    "$docc" convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" --output-dir "$archive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.sleepanalysis.$module" \
        --warnings-as-errors
    echo "documentation: $archive"
done
