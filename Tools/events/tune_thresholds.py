"""Per-type detection thresholds from out-of-fold probabilities (train.py --oof), with nested grouped
cross-validation for the figures: each fold is scored with thresholds tuned on the other folds only.
The objective is clip-level macro-F1 over event types (as `evaluate events` scores it) on clean held-out clips,
with band-limited negatives and background-only scenes counted as clips that must yield no event.
Writes the tuned thresholds into the given model files (header only; weights untouched)."""
import argparse
import json
import sys

import numpy as np

import eventdata as ed
import modelfile
import train

C = len(ed.CLASSES)
GRID = np.round(np.arange(0.30, 0.99, 0.05), 2)


def clip_table(P, item, kind, clip, rows, kinds=(0, 2, 3)):
    """Per scored item: best window probability per class, true class, fold key."""
    keep = np.isin(kind, kinds)
    ids = np.unique(item[keep])
    best = np.zeros((len(ids), C), np.float32)
    truth = np.zeros(len(ids), int)
    first = {}
    for idx in np.flatnonzero(keep):
        first.setdefault(item[idx], idx)
    index = {v: i for i, v in enumerate(ids)}
    np.maximum.at(best, np.array([index[v] for v in item[keep]]), P[keep])
    valid = np.ones(len(ids), bool)
    for v, i in index.items():
        j = first[v]
        if kind[j] in (0, 1):
            ci = ed.class_index(rows[clip[j]]["class"])
            if ci is None:
                valid[i] = False
                continue
            truth[i] = ci
        else:
            truth[i] = 0
    return ids[valid], best[valid], truth[valid]


def labels(best, thr):
    ok = best[:, 1:] >= thr[None, 1:]
    masked = np.where(ok, best[:, 1:], -1.0)
    arg = masked.argmax(axis=1) + 1
    return np.where(ok.any(axis=1), arg, 0)


def macro_f1(truth, pred):
    f1s = []
    for c in sorted(set(truth[truth > 0])):
        tp = np.sum((truth == c) & (pred == c))
        fp = np.sum((truth != c) & (pred == c))
        fn = np.sum((truth == c) & (pred != c))
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return float(np.mean(f1s))


def tune(best, truth, passes=2):
    thr = np.full(C, 0.5)
    for _ in range(passes):
        for c in range(1, C):
            scores = []
            for g in GRID:
                thr[c] = g
                scores.append(macro_f1(truth, labels(best, thr)))
            thr[c] = GRID[int(np.argmax(scores))]
    return thr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oof", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--figures", default=None)
    ap.add_argument("--models", default="", help="comma-separated model files to receive the final thresholds")
    ap.add_argument("--fold-models", default=None, help="folder with fold<k>.bin: each gets thresholds tuned "
                                                       "without fold k")
    args = ap.parse_args()
    d = np.load(args.oof)
    rows = ed.read_manifest(args.manifest)
    P, fold, clip, kind, item = d["P"], d["fold"], d["clip"], d["kind"], d["item"]
    ids, best, truth = clip_table(P, item, kind, clip, rows)
    item_fold = dict(zip(item, fold))
    fold_of = np.array([item_fold[v] for v in ids])
    kind_of = dict(zip(item, kind))
    clean = np.array([kind_of[v] == 0 for v in ids])
    pred = np.zeros(len(ids), int)
    fold_thr = {}
    for f in np.unique(fold_of):
        thr = tune(best[fold_of != f], truth[fold_of != f])
        fold_thr[int(f)] = thr
        pred[fold_of == f] = labels(best[fold_of == f], thr)
        print(f"fold {f}: thresholds {dict(zip(ed.CLASSES[1:], thr[1:]))}", file=sys.stderr)
    # Bedroom scenes of held-out clips, scored with the same nested thresholds (not used for tuning).
    m_ids, m_best, m_truth = clip_table(P, item, kind, clip, rows, kinds=(1,))
    m_fold = np.array([item_fold[v] for v in m_ids])
    m_pred = np.zeros(len(m_ids), int)
    for f, thr in fold_thr.items():
        m_pred[m_fold == f] = labels(m_best[m_fold == f], thr)
    t_clean = {int(i): int(t) for i, t in zip(ids[clean], truth[clean])}
    p_clean = {int(i): int(p) for i, p in zip(ids[clean], pred[clean])}
    figures = {"heldOutClean": train.report(t_clean, p_clean),
               "heldOutBedroomMix": train.report({int(i): int(t) for i, t in zip(m_ids, m_truth)},
                                                 {int(i): int(p) for i, p in zip(m_ids, m_pred)}),
               "bandLimitedNegativesFalseAlarmRate": round(float(np.mean(pred[np.array([kind_of[v] == 2 for v in ids])] != 0)), 4),
               "roomToneScenesFalseAlarmRate": round(float(np.mean(pred[np.array([kind_of[v] == 3 for v in ids])] != 0)), 4),
               "thresholds": "per type, tuned on the other folds (nested)"}
    final = tune(best, truth)
    figures["finalThresholds"] = {c: float(t) for c, t in zip(ed.CLASSES[1:], final[1:])}
    print(json.dumps({"macroF1": figures["heldOutClean"]["macroF1"],
                      "snoring": figures["heldOutClean"]["classes"]["snoring"],
                      "bl": figures["bandLimitedNegativesFalseAlarmRate"],
                      "room": figures["roomToneScenesFalseAlarmRate"]}), file=sys.stderr)
    if args.figures:
        with open(args.figures, "w") as fh:
            json.dump(figures, fh, indent=1, sort_keys=True)
    targets = [(p, final) for p in args.models.split(",") if p]
    if args.fold_models:
        targets += [(f"{args.fold_models}/fold{f}.bin", t) for f, t in fold_thr.items()]
    for path, thr in targets:
        header, tensors = modelfile.read(path)
        header["onThreshold"] = {c: float(t) for c, t in zip(ed.CLASSES[1:], thr[1:])}
        header["offThreshold"] = {c: round(float(t) * 0.6, 3) for c, t in zip(ed.CLASSES[1:], thr[1:])}
        names = [t["name"] for t in header.pop("tensors")]
        for k in ("payloadBytes", "payloadFNV1a64"):
            header.pop(k)
        modelfile.write(path, header, [(n, tensors[n]) for n in names])
        print(f"thresholds written to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
