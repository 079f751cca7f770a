#!/usr/bin/env python3
"""Evaluates the package's breathing-rate estimator (`sleepanalysis breathing --format json`).

Three sets:
  composed  nights composed by Tools/fixtures/synth.py at known rates (6-30 breaths/min, a new rate every 2-4 min)
            and bedroom levels (breath sounds from 12 dB below to 3 dB above a -60 dBFS room tone), scored per 60-s
            window against the rate of the synthesized breath onsets in that window;
  rrujo     ../shared/data/audio/breathing/rrujo/: one-minute paced breathing at the rate in the file name,
            grouped by subject;
  counted   the other clips of ../shared/data/audio/breathing with hand counts of inhalations and exhalations in
            MANIFEST.tsv (20-s clips, analysed with `--window 20`; very rough references: few breaths, and the two
            counts of one clip sometimes differ);
  noise     100 one-minute files of white, pink and brown noise and room tone (Tools/fixtures/synth.py, -70 to
            -30 dBFS, fixed seed): no breathing, so every rate reported is a false one.

Usage (from the repository root, after `swift build`):
  python3 Tools/breathing/evaluate_breathing.py composed [--nights 12] [--minutes 10] [--seed 7]
  python3 Tools/breathing/evaluate_breathing.py rrujo [--data ../shared/data]
  python3 Tools/breathing/evaluate_breathing.py rrujo-loso [--data ../shared/data]   (leave one subject out)
  python3 Tools/breathing/evaluate_breathing.py rrujo-nested [--data ../shared/data] [--jobs 2] [--noise 24]
            (nested: every setting, the abstention included, chosen without the held-out subject)
  python3 Tools/breathing/evaluate_breathing.py counted [--data ../shared/data]
  python3 Tools/breathing/evaluate_breathing.py noise [--seed 7]
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


def run_estimator(audio: str, binary: str, extra: list[str] | None = None) -> list[dict]:
    out = subprocess.run([binary, "breathing", audio, "--format", "json"] + (extra or []), check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)["rates"]


def describe(errors: np.ndarray, label: str) -> dict:
    if len(errors) == 0:
        return {"set": label, "n": 0}
    missing = int(np.isinf(errors).sum())
    errors = np.where(np.isinf(errors), 99.0, errors)  # no estimate counts as a miss of 99 bpm
    q = np.percentile(errors, [25, 50, 75, 90])
    return {
        "set": label, "n": int(len(errors)), "median": round(float(q[1]), 3), "p25": round(float(q[0]), 3),
        "p75": round(float(q[2]), 3), "p90": round(float(q[3]), 3), "mean": round(float(errors.mean()), 3),
        "within_1": round(float((errors <= 1.0).mean()), 3), "within_1_5": round(float((errors <= 1.5).mean()), 3),
        "over_1_5": int(sum(1 for e in errors if e > 1.5)), "no_estimate": missing,
        "coverage": round(1.0 - missing / len(errors), 3),  # share of windows (recordings) given a rate
    }


def compose_night(seed: int, minutes: float, level_db: float) -> tuple[np.ndarray, list[float], list[float]]:
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
        exhale_gain_db=rng.uniform(-6.0, 3.0), airflow_rumble=0.0)
    room = synth.room_tone(rng, seconds, level_db=-60.0, fan_hz=float(rng.choice([50.0, 60.0, 100.0])))
    breath, onsets = synth.breathing(rng, seconds, bpm_at, style, level_db=-60.0 + level_db)
    return (room + breath).astype(np.float32), onsets, knots_t[1:]


def true_rate(onsets: list[float], start: float, end: float) -> float | None:
    inside = [t for t in onsets if start <= t < end]
    if len(inside) < 3:
        return None
    return 60.0 * (len(inside) - 1) / (inside[-1] - inside[0])


def evaluate_composed(args) -> None:
    levels = [-12.0, -9.0, -6.0, -3.0, 0.0, 3.0]
    per_level: dict[float, list[float]] = defaultdict(list)
    steady: list[float] = []
    missing: dict[float, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as tmp:
        for night in range(args.nights):
            level = levels[night % len(levels)]
            audio, onsets, changes = compose_night(args.seed + night, args.minutes, level)
            path = os.path.join(tmp, f"night{night}.flac")
            soundfile.write(path, audio, synth.RATE, subtype="PCM_16")
            rates = {round(r["offset"]): r for r in run_estimator(path, args.binary, args.options.split())}
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
                        if not any(boundary - 60.0 < c < boundary for c in changes):
                            steady.append(abs(got["bpm"] - truth))
                        if args.verbose:
                            print(f"night {night} level {level:+.0f} dB  t={boundary:6.0f}  true {truth:5.2f}  "
                                  f"got {got['bpm']:5.2f}  conf {got['confidence']:.2f}")
                boundary += 30.0
    report = []
    for level in levels:
        row = describe(np.array(per_level[level] + [float("inf")] * missing[level]),
                       f"composed breath {level:+.0f} dB re room tone")
        report.append(row)
    every = np.concatenate([np.array(v) for v in per_level.values()]) if per_level else np.array([])
    every = np.concatenate([every, np.full(sum(missing.values()), np.inf)])
    report.append(describe(every, "composed all levels"))
    report.append(describe(np.array(steady), "composed windows without a rate change inside"))
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


def rrujo_error(rates: list[dict], truth: float) -> float:
    if not rates:
        return float("inf")
    return abs(max(rates, key=lambda r: r["confidence"])["bpm"] - truth)


def evaluate_rrujo_loso(args) -> None:
    """Leave one subject out: the two periodicity settings are picked on four subjects (most recordings within
    1.5 bpm, then lowest median error) from a 3 x 3 grid and scored on the fifth."""
    folder = os.path.join(args.data, "audio", "breathing", "rrujo")
    files = []
    for name in sorted(os.listdir(folder)):
        match = re.match(r"rrujo_(\d+)_(\d+)bpm\.flac$", name)
        if match:
            files.append((name, match.group(1), float(match.group(2))))
    grid = [(p, t) for p in (0.6, 0.7, 0.8) for t in (1.5, 2.0, 2.5)]
    errors = {}
    for p, t in grid:
        for name, _, truth in files:
            rates = run_estimator(os.path.join(folder, name), args.binary,
                                  ["--peak-fraction", str(p), "--alternation-threshold", str(t)])
            errors[(p, t, name)] = rrujo_error(rates, truth)
    held_out = []
    report = []
    for subject in sorted({f[1] for f in files}):
        train = [f[0] for f in files if f[1] != subject]
        test = [f[0] for f in files if f[1] == subject]

        def key(setting):
            e = np.array([errors[setting + (n,)] for n in train])
            return (-(e <= 1.5).mean(), float(np.median(e)))
        best = min(grid, key=key)
        subject_errors = [errors[best + (n,)] for n in test]
        held_out += subject_errors
        row = describe(np.array(subject_errors), f"rrujo held-out subject {subject}")
        row["chosen_peak_fraction"], row["chosen_alternation_threshold"] = best
        report.append(row)
    report.insert(0, describe(np.array(held_out), "rrujo leave-one-subject-out (settings chosen without the subject)"))
    for p, t in grid:
        e = np.array([errors[(p, t, f[0])] for f in files])
        row = describe(e, f"rrujo all subjects, peak_fraction {p}, alternation_threshold {t}")
        report.append({k: row[k] for k in ("set", "median", "within_1_5")})
    print(json.dumps(report, indent=1))


NESTED_GRID = [(p, t, h) for p in (0.6, 0.7, 0.8) for t in (1.5, 2.0, 2.5) for h in (0.0, 0.6)]
NESTED_SCORES = (0.10, 0.125, 0.15, 0.2)  # abstention: periodicity score below which a window gets no rate
FLOOR_SCORE = 0.10  # the runs report every window scoring at least this; the abstention is applied here


def score_of(confidence: float) -> float:
    """The periodicity score of a rate from its confidence (linear 0.1 -> 0, 0.45 -> 1; scores from 0.10 are
    recovered exactly below confidence 1, and confidence 1 means at least 0.45, above every threshold tried)."""
    return 0.1 + 0.35 * confidence


def is_factor_error(got: float, truth: float) -> bool:
    """Off by a factor (about x2, x3, x1/2, x1/3 or more): the ratio is 1.6 or more, or 0.625 or less."""
    ratio = got / truth
    return ratio >= 1.6 or ratio <= 0.625


def noise_files(tmp: str, seed: int, count: int) -> list[tuple[str, str, float]]:
    """`count` one-minute FLAC files of white, pink and brown noise and room tone at -70 to -30 dBFS, in turn, under
    `tmp`: (path, kind, level) each; the same files for the same seed."""
    rng = np.random.default_rng(seed)
    kinds = ["white", "pink", "brown", "room tone"]
    paths = []
    for index in range(count):
        kind = kinds[index % len(kinds)]
        level = float(rng.uniform(-70.0, -30.0))
        n = int(60 * synth.RATE)
        if kind == "white":
            audio = synth.set_rms(rng.standard_normal(n), level)
        elif kind == "pink":
            audio = synth.set_rms(synth.pink_noise(rng, n), level)
        elif kind == "brown":
            audio = synth.set_rms(synth.brown_noise(rng, n), level)
        else:
            audio = synth.room_tone(rng, 60.0, level_db=level, fan_hz=float(rng.choice([50.0, 60.0, 100.0])))
        path = os.path.join(tmp, f"noise{index}.flac")
        soundfile.write(path, audio.astype(np.float32), synth.RATE, subtype="PCM_16")
        paths.append((path, kind, level))
    return paths


def evaluate_rrujo_nested(args) -> None:
    """Nested leave one subject out over every paced recording: for each held-out subject, every setting -- the
    peak fraction, the alternation threshold, the sub-harmonic check (on at 0.6 or off) and the abstention score --
    is chosen on the other subjects alone (`objective`: most recordings within 1.5 bpm with a missing rate counted as
    a miss, less the share of noise minutes given a rate and the share of factor errors), and the held-out subject
    is scored with it. Reports accuracy beside coverage (the share of recordings with a rate), the
    factor errors, the spread between folds and a bootstrap interval by subject."""
    folder = os.path.join(args.data, "audio", "breathing", "rrujo")
    files = []
    for name in sorted(os.listdir(folder)):
        match = re.match(r"rrujo_(\d+)_(\d+)bpm\.flac$", name)
        if match:
            files.append((name, match.group(1), float(match.group(2))))
    import concurrent.futures

    def best_rate(path: str, setting) -> dict | None:
        p, t, h = setting
        rates = run_estimator(path, args.binary, ["--peak-fraction", str(p), "--alternation-threshold", str(t),
                                                  "--harmonic-fraction", str(h), "--minimum-score", str(FLOOR_SCORE)])
        return max(rates, key=lambda r: r["confidence"]) if rates else None

    found: dict = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as handle:
            found = {(tuple(k[0]), k[1]): v for k, v in json.load(handle)}
    wanted = [(setting, name) for setting in NESTED_GRID for name in [f[0] for f in files] +
              [f"noise{index}.flac" for index in range(args.noise)]]
    if any(key not in found for key in wanted):
        with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            noise_files(tmp, args.seed, args.noise)  # writes noise<k>.flac under tmp
            jobs = {}
            for setting, name in wanted:
                if (setting, name) in found:
                    continue
                path = os.path.join(tmp, name) if name.startswith("noise") else os.path.join(folder, name)
                jobs[(setting, name)] = pool.submit(best_rate, path, setting)
            for key, job in jobs.items():
                found[key] = job.result()
        if args.cache:  # the analyses of every setting, so that a change of objective does not re-run them
            with open(args.cache, "w") as handle:
                json.dump([[list(k), v] for k, v in found.items()], handle)
    found = {key: found[key] for key in wanted}

    def outcome(setting, score, name, truth):
        best = found[(setting, name)]
        if best is None or score_of(best["confidence"]) < score - 1e-9:
            return None
        return best["bpm"]

    def figures(pairs):
        """pairs: (got or None, truth)."""
        errors = np.array([abs(g - t) if g is not None else np.inf for g, t in pairs])
        return dict(
            recordings=len(pairs), within_1_5=float(np.mean(errors <= 1.5)) if len(pairs) else float("nan"),
            coverage=float(np.mean([g is not None for g, _ in pairs])) if len(pairs) else float("nan"),
            median_error=float(np.median(errors)) if len(pairs) else float("nan"),
            factor_errors=sum(1 for g, t in pairs if g is not None and is_factor_error(g, t)),
            no_rate=sum(1 for g, _ in pairs if g is None))

    def noise_share(setting, score):
        return float(np.mean([found[(setting, name)] is not None and
                              score_of(found[(setting, name)]["confidence"]) >= score - 1e-9
                              for name in [k[1] for k in found if k[0] == setting and k[1].startswith("noise")]]))

    candidates = [(setting, score) for setting in NESTED_GRID for score in NESTED_SCORES]
    default = ((0.7, 2.0, 0.6), 0.15)

    def objective(candidate, recordings):
        """Smaller is better: the share within 1.5 bpm (a missing rate a miss) less the share of noise minutes
        given a rate and less the share of factor errors again (a rate off by a factor is worse than none: it
        looks right), then fewest factor errors, lowest median error, nearest the defaults."""
        setting, score = candidate
        f = figures([(outcome(setting, score, n, t), t) for n, _, t in recordings])
        distance = sum(abs(a - b) for a, b in zip(setting + (score,), default[0] + (default[1],)))
        return (-(f["within_1_5"] - noise_share(setting, score) - f["factor_errors"] / max(1, f["recordings"])),
                f["factor_errors"], round(f["median_error"], 3), distance)
    held_out_pairs, report, per_subject = [], [], {}
    for subject in sorted({f[1] for f in files}):
        train = [f for f in files if f[1] != subject]
        test = [f for f in files if f[1] == subject]

        chosen = min(candidates, key=lambda candidate: objective(candidate, train))
        pairs = [(outcome(chosen[0], chosen[1], n, t), t) for n, _, t in test]
        held_out_pairs += pairs
        per_subject[subject] = pairs
        row = figures(pairs)
        row.update(subject=subject, peak_fraction=chosen[0][0], alternation_threshold=chosen[0][1],
                   harmonic_fraction=chosen[0][2], minimum_score=chosen[1],
                   noise_minutes_with_rate_at_choice=noise_share(*chosen))
        report.append(row)
    overall = figures(held_out_pairs)
    subjects = sorted(per_subject)
    rng = np.random.default_rng(49)
    boot = []
    for _ in range(1000):
        drawn = [per_subject[subjects[i]] for i in rng.integers(0, len(subjects), len(subjects))]
        boot.append(figures([p for pairs in drawn for p in pairs])["within_1_5"])
    overall["within_1_5_bootstrap_95"] = [float(np.percentile(boot, 2.5)), float(np.percentile(boot, 97.5))]
    overall["within_1_5_by_fold"] = [r["within_1_5"] for r in report]
    overall["set"] = "rrujo nested leave-one-subject-out (every setting chosen without the subject)"
    on_all = min(candidates, key=lambda candidate: objective(candidate, files))
    overall["chosen_on_all_subjects"] = dict(
        peak_fraction=on_all[0][0], alternation_threshold=on_all[0][1], harmonic_fraction=on_all[0][2],
        minimum_score=on_all[1], **figures([(outcome(on_all[0], on_all[1], n, t), t) for n, _, t in files]))
    fixed = []
    for setting in [(0.7, 2.0, 0.0), (0.7, 2.0, 0.6)]:
        f = figures([(outcome(setting, 0.15, n, t), t) for n, _, t in files])
        f.update(set=f"all subjects, fixed peak_fraction 0.7, alternation 2.0, harmonic {setting[2]}, score 0.15",
                 noise_minutes_with_rate=noise_share(setting, 0.15))
        fixed.append(f)
    print(json.dumps([overall] + report + fixed, indent=1))


def evaluate_counted(args) -> None:
    """Hand-counted clips (20 s): analysed with a 20-s window; the count of inhalations (and of exhalations, which
    the counters sometimes made differ) over the clip's length gives the reference rate."""
    manifest = os.path.join(args.data, "audio", "MANIFEST.tsv")
    with open(manifest, newline="") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["class"] == "breathing"]
    errors = []
    analysed = 0
    for row in rows:
        match = re.search(r"inhale=(\d+) exhale=(\d+)", row["notes"])
        if not match or "rrujo" in row["file"]:
            continue
        analysed += 1
        duration = float(row["duration_s"])
        inhale, exhale = int(match.group(1)), int(match.group(2))
        by_inhale, by_exhale = 60.0 * inhale / duration, 60.0 * exhale / duration
        out = subprocess.run([args.binary, "breathing", os.path.join(args.data, "audio", row["file"]), "--window",
                              f"{max(20.0, min(60.0, duration)):.2f}", "--format", "json"], check=True, capture_output=True,
                             text=True)
        rates = json.loads(out.stdout)["rates"]
        if rates:
            got = rates[-1]["bpm"]
            error = min(abs(got - by_inhale), abs(got - by_exhale))
            errors.append(error)
            text = f"got {got:5.1f} (confidence {rates[-1]['confidence']:.2f})  error {error:.1f}"
        else:
            text = "no estimate"
        print(f"{row['file']:45s} {duration:5.1f} s  inhale {inhale} exhale {exhale} "
              f"(~{by_inhale:4.1f}-{by_exhale:4.1f}/min)  {text}")
    row = describe(np.array(errors), "hand-counted clips (error to the nearer of the two counts)")
    row["coverage"] = round(len(errors) / max(1, analysed), 3)  # the errors above are of the clips given a rate
    print(json.dumps([row], indent=1))


def evaluate_noise(args) -> None:
    """No breathing at all: white, pink and brown noise and room tone, one minute each; counts the rates reported."""
    reported: dict[str, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as tmp:
        for path, kind, level in noise_files(tmp, args.seed, 100):
            rates = run_estimator(path, args.binary)
            reported[kind] += len(rates)
            if args.verbose or rates:
                print(f"{kind:9s} {level:6.1f} dBFS  rates {[round(r['bpm'], 1) for r in rates]}")
    print(json.dumps({"files": 100, "rates_reported": sum(reported.values()), "by_kind": reported}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("set", choices=["composed", "rrujo", "rrujo-loso", "rrujo-nested", "counted", "noise"])
    parser.add_argument("--nights", type=int, default=12)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    parser.add_argument("--binary", default=BINARY)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--jobs", type=int, default=2, help="rrujo-nested: analyses run at once")
    parser.add_argument("--options", default="", help="composed: options for `sleepanalysis breathing`, e.g. "
                        "'--harmonic-fraction 0'")
    parser.add_argument("--noise", type=int, default=100,
                        help="rrujo-nested: noise minutes in every fold's choice (default 100, the noise set's)")
    parser.add_argument("--cache", help="rrujo-nested: keep every setting's analyses in this JSON file (re-read "
                        "when it exists)")
    args = parser.parse_args()
    {"composed": evaluate_composed, "rrujo": evaluate_rrujo, "rrujo-loso": evaluate_rrujo_loso,
     "rrujo-nested": evaluate_rrujo_nested, "counted": evaluate_counted, "noise": evaluate_noise}[args.set](args)


if __name__ == "__main__":
    main()
