#!/usr/bin/env bash
# Retrain the event model from a labelled clip set and rewrite Models/events.bin and its figures.
# Usage (from the repository root): Tools/events/retrain.sh [CLIP_DIR]   (default ../shared/data/audio)
# Needs Python 3 with numpy, scipy, scikit-learn, soundfile (PyPI). About an hour on two busy cores.
set -euo pipefail
DATA="${1:-../shared/data/audio}"
W="${TMPDIR:-/tmp}/sleepanalysis-events"
mkdir -p "$W"
swift build -c release --product sleepanalysis
swift build -c release --product sleepanalysis-bench
python3 Tools/events/build_dataset.py --manifest "$DATA/MANIFEST.tsv" --root "$DATA" \
    --out "$W/dataset.npz" --frontend package --binary .build/release/sleepanalysis
python3 Tools/events/train.py --data "$W/dataset.npz" --manifest "$DATA/MANIFEST.tsv" --cv --epochs 20 \
    --fold-models "$W/folds" --oof "$W/oof.npz" --out Models/events.bin
python3 Tools/events/tune_thresholds.py --oof "$W/oof.npz" --manifest "$DATA/MANIFEST.tsv" \
    --figures Models/events.figures.json --models Models/events.bin --fold-models "$W/folds"
python3 Tools/events/crosscheck.py --folds-dir "$W/folds" --root "$DATA" --out Models/events.crosscheck.json
python3 Tools/events/signature.py --data "$W/dataset.npz" --manifest "$DATA/MANIFEST.tsv" \
    --figures Models/events.signature.json
swift build -c release --product sleepanalysis-bench
.build/release/sleepanalysis-bench events --hours 1
