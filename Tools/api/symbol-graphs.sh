#!/usr/bin/env bash
# Extracts the public symbol graph of library modules from the debug build (the same flags as Tools/run-tests.sh,
# so the build cache is shared), the way Tools/build-docs.sh does for DocC.
#
# usage: Tools/api/symbol-graphs.sh OUTPUT_DIR MODULE [MODULE ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
output="$1"
shift
swift_bin="$(dirname "$(command -v swift)")"
extract="$swift_bin/swift-symbolgraph-extract"
triple="$(uname -m)-unknown-linux-gnu"
for module in "$@"; do
    swift build --target "$module" -Xswiftc -warnings-as-errors >&2
done
build_dir="$(swift build --show-bin-path -Xswiftc -warnings-as-errors)"
# The modules import the C targets: point the extractor at their module maps and at headers outside /usr/include.
clang_flags=()
for map in Sources/C*/module.modulemap "$build_dir"/C*.build/module.modulemap; do
    clang_flags+=(-Xcc "-fmodule-map-file=$PWD/${map#"$PWD/"}")
done
for flag in $(pkg-config --cflags-only-I libpq); do
    clang_flags+=(-Xcc "$flag")
done
mkdir -p "$output"
for module in "$@"; do
    "$extract" -module-name "$module" -target "$triple" -I "$build_dir/Modules" -minimum-access-level public \
        -output-dir "$output" "${clang_flags[@]}" -Xcc "-I$PWD/Sources/CSleepDSP/include" \
        -Xcc "-I$PWD/Sources/CALSAMessages/include"
done
