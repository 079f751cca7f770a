"""One event model's per-type F1 with its uncertainty: a bootstrap over groups and the spread between folds.

    python3 Tools/events/studies/intervals.py --oof OOF.npz --manifest MANIFEST.tsv [--dataset shared] \
        [--resamples 2000] [--thin-clips 30] [--json OUT.json]

The out-of-fold probabilities (train.py --oof, or merge_members.py --oof-out) are labelled as tune_thresholds.py
labels them: per-type settings tuned on the other folds only (nested), the engine's hysteresis over each clip's
windows. On the clean held-out clips it then gives, per type:
- F1 over all clips (the figure the model card quotes);
- a 95 % interval from a bootstrap over groups: one recording, track or speaker is drawn with all its clips, so
  that many segments of one recording count as one piece of evidence;
- F1 in each of the five folds, their lowest, highest and standard deviation (each fold is a different set of
  recordings, held out from a model trained on the others);
- the support (clips and groups), and `thin` when the type has fewer than --thin-clips clean clips (the model
  card's rule, as `macroF1AtLeast30Clips` in events.figures.json): its figure rests on a handful of recordings and
  its interval says how little that is.
The macro F1 (mean over the types present) gets the same interval and fold spread. The intervals are over the
groups at hand: they say how much a figure depends on which recordings happened to be collected, not how the model
would do on sources of another kind."""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eventdata as ed  # noqa: E402
from paired_groups import clean_labels, f1_by_type, group_counts  # noqa: E402

C = len(ed.CLASSES)


def percentile_interval(samples):
    """The 2.5th and 97.5th percentiles, ignoring resamples where the type was absent (NaN)."""
    low, high = np.nanpercentile(samples, [2.5, 97.5])
    return [round(float(low), 4), round(float(high), 4)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oof", required=True, help="out-of-fold probabilities (.npz)")
    ap.add_argument("--manifest", required=True, help="the manifest the run was trained from")
    ap.add_argument("--dataset", default=None, help="only the clips of this data root")
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--thin-clips", type=int, default=30, help="a type with fewer clean clips than this is thin")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write the table here")
    args = ap.parse_args()
    for path in (args.oof, args.manifest):
        if not os.path.isfile(path):
            ap.error(f"{path}: no such file")
    if args.resamples < 100:
        ap.error("--resamples: at least 100")
    labelled = clean_labels(args.oof, args.manifest)
    files = sorted(f for f in labelled if args.dataset is None or labelled[f][3] == args.dataset)
    if not files:
        ap.error("no clean held-out clip" + (f" of {args.dataset}" if args.dataset else ""))
    truth = np.array([labelled[f][0] for f in files])
    pred = np.array([labelled[f][1] for f in files])
    fold = np.array([labelled[f][4] for f in files])
    group_names = sorted({labelled[f][2] for f in files})
    group_of = {g: i for i, g in enumerate(group_names)}
    gi = np.array([group_of[labelled[f][2]] for f in files])
    counts = group_counts(truth, pred, gi, len(group_names))
    types = [c for c in range(1, C) if np.any(truth == c)]
    f1 = f1_by_type(truth, counts.sum(0))
    macro = float(np.mean(f1[types]))

    rng = np.random.default_rng(args.seed)
    draws, macro_draws = [], []
    for _ in range(args.resamples):
        weights = np.bincount(rng.integers(0, len(group_names), len(group_names)), minlength=len(group_names))
        drawn = f1_by_type(truth, np.tensordot(weights, counts, axes=1))
        draws.append(drawn)
        macro_draws.append(np.nanmean(drawn[types]))
    draws = np.array(draws)

    folds = sorted(set(fold.tolist()))
    by_fold = []
    for k in folds:
        held = fold == k
        fold_counts = group_counts(truth[held], pred[held], gi[held], len(group_names)).sum(0)
        by_fold.append(f1_by_type(truth[held], fold_counts))
    by_fold = np.array(by_fold)  # [folds, C]; NaN where a fold holds none of a type and predicts none
    macro_by_fold = [float(np.nanmean(row[types])) for row in by_fold]

    print(f"{len(files)} clean held-out clips in {len(group_names)} groups, {len(folds)} folds; "
          f"{args.resamples} group resamples; thin: fewer than {args.thin_clips} clips")
    print("| type | clips | groups | F1 | 95 % interval (groups) | F1 by fold | fold range | fold s.d. |")
    print("| --- | ---: | ---: | ---: | --- | --- | --- | ---: |")
    table = []
    for c in types:
        of_type = truth == c
        groups = int(len(set(gi[of_type].tolist())))
        per_fold = by_fold[:, c]
        present = per_fold[~np.isnan(per_fold)]
        row = {"type": ed.CLASSES[c], "clips": int(of_type.sum()), "groups": groups,
               "thin": int(of_type.sum()) < args.thin_clips, "f1": round(float(f1[c]), 4),
               "interval95": percentile_interval(draws[:, c]),
               "f1ByFold": [None if np.isnan(v) else round(float(v), 4) for v in per_fold],
               "foldRange": [round(float(present.min()), 4), round(float(present.max()), 4)] if present.size else None,
               "foldStandardDeviation": round(float(present.std(ddof=1)), 4) if present.size > 1 else None}
        table.append(row)
        fold_text = " ".join("-" if v is None else f"{v:.2f}" for v in row["f1ByFold"])
        spread = f"{row['foldRange'][0]:.3f} to {row['foldRange'][1]:.3f}" if row["foldRange"] else "-"
        sd = f"{row['foldStandardDeviation']:.3f}" if row["foldStandardDeviation"] is not None else "-"
        name = f"{row['type']} (thin)" if row["thin"] else row["type"]
        print(f"| {name} | {row['clips']} | {groups} | {row['f1']:.3f} | {row['interval95'][0]:.3f} to "
              f"{row['interval95'][1]:.3f} | {fold_text} | {spread} | {sd} |")
    macro_interval = percentile_interval(np.array(macro_draws))
    print(f"| **macro** | {len(files)} | {len(group_names)} | {macro:.3f} | {macro_interval[0]:.3f} to "
          f"{macro_interval[1]:.3f} | {' '.join(f'{v:.2f}' for v in macro_by_fold)} | "
          f"{min(macro_by_fold):.3f} to {max(macro_by_fold):.3f} | {np.std(macro_by_fold, ddof=1):.3f} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"clips": len(files), "groups": len(group_names), "folds": len(folds),
                       "resamples": args.resamples, "thinClips": args.thin_clips, "types": table,
                       "macroF1": round(macro, 4), "macroInterval95": macro_interval,
                       "macroF1ByFold": [round(v, 4) for v in macro_by_fold]}, fh, indent=1)


if __name__ == "__main__":
    main()
