#!/usr/bin/env bash
# Import labelled sound clips from Debian packages, outside the repository.
# Usage (from the repository root): Tools/data/import-debian-sounds.sh
# Work directory: $SLEEPANALYSIS_IMPORT_DIR (default /work/imported-sounds): debs/ (the .deb files, about 2.2 GB),
# extract/ (their trees, about 4 GB), audio/ (16 kHz mono FLAC clips and MANIFEST.tsv, laid out like
# ../shared/data/audio). Which files get which label: Tools/data/debian-sound-labels.tsv; see Tools/data/README.md.
# Needs apt-get (a Debian mirror), dpkg-deb, and Python 3 with numpy, scipy and soundfile (Tools/requirements.txt).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="${SLEEPANALYSIS_IMPORT_DIR:-/work/imported-sounds}"
PACKAGES=(0ad-data supertuxkart-data tuxpaint-stamps-default)
mkdir -p "$WORK/debs" "$WORK/extract"
for package in "${PACKAGES[@]}"; do
    if ! ls "$WORK/debs/${package}_"*.deb >/dev/null 2>&1; then
        (cd "$WORK/debs" && apt-get download "$package")
    fi
    if [ ! -e "$WORK/extract/$package/.extracted" ]; then
        rm -rf "$WORK/extract/$package"
        dpkg-deb -x "$WORK/debs/${package}_"*.deb "$WORK/extract/$package"
        touch "$WORK/extract/$package/.extracted"
    fi
done
rm -rf "$WORK/audio"
mkdir -p "$WORK/audio"
python3 "$HERE/import_debian_sounds.py" --labels "$HERE/debian-sound-labels.tsv" \
    --packages "$HERE/debian-sound-packages.tsv" --extract "$WORK/extract" --debs "$WORK/debs" --out "$WORK/audio"
echo "manifest: $WORK/audio/MANIFEST.tsv"
