"""Make the training set: clean clips plus bedroom-augmented variants, as pooled window features with labels.

Features come either from the package (`--frontend package`: the augmented audio is written as WAV files
under a temporary folder and run through `sleepanalysis features events`, so training sees exactly the numbers the
engine computes) or from the numpy reference (`--frontend numpy`, for prototyping only).

Output: one .npz with X (windows x features), y (class index, -1 = unlabelled), clip (manifest row),
kind (0 clean, 1 augmented, 2 band-limited clean, 3 background only), offset (window start, s),
item (the signal a window came from)."""
import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile

import numpy as np
import soundfile as sf

import augment
import eventdata as ed
import features_ref as fr

SR = ed.SAMPLE_RATE
TARGET_CLIPS_PER_CLASS = 300
MAX_SCENE_CLIP_SECONDS = 4.0  # long clips are cut to a random segment this long for each augmented scene


def window_rms_db(x, starts, window=ed.WINDOW_FRAMES):
    out = []
    for s in starts:
        seg = x[s * ed.HOP: (s + window) * ed.HOP]
        out.append(20 * np.log10(augment.rms(seg) + 1e-10) if len(seg) else -200.0)
    return np.array(out)


def label_clean(cls_index, audio, starts):
    """Clean clip: windows within 15 dB of the loudest window carry the class; the rest are left out."""
    if cls_index == 0:
        return np.zeros(len(starts), int)
    level = window_rms_db(audio, starts)
    y = np.full(len(starts), -1)
    y[level >= level.max() - 15.0] = cls_index
    return y


def label_scene(cls_index, event_part, background_part, starts):
    """Augmented scene: a window carries the class when the event is within 12 dB of its loudest window and
    not buried (event-to-background >= -3 dB); a window where the event is 15 dB under the background, or
    absent, is 'none'; anything between is left out."""
    ev = window_rms_db(event_part, starts)
    bg = window_rms_db(background_part, starts)
    y = np.full(len(starts), -1)
    if cls_index == 0:
        return np.zeros(len(starts), int)
    pos = (ev >= ev.max() - 12.0) & (ev - bg >= -3.0)
    neg = (ev - bg < -15.0) | (ev < -150)
    y[pos] = cls_index
    y[neg] = 0
    return y


class NumpyFrontEnd:
    def run(self, signals):
        out = []
        for x in signals:
            L, d = fr.logmel(x)
            X, starts = fr.windows(L, d)
            out.append((X, starts))
        return out


class PackageFrontEnd:
    """Runs audio through `sleepanalysis features events` (the package's FrontEnd + the engine's pooling); with
    `band_limit` ("8k" or "4k"), of the package's band-limited copy of each signal (`--band-limit`)."""

    def __init__(self, binary, log_mel=False, band_limit=None):
        self.binary = binary
        self.log_mel = log_mel
        self.band_limit = band_limit

    def run(self, signals):
        with tempfile.TemporaryDirectory(prefix="sa-events-") as tmp:
            paths = []
            for i, x in enumerate(signals):
                p = os.path.join(tmp, f"{i}.wav")
                sf.write(p, x, SR, subtype="FLOAT")
                paths.append(p)
            # Two CLI processes on alternating halves of the list (output names are list indices).
            procs = []
            for part in range(2):
                listing = os.path.join(tmp, f"list{part}.txt")
                with open(listing, "w") as f:
                    f.write("\n".join(paths[part::2]) + "\n")
                command = [self.binary, "features", "events", "--list", listing, "--out",
                           os.path.join(tmp, f"out{part}")]
                command += ["--log-mel"] if self.log_mel else []
                command += ["--band-limit", self.band_limit] if self.band_limit else []
                procs.append(subprocess.Popen(command))
            for proc in procs:
                if proc.wait() != 0:
                    raise RuntimeError("sleepanalysis features failed")
            out = []
            for i in range(len(signals)):
                X, starts = read_feature_file(os.path.join(tmp, f"out{i % 2}", f"{i // 2}.f32"))
                if self.log_mel:
                    mel = read_log_mel_file(os.path.join(tmp, f"out{i % 2}", f"{i // 2}.mel"))
                    out.append((X, starts, window_patches(mel, starts)))
                else:
                    out.append((X, starts))
            return out


def read_feature_file(path):
    raw = np.fromfile(path, dtype="<i4", count=3)
    rows, cols, frames = (int(v) for v in raw)
    X = np.fromfile(path, dtype="<f4", offset=12).reshape(rows, cols)
    return X, np.array(fr.window_starts(frames))


def read_log_mel_file(path):
    frames, bands = (int(v) for v in np.fromfile(path, dtype="<i4", count=2))
    return np.fromfile(path, dtype="<f4", offset=8).reshape(frames, bands)


def window_patches(mel, starts, window=ed.WINDOW_FRAMES):
    """Each window's frames (window x bands, floored at the log floor; a short stream's one window is padded with
    the floor), as float16: the network's spectrogram input before `eventnet.patch` reduces it."""
    out = np.full((len(starts), window, mel.shape[1]), ed.LOG_FLOOR, np.float16)
    for k, s in enumerate(starts):
        seg = np.maximum(mel[s: s + window], ed.LOG_FLOOR)
        out[k, : len(seg)] = seg
    return out


_ROWS = None
_ROOT = None


def _init_worker(rows, root):
    global _ROWS, _ROOT
    _ROWS, _ROOT = rows, root


def _clip_jobs(task):
    """The signals made from one clip: clean, maybe band-limited (negatives), and augmented scenes."""
    i, variants, seed, scenes_only = task
    rng = np.random.default_rng(seed)
    row = _ROWS[i]
    ci = ed.class_index(row["class"])
    audio = ed.load_clip(_ROOT, row)
    clean = ed.pad_short(audio)
    jobs = [] if scenes_only else [(clean, ("clean", ci, clean), i, 0)]
    if not scenes_only and ci == 0 and not ed.is_narrowband(row) and rng.random() < 0.5:
        bl = augment.band_limit(clean)
        jobs.append((bl, ("clean", 0, bl), i, 2))
    limit = int(MAX_SCENE_CLIP_SECONDS * SR)
    for _ in range(variants):
        seg = audio
        if len(seg) > limit:
            begin = int(rng.integers(0, len(seg) - limit + 1))
            seg = seg[begin: begin + limit]
        mix, ev, _ = augment.bedroom_scene(seg, rng, ed.is_narrowband(row))
        jobs.append((mix, ("scene", ci, ev, mix - ev), i, 1))
    return jobs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--frontend", choices=["numpy", "package"], default="package")
    ap.add_argument("--binary", default=".build/release/sleepanalysis")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--background-scenes", type=int, default=500)
    ap.add_argument("--chunk", type=int, default=400)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--log-mel", action="store_true", help="also keep each window's log-mel frames (M)")
    ap.add_argument("--only-classes", default="", help="comma-separated manifest classes to use (default: all)")
    ap.add_argument("--scenes-per-negative", type=int, default=1,
                    help="bedroom scenes made from each negative clip (each from a random segment)")
    ap.add_argument("--scenes-only", action="store_true", help="bedroom scenes only: no clean or band-limited copies")
    args = ap.parse_args()
    only = {c for c in args.only_classes.split(",") if c}
    rng = np.random.default_rng(args.seed)
    rows = ed.read_manifest(args.manifest)
    counts = {}
    for r in rows:
        counts[r["class"]] = counts.get(r["class"], 0) + 1
    frontend = NumpyFrontEnd() if args.frontend == "numpy" else PackageFrontEnd(args.binary, args.log_mel)

    tasks = []
    for i, row in enumerate(rows):
        if ed.class_index(row["class"]) is None or (only and row["class"] not in only):
            continue
        share = TARGET_CLIPS_PER_CLASS / counts[row["class"]]
        variants = int(min(40, np.floor(share) + (rng.random() < share - np.floor(share))))
        if ed.class_index(row["class"]) == 0:
            variants = args.scenes_per_negative
        tasks.append((i, variants, int(rng.integers(1 << 31)), args.scenes_only))
    with multiprocessing.Pool(args.workers, initializer=_init_worker, initargs=(rows, args.root)) as workers:
        jobs = [job for batch in workers.imap(_clip_jobs, tasks, chunksize=16) for job in batch]
    for _ in range(args.background_scenes):
        n = int(rng.uniform(2.0, 12.0) * SR)
        jobs.append((augment.negative_scene(n, rng), ("clean", 0, None), -1, 3))
    print(f"{len(jobs)} signals, {sum(len(j[0]) for j in jobs) / SR / 3600:.2f} h", file=sys.stderr)

    Xs, ys, clips, kinds, offsets, items, Ms = [], [], [], [], [], [], []
    for c0 in range(0, len(jobs), args.chunk):
        chunk = jobs[c0: c0 + args.chunk]
        feats = frontend.run([j[0] for j in chunk])
        for j, ((sig, lab, clip, kind), result) in enumerate(zip(chunk, feats)):
            X, starts = result[0], result[1]
            if len(starts) == 0:
                continue
            if lab[0] == "clean":
                y = label_clean(lab[1], lab[2], starts) if lab[2] is not None else np.zeros(len(starts), int)
            else:
                y = label_scene(lab[1], lab[2], lab[3], starts)
            Xs.append(X)
            if args.log_mel:
                Ms.append(result[2])
            ys.append(y)
            clips.append(np.full(len(starts), clip))
            kinds.append(np.full(len(starts), kind))
            offsets.append(starts * ed.HOP / SR)
            items.append(np.full(len(starts), c0 + j))
        print(f"  {min(c0 + args.chunk, len(jobs))}/{len(jobs)}", file=sys.stderr)
    extra = {"M": np.concatenate(Ms)} if args.log_mel else {}
    np.savez(args.out, X=np.concatenate(Xs), y=np.concatenate(ys), clip=np.concatenate(clips),
             kind=np.concatenate(kinds), offset=np.concatenate(offsets), item=np.concatenate(items), **extra)


if __name__ == "__main__":
    main()
