#!/usr/bin/env bash
# Retrain the sleep-staging model from the Walch et al. data and the Sleep-EDF hypnograms, measure it
# leave-one-subject-out through the Swift engine, and rewrite Models/staging.json (model card: Models/staging.md).
#
# Usage: Tools/staging/retrain.sh [DATA_ROOT]
#   DATA_ROOT is the shared data folder holding staging/walch and staging/sleepedf_hypnograms/epochs
#   (default: ../shared/data beside the repository).
# Needs Python 3 with numpy, scikit-learn and lightgbm (Tools/requirements.txt; torch is not needed here).
# About 15 to 45 minutes on two shared cores, nearly all of it the leave-one-subject-out training (its folds run
# STAGING_JOBS at a time, default 2; the figures do not depend on it).
#
# Writes, under ${TMPDIR:-/tmp}/sleepanalysis-staging:
#   architecture.json       the architecture measures of every Sleep-EDF and Walch night
#   features.csv            the model inputs the package computes for every subject
#   loso/<subject>.json     one model per subject, trained without that subject
#   loso-python.json        the pooled held-out figures of train.py's Python mirror of the decoding
#   loso-swift.json         the pooled held-out figures computed by the Swift engine (the model card's table)
#   loso-uncalibrated/, loso-swift-uncalibrated.json   the fold models without calibration and their figures
# and Models/staging.json, trained on every subject, and Models/staging-reliability.svg.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
if [ $# -ge 1 ]; then
    DATA="$(cd "$1" && pwd)"
else
    DATA="$(cd "$ROOT/../shared/data" && pwd)"
fi
WALCH="$DATA/staging/walch"
HYPNOGRAMS="$DATA/staging/sleepedf_hypnograms/epochs"
W="${TMPDIR:-/tmp}/sleepanalysis-staging"
for dir in "$WALCH" "$HYPNOGRAMS"; do
    [ -d "$dir" ] || { echo "retrain.sh: missing $dir" >&2; exit 1; }
done
cd "$ROOT"
mkdir -p "$W"

swift build -c release --product sleepanalysis
CLI=.build/release/sleepanalysis

# 0. The sleep-architecture prior, measured on the Sleep-EDF hypnograms (the Walch nights for comparison only).
python3 Tools/staging/architecture.py --hypnograms "$HYPNOGRAMS" --walch "$WALCH/labels" \
    --out Models/staging-architecture.json --report "$W/architecture.json"

# 1. The features, computed by the package exactly as the engine computes them at run time.
"$CLI" features staging --dataset walch --root "$WALCH" --out "$W/features.csv"

# 2. Leave-one-subject-out: per subject, the whole training procedure (classifiers, inner tuning, priors)
#    without it; train.py prints its own pooled figures as a cross-check.
rm -rf "$W/loso"
python3 Tools/staging/train.py --features "$W/features.csv" --hypnograms "$HYPNOGRAMS" \
    --architecture Models/staging-architecture.json --loso "$W/loso" --jobs "${STAGING_JOBS:-2}" \
    > "$W/loso-python.json"

# 3. The held-out figures through the Swift engine: every subject staged by the model that never saw it.
"$CLI" evaluate staging --dataset walch --root "$WALCH" --model-dir "$W/loso" --format json > "$W/loso-swift.json"

# 3b. The same fold models without their calibration (the card's "before" column), and the reliability diagram.
rm -rf "$W/loso-uncalibrated"
mkdir -p "$W/loso-uncalibrated"
for model in "$W"/loso/*.json; do
    python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); m.pop("calibration", None); json.dump(m, open(sys.argv[2], "w"))' \
        "$model" "$W/loso-uncalibrated/$(basename "$model")"
done
"$CLI" evaluate staging --dataset walch --root "$WALCH" --model-dir "$W/loso-uncalibrated" --format json \
    > "$W/loso-swift-uncalibrated.json"
python3 Tools/staging/reliability_svg.py "$W/loso-swift.json" --before "$W/loso-swift-uncalibrated.json" \
    --out Models/staging-reliability.svg

# 4. The shipped model, trained on every subject.
python3 Tools/staging/train.py --features "$W/features.csv" --hypnograms "$HYPNOGRAMS" \
    --architecture Models/staging-architecture.json --out Models/staging.json

echo "held-out figures (Swift engine): $W/loso-swift.json"
echo "held-out figures (Python mirror): $W/loso-python.json"
echo "model: Models/staging.json"
