#!/usr/bin/env bash
# Retrain the event model from a labelled clip set and rewrite Models/events.bin and its figures.
# Usage (from the repository root): Tools/events/retrain.sh [CLIP_DIR]   (default ../shared/data/audio)
# Needs Python 3 with numpy, scipy, scikit-learn, soundfile and torch (CPU), all from PyPI. About four hours on two
# cores (the cross-validation of each band-and-time network takes about 40 to 100 minutes, its final training 15).
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
# Two networks of 3 x 3 convolutions over band and time (8, 16, 32 channels; seeds 0 and 100), each trained on
# every window and on shifted and equalised copies of it, with grouped cross-validation (fold models and
# out-of-fold probabilities kept).
for seed in 0 100; do
    python3 Tools/events/train.py --data "$DATASETS" --manifest "$M" --members 1 --conv2d --channels 8,16,32 \
        --eq-copies 2 --eq-shift-bands 3 --seed "$seed" --cv --fold-models "$W/folds$seed" \
        --oof "$W/oof$seed.npz" --out "$W/events$seed.bin"
done
# One cascade of the two: the second network runs where the first gives an event type 0.2 or more. The fold models
# and the out-of-fold probabilities are joined by the same rule, then the thresholds are tuned on the joined
# probabilities (nested) and written into the model and the fold models.
GATE=0.2
python3 Tools/events/merge_members.py --models "$W/events0.bin,$W/events100.bin" --gate "$GATE" \
    --oof "$W/oof0.npz,$W/oof100.npz" --oof-out "$W/oof.npz" --out Models/events.bin
mkdir -p "$W/folds"
for fold in 0 1 2 3 4; do
    python3 Tools/events/merge_members.py --models "$W/folds0/fold$fold.bin,$W/folds100/fold$fold.bin" \
        --gate "$GATE" --out "$W/folds/fold$fold.bin"
done
python3 Tools/events/tune_thresholds.py --oof "$W/oof.npz" --manifest "$M" \
    --figures Models/events.figures.json --models Models/events.bin --fold-models "$W/folds"
swift build -c release --product sleepanalysis
python3 Tools/events/crosscheck.py --folds-dir "$W/folds" --root "$DATA" --out Models/events.crosscheck.json
python3 Tools/events/signature.py --data "$W/dataset1.npz" --manifest "$M" --figures Models/events.signature.json
swift build -c release --product sleepanalysis-bench
.build/release/sleepanalysis-bench events --hours 1
