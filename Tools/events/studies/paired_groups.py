"""Whether one event model is better or worse than another per type, counting recordings rather than clips.

    python3 Tools/events/studies/paired_groups.py \
        --a RUN_A/oof.npz,RUN_A/MANIFEST.tsv --b RUN_B/oof.npz,RUN_B/MANIFEST.tsv [--dataset shared] \
        [--resamples 2000] [--json OUT.json]

Each run's out-of-fold probabilities (train.py --oof, or merge_members.py --oof-out) are labelled as
tune_thresholds.py labels them: per-type settings tuned on the other folds (nested), the engine's hysteresis over
each clip's windows. The clean held-out clips both runs scored (matched by file; with --dataset only those of that
data root in run A's manifest) are then compared type by type: F1 in each run, the change, and a 95 % interval of
the change from a paired bootstrap over the clips' groups (one recording, track or speaker is one group: a group is
drawn with all its clips, so that five segments of one 50-second loop count as one piece of evidence, not five).
It also names the groups whose clips of a type were found by one run and not the other.

Both runs must share their folds on the compared clips (retrain.sh keeps the shared clips' folds when a second
data root is joined), otherwise the two are tuned on different splits and the comparison says so and stops.
The interval is over the groups at hand: it says how much of a change rests on few recordings, not how the models
would do on other sources."""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eventdata as ed  # noqa: E402
import tune_thresholds as tt  # noqa: E402

C = len(ed.CLASSES)
# The kinds tune_thresholds.py tunes on by default: clean clips, band-limited negatives, background-only scenes.
TUNED_KINDS = (0, 2, 3)


def clean_labels(oof_path, manifest_path):
    """{file: (truth, nested label, group, dataset, fold)} for the run's clean held-out clips."""
    d = np.load(oof_path)
    rows = ed.read_manifest(manifest_path)
    P, fold, clip, kind, item = d["P"], d["fold"], d["clip"], d["kind"], d["item"]
    table = tt.DetectionTable(tt.ClipWindows(P, item, kind, clip, fold, rows, kinds=TUNED_KINDS))
    clips = table.clips
    labels = tt.nested_labels(table, tt.nested_settings(table, np.ones(len(clips.ids), bool)))
    clip_of_item = dict(zip(item.tolist(), clip.tolist()))
    out = {}
    for i in np.flatnonzero(clips.kind == 0):
        row = rows[clip_of_item[int(clips.ids[i])]]
        out[row["file"]] = (int(clips.truth[i]), int(labels[i]), row["group"], row.get("dataset", "") or "single",
                            int(clips.fold[i]))
    return out


def f1_by_type(truth, pred_counts):
    """Per type F1 from summed (tp, fp, fn) counts: pred_counts is an array [types, 3]."""
    tp, fp, fn = pred_counts[:, 0], pred_counts[:, 1], pred_counts[:, 2]
    denominator = 2 * tp + fp + fn
    return np.where(denominator > 0, 2 * tp / np.maximum(denominator, 1), np.nan)


def group_counts(truth, pred, group_index, groups):
    """(tp, fp, fn) per group and type: an array [groups, C, 3]."""
    counts = np.zeros((groups, C, 3))
    for t, p, g in zip(truth, pred, group_index):
        if t == p and t > 0:
            counts[g, t, 0] += 1
        else:
            if p > 0:
                counts[g, p, 1] += 1
            if t > 0:
                counts[g, t, 2] += 1
    return counts


def short(group):
    """A group's name for the table: the file name of a file group (its path in the package or repository)."""
    return os.path.basename(group[4:]) if group.startswith("file") else group


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="OOF,MANIFEST of the reference run")
    ap.add_argument("--b", required=True, help="OOF,MANIFEST of the run compared with it")
    ap.add_argument("--dataset", default=None, help="compare only the clips of this data root (run A's manifest)")
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the table here")
    args = ap.parse_args()
    runs = []
    for spec in (args.a, args.b):
        parts = spec.split(",")
        if len(parts) != 2 or not all(os.path.isfile(p) for p in parts):
            ap.error(f"{spec}: expected OOF,MANIFEST, two files that exist")
        runs.append(clean_labels(*parts))
    a, b = runs
    files = sorted(f for f in set(a) & set(b) if args.dataset is None or a[f][3] == args.dataset)
    if not files:
        ap.error("the two runs share no clean held-out clip" + (f" of {args.dataset}" if args.dataset else ""))
    moved = [f for f in files if a[f][4] != b[f][4]]
    if moved:
        ap.error(f"{len(moved)} shared clips are in different folds in the two runs (first: {moved[0]}): "
                 "not a paired comparison")
    group_names = sorted({a[f][2] for f in files})
    group_of = {g: i for i, g in enumerate(group_names)}
    gi = np.array([group_of[a[f][2]] for f in files])
    truth = np.array([a[f][0] for f in files])
    if np.any(truth != np.array([b[f][0] for f in files])):
        ap.error("the runs label some shared clips differently (different manifests' classes)")
    counts_a = group_counts(truth, [a[f][1] for f in files], gi, len(group_names))
    counts_b = group_counts(truth, [b[f][1] for f in files], gi, len(group_names))
    types = [c for c in range(1, C) if np.any(truth == c)]
    f1_a, f1_b = f1_by_type(truth, counts_a.sum(0)), f1_by_type(truth, counts_b.sum(0))
    rng = np.random.default_rng(args.seed)
    changes, macro_changes = [], []
    for _ in range(args.resamples):
        draw = np.bincount(rng.integers(0, len(group_names), len(group_names)), minlength=len(group_names))
        fa = f1_by_type(truth, np.tensordot(draw, counts_a, axes=1))
        fb = f1_by_type(truth, np.tensordot(draw, counts_b, axes=1))
        changes.append(fb - fa)
        macro_changes.append(np.nanmean(fb[types]) - np.nanmean(fa[types]))
    changes = np.array(changes)
    table = []
    print(f"{len(files)} clips in {len(group_names)} groups; {args.resamples} group resamples")
    print("| type | clips | groups | F1 A | F1 B | change | 95 % interval | groups found only by A / only by B |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for c in types:
        name = ed.CLASSES[c]
        of_type = truth == c
        low, high = np.nanpercentile(changes[:, c], [2.5, 97.5])
        # Groups where one run found more of this type's clips than the other.
        only_a = [g for g in group_names if counts_a[group_of[g], c, 0] > counts_b[group_of[g], c, 0]]
        only_b = [g for g in group_names if counts_b[group_of[g], c, 0] > counts_a[group_of[g], c, 0]]
        row = {"type": name, "clips": int(of_type.sum()), "groups": int(len(set(gi[of_type]))),
               "f1A": round(float(f1_a[c]), 4), "f1B": round(float(f1_b[c]), 4),
               "change": round(float(f1_b[c] - f1_a[c]), 4), "interval95": [round(float(low), 4), round(float(high), 4)],
               "groupsBetterInA": only_a, "groupsBetterInB": only_b}
        table.append(row)
        print(f"| {name} | {row['clips']} | {row['groups']} | {row['f1A']:.3f} | {row['f1B']:.3f} | "
              f"{row['change']:+.3f} | {low:+.3f} to {high:+.3f} | {', '.join(map(short, only_a)) or '-'} / "
              f"{', '.join(map(short, only_b)) or '-'} |")
    macro = float(np.mean(f1_b[types]) - np.mean(f1_a[types]))
    macro_low, macro_high = np.percentile(macro_changes, [2.5, 97.5])
    print(f"| **macro** | | | {np.mean(f1_a[types]):.3f} | {np.mean(f1_b[types]):.3f} | {macro:+.3f} | "
          f"{macro_low:+.3f} to {macro_high:+.3f} | |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"clips": len(files), "groups": len(group_names), "resamples": args.resamples,
                       "types": table, "macroChange": round(macro, 4),
                       "macroInterval95": [round(float(macro_low), 4), round(float(macro_high), 4)]}, fh, indent=1)


if __name__ == "__main__":
    main()
