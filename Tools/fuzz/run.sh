#!/usr/bin/env bash
# Fuzzes the package's parsers with libFuzzer: Tools/fuzz/run.sh <harness[,harness...]|all> [minutes] [flags...]
#
# Builds sleepanalysis-fuzz with -sanitize=fuzzer,address -DFUZZING in its own build path (.build/fuzz; normal
# builds never need the fuzzer runtime), then runs each harness for `minutes` (default 10) on its seed corpus
# Tools/fuzz/corpus/<harness>/. New corpus entries, crash/timeout/OOM inputs and the log go to
# $SLEEPANALYSIS_FUZZ_OUT/<harness>/ (default /tmp/sleepanalysis-fuzz), never into the repository. libFuzzer runs
# in fork mode and keeps going after a crash, so one run collects every failure; the summary line per harness
# gives executions, corpus size and failures. See Tools/fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage="usage: Tools/fuzz/run.sh <harness[,harness...]|all> [minutes] [libFuzzer flags...]"
harness=${1:?$usage}
minutes=${2:-10}
shift $(($# < 2 ? $# : 2))
[[ $minutes =~ ^[0-9]+$ && $minutes -gt 0 ]] || { echo "$usage (minutes: a whole number above 0)" >&2; exit 64; }

if [[ $harness == all ]]; then
    harnesses=$(ls Tools/fuzz/corpus)
else
    harnesses=${harness//,/ }
    for name in $harnesses; do
        [[ -d Tools/fuzz/corpus/$name ]] || {
            echo "unknown harness '$name'; one of: all $(ls Tools/fuzz/corpus | tr '\n' ' ')" >&2
            exit 64
        }
    done
fi

build_path=.build/fuzz
build_log=$(mktemp)
# The linker warns about every ASan symbol it cannot export; only the rest of the output is shown.
if ! swift build --product sleepanalysis-fuzz --build-path "$build_path" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING >"$build_log" 2>&1; then
    grep -v "Cannot export local symbol" "$build_log" >&2
    rm -f "$build_log"
    echo "the fuzzing build failed" >&2
    exit 1
fi
grep -v "Cannot export local symbol" "$build_log" | tail -1
rm -f "$build_log"
binary="$build_path/debug/sleepanalysis-fuzz"

out_root=${SLEEPANALYSIS_FUZZ_OUT:-/tmp/sleepanalysis-fuzz}
for name in $harnesses; do
    out="$out_root/$name"
    mkdir -p "$out/corpus" "$out/artifacts" "$out/scratch"
    echo "== $name: $minutes min, log $out/log"
    # SWIFT_BACKTRACE: the Swift runtime's crash backtracer reads memory ASan reports as freed; libFuzzer's own
    # report is enough. Leak checking is off: the Swift runtime's one-time caches read as leaks.
    status=0
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 SLEEPANALYSIS_FUZZ_HARNESS="$name" SLEEPANALYSIS_FUZZ_SCRATCH="$out/scratch" \
        "$binary" -max_total_time=$((minutes * 60)) -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/" "$@" "$out/corpus" "Tools/fuzz/corpus/$name" >"$out/log" 2>&1 || status=$?
    rm -rf "$out/scratch"
    summary=$(grep -E '^#[0-9]+: ' "$out/log" | tail -1 || true)
    failures=$(find "$out/artifacts" -type f | wc -l)
    echo "   exit $status; last: ${summary:-none}; failure inputs: $failures in $out/artifacts"
done
