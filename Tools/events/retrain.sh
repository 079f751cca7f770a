#!/usr/bin/env bash
# Retrain the event model from the shared clips and rewrite Models/events.bin and its figures.
# Usage (from the repository root): Tools/events/retrain.sh [DATA_DIR]   (default ../shared/data/audio)
# Needs: Python 3 with numpy, scipy, scikit-learn, soundfile. Takes about half an hour on two cores.
set -euo pipefail
DATA="${1:-../shared/data/audio}"
WORK="${TMPDIR:-/tmp}/sleepanalysis-events"
mkdir -p "$WORK"
swift build -c release --product sleepanalysis
python3 Tools/events/build_dataset.py --manifest "$DATA/MANIFEST.tsv" --root "$DATA" \
    --out "$WORK/dataset.npz" --frontend package --binary .build/release/sleepanalysis
python3 Tools/events/train.py --data "$WORK/dataset.npz" --manifest "$DATA/MANIFEST.tsv" \
    --cv --figures Models/events.figures.json --out Models/events.bin
python3 Tools/events/signature.py --data "$WORK/dataset.npz" --manifest "$DATA/MANIFEST.tsv" \
    --figures Models/events.signature.json
