"""Joins single-network model files trained on the same data (different seeds) into one ensemble file, optionally
as a cascade (`ensemble.combine`), and their out-of-fold probabilities (train.py --oof) the same way, so that
tune_thresholds.py scores exactly what the engine will compute.

    python3 Tools/events/merge_members.py --models A.bin,B.bin --oof A.npz,B.npz --gate 0.2 \\
        --out Models/events.bin --oof-out merged.npz

The files must agree on everything but the network weights: header sizes, feature and patch standardisation, and
the reference window (each file's reference output is its network's output on that window, so the ensemble's
reference output is their combination)."""
import argparse
import json
import sys

import numpy as np

import ensemble
import modelfile

SHARED_TENSORS = ("featureMean", "featureStd", "patchMean", "patchStd", "referenceLogMel", "referenceInput")
SHARED_HEADER = ("classes", "convolution", "featureCount", "hidden", "logFloor", "windowFrames", "windowHopFrames")
OOF_INDEX = ("fold", "clip", "kind", "item", "y")


def is_network_tensor(name):
    return name.startswith("conv") or name.startswith("dense")


def merge_models(paths, gate):
    files = [modelfile.read(p) for p in paths]
    header, tensors = files[0]
    if header.get("members", 1) != 1:
        sys.exit(f"{paths[0]}: already an ensemble")
    for path, (h, t) in zip(paths[1:], files[1:]):
        if h.get("members", 1) != 1:
            sys.exit(f"{path}: already an ensemble")
        for key in SHARED_HEADER:
            if h.get(key) != header.get(key):
                sys.exit(f"{path}: header '{key}' differs from {paths[0]}")
        for name in SHARED_TENSORS:
            if name in tensors and not np.array_equal(t[name], tensors[name]):
                sys.exit(f"{path}: tensor '{name}' differs from {paths[0]} (trained on other data?)")
    merged = [(n, tensors[n]) for n in (x["name"] for x in header["tensors"]) if n != "referenceOutput"]
    for k, (_, t) in enumerate(files[1:], start=1):
        merged += [(f"member{k}.{x['name']}", t[x["name"]]) for x in files[k][0]["tensors"]
                   if is_network_tensor(x["name"])]
    reference = ensemble.combine([t["referenceOutput"][None] for _, t in files], gate)[0].astype(np.float32)
    merged.append(("referenceOutput", reference))
    out_header = {k: v for k, v in header.items() if k not in ("tensors", "payloadBytes", "payloadFNV1a64")}
    out_header["members"] = len(files)
    if gate is not None:
        out_header["cascadeGate"] = gate
    return out_header, merged


def merge_oof(paths, gate):
    files = [np.load(p) for p in paths]
    for path, f in zip(paths[1:], files[1:]):
        for key in OOF_INDEX:
            if not np.array_equal(f[key], files[0][key]):
                sys.exit(f"{path}: '{key}' differs from {paths[0]} (another dataset or fold split?)")
    P = ensemble.combine([f["P"] for f in files], gate).astype(np.float32)
    first = files[0]["P"]
    passing = {int(k): round(ensemble.gate_pass_fraction(first[files[0]["kind"] == k], gate), 4)
               for k in np.unique(files[0]["kind"])} if gate is not None else {}
    return {"P": P, **{k: files[0][k] for k in OOF_INDEX}}, passing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", required=True, help="comma-separated single-network model files, first member first")
    ap.add_argument("--oof", default=None, help="their out-of-fold probability files, in the same order")
    ap.add_argument("--gate", type=float, default=None, help="cascade gate in (0, 1); absent: plain mean")
    ap.add_argument("--out", required=True)
    ap.add_argument("--oof-out", default=None)
    args = ap.parse_args()
    if args.gate is not None and not 0 < args.gate < 1:
        sys.exit("--gate must lie in (0, 1)")
    paths = args.models.split(",")
    if len(paths) < 2:
        sys.exit("need at least two model files")
    header, tensors = merge_models(paths, args.gate)
    modelfile.write(args.out, header, tensors)
    if args.oof:
        oof_paths = args.oof.split(",")
        if len(oof_paths) != len(paths) or not args.oof_out:
            sys.exit("--oof needs one file per model and --oof-out")
        merged, passing = merge_oof(oof_paths, args.gate)
        np.savez(args.oof_out, **merged)
        # Window kinds as in build_dataset.py (0 clean clips, 1 bedroom mixes, 2 band-limited, 3 background only).
        print(json.dumps({"gatePassFractionByKind": passing}), file=sys.stderr)


if __name__ == "__main__":
    main()
