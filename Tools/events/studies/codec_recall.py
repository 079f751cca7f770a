#!/usr/bin/env python3
"""Snore recall through a lossy codec: the same snores scored uncompressed and after Ogg Opus at given
compression levels (libsndfile's 0..1 scale; 0.95 is about 19 kbit/s on snoring, 0.9 about 32 kbit/s).

Two sources of snores (run from the repository root, after `swift build -c release --product sleepanalysis`):

    # recorded snores, each scored by the fold model that never saw it (train.py --fold-models DIR)
    python3 Tools/events/studies/codec_recall.py --folds-dir DIR --root ../shared/data/audio [--bedroom]
    # the synthetic snores of Tools/fixtures/snore_realism.py, scored by one model file
    python3 Tools/events/studies/codec_recall.py --synthetic --model Models/events.bin
    # five-second cuts of the demo night's snoring episodes, the whole night encoded as make_fixtures.py does
    python3 Tools/events/studies/codec_recall.py --night --model Models/events.bin     (needs espeak-ng)

`--bedroom` sets every recorded clip to the demo night's level (-42 dBFS RMS) over -58 dBFS room tone first.
Copies are written under --work (a temporary directory); nothing is written next to the data.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import zlib

import numpy as np
import soundfile
from scipy import signal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures"))
import make_fixtures  # noqa: E402
import snore_realism  # noqa: E402
import synth  # noqa: E402

RATE = synth.RATE


def through_opus(x: np.ndarray, level: float, scratch: str) -> np.ndarray:
    """`x` (16 kHz) encoded with Ogg Opus at compression `level` and decoded back to 16 kHz."""
    soundfile.write(scratch, x.astype(np.float32), RATE, format="OGG", subtype="OPUS", compression_level=level)
    y, rate = soundfile.read(scratch)
    if y.ndim > 1:
        y = y.mean(axis=1)
    return signal.resample_poly(y, RATE, rate) if rate != RATE else y


def write_set(directory: str, clips: list[tuple[str, np.ndarray, dict]], header: list[str]) -> str:
    """Writes clips as WAV under `directory/snoring/` and a manifest; returns the manifest path."""
    os.makedirs(os.path.join(directory, "snoring"), exist_ok=True)
    lines = ["\t".join(header)]
    for name, x, row in clips:
        soundfile.write(os.path.join(directory, name), x.astype(np.float32), RATE)
        lines.append("\t".join(str({**row, "file": name}.get(key, "")) for key in header))
    path = os.path.join(directory, "MANIFEST.tsv")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    return path


def snoring_hits(binary: str, model: str, manifest: str) -> tuple[int, int]:
    """(snoring clips found, snoring clips) from `sleepanalysis evaluate events`."""
    out = subprocess.run([binary, "evaluate", "events", "--model", model, "--manifest", manifest, "--root",
                          os.path.dirname(manifest), "--format", "json"], check=True, capture_output=True, text=True)
    row = json.loads(out.stdout)["classes"]["snoring"]
    return round(row["recall"] * row["support"]), int(row["support"])


def recorded_sets(args) -> list[tuple[str, list[tuple[str, np.ndarray, dict]], list[str]]]:
    """Per fold: its model and its held-out snoring clips (16 kHz, optionally at bedroom level)."""
    sets = []
    k = 0
    while os.path.exists(os.path.join(args.folds_dir, f"fold{k}.bin")):
        with open(os.path.join(args.folds_dir, f"fold{k}.tsv")) as handle:
            reader = csv.DictReader(handle, delimiter="\t")
            header = list(reader.fieldnames or [])
            rows = [r for r in reader if r["class"] == "snoring"]
        clips = []
        for row in rows:
            x, rate = soundfile.read(os.path.join(args.root, row["file"]))
            if x.ndim > 1:
                x = x.mean(axis=1)
            if rate != RATE:
                x = signal.resample_poly(x, RATE, rate)
            if args.bedroom:
                rng = np.random.default_rng(zlib.crc32(row["file"].encode()))
                x = synth.set_rms(x, -42.0) + synth.room_tone(rng, len(x) / RATE, level_db=-58.0)[: len(x)]
            name = "snoring/" + os.path.splitext(os.path.basename(row["file"]))[0] + ".wav"
            clips.append((name, x, row))
        sets.append((os.path.join(args.folds_dir, f"fold{k}.bin"), clips, header))
        k += 1
    if not sets:
        sys.exit(f"no fold0.bin in {args.folds_dir}")
    return sets


def synthetic_set(args) -> list[tuple[str, list[tuple[str, np.ndarray, dict]], list[str]]]:
    header = snore_realism.MANIFEST_HEADER.split("\t")
    clips = [(f"snoring/synthetic_{i:02d}.wav", snore_realism.synthetic_snoring_clip(i),
              {"class": "snoring", "group": f"synthetic_{i:02d}", "duration_s": "5.00"}) for i in range(args.clips)]
    return [(args.model, clips, header)]


def night_cuts(audio: np.ndarray) -> list[tuple[str, np.ndarray, dict]]:
    """Five-second cuts of the demo night's snoring episodes (every cut inside an episode)."""
    cuts = []
    for start, end in make_fixtures.SNORING:
        for t in np.arange(start, end - 5.0, 5.0):
            name = f"snoring/night_{int(t)}.wav"
            cuts.append((name, audio[int(t * RATE):int((t + 5.0) * RATE)],
                         {"class": "snoring", "group": "demo-night", "duration_s": "5.00"}))
    return cuts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds-dir", help="fold<k>.bin and fold<k>.tsv from train.py --fold-models")
    ap.add_argument("--root", default="../shared/data/audio")
    ap.add_argument("--bedroom", action="store_true", help="recorded clips at -42 dBFS over -58 dBFS room tone")
    ap.add_argument("--synthetic", action="store_true", help="the synthetic snores of snore_realism.py instead")
    ap.add_argument("--night", action="store_true", help="cuts of the demo night's snoring episodes instead")
    ap.add_argument("--model", default="Models/events.bin", help="model file for --synthetic and --night")
    ap.add_argument("--clips", type=int, default=40, help="synthetic clips")
    ap.add_argument("--levels", default="0.95,0.9,0.7", help="Opus compression levels")
    ap.add_argument("--binary", default=".build/release/sleepanalysis")
    ap.add_argument("--work", default=None, help="where the copies go (default: a temporary directory)")
    args = ap.parse_args()
    if not (args.synthetic or args.night or args.folds_dir):
        ap.error("give --folds-dir (recorded snores), --synthetic or --night")
    work = args.work or tempfile.mkdtemp(prefix="sleepanalysis-codec-")
    scratch = os.path.join(work, "scratch.ogg")
    night = make_fixtures.compose_night()[0] if args.night else None
    header = snore_realism.MANIFEST_HEADER.split("\t")
    for condition in ["uncompressed"] + args.levels.split(","):
        if night is not None:
            # The whole night goes through the codec, as the fixture does, then is cut.
            audio = night if condition == "uncompressed" else through_opus(night, float(condition), scratch)
            sets = [(args.model, night_cuts(audio), header)]
        else:
            sets = synthetic_set(args) if args.synthetic else recorded_sets(args)
        found = total = 0
        for index, (model, clips, header) in enumerate(sets):
            if condition != "uncompressed" and night is None:
                clips = [(name, through_opus(x, float(condition), scratch), row) for name, x, row in clips]
            manifest = write_set(os.path.join(work, condition, f"set{index}"), clips, header)
            hits, count = snoring_hits(args.binary, model, manifest)
            found, total = found + hits, total + count
        label = condition if condition == "uncompressed" else f"opus {condition}"
        print(f"{label}: snoring recall {found / total:.3f} ({found} of {total})", flush=True)


if __name__ == "__main__":
    main()
