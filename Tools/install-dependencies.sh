#!/usr/bin/env bash
# Installs the Debian packages SleepAnalysis builds against (and zsh and fish, which the completion-script tests
# run; chromium, in which the HTML night report's tests render it; zlib, with which they read its screenshots;
# curl, with which the HTTP server's and night service's tests talk to them and fetch a worker's metrics; systemd,
# whose systemd-analyze verify checks the worker's unit), when any is missing; python3-jsonschema, with which the
# tests validate the JSON outputs against Schemas/; python3-pip, with which Tools/a11y/fetch-axe.sh (run last)
# fetches axe-core for the pages' accessibility tests. Needs root (or sudo).
set -euo pipefail
packages=(libfftw3-dev libsndfile1-dev libogg-dev libopus-dev libasound2-dev libsqlite3-dev libsodium-dev libsoxr-dev libpq-dev libmicrohttpd-dev libcurl4 curl pkg-config zsh fish zlib1g-dev chromium python3-jsonschema python3-pip systemd)
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
"$(dirname "$0")/a11y/fetch-axe.sh"
