#!/usr/bin/env bash
# Retrain the band-limited event model, Models/events-band-limited.bin, and its figures. The engine runs it instead
# of Models/events.bin on audio that holds nothing above 4 kHz (recorded at 8 kHz, telephone-band headsets, codecs):
# the full-band model, trained on full-band audio, misses most snores there (model card, "Band-limited audio").
# Usage (from the repository root): Tools/events/retrain-band-limited.sh [CLIP_DIR [IMPORTED_DIR]] (as retrain.sh).
#
# One network of band-and-time convolutions (8, 16, 32 channels; seed 0; the recipe of retrain.sh's first network)
# trained on every clean and bedroom window, equalised copies, and the package's 8-kHz and 4-kHz copies of every
# clean clip (band_limited_copies.py); grouped 5-fold cross-validation with the fold models kept, thresholds tuned
# on the out-of-fold probabilities of the band-limited copies (nested), then each held-out snoring, talking and
# coughing clip and each held-out negative scored through the package's own 4-kHz and 8-kHz copies and through other
# narrow bands by the fold model that never saw it (studies/bandlimited_recall.py):
# Models/events-band-limited.recall.json.
# About an hour on two idle cores, datasets included (which retrain.sh shares: the same work folder).
# Resumes after a stop like retrain.sh (train.py --resume).
set -euo pipefail
SLEEPANALYSIS_BAND_LIMITED_COPIES=1
source Tools/events/training-data.sh
B="$W/band-limited"
mkdir -p "$B"
python3 Tools/events/train.py --data "$DATASETS" "${COPIES[@]}" --manifest "$M" --members 1 --conv2d \
    --channels 8,16,32 --eq-copies 2 --eq-shift-bands 3 --seed 0 --cv --resume --fold-models "$B/folds" \
    --oof "$B/oof.npz" --out "$B/events.bin"
# Tuned copies: the trained files stay as train.py wrote them (a resumed run keeps them).
rm -rf "$B/tuned"
cp -r "$B/folds" "$B/tuned"
cp "$B/events.bin" Models/events-band-limited.bin
# Thresholds tuned on the held-out 8-kHz and 4-kHz copies, the audio this model runs on, each on-threshold judged
# with its grid neighbours (the plateau, not a lone peak): model card, "Band-limited model".
python3 Tools/events/tune_thresholds.py --oof "$B/oof.npz" --manifest "$M" --band-limited --neighbours 1 \
    --figures Models/events-band-limited.figures.json --models Models/events-band-limited.bin \
    --fold-models "$B/tuned"
swift build -c release --product sleepanalysis
python3 Tools/events/studies/bandlimited_recall.py --folds-dir "$B/tuned" --root "$DATA" --negatives \
    --variants fullBand,package8kHz,package4kHz,lowPass4kHz,opus12kbps --json Models/events-band-limited.recall.json
