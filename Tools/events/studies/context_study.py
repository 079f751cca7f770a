"""Does a second stage that sees several windows help? A study on out-of-fold window probabilities.

For each window it builds context features from the window probabilities of its item (the window itself, the
mean and the maximum over the last `span` windows, causal as the engine would run it) and fits a multinomial
logistic regression to the window labels. Nested twice over the grouped folds: for held-out fold f, the thresholds
are tuned (`tune_thresholds`) on the other folds' stacked probabilities, each made by a stacker that saw neither f
nor that fold, and fold f's own come from a stacker fitted on all the other folds. Prints the clean macro-F1,
snoring F1 and per-type F1 before (span 0) and after, for each span."""
import argparse
import json
import os
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression

# The training modules are in Tools/events, one folder up.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eventdata as ed  # noqa: E402
import tune_thresholds as tt  # noqa: E402

C = len(ed.CLASSES)


def context_features(P, item, span):
    """Per window: log of its probabilities, and of the mean and the maximum of the last `span` windows'
    probabilities (the window included) within its item."""
    n = len(P)
    first = np.r_[True, item[1:] != item[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    mean = np.zeros_like(P)
    peak = np.zeros_like(P)
    for lag in range(span):
        idx = np.maximum(np.arange(n) - lag, start)
        mean += P[idx]
        peak = np.maximum(peak, P[idx])
    mean /= span
    eps = 1e-4
    return np.hstack([np.log(P + eps), np.log(mean + eps), np.log(peak + eps)]).astype(np.float32)


def fit_stacker(F, y, weight_power=0.5, c=1.0):
    counts = np.bincount(y, minlength=C).astype(float)
    w = (counts.sum() / np.maximum(counts, 1) / C) ** weight_power
    model = LogisticRegression(C=c, max_iter=300)
    model.fit(F, y, sample_weight=w[y])
    return model


def stacked_fold(F, y, fold, train_folds, target, c, rng, limit=60000):
    """Fold `target`'s windows rewritten by a stacker fitted on the labelled windows of `train_folds` (at most
    `limit` of them, drawn at random)."""
    train = np.flatnonzero(np.isin(fold, train_folds) & (y >= 0))
    if len(train) > limit:
        train = rng.choice(train, limit, replace=False)
    model = fit_stacker(F[train], y[train], c=c)
    out = np.zeros((int(np.sum(fold == target)), C), np.float32)
    out[:, model.classes_] = model.predict_proba(F[fold == target])
    return out


def figures(truth, guess):
    per = {}
    for k in sorted(set(truth[truth > 0])):
        tpk = np.sum((truth == k) & (guess == k))
        per[ed.CLASSES[k]] = round(float(2 * tpk / (np.sum(truth == k) + np.sum(guess == k))), 3)
    return tt.macro_f1(truth, guess), per["snoring"], per


def score(P, d, rows):
    """Clean clip-level figures of probabilities as they are (thresholds nested over the folds)."""
    table = tt.DetectionTable(tt.ClipWindows(P, d["item"], d["kind"], d["clip"], d["fold"], rows, kinds=(0, 2, 3)))
    clips = table.clips
    pred = np.zeros(len(clips.ids), int)
    for f in np.unique(clips.fold):
        pred[clips.fold == f] = table.labels(tt.tune(table, clips.fold != f), clips.fold == f)
    clean = clips.kind == 0
    return figures(clips.truth[clean], pred[clean])


def nested_score(P, d, rows, span, c):
    """Clean clip-level figures of the stacked probabilities (nested twice, see the module's text)."""
    fold, y = d["fold"], d["y"]
    F = context_features(P, d["item"], span)
    folds = np.unique(fold)
    rng = np.random.default_rng(0)
    truth_all, pred_all = [], []
    for f in folds:
        Q = np.zeros_like(P)
        for g in folds:
            others = [h for h in folds if h not in (f, g)] if g != f else [h for h in folds if h != f]
            Q[fold == g] = stacked_fold(F, y, fold, others, g, c, rng)
        table = tt.DetectionTable(tt.ClipWindows(Q, d["item"], d["kind"], d["clip"], fold, rows, kinds=(0, 2, 3)))
        clips = table.clips
        settings = tt.tune(table, clips.fold != f)
        held = (clips.fold == f) & (clips.kind == 0)
        truth_all.append(clips.truth[held])
        pred_all.append(table.labels(settings, held))
        print(f"  span {span}: fold {f} done", file=sys.stderr)
    return figures(np.concatenate(truth_all), np.concatenate(pred_all))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oof", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--spans", default="1,3,5,9")
    ap.add_argument("--c", type=float, default=1.0, help="inverse regularisation of the stacker")
    args = ap.parse_args()
    d = dict(np.load(args.oof))
    rows = ed.read_manifest(args.manifest)
    for span in [0] + [int(v) for v in args.spans.split(",")]:
        result = score(d["P"], d, rows) if span == 0 else nested_score(d["P"], d, rows, span, args.c)
        print(json.dumps({"span": span, "macroF1": round(result[0], 4), "snoring": round(result[1], 4),
                          "per": result[2]}))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
