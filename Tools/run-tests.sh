#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, and runs the whole test suite beside a throw-away
# PostgreSQL cluster (Tools/postgres/with-test-cluster.sh sets SLEEPANALYSIS_TEST_DATABASE_URL, stops it at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-dependencies.sh
swift build --build-tests -Xswiftc -warnings-as-errors
Tools/postgres/with-test-cluster.sh swift test --skip-build
