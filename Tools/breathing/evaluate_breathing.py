#!/usr/bin/env python3
"""Evaluates the package's breathing-rate estimator (`sleepanalysis breathing --format json`).

Three sets:
  composed  nights composed by Tools/fixtures/synth.py at known rates (6-30 breaths/min) and bedroom levels
            (breath sounds from 12 dB below to 3 dB above a -60 dBFS room tone), scored per 60-s window against the
            rate of the synthesized breath onsets in that window;
  rrujo     ../shared/data/audio/breathing/rrujo/: one-minute paced breathing at the rate in the file name,
            grouped by subject;
  counted   the other clips of ../shared/data/audio/breathing with hand counts of inhalations in MANIFEST.tsv
            (20-s clips: too short for the estimator's 45-s minimum window, so they are reported as not analysed).

Usage (from the repository root, after `swift build`):
  python3 Tools/breathing/evaluate_breathing.py composed [--nights 8] [--minutes 10] [--seed 7]
  python3 Tools/breathing/evaluate_breathing.py rrujo [--data ../shared/data]
  python3 Tools/breathing/evaluate_breathing.py counted [--data ../shared/data]
Nothing from ../shared/data is copied; composed nights are written to a temporary directory and deleted.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

import numpy as np
import soundfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import synth  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BINARY = os.path.join(ROOT, ".build", "debug", "sleepanalysis")


def run_estimator(audio: str, binary: str) -> list[dict]:
    out = subprocess.run([binary, "breathing", audio, "--format", "json"], check=True, capture_output=True,
                         text=True)
    return json.loads(out.stdout)["rates"]


def describe(errors: np.ndarray, label: str) -> dict:
    if len(errors) == 0:
        return {"set": label, "n": 0}
    q = np.percentile(errors, [25, 50, 75, 90])
    return {
        "set": label, "n": int(len(errors)), "median": round(float(q[1]), 3), "p25": round(float(q[0]), 3),
        "p75": round(float(q[2]), 3), "p90": round(float(q[3]), 3), "mean": round(float(errors.mean()), 3),
        "within_1": round(float((errors <= 1.0).mean()), 3), "within_1_5": round(float((errors <= 1.5).mean()), 3),
        "over_1_5": int(sum(1 for e in errors if e > 1.5)),
    }


def compose_night(seed: int, minutes: float, level_db: float) -> tuple[np.ndarray, list[float]]:
    """A night of room tone with breathing whose rate changes every 2-4 minutes (6-30 breaths/min)."""
    rng = np.random.default_rng(seed)
    seconds = minutes * 60.0
    knots_t = [0.0]
    while knots_t[-1] < seconds:
        knots_t.append(knots_t[-1] + rng.uniform(120.0, 240.0))
    knots_bpm = rng.uniform(6.0, 30.0, len(knots_t))

    def bpm_at(t: float) -> float:
        i = int(np.searchsorted(knots_t, t, side="right")) - 1
        return float(knots_bpm[min(max(i, 0), len(knots_bpm) - 1)])

    style = synth.BreathStyle(
        inhale_band=(rng.uniform(300, 700), rng.uniform(2000, 4000)),
        exhale_band=(rng.uniform(200, 400), rng.uniform(1200, 2500)),
        inhale_share=rng.uniform(0.3, 0.45), exhale_share=rng.uniform(0.35, 0.5),
        exhale_gain_db=rng.uniform(-6.0, 3.0))
    room = synth.room_tone(rng, seconds, level_db=-60.0, fan_hz=float(rng.choice([50.0, 60.0, 100.0])))
    breath, onsets = synth.breathing(rng, seconds, bpm_at, style, level_db=-60.0 + level_db)
    return (room + breath).astype(np.float32), onsets


def true_rate(onsets: list[float], start: float, end: float) -> float | None:
    inside = [t for t in onsets if start <= t < end]
    if len(inside) < 3:
        return None
    return 60.0 * (len(inside) - 1) / (inside[-1] - inside[0])


def evaluate_composed(args) -> None:
    levels = [-12.0, -9.0, -6.0, -3.0, 0.0, 3.0]
    per_level: dict[float, list[float]] = defaultdict(list)
    missing: dict[float, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as tmp:
        for night in range(args.nights):
            level = levels[night % len(levels)]
            audio, onsets = compose_night(args.seed + night, args.minutes, level)
            path = os.path.join(tmp, f"night{night}.flac")
            soundfile.write(path, audio, synth.RATE, subtype="PCM_16")
            rates = {round(r["offset_s"]): r for r in run_estimator(path, args.binary)}
            end = args.minutes * 60.0
            boundary = 60.0
            while boundary <= end + 1e-6:
                truth = true_rate(onsets, boundary - 60.0, boundary)
                if truth is not None:
                    got = rates.get(round(boundary))
                    if got is None:
                        missing[level] += 1
                    else:
                        per_level[level].append(abs(got["bpm"] - truth))
                        if args.verbose:
                            print(f"night {night} level {level:+.0f} dB  t={boundary:6.0f}  true {truth:5.2f}  "
                                  f"got {got['bpm']:5.2f}  conf {got['confidence']:.2f}")
                boundary += 30.0
    report = []
    for level in levels:
        row = describe(np.array(per_level[level]), f"composed breath {level:+.0f} dB re room tone")
        row["no_estimate"] = missing[level]
        report.append(row)
    every = np.concatenate([np.array(v) for v in per_level.values()]) if per_level else np.array([])
    row = describe(every, "composed all levels")
    row["no_estimate"] = sum(missing.values())
    report.append(row)
    print(json.dumps(report, indent=1))


def evaluate_rrujo(args) -> None:
    folder = os.path.join(args.data, "audio", "breathing", "rrujo")
    errors = []
    by_subject: dict[str, list[float]] = defaultdict(list)
    for name in sorted(os.listdir(folder)):
        match = re.match(r"rrujo_(\d+)_(\d+)bpm\.flac$", name)
        if not match:
            continue
        subject, truth = match.group(1), float(match.group(2))
        rates = run_estimator(os.path.join(folder, name), args.binary)
        if rates:
            best = max(rates, key=lambda r: r["confidence"])
            error = abs(best["bpm"] - truth)
            got = f"{best['bpm']:.2f} (confidence {best['confidence']:.2f})"
        else:
            error, got = float("inf"), "no estimate"
        errors.append(error)
        by_subject[subject].append(error)
        print(f"{name:36s} true {truth:4.0f}  got {got}  error {error:.2f}")
    report = [describe(np.array(errors), "rrujo all subjects")]
    for subject, errs in sorted(by_subject.items()):
        report.append(describe(np.array(errs), f"rrujo subject {subject}"))
    print(json.dumps(report, indent=1))


def evaluate_counted(args) -> None:
    manifest = os.path.join(args.data, "audio", "MANIFEST.tsv")
    with open(manifest, newline="") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["class"] == "breathing"]
    for row in rows:
        match = re.search(r"inhale=(\d+)", row["notes"])
        if not match or "rrujo" in row["file"]:
            continue
        duration = float(row["duration_s"])
        truth = 60.0 * int(match.group(1)) / duration
        rates = run_estimator(os.path.join(args.data, "audio", row["file"]), args.binary)
        got = ", ".join(f"{r['bpm']:.1f}" for r in rates) or "no estimate (clip shorter than the 45-s window)"
        print(f"{row['file']:45s} {duration:5.1f} s  inhalations {match.group(1):>2s} (~{truth:4.1f}/min)  got {got}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("set", choices=["composed", "rrujo", "counted"])
    parser.add_argument("--nights", type=int, default=12)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    parser.add_argument("--binary", default=BINARY)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    {"composed": evaluate_composed, "rrujo": evaluate_rrujo, "counted": evaluate_counted}[args.set](args)


if __name__ == "__main__":
    main()
