#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-dependencies.sh
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
