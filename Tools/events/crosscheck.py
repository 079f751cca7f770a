"""End-to-end grouped cross-validation through the package: runs `sleepanalysis evaluate events --model
fold<k>.bin --manifest fold<k>.tsv` (each fold's model on its held-out groups, written by train.py
--fold-models) and pools the confusion counts into one report with the same JSON shape."""
import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds-dir", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--binary", default=".build/release/sleepanalysis")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    confusion = {}
    k = 0
    while os.path.exists(os.path.join(args.folds_dir, f"fold{k}.bin")):
        held_out = os.path.join(args.folds_dir, f"fold{k}.tsv")
        if not os.path.exists(held_out):
            sys.exit(f"crosscheck: {held_out} is missing: each fold<k>.bin needs the list of its held-out clips beside it")
        res = subprocess.run([args.binary, "evaluate", "events", "--model", os.path.join(args.folds_dir, f"fold{k}.bin"),
                              "--manifest", held_out, "--root", args.root, "--format", "json"],
                             capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit(f"crosscheck: evaluate events on fold {k} failed ({res.returncode}): {res.stderr.strip()}")
        rep = json.loads(res.stdout)
        for t, row in rep["confusion"].items():
            for p, n in row.items():
                confusion.setdefault(t, {}).setdefault(p, 0)
                confusion[t][p] += n
        print(f"fold {k}: macro-F1 {rep['macroF1']:.3f}", file=sys.stderr)
        k += 1
    present = sorted(t for t in confusion if t != "none")
    classes = {}
    for c in present:
        tp = confusion.get(c, {}).get(c, 0)
        fp = sum(row.get(c, 0) for t, row in confusion.items() if t != c)
        fn = sum(n for p, n in confusion.get(c, {}).items() if p != c)
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        classes[c] = {"precision": round(prec, 4), "recall": round(rec, 4), "f1": round(f1, 4), "support": tp + fn}
    out = {"macroF1": round(sum(v["f1"] for v in classes.values()) / len(classes), 4), "classes": classes,
           "confusion": confusion, "folds": k}
    text = json.dumps(out, indent=1, sort_keys=True)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
