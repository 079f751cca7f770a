"""Train the event classifier on exported window features, measure it with grouped cross-validation, and
write the model file (Models/events.bin) with a reference input/output for the C inference check.

Two networks: `conv` (default; `eventnet.py`: convolutions over each window's reduced log-mel spectrogram joined
with the pooled statistics; needs a dataset built with `build_dataset.py --log-mel`) and `mlp` (the pooled
statistics alone, model file version 1).

Clip-level scoring follows `sleepanalysis evaluate events`: a clip's label is the detected type with the
highest probability (a type is detected when one window's probability reaches its on-threshold), or none."""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch
from sklearn.neural_network import MLPClassifier

import checkpoints
import clip_loss
import context_statistics
import ensemble
import eventdata as ed
import eventnet
import modelfile
import signature as sig
import spectral_tilt
import teacher as teacher_targets

C = len(ed.CLASSES)
# The copies of band_limited_copies.py by kind, named as scored held out.
COPY_KIND_NAMES = {5: "8kHz", 6: "4kHz", 7: "Opus"}
# What a band-limited specialist (--band-limited-only) trains on. Kind 2 is every band-limited window of a negative
# clip and nothing else, so a network may learn that version's own traces as "none".
SPECIALIST_KINDS = {"copies": (5, 6, 7), "copies-and-negatives": (2, 5, 6, 7)}


class Options:
    """What to train: network kind, sizes, epochs, class-weight power."""

    def __init__(self, network="conv", hidden=(128, 64), channels=(32, 48, 64), epochs=20, weight_power=0.5,
                 mixup=0.0, members=1, equalised_members=0, two_d=False):
        self.network, self.hidden, self.channels = network, tuple(hidden), tuple(channels)
        self.epochs, self.weight_power, self.mixup, self.members = epochs, weight_power, mixup, members
        self.two_d = two_d  # convolutions over band and time (eventnet.EventNet with band_time)
        self.equalised_members = equalised_members  # the last this many members train on the equalised copies
        self.variants = []  # equalised versions (X, P) of every window, aligned with the dataset (--eq-copies)
        self.teacher = None  # (embeddings by clip file, soft weight, hint weight): distillation (--teacher)
        self.clip, self.rows = None, None  # each dataset window's manifest row, and the manifest (for the teacher)
        self.unlabelled = set()  # manifest rows whose windows learn from the teacher only (--teacher-bound)
        self.clip_weight = 0.0  # weight of the clip-level term (clip_loss.py; --clip-loss-weight; 0: off)
        self.full = None  # every window's (X, P), for the clip-level term's bags
        self.item = None  # every window's clip or scene number (the bags)
        self.bag_label = None  # every window's clip or scene class (clip_loss.bag_labels)
        self.bag_mask = None  # windows whose clips may serve as bags (the training side of the split)


def fit_model(X, P, y, seed, options, rows_used=None):
    """A network of the chosen kind; for the convolutional one, `options.members` networks trained with different
    seeds (an ensemble whose outputs are averaged); the last `options.equalised_members` of them also train on
    the equalised copies of the windows. `rows_used` selects the dataset windows X, P, y came from."""
    if options.network == "conv":
        members = []
        targets = None
        if options.teacher is not None:
            embeddings, soft_weight, hint_weight = options.teacher
            targets = teacher_targets.Targets(options.clip[rows_used], y, options.rows, embeddings,
                                              soft_weight, hint_weight, unlabelled=options.unlabelled)
        for k in range(options.members):
            equalised = k >= options.members - options.equalised_members
            variants = [(Xv[rows_used], Pv[rows_used]) for Xv, Pv in options.variants] if equalised else []
            bags = None
            if options.clip_weight > 0:
                label = np.where(options.bag_mask, options.bag_label, -1)
                bags = clip_loss.Bags(*options.full, options.variants if equalised else [], options.item, label,
                                      options.clip_weight)
            members.append(eventnet.fit(X, P, y, seed + 1000 * k, epochs=options.epochs,
                                        weight_power=options.weight_power, channels=options.channels,
                                        hidden=options.hidden, mixup=options.mixup, variants=variants,
                                        teacher=targets, two_d=options.two_d, bags=bags))
        return ("conv", members)
    return ("mlp", fit(X, y, seed, options.hidden, options.epochs))


def predict_model(model, X, P):
    kind, inner = model
    if kind == "conv":
        return ensemble.combine([eventnet.predict(member, X, P) for member in inner])
    return predict(inner, X)


def fit(X, y, seed, hidden, epochs):
    mean = X.mean(axis=0, dtype=np.float64).astype(np.float32)
    std = (X.std(axis=0, dtype=np.float64) + 1e-6).astype(np.float32)
    Z = ((X - mean) / std).astype(np.float32)
    counts = np.bincount(y, minlength=C).astype(float)
    w = (counts.sum() / np.maximum(counts, 1) / C) ** 0.5
    clf = MLPClassifier(hidden_layer_sizes=hidden, alpha=1e-3, batch_size=512, learning_rate_init=2e-3,
                        max_iter=epochs, random_state=seed, shuffle=True, tol=1e-5, n_iter_no_change=epochs)
    clf.fit(Z, y, sample_weight=w[y])
    return clf, mean, std


def predict(model, X):
    clf, mean, std = model
    P = np.zeros((len(X), C))
    P[:, clf.classes_] = clf.predict_proba(((X - mean) / std).astype(np.float32))
    return P


def clip_labels(P, clip, thresholds):
    """Per clip: the class whose best window reaches its threshold with the highest probability, else 0."""
    out = {}
    for c_id in np.unique(clip):
        best = P[clip == c_id].max(axis=0)
        ok = [c for c in range(1, C) if best[c] >= thresholds[c]]
        out[int(c_id)] = max(ok, key=lambda c: best[c]) if ok else 0
    return out


def scores(truth, pred, classes):
    """Precision/recall/F1 over event classes present in truth (none counts as a miss / false alarm)."""
    res = {}
    for c in classes:
        tp = sum(1 for k in truth if truth[k] == c and pred[k] == c)
        fp = sum(1 for k in truth if truth[k] != c and pred[k] == c)
        fn = sum(1 for k in truth if truth[k] == c and pred[k] != c)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        res[ed.CLASSES[c]] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4),
                              "support": tp + fn}
    return res


def report(truth, pred):
    present = sorted({c for c in truth.values() if c > 0})
    per = scores(truth, pred, present)
    macro = float(np.mean([v["f1"] for v in per.values()])) if per else float("nan")  # negatives only: no types
    conf = {}
    for k in truth:
        t, p = ed.CLASSES[truth[k]], ed.CLASSES[pred[k]]
        conf.setdefault(t, {}).setdefault(p, 0)
        conf[t][p] += 1
    return {"macroF1": round(macro, 4), "classes": per, "confusion": conf}


def copy_report(truth, pred):
    """The held-out band-limited copies of one kind scored like the clean clips, plus the share of the negatives'
    copies (truth none) given an event: their false-alarm rate."""
    out = report(truth, pred)
    negatives = [k for k in truth if truth[k] == 0]
    out["negatives"] = len(negatives)
    out["negativesFalseAlarmRate"] = round(sum(1 for k in negatives if pred[k] != 0) / max(len(negatives), 1), 4)
    out["recall"] = {name: v["recall"] for name, v in out["classes"].items()}
    return out


def export(path, model, X, M, y, clip, kind, rows, options, threshold):
    """Write a model file: network, standardisation, thresholds, signature projection and a reference pair.
    The signature projection is fitted on the clean clips of the rows given (training rows only)."""
    if model[0] == "conv":
        export_conv(path, model[1], X, M, y, clip, kind, rows, options, threshold)
    else:
        export_mlp(path, model[1], X, y, clip, kind, rows, options.hidden, threshold)


def header_for(X, hidden, threshold, signature_dim):
    return {
        "name": "events", "featureVersion": 1, "classes": ed.CLASSES, "featureCount": int(X.shape[1]),
        "windowFrames": ed.WINDOW_FRAMES, "windowHopFrames": ed.WINDOW_HOP_FRAMES,
        "logFloor": ed.LOG_FLOOR, "hidden": list(hidden), "activation": "relu", "output": "softmax",
        "onThreshold": {c: threshold for c in ed.CLASSES[1:]},
        "offThreshold": {c: round(threshold * 0.6, 3) for c in ed.CLASSES[1:]},
        "minDurationSeconds": 0.5, "mergeGapSeconds": 1.0, "signatureDim": int(signature_dim),
    }


def export_conv(path, members, X, M, y, clip, kind, rows, options, threshold):
    std = members[0][1]  # the standardisation depends on the training data only: the same for every member
    proj, sig_mean = sig.fit_projection(X, clip, rows, std.x_mean, std.x_std, kind)
    # Reference: the first full-length labelled window that is not digital silence.
    candidates = np.flatnonzero((y >= 0) & (M.reshape(len(M), -1).max(axis=1) > ed.LOG_FLOOR + 1))
    ref = candidates[0]
    ref_mel = M[ref].astype(np.float32)
    ref_in = X[ref:ref + 1].astype(np.float32)
    ref_out = predict_model(("conv", members), ref_in, eventnet.patch(ref_mel[None]))[0].astype(np.float32)
    tensors = [("featureMean", std.x_mean), ("featureStd", std.x_std),
               ("patchMean", std.p_mean), ("patchStd", std.p_std)]
    for k, (net, _) in enumerate(members):
        prefix = f"member{k}." if k else ""
        tensors += [(prefix + name, value) for name, value in eventnet.export_tensors(net)]
    tensors += [("signatureMean", sig_mean), ("signatureProjection", proj), ("referenceLogMel", ref_mel),
                ("referenceInput", ref_in[0]), ("referenceOutput", ref_out)]
    header = header_for(X, options.hidden, threshold, proj.shape[0])
    header["convolution"] = {"melBands": int(M.shape[2]), "bandGroup": eventnet.BAND_GROUP,
                             "frameGroup": eventnet.FRAME_GROUP, "channels": list(options.channels)}
    if options.two_d:
        header["convolution"]["bandTime"] = True
    if len(members) > 1:
        header["members"] = len(members)
    modelfile.write(path, header, tensors)


def export_mlp(path, model, X, y, clip, kind, rows, hidden, threshold):
    clf, mean, std = model
    tr = y >= 0
    proj, sig_mean = sig.fit_projection(X, clip, rows, mean, std, kind)
    ref_in = X[tr][:1].astype(np.float32)
    ref_out = predict(model, ref_in)[0].astype(np.float32)
    tensors = [("featureMean", mean), ("featureStd", std)]
    layers = list(zip(clf.coefs_, clf.intercepts_))
    for i, (W, b) in enumerate(layers):
        if i == len(layers) - 1:
            # Outputs for every class: a class absent from training gets a never-winning logit.
            W_full = np.zeros((W.shape[0], C))
            b_full = np.full(C, -30.0)
            if len(clf.classes_) == 2:  # sklearn uses one logistic output for two classes
                raise ValueError("need at least three classes")
            W_full[:, clf.classes_] = W
            b_full[clf.classes_] = b
            W, b = W_full, b_full
        tensors += [(f"dense{i}.weight", W.T), (f"dense{i}.bias", b)]
    tensors += [("signatureMean", sig_mean), ("signatureProjection", proj),
                ("referenceInput", ref_in[0]), ("referenceOutput", ref_out)]
    modelfile.write(path, header_for(X, hidden, threshold, proj.shape[0]), tensors)


def equalised_copies(X, M, copies, tilt_db=8.0, bump_db=4.0, shift_bands=0, chunk=8192):
    """`copies` versions (X, P) of every window, each through its own random gain curve (`spectral_tilt`: a tilt of
    up to ±tilt_db across the band plus bumps of up to ±bump_db), after a random shift of up to ±shift_bands mel
    bands when shift_bands > 0."""
    rng = np.random.default_rng(12345)
    out = []
    for _ in range(copies):
        Xv, Pv = np.empty_like(X), np.empty((len(X),) + eventnet.patch(M[:1]).shape[1:], np.float32)
        for s in range(0, len(X), chunk):
            n = min(chunk, len(X) - s)
            gains = spectral_tilt.random_gains(n, rng, tilt_db, bump_db)
            shifts = rng.integers(-shift_bands, shift_bands + 1, n) if shift_bands > 0 else None
            Xv[s:s + chunk], Mv = spectral_tilt.equalise(X[s:s + chunk], M[s:s + chunk], gains, shifts)
            Pv[s:s + chunk] = eventnet.patch(Mv)
        out.append((Xv, Pv))
        print(f"equalised copy {len(out)} of {copies}", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, help="dataset .npz (several: comma-separated)")
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--cv", action="store_true", help="run grouped cross-validation and write --figures")
    ap.add_argument("--figures", default=None)
    ap.add_argument("--out", default=None, help="write the final model file here")
    ap.add_argument("--network", choices=["conv", "mlp"], default="conv")
    ap.add_argument("--hidden", default="128,64")
    ap.add_argument("--channels", default="32,48,64", help="convolution channels (conv network)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--weight-power", type=float, default=0.5, help="class weights: inverse frequency ** this")
    ap.add_argument("--mixup", type=float, default=0.0, help="mixup Beta parameter (0: off)")
    ap.add_argument("--members", type=int, default=1, help="networks in the ensemble (conv network)")
    ap.add_argument("--frame-group", type=int, default=eventnet.FRAME_GROUP,
                    help="10-ms frames averaged into one network time step (conv network)")
    ap.add_argument("--band-group", type=int, default=eventnet.BAND_GROUP,
                    help="adjacent mel bands averaged into one network input band (conv network)")
    ap.add_argument("--conv2d", action="store_true",
                    help="convolutions over band and time (3 x 3 kernels; eventnet.EventNet band_time) "
                         "instead of over time")
    ap.add_argument("--eq-copies", type=int, default=0,
                    help="randomly equalised copies of every window (spectral_tilt.py; conv network)")
    ap.add_argument("--eq-tilt-db", type=float, default=8.0, help="equalisation: largest tilt across the band (dB)")
    ap.add_argument("--eq-bump-db", type=float, default=4.0, help="equalisation: largest bump (dB)")
    ap.add_argument("--eq-shift-bands", type=int, default=0,
                    help="equalisation: largest shift of the spectrum along the mel axis (bands; 0: none)")
    ap.add_argument("--equalised-members", type=int, default=None,
                    help="how many of the members (the last ones) train on the equalised copies (default: all)")
    ap.add_argument("--teacher", default=None,
                    help="teacher embeddings per clip (.npz from studies/teacher_embeddings.py): distil them "
                         "(teacher.py)")
    ap.add_argument("--teacher-soft-weight", type=float, default=0.5, help="weight of the teacher's probabilities")
    ap.add_argument("--teacher-hint-weight", type=float, default=1.0, help="weight of the teacher's embedding")
    ap.add_argument("--teacher-bound", action="store_true",
                    help="diagnostic upper bound, NOT a held-out figure: each fold also trains on its held-out clean "
                         "clips with the teacher's probabilities alone (labels unused), as a transfer set of the "
                         "very audio scored would")
    ap.add_argument("--clip-loss-weight", type=float, default=0.0,
                    help="weight of the clip-level term (clip_loss.py: each type's highest window probability in "
                         "a training clip against the clip's label; 0: off)")
    ap.add_argument("--train-fraction", type=float, default=1.0,
                    help="learning curve: each fold trains on this fraction of its training groups per class (and of "
                         "the background scenes); the held-out folds are scored whole")
    ap.add_argument("--seed", type=int, default=0,
                    help="base seed of the networks (fold k's model is seeded with seed + k, the final one with seed)")
    ap.add_argument("--context-windows", type=int, default=0,
                    help="study: join each window's statistics with their mean over K windows either side "
                         "(context_statistics.py; cross-validation only, the engine has no such input)")
    ap.add_argument("--independent-outputs", action="store_true",
                    help="study: a sigmoid per event type learnt by binary cross-entropy instead of the softmax "
                         "(eventnet.INDEPENDENT_OUTPUTS; cross-validation only, the engine runs the softmax)")
    ap.add_argument("--train-datasets", default="",
                    help="train only on the clips of these data roots (comma-separated `dataset` names of a combined "
                         "manifest, combine_manifests.py) and the background scenes; every clip is still scored "
                         "(default: all)")
    ap.add_argument("--band-limited-copies", default=None,
                    help="also train on these band-limited copies of the clean clips (band_limited_copies.py; kinds 5 "
                         "(8 kHz), 6 (4 kHz) and 7 (Opus): each copy in its clip's fold, trained on, not scored)")
    ap.add_argument("--band-limited-copies-per-clip", type=int, choices=[1, 2], default=2,
                    help="2: every copy of every clip; 1: one of the file's kinds at random per clip (seeded), for a "
                         "shorter training")
    ap.add_argument("--band-limited-only", choices=sorted(SPECIALIST_KINDS), default=None,
                    help="study of a band-limited specialist: train only on band-limited windows of the training "
                         "folds, `copies` (the --band-limited-copies, kinds 5-7) or `copies-and-negatives` (also the "
                         "dataset's band-limited negatives, kind 2); no clean, bedroom-mix or room-tone windows. "
                         "Every kind is still scored")
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--oof", default=None, help="save out-of-fold window probabilities (.npz) here")
    ap.add_argument("--fold-models", default=None,
                    help="also write each fold's model and its held-out manifest here (fold<k>.bin, fold<k>.tsv)")
    ap.add_argument("--threads", type=int, default=2,
                    help="PyTorch threads for the cross-validation's fits. PyTorch splits its sums by thread, so "
                         "the same seed on another thread count trains other weights: fixed here, not the "
                         "machine's core count, so that a run repeats on another machine "
                         "(with the same PyTorch and instruction set)")
    ap.add_argument("--final-threads", type=int, default=None,
                    help="PyTorch threads for the final fit on every clip (default: --threads)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the folds (in --fold-models) and the final model (--out) an earlier run with the same "
                         "options, inputs and code finished; train only the rest (checkpoints.py)")
    args = ap.parse_args()
    if args.threads < 1 or (args.final_threads is not None and args.final_threads < 1):
        ap.error("--threads and --final-threads need at least one thread")
    if args.resume and args.cv and not args.fold_models:
        ap.error("--resume with --cv needs --fold-models (where the finished folds are kept)")
    run_print = checkpoints.fingerprint(args) if args.resume else None
    eventnet.FRAME_GROUP = args.frame_group
    eventnet.BAND_GROUP = args.band_group
    options = Options(args.network, (int(v) for v in args.hidden.split(",")),
                      (int(v) for v in args.channels.split(",")), args.epochs, args.weight_power, args.mixup,
                      args.members,
                      args.members if args.equalised_members is None else args.equalised_members, args.conv2d)
    parts = [np.load(path) for path in args.data.split(",")]
    if args.band_limited_copies:
        copies = np.load(args.band_limited_copies)
        kinds = np.unique(copies["kind"])
        if not set(kinds.tolist()) <= {5, 6, 7}:
            ap.error(f"{args.band_limited_copies}: not a file of band-limited copies (kinds 5, 6 and 7)")
        if args.band_limited_copies_per_clip == 1:
            # With kinds 5 and 6 only, the same draw as before the Opus copies (integers(5, 7)).
            kept_kind = kinds[np.random.default_rng(7).integers(0, len(kinds), size=int(copies["clip"].max()) + 1)]
            keep = copies["kind"] == kept_kind[copies["clip"]]
            copies = {key: copies[key][keep] for key in copies.files}
        parts.append(copies)
    X = np.concatenate([p["X"] for p in parts])
    M = np.concatenate([p["M"] for p in parts]) if args.network == "conv" else None
    P = eventnet.patch(M) if M is not None else None
    y = np.concatenate([p["y"] for p in parts])
    if P is not None and args.eq_copies:
        options.variants = equalised_copies(X, M, args.eq_copies, args.eq_tilt_db, args.eq_bump_db,
                                            args.eq_shift_bands)
    clip = np.concatenate([p["clip"] for p in parts])
    # The clean clips are the same in every part: only the first part's copies are scored (the others, kind 4,
    # are trained on like any window).
    kind = np.concatenate([np.where(p["kind"] == 0, 0 if i == 0 else 4, p["kind"]) for i, p in enumerate(parts)])
    offsets = np.cumsum([0] + [int(p["item"].max()) + 1 for p in parts[:-1]])
    item = np.concatenate([p["item"] + o for p, o in zip(parts, offsets)])
    if args.independent_outputs:
        if args.out or args.fold_models or args.mixup or args.teacher or args.clip_loss_weight:
            ap.error("--independent-outputs is a study of the plain loss: no --out, --fold-models, --mixup, "
                     "--teacher or --clip-loss-weight")
        eventnet.INDEPENDENT_OUTPUTS = True
    if args.context_windows > 0:
        if args.out or args.fold_models:
            ap.error("--context-windows is a study: the engine cannot run such a model (no --out, --fold-models)")
        window_offset = np.concatenate([p["offset"] for p in parts])
        X = context_statistics.with_context(X, item, window_offset, args.context_windows)
        options.variants = [(context_statistics.with_context(Xv, item, window_offset, args.context_windows), Pv)
                            for Xv, Pv in options.variants]
    rows = ed.read_manifest(args.manifest)
    options.clip, options.rows = clip, rows
    if args.clip_loss_weight > 0:
        options.clip_weight, options.full, options.item = args.clip_loss_weight, (X, P), item
        options.bag_label = clip_loss.bag_labels(clip, kind, rows)
    if args.teacher_bound and not args.teacher:
        ap.error("--teacher-bound needs --teacher")
    if args.teacher:
        options.teacher = (teacher_targets.load_embeddings(args.teacher), args.teacher_soft_weight,
                           args.teacher_hint_weight)
    fold_of_row = ed.grouped_folds(rows, args.folds)
    trainable = np.ones(len(X), bool)
    if args.train_datasets:
        names = set(args.train_datasets.split(","))
        row_kept = np.array([row.get("dataset", "") in names for row in rows])
        trainable = np.where(clip >= 0, row_kept[np.maximum(clip, 0)], True)
    if args.band_limited_only:
        if not args.band_limited_copies:
            ap.error("--band-limited-only needs --band-limited-copies")
        trainable &= np.isin(kind, SPECIALIST_KINDS[args.band_limited_only])
    rng = np.random.default_rng(0)
    # Background-only scenes (clip -1) are spread over the folds by their item number.
    fold = np.where(clip >= 0, fold_of_row[np.maximum(clip, 0)], item % args.folds)
    thresholds = np.full(C, args.threshold)
    figures = {}
    torch.set_num_threads(args.threads)
    if args.cv:
        truth_clean, pred_clean, truth_aug, pred_aug = {}, {}, {}, {}
        oof = np.zeros((len(X), C), np.float32)
        bl_total = bl_false = bg_total = bg_false = 0
        copy_kinds = [int(k) for k in np.unique(kind) if k in COPY_KIND_NAMES]
        truth_copies, pred_copies = {k: {} for k in copy_kinds}, {k: {} for k in copy_kinds}

        def train_fold(f, te):
            """Train fold f's model on the other folds, write it (--fold-models) and give its probabilities on te."""
            tr = (fold != f) & (y >= 0) & trainable
            y_fit = y
            if args.teacher_bound:
                held = (fold == f) & (kind == 0) & (y >= 0)
                tr |= held
                y_fit = np.where(held, teacher_targets.UNLABELLED, y)
                options.unlabelled = set(np.unique(clip[held]).tolist())
            training_side = fold != f
            if args.train_fraction < 1:
                kept_rows = ed.kept_groups(rows, fold_of_row != f, args.train_fraction, seed=1000 + f)
                kept_scenes = np.random.default_rng(2000 + f).random(int(item.max()) + 1) < args.train_fraction
                training_side &= np.where(clip >= 0, kept_rows[np.maximum(clip, 0)], kept_scenes[item])
                tr &= training_side
            options.bag_mask = training_side  # the clip-level term draws its clips from the same windows
            model = fit_model(X[tr], P[tr] if P is not None else None, y_fit[tr], args.seed + f, options, tr)
            if args.fold_models:
                os.makedirs(args.fold_models, exist_ok=True)
                keep = fold != f
                export(os.path.join(args.fold_models, f"fold{f}.bin"), model, X[keep],
                       M[keep] if M is not None else None, y[keep], clip[keep], kind[keep], rows, options,
                       args.threshold)
                with open(os.path.join(args.fold_models, f"fold{f}.tsv"), "w") as fh:
                    fh.write("\t".join(rows[0].keys()) + "\n")
                    for r_i, row in enumerate(rows):
                        if fold_of_row[r_i] == f:
                            fh.write("\t".join(row.values()) + "\n")
            probabilities = predict_model(model, X[te], P[te] if P is not None else None)
            if args.resume:
                checkpoints.save_fold(args.fold_models, f, run_print, probabilities)
            return probabilities

        for f in range(args.folds):
            t0 = time.time()
            te = fold == f
            probabilities = (checkpoints.load_fold(args.fold_models, f, run_print, int(te.sum()))
                             if args.resume else None)
            if probabilities is not None:
                print(f"fold {f}: kept from an earlier run", file=sys.stderr)
            else:
                probabilities = train_fold(f, te)
            if args.oof:
                oof[te] = probabilities
            scored = [(0, truth_clean, pred_clean), (1, truth_aug, pred_aug)]
            scored += [(k, truth_copies[k], pred_copies[k]) for k in copy_kinds]
            for k_kind, tdict, pdict in scored:
                sel = kind[te] == k_kind
                lab = clip_labels(probabilities[sel], item[te][sel], thresholds)
                clip_of_item = dict(zip(item[te][sel], clip[te][sel]))
                for it, p in lab.items():
                    row = rows[clip_of_item[it]]
                    ci = ed.class_index(row["class"])
                    if ci is None:
                        continue
                    tdict[it] = ci
                    pdict[it] = p
            sel = kind[te] == 2
            lab = clip_labels(probabilities[sel], item[te][sel], thresholds)
            bl_total += len(lab)
            bl_false += sum(1 for v in lab.values() if v != 0)
            sel = kind[te] == 3
            lab = clip_labels(probabilities[sel], item[te][sel], thresholds)
            bg_total += len(lab)
            bg_false += sum(1 for v in lab.values() if v != 0)
            print(f"fold {f}: {time.time() - t0:.0f} s", file=sys.stderr)
        if args.oof:
            np.savez_compressed(args.oof, P=oof, fold=fold, clip=clip, kind=kind, item=item, y=y)
        figures["heldOutClean"] = report(truth_clean, pred_clean)
        figures["heldOutBedroomMix"] = report(truth_aug, pred_aug)
        figures["bandLimitedNegativesFalseAlarmRate"] = round(bl_false / max(bl_total, 1), 4)
        figures["bandLimitedNegatives"] = bl_total
        figures["roomToneScenesFalseAlarmRate"] = round(bg_false / max(bg_total, 1), 4)
        figures["roomToneScenes"] = bg_total
        for k in copy_kinds:
            figures[f"heldOutCopies{COPY_KIND_NAMES[k]}"] = copy_report(truth_copies[k], pred_copies[k])
        figures["threshold"] = args.threshold
        figures["folds"] = args.folds
        print(json.dumps({k: (v["macroF1"], v["classes"].get("snoring", {}).get("f1"))
                          if isinstance(v, dict) and "macroF1" in v else v for k, v in figures.items()}),
              file=sys.stderr)
        if args.figures:
            with open(args.figures, "w") as fh:
                json.dump(figures, fh, indent=1, sort_keys=True)
    if args.out and args.resume and checkpoints.final_model_done(args.out, run_print):
        print(f"kept {args.out} from an earlier run", file=sys.stderr)
    elif args.out:
        torch.set_num_threads(args.final_threads or args.threads)
        tr = (y >= 0) & trainable
        options.bag_mask = np.ones(len(y), bool)
        model = fit_model(X[tr], P[tr] if P is not None else None, y[tr], args.seed, options, tr)
        export(args.out, model, X, M, y, clip, kind, rows, options, args.threshold)
        if args.resume:
            checkpoints.mark_final_model(args.out, run_print)
        print(f"wrote {args.out}", file=sys.stderr)

if __name__ == "__main__":
    main()
