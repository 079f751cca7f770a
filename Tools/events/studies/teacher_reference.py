"""What the teacher alone reaches: a logistic regression on the clips' BirdNET embeddings (`teacher_embeddings.py`),
scored with the same grouped folds as `train.py`, one label per clip (the most probable class, `none` included).

This is a reference, not a candidate: BirdNET needs about 0.1 s of CPU per 3 s of audio, some 250 times the events
engine's budget. It says how far a large pretrained network is from the small one on the same held-out groups.

Usage: teacher_reference.py --teacher teacher.npz --manifest MANIFEST.tsv [--json OUT]"""
import argparse
import json
import os
import sys

import numpy as np
from sklearn.metrics import precision_recall_fscore_support

# The training modules are in Tools/events, one folder up.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eventdata as ed  # noqa: E402
import teacher as teacher_targets  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--regularisation", type=float, default=0.1, help="logistic regression C")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    rows = ed.read_manifest(args.manifest)
    fold_of_row = ed.grouped_folds(rows, args.folds)
    embeddings = teacher_targets.load_embeddings(args.teacher)
    used = [i for i, row in enumerate(rows) if ed.class_index(row["class"]) is not None]
    E = np.array([embeddings[rows[i]["file"]] for i in used])
    y = np.array([ed.class_index(rows[i]["class"]) for i in used])
    fold = fold_of_row[used]
    probabilities = np.zeros((len(used), len(ed.CLASSES)))
    for k in range(args.folds):
        tr, te = fold != k, fold == k
        scaler, model = teacher_targets.fitted_regression(E[tr], y[tr], args.regularisation)
        probabilities[np.ix_(te, model.classes_)] = model.predict_proba(scaler.transform(E[te]))
    predicted = probabilities.argmax(axis=1)
    types = [i for i in range(1, len(ed.CLASSES)) if (y == i).any()]
    p, r, f, n = precision_recall_fscore_support(y, predicted, labels=types, zero_division=0)
    classes = {ed.CLASSES[t]: {"precision": round(float(p[j]), 4), "recall": round(float(r[j]), 4),
                               "f1": round(float(f[j]), 4), "support": int(n[j])} for j, t in enumerate(types)}
    result = {"macroF1": round(float(f.mean()), 4), "classes": classes, "clips": len(used), "folds": args.folds}
    print(f"teacher reference: macro-F1 {result['macroF1']}, snoring F1 {classes['snoring']['f1']}")
    for name, c in classes.items():
        print(f"  {name:15s} P {c['precision']:.3f} R {c['recall']:.3f} F1 {c['f1']:.3f} n {c['support']}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
