#!/usr/bin/env bash
# Installs the Debian packages SleepAnalysis builds against (and zsh and fish, which the completion-script tests
# run; chromium, in which the HTML night report's tests render it; zlib, with which they read its screenshots),
# when any is missing; python3-jsonschema, with which the tests validate the JSON outputs against Schemas/; systemd
# (systemd-analyze verify checks the worker's unit) and curl (which fetches a worker's metrics). Needs root
# (or sudo).
set -euo pipefail
packages=(libfftw3-dev libsndfile1-dev libogg-dev libopus-dev libasound2-dev libsqlite3-dev libsodium-dev libsoxr-dev libpq-dev libmicrohttpd-dev libcurl4 pkg-config zsh fish zlib1g-dev chromium python3-jsonschema systemd curl)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing missing Debian packages: ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
