#!/usr/bin/env bash
# Puts axe-core's axe.min.js in Tools/a11y/vendor/ (not committed), for the accessibility tests of the HTML pages:
# downloads the pinned wheel of Tools/a11y/requirements.txt with pip (hash-checked, no dependencies, nothing
# installed) and takes the script out of it. Does nothing when the file is there already.
set -euo pipefail
cd "$(dirname "$0")"
target=vendor/axe.min.js
[ -s "$target" ] && exit 0
python=python3
if ! "$python" -m pip --version >/dev/null 2>&1; then
    python=/usr/bin/python3  # Debian's, with python3-pip (Tools/install-dependencies.sh installs it)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m pip download --quiet --no-deps --require-hashes -r requirements.txt -d "$work"
mkdir -p vendor
"$python" - "$work" "$target" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/axe_playwright_python-*.whl")[0]
with zipfile.ZipFile(wheel) as archive:
    script = archive.read("axe_playwright_python/axe.min.js")
assert script.startswith(b"/*! axe v"), "not axe-core"
open(sys.argv[2], "wb").write(script)
PY
echo "axe-core: Tools/a11y/$target" >&2
