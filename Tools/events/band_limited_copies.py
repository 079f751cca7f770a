"""Band-limited training copies of the clean clips, made by the package: every clip of a trained type or negative
(sources recorded at 8 kHz left out: they are band-limited already) through `sleepanalysis features events
--band-limit 8k` (down to 8 kHz and back with the package's resampler) and `--band-limit 4k` (its 4-kHz low-pass),
and with `--copies 8k,4k,opus` also `--band-limit opus` (through Ogg Opus at 12 kbit/s and back, `EventBandLimit`).

Each copy keeps its clip's manifest row (`clip`), so grouped cross-validation puts every copy of a clip in the
clip's fold, and its windows carry the clean clip's labels (the level rule of `build_dataset.label_clean`, on the
original audio). Output: an .npz like build_dataset.py's (X, y, clip, kind, offset, item, and M with --log-mel),
kind 5 for the 8-kHz copies, 6 for the 4-kHz ones and 7 for the Opus ones, for `train.py --band-limited-copies FILE`.

    python3 Tools/events/band_limited_copies.py --manifest M.tsv --root / --out copies.npz --log-mel"""
import argparse
import sys

import numpy as np

import build_dataset as bd
import eventdata as ed

KINDS = {"8k": 5, "4k": 6, "opus": 7}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--binary", default=".build/release/sleepanalysis")
    ap.add_argument("--log-mel", action="store_true", help="also keep each window's log-mel frames (M)")
    ap.add_argument("--chunk", type=int, default=400)
    ap.add_argument("--copies", default="8k,4k", help=f"which copies, comma-separated, of {','.join(KINDS)}")
    args = ap.parse_args()
    copies = args.copies.split(",")
    if not copies or not set(copies) <= set(KINDS):
        ap.error(f"--copies: expected some of {','.join(KINDS)}, not {args.copies}")
    rows = ed.read_manifest(args.manifest)
    chosen = [i for i, row in enumerate(rows) if ed.class_index(row["class"]) is not None and not ed.is_narrowband(row)]
    Xs, ys, clips, kinds, offsets, items, Ms = [], [], [], [], [], [], []
    item = 0
    for c0 in range(0, len(chosen), args.chunk):
        part = chosen[c0: c0 + args.chunk]
        audio = [ed.pad_short(ed.load_clip(args.root, rows[i])) for i in part]
        for name in copies:
            kind = KINDS[name]
            frontend = bd.PackageFrontEnd(args.binary, args.log_mel, band_limit=name)
            for i, signal, result in zip(part, audio, frontend.run(audio)):
                X, starts = result[0], result[1]
                if len(starts) == 0:
                    continue
                Xs.append(X)
                if args.log_mel:
                    Ms.append(result[2])
                ys.append(bd.label_clean(ed.class_index(rows[i]["class"]), signal, starts))
                clips.append(np.full(len(starts), i))
                kinds.append(np.full(len(starts), kind))
                offsets.append(starts * ed.HOP / ed.SAMPLE_RATE)
                items.append(np.full(len(starts), item))
                item += 1
        print(f"  {min(c0 + args.chunk, len(chosen))}/{len(chosen)} clips", file=sys.stderr)
    extra = {"M": np.concatenate(Ms)} if args.log_mel else {}
    np.savez(args.out, X=np.concatenate(Xs), y=np.concatenate(ys), clip=np.concatenate(clips),
             kind=np.concatenate(kinds), offset=np.concatenate(offsets), item=np.concatenate(items), **extra)


if __name__ == "__main__":
    main()
