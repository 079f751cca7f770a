#!/usr/bin/env bash
# Retrain the event model from a labelled clip set and rewrite Models/events.bin and its figures.
# Usage (from the repository root): Tools/events/retrain.sh [CLIP_DIR]   (default ../shared/data/audio)
# Needs Python 3 with numpy, scipy, scikit-learn, soundfile and torch (CPU), all from PyPI. About two and a half
# hours on two cores (the cross-validation of the band-and-time network takes about 100 minutes of it).
set -euo pipefail
DATA="${1:-../shared/data/audio}"
W="${TMPDIR:-/tmp}/sleepanalysis-events"
M="$DATA/MANIFEST.tsv"
mkdir -p "$W"
swift build -c release --product sleepanalysis
# Two augmentation draws (seeds 1 and 2) of the clean clips' bedroom scenes, with each window's log-mel frames.
for seed in 1 2; do
    OMP_NUM_THREADS=1 python3 Tools/events/build_dataset.py --manifest "$M" --root "$DATA" \
        --out "$W/dataset$seed.npz" --binary .build/release/sleepanalysis --log-mel --seed "$seed"
done
DATASETS="$W/dataset1.npz,$W/dataset2.npz"
# One network of 3 x 3 convolutions over band and time (8, 16, 32 channels), trained on every window and on
# shifted and equalised copies of it.
python3 Tools/events/train.py --data "$DATASETS" --manifest "$M" --members 1 --conv2d --channels 8,16,32 \
    --eq-copies 2 --eq-shift-bands 3 --cv --fold-models "$W/folds" \
    --oof "$W/oof.npz" --out Models/events.bin
python3 Tools/events/tune_thresholds.py --oof "$W/oof.npz" --manifest "$M" \
    --figures Models/events.figures.json --models Models/events.bin --fold-models "$W/folds"
swift build -c release --product sleepanalysis
python3 Tools/events/crosscheck.py --folds-dir "$W/folds" --root "$DATA" --out Models/events.crosscheck.json
python3 Tools/events/signature.py --data "$W/dataset1.npz" --manifest "$M" --figures Models/events.signature.json
swift build -c release --product sleepanalysis-bench
.build/release/sleepanalysis-bench events --hours 1
