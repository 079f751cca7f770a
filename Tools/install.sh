#!/usr/bin/env bash
# Builds the sleepanalysis tool and installs it with its models, so that the binary works on its own:
#   PREFIX/bin/sleepanalysis               the tool
#   PREFIX/share/sleepanalysis/Models/     the models, found relative to the binary's real path
#                                          (BundledResources in Sources/SleepAnalysis/Support)
# Usage: Tools/install.sh [--debug] [--skip-build] PREFIX
#   --debug        install the debug build instead of the release build
#   --skip-build   install what is already built (the CI check, after its own build)
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
build=yes
while [[ $# -gt 1 ]]; do
    case "$1" in
    --debug) configuration=debug ;;
    --skip-build) build=no ;;
    *) echo "install.sh: unknown option $1" >&2; exit 64 ;;
    esac
    shift
done
if [[ $# -ne 1 || "$1" == -* ]]; then
    echo "usage: Tools/install.sh [--debug] [--skip-build] PREFIX" >&2
    exit 64
fi
prefix=$1
if [[ $build == yes ]]; then swift build -c "$configuration" --product sleepanalysis; fi
products=$(swift build -c "$configuration" --show-bin-path)
models="$products/SleepAnalysis_SleepAnalysis.resources/Models"
if [[ ! -x "$products/sleepanalysis" || ! -d "$models" ]]; then
    echo "install.sh: no $configuration build of sleepanalysis in $products" >&2
    exit 1
fi
install -d "$prefix/bin" "$prefix/share/sleepanalysis"
install -m 755 "$products/sleepanalysis" "$prefix/bin/sleepanalysis"
rm -rf "$prefix/share/sleepanalysis/Models"
cp -R "$models" "$prefix/share/sleepanalysis/Models"
echo "installed $prefix/bin/sleepanalysis and its models in $prefix/share/sleepanalysis/Models"
