"""Joins single-network model files trained on the same data into one ensemble file, optionally as a cascade and
with per-type member sets (`ensemble.combine`), and their out-of-fold probabilities (train.py --oof) the same way,
so that tune_thresholds.py scores exactly what the engine will compute.

    python3 Tools/events/merge_members.py --models A.bin,B.bin,C.bin --oof A.npz,B.npz,C.npz --gate 0.2 \\
        --member-types snoring=0,1 --out Models/events.bin --oof-out merged.npz

Without `--models` and `--out` it joins the out-of-fold files alone (to score an ensemble before building it).

The files must agree on the classes, the statistics (sizes and standardisation), the dense layers' hidden sizes
and the reference window: each file's reference output is its network's output on that window, so the
ensemble's reference output is their combination. Their convolutional fronts may differ (over band and time or
over time, which mel bands, how many channels): a member whose front differs from the first member's gets its own
entry in the header's `memberConvolutions` and its own patch standardisation (`member<k>.patchMean`,
`member<k>.patchStd`)."""
import argparse
import json
import sys

import numpy as np

import eventdata as ed
import ensemble
import modelfile

SHARED_TENSORS = ("featureMean", "featureStd", "referenceLogMel", "referenceInput")
SHARED_HEADER = ("classes", "featureCount", "hidden", "logFloor", "windowFrames", "windowHopFrames")
PATCH_TENSORS = ("patchMean", "patchStd")
OOF_INDEX = ("fold", "clip", "kind", "item", "y")


def is_network_tensor(name):
    return name.startswith("conv") or name.startswith("dense")


def parse_member_types(text, members):
    """`snoring=0,1;talking=0,2` -> {output index: [members]}; every set must hold member 0 (it always runs)."""
    out = {}
    for part in filter(None, (text or "").split(";")):
        name, _, listed = part.partition("=")
        if name not in ed.CLASSES[1:]:
            sys.exit(f"--member-types: unknown type '{name}'")
        chosen = sorted({int(v) for v in listed.split(",")})
        if 0 not in chosen or not all(0 <= m < members for m in chosen):
            sys.exit(f"--member-types: {name} must list member 0 and members below {members}")
        out[ed.CLASSES.index(name)] = chosen
    return out


def merge_models(paths, gate, member_types):
    files = [modelfile.read(p) for p in paths]
    header, tensors = files[0]
    for path, (h, t) in zip(paths, files):
        if h.get("members", 1) != 1:
            sys.exit(f"{path}: already an ensemble")
    for path, (h, t) in zip(paths[1:], files[1:]):
        for key in SHARED_HEADER:
            if h.get(key) != header.get(key):
                sys.exit(f"{path}: header '{key}' differs from {paths[0]}")
        for name in SHARED_TENSORS:
            if name in tensors and not np.array_equal(t[name], tensors[name]):
                sys.exit(f"{path}: tensor '{name}' differs from {paths[0]} (trained on other data?)")
    merged = [(n, tensors[n]) for n in (x["name"] for x in header["tensors"]) if n != "referenceOutput"]
    mixed = any(h.get("convolution") != header.get("convolution") for h, _ in files[1:])
    for k, (h, t) in enumerate(files[1:], start=1):
        merged += [(f"member{k}.{x['name']}", t[x["name"]]) for x in h["tensors"] if is_network_tensor(x["name"])]
        if h.get("convolution") != header.get("convolution") or any(
                not np.array_equal(t[n], tensors[n]) for n in PATCH_TENSORS if n in t):
            merged += [(f"member{k}.{n}", t[n]) for n in PATCH_TENSORS if n in t]
    by_output = {ed.CLASSES.index(c): m for c, m in member_types.items()} if member_types else None
    reference = ensemble.combine([t["referenceOutput"][None] for _, t in files], gate, by_output)[0]
    merged.append(("referenceOutput", reference.astype(np.float32)))
    out_header = {k: v for k, v in header.items() if k not in ("tensors", "payloadBytes", "payloadFNV1a64")}
    out_header["members"] = len(files)
    if mixed:
        out_header["memberConvolutions"] = [h["convolution"] for h, _ in files]
    if gate is not None:
        out_header["cascadeGate"] = gate
    if member_types:
        out_header["memberTypes"] = member_types
    return out_header, merged


def merge_oof(paths, gate, by_output):
    files = [np.load(p) for p in paths]
    for path, f in zip(paths[1:], files[1:]):
        for key in OOF_INDEX:
            if not np.array_equal(f[key], files[0][key]):
                sys.exit(f"{path}: '{key}' differs from {paths[0]} (another dataset or fold split?)")
    P = ensemble.combine([f["P"] for f in files], gate, by_output).astype(np.float32)
    first = files[0]["P"]
    passing = {int(k): round(ensemble.gate_pass_fraction(first[files[0]["kind"] == k], gate), 4)
               for k in np.unique(files[0]["kind"])} if gate is not None else {}
    return {"P": P, **{k: files[0][k] for k in OOF_INDEX}}, passing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default=None,
                    help="comma-separated single-network model files, first member first (needed for --out)")
    ap.add_argument("--oof", default=None, help="their out-of-fold probability files, in the same order")
    ap.add_argument("--gate", type=float, default=None, help="cascade gate in (0, 1); absent: plain mean")
    ap.add_argument("--member-types", default=None,
                    help="per-type member sets, e.g. 'snoring=0,1': that type's output is the mean of these members "
                         "only (each set holds member 0); other types use every member that ran")
    ap.add_argument("--out", default=None, help="write the merged model file here")
    ap.add_argument("--oof-out", default=None, help="write the joined out-of-fold probabilities here")
    args = ap.parse_args()
    if args.gate is not None and not 0 < args.gate < 1:
        sys.exit("--gate must lie in (0, 1)")
    if not args.out and not args.oof_out:
        sys.exit("nothing to do: give --out (with --models) and/or --oof-out (with --oof)")
    if bool(args.out) != bool(args.models) or bool(args.oof) != bool(args.oof_out):
        sys.exit("--out goes with --models, --oof-out with --oof")
    paths = args.models.split(",") if args.models else None
    oof_paths = args.oof.split(",") if args.oof else None
    if paths and oof_paths and len(oof_paths) != len(paths):
        sys.exit("--oof needs one file per model")
    count = len(paths or oof_paths)
    if count < 2:
        sys.exit("need at least two members")
    by_output = parse_member_types(args.member_types, count)
    if paths:
        member_types = {ed.CLASSES[c]: m for c, m in by_output.items()}
        header, tensors = merge_models(paths, args.gate, member_types)
        modelfile.write(args.out, header, tensors)
    if oof_paths:
        merged, passing = merge_oof(oof_paths, args.gate, by_output or None)
        np.savez(args.oof_out, **merged)
        # Window kinds as in build_dataset.py (0 clean clips, 1 bedroom mixes, 2 band-limited, 3 background only).
        print(json.dumps({"gatePassFractionByKind": passing}), file=sys.stderr)


if __name__ == "__main__":
    main()
