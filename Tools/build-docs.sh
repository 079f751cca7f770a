#!/usr/bin/env bash
# Builds the DocC documentation of the SleepAnalysis library and of the SleepAnalysisFleet library (into
# SleepAnalysisFleet.doccarchive beside the library's archive) and fails on any warning (a broken symbol link, a
# malformed article). The swift-docc-plugin cannot be fetched here, so this extracts the symbol graphs itself and
# runs `docc convert` on them.
#
# usage: Tools/build-docs.sh [OUTPUT.doccarchive]     (default: .build/docs/SleepAnalysis.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-.build/docs/SleepAnalysis.doccarchive}"
swift_bin="$(dirname "$(command -v swift)")"
docc="${DOCC:-$(command -v docc || echo "$swift_bin/docc")}"
extract="$swift_bin/swift-symbolgraph-extract"
triple="$(uname -m)-unknown-linux-gnu"

# The same flags as the project build (Tools/run-tests.sh), so the build cache is shared.
swift build --target SleepAnalysisFleet -Xswiftc -warnings-as-errors
build_dir="$(swift build --show-bin-path -Xswiftc -warnings-as-errors)"
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT

# The modules import the C targets: point the extractor at their module maps.
clang_flags=()
for map in Sources/C*/module.modulemap "$build_dir"/C*.build/module.modulemap; do
    clang_flags+=(-Xcc "-fmodule-map-file=$PWD/${map#"$PWD/"}")
done
# Headers outside /usr/include (libpq's are in /usr/include/postgresql), as SwiftPM finds them through pkg-config.
for flag in $(pkg-config --cflags-only-I libpq); do
    clang_flags+=(-Xcc "$flag")
done

fleet_output="$(dirname "$output")/SleepAnalysisFleet.doccarchive"
mkdir -p "$(dirname "$output")"
# Each module's symbol graphs in a folder of their own (the fleet's include its extensions of the library's types,
# `SleepAnalysisFleet@SleepAnalysis.symbols.json`).
for documented in "SleepAnalysis Sources/SleepAnalysis/Docs.docc $output" \
    "SleepAnalysisFleet Sources/SleepAnalysisFleet/Docs.docc $fleet_output"; do
    read -r module catalog archive <<<"$documented"
    mkdir -p "$graphs/$module"
    "$extract" -module-name "$module" -target "$triple" -I "$build_dir/Modules" -minimum-access-level public \
        -output-dir "$graphs/$module" "${clang_flags[@]}" -Xcc "-I$PWD/Sources/CSleepDSP/include" \
        -Xcc "-I$PWD/Sources/CALSAMessages/include"
    rm -rf "$archive"
    "$docc" convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" --output-dir "$archive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.sleepanalysis.$module" \
        --warnings-as-errors
    echo "documentation: $archive"
done
