"""Out-of-fold window probabilities from the fold models written by train.py --fold-models (numpy forward
pass of each fold's model on its held-out windows), in the format of train.py --oof."""
import argparse

import numpy as np

import eventdata as ed
import modelfile


def forward(tensors, X):
    z = (X - tensors["featureMean"]) / tensors["featureStd"]
    i = 0
    while f"dense{i}.weight" in tensors:
        z = z @ tensors[f"dense{i}.weight"].T + tensors[f"dense{i}.bias"]
        i += 1
        if f"dense{i}.weight" in tensors:
            z = np.maximum(z, 0.0)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--folds-dir", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--background-fold", default="item",
                    help="'item' (item %% folds, as train.py does now) or a fold number")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    d = np.load(args.data)
    X, y, clip, kind, item = d["X"], d["y"], d["clip"], d["kind"], d["item"]
    rows = ed.read_manifest(args.manifest)
    fold_of_row = ed.grouped_folds(rows, args.folds)
    bg = item % args.folds if args.background_fold == "item" else np.full(len(item), int(args.background_fold))
    fold = np.where(clip >= 0, fold_of_row[np.maximum(clip, 0)], bg)
    P = np.zeros((len(X), len(ed.CLASSES)), np.float32)
    for f in range(args.folds):
        _, tensors = modelfile.read(f"{args.folds_dir}/fold{f}.bin")
        P[fold == f] = forward(tensors, X[fold == f].astype(np.float64))
    np.savez_compressed(args.out, P=P, fold=fold, clip=clip, kind=kind, item=item, y=y)


if __name__ == "__main__":
    main()
