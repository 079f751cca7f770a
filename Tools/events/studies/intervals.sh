#!/usr/bin/env bash
# The shipped event model's per-type figures with their uncertainty: 95 % intervals from a bootstrap over groups
# (a recording, track or speaker drawn with all its clips) and the spread between the five folds.
# Usage (from the repository root): Tools/events/studies/intervals.sh [CLIP_DIR]   (default ../shared/data/audio)
#
# Reruns retrain.sh's grouped cross-validation as the shipped Models/events.bin was trained (the shared clips alone,
# rain and thunder as labelled, the three networks, their seeds and thread counts, the cascade), without the final
# fits on every clip (they score nothing), so that the out-of-fold probabilities exist; tunes the thresholds nested
# as retrain.sh does (figures to $W/figures.json, compared with the shipped Models/events.figures.json so that a
# drift is seen), then runs intervals.py. About an hour on an idle two-core machine; resumes like retrain.sh.
# Writes Models/events.intervals.json (work files in ${TMPDIR:-/tmp}/sleepanalysis-events); the model card quotes it.
set -euo pipefail
export SLEEPANALYSIS_KEEP_RAIN_LABELS=1
source Tools/events/training-data.sh "${1:-../shared/data/audio}" none
for seed in 0 100; do
    python3 Tools/events/train.py --data "$DATASETS" --manifest "$M" --members 1 --conv2d --channels 8,16,32 \
        --eq-copies 2 --eq-shift-bands 3 --seed "$seed" --threads 2 --cv --resume \
        --fold-models "$W/folds$seed" --oof "$W/oof$seed.npz"
done
python3 Tools/events/train.py --data "$DATASETS" --manifest "$M" --members 1 --band-group 1 \
    --eq-copies 2 --eq-shift-bands 3 --seed 0 --threads 2 --cv --resume --fold-models "$W/folds1d" \
    --oof "$W/oof1d.npz"
python3 Tools/events/merge_members.py --gate 0.2 --member-types "snoring=0,1" \
    --oof "$W/oof0.npz,$W/oof100.npz,$W/oof1d.npz" --oof-out "$W/oof.npz"
python3 Tools/events/tune_thresholds.py --oof "$W/oof.npz" --manifest "$M" --figures "$W/figures.json"
python3 Tools/events/studies/compare_figures.py --shipped Models/events.figures.json --new "$W/figures.json" || true
python3 Tools/events/studies/intervals.py --oof "$W/oof.npz" --manifest "$M" --json Models/events.intervals.json
