#!/usr/bin/env python3
"""Recall on held-out clips heard through a narrow band: each clip of the chosen types scored by the fold model that
never saw it (train.py --fold-models DIR), as recorded, resampled through 8 kHz (nothing above 4 kHz:
`augment.band_limit`), low-passed at 4 kHz at 16 kHz (8th-order Butterworth, both directions) and through Ogg Opus
at 12 kbit/s and back (the package's `EventBandLimit.opus`: `evaluate events --band-limit opus` on the as-recorded
copies), and through the package's 8-kHz and 4-kHz copies (`--band-limit 8k`, `4k`: the training copies' filters),
through `sleepanalysis evaluate events`.

    python3 Tools/events/studies/bandlimited_recall.py --folds-dir DIR --root / --json OUT.json

(run from the repository root after `swift build -c release --product sleepanalysis`; `--root /` for the fold
manifests of a combined manifest, whose paths are absolute). `--model FILE` scores every fold's clips with that one
file instead of the fold models (for the shipped file: clips it was trained on, so not a held-out figure). Sources recorded at 8 kHz (cat meows, spoken digits)
are left out: they are band-limited already. Copies are written under a temporary directory. `--negatives` also scores
the held-out negative clips (`breathing`, `other`) through the same variants: the share given any event is their
false-alarm rate."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import soundfile as sf
from scipy import signal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import augment  # noqa: E402
import eventdata as ed  # noqa: E402

NONE = "none"  # the evaluator's label of a negative and of a clip with no event
LOW_PASS = signal.butter(8, 4000, fs=ed.SAMPLE_RATE, output="sos")
# Each variant: the change made here before writing the copy, and the package's own copy (`--band-limit`) if any.
VARIANTS = {
    "fullBand": (lambda x: x, None),
    "resampled8kHz": (augment.band_limit, None),
    "lowPass4kHz": (lambda x: signal.sosfiltfilt(LOW_PASS, x).astype(np.float32), None),
    "opus12kbps": (lambda x: x, "opus"),
    # The package's own copies, as band_limited_copies.py makes the training copies (libsoxr through 8 kHz; the
    # 129-tap 4-kHz low-pass): a network trained on them is scored on the filters it knows.
    "package8kHz": (lambda x: x, "8k"),
    "package4kHz": (lambda x: x, "4k"),
}


def evaluate(binary, model, manifest, root, band_limit=None):
    extra = ["--band-limit", band_limit] if band_limit else []
    out = subprocess.run([binary, "evaluate", "events", "--model", model, "--manifest", manifest, "--root", root,
                          "--format", "json"] + extra, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["confusion"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds-dir", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--types", default="snoring,talking,coughing")
    ap.add_argument("--model", default=None, help="one model file for every fold instead of the fold models")
    ap.add_argument("--binary", default=".build/release/sleepanalysis")
    ap.add_argument("--json", default=None)
    ap.add_argument("--negatives", action="store_true",
                    help="also score the held-out negatives (breathing, other) and report their false-alarm rate")
    ap.add_argument("--variants", default=",".join(VARIANTS), help=f"comma-separated, of {','.join(VARIANTS)}")
    args = ap.parse_args()
    types = args.types.split(",")
    variants = args.variants.split(",")
    if not set(variants) <= set(VARIANTS):
        ap.error(f"--variants: expected some of {','.join(VARIANTS)}, not {args.variants}")
    counts = {v: {t: [0, 0] for t in types} for v in variants}  # [found, clips]
    predicted = {v: {t: {} for t in types} for v in variants}
    false_alarms = {v: [0, 0] for v in variants}  # [negatives given an event, negatives]
    negative_labels = {v: {} for v in variants}
    k = 0
    with tempfile.TemporaryDirectory(prefix="sa-bandlimited-") as tmp:
        while os.path.exists(os.path.join(args.folds_dir, f"fold{k}.bin")):
            rows = [r for r in ed.read_manifest(os.path.join(args.folds_dir, f"fold{k}.tsv"))
                    if (r["class"] in types or (args.negatives and r["class"] in ed.NEGATIVE_CLASSES))
                    and not ed.is_narrowband(r)]
            for name in variants:
                change, band_limit = VARIANTS[name]
                folder = os.path.join(tmp, f"{k}-{name}")
                os.makedirs(folder)
                manifest = os.path.join(folder, "MANIFEST.tsv")
                with open(manifest, "w") as fh:
                    fh.write("class\tfile\tgroup\n")
                    for i, row in enumerate(rows):
                        audio = ed.pad_short(ed.load_clip(args.root, row))
                        sf.write(os.path.join(folder, f"{i}.wav"), change(audio), ed.SAMPLE_RATE, subtype="FLOAT")
                        fh.write(f"{row['class']}\t{i}.wav\t{row['group']}\n")
                model = args.model or os.path.join(args.folds_dir, f"fold{k}.bin")
                confusion = evaluate(args.binary, model, manifest, folder, band_limit)
                for t in types:
                    row = confusion.get(t, {})
                    counts[name][t][0] += row.get(t, 0)
                    counts[name][t][1] += sum(row.values())
                    for p, n in row.items():
                        predicted[name][t][p] = predicted[name][t].get(p, 0) + n
                negatives = confusion.get(NONE, {}) if args.negatives else {}
                false_alarms[name][0] += sum(n for p, n in negatives.items() if p != NONE)
                false_alarms[name][1] += sum(negatives.values())
                for p, n in negatives.items():
                    negative_labels[name][p] = negative_labels[name].get(p, 0) + n
            print(f"fold {k}: {len(rows)} clips", file=sys.stderr)
            k += 1
    result = {name: {t: {"recall": round(f / n, 4) if n else None, "clips": n, "labelledAs": predicted[name][t]}
                     for t, (f, n) in per.items()} for name, per in counts.items()}
    if args.negatives:
        for name, (f, n) in false_alarms.items():
            result[name]["negatives"] = {"falseAlarmRate": round(f / n, 4) if n else None, "clips": n,
                                         "labelledAs": negative_labels[name]}
    print(json.dumps({name: {t: v.get("recall", v.get("falseAlarmRate")) for t, v in per.items()}
                      for name, per in result.items()}))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
