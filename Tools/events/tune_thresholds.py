"""Per-type detection thresholds and minimum event durations from out-of-fold probabilities (train.py --oof),
with nested grouped cross-validation for the figures: each fold is scored with settings tuned on the other folds
only.

A clip's label follows `sleepanalysis evaluate events`: the engine's hysteresis runs over the clip's windows for
every type (an event opens at a window reaching the on-threshold, grows over windows at or above the
off-threshold = 0.6 x on, bridges a one-window gap, and counts when it spans at least the type's minimum duration);
the label is the detected type with the highest event probability, or none. The objective is clip-level
macro-F1 over event types on clean held-out clips, with band-limited negatives and background-only scenes counted
as clips that must yield no event. With `--band-limited` (a model that runs only on band-limited audio:
events-band-limited.bin) the package's 8-kHz and 4-kHz copies of the clips and negatives (train.py's kinds 5 and 6)
take the clean clips' place in the objective, beside the clips of the sources recorded at 8 kHz (cat meows, spoken
digits), which are band-limited as recorded and have no copies; the other clean clips are then scored with those
settings, not tuned on.
Steady types (music, traffic, water, wind) are given minimum durations of
1.5 s or more (wind 3 s), the types breath is mistaken for (water, wind) on-thresholds of at least 0.75 and 0.5,
and fart (13 clips) at least 0.75 (`MIN_DURATION_WINDOWS`, `MIN_ON_THRESHOLD`).
Writes the tuned settings into the given model files (header only; weights
untouched)."""
import argparse
import json
import sys

import numpy as np

import eventdata as ed
import modelfile
import train

C = len(ed.CLASSES)
GRID = np.round(np.arange(0.30, 0.99, 0.05), 2)
OFF_RATIO = 0.6
HOP_SECONDS = ed.WINDOW_HOP_FRAMES * ed.HOP / ed.SAMPLE_RATE
# Minimum event durations tried, in windows (x HOP_SECONDS): 0.5 s (one window) to 3 s.
DURATION_WINDOWS = (1, 2, 3, 4, 6)
# Floors on what the tuning may choose, per type. Steady ambient sounds: an event of them shorter than 1.5 s
# (3 windows) is not believed (a rustle heard as a moment of water), so their minimum durations start there.
# Breath heard from the bedside is soft band-limited noise every few seconds, which the model can hear as water or
# wind, and the clip set has no such breathing to tune on: water and wind also get higher on-thresholds, and wind
# (gusts last seconds) a 3-s minimum duration. These floors were chosen on the synthetic bedside breathing of
# `studies/breathing_false_alarms.py` and the demo night, which therefore no longer check them independently.
MIN_DURATION_WINDOWS = {"music": 3, "traffic": 3, "water": 3, "wind": 6}
# Fart has 13 clips of one source; tuned freely its threshold fell to 0.55 for the cascade of two networks, at which
# 6 of the demo night's synthetic snores and a cough became farts. Its floor, 0.75, is the value the tuning chose
# for the single network before (also a choice made on the demo night, which therefore does not check it).
MIN_ON_THRESHOLD = {"water": 0.75, "wind": 0.5, "fart": 0.75}


def threshold_choices(c):
    """On-thresholds tried for class index c."""
    return tuple(g for g in GRID if g >= MIN_ON_THRESHOLD.get(ed.CLASSES[c], 0.0))


def duration_choices(c):
    """Minimum durations (windows) tried for class index c."""
    return tuple(w for w in DURATION_WINDOWS if w >= MIN_DURATION_WINDOWS.get(ed.CLASSES[c], 1))


# Window kinds whose items are clips with a manifest class (train.py): clean clips, their bedroom mixes and the
# band-limited copies of clean clips (8 kHz, 4 kHz, Opus).
LABELLED_KINDS = (0, 1, 5, 6, 7)
# The band-limited copies tuned on with --band-limited: the package's 8-kHz and 4-kHz copies.
BAND_LIMITED_COPY_KINDS = (5, 6)


class ClipWindows:
    """The windows of the scored items (clips and scenes), in stream order, with each item's truth and fold."""

    def __init__(self, P, item, kind, clip, fold, rows, kinds, also=None):
        """`kinds`: the window kinds scored; `also`: a mask of further windows scored (or None)."""
        keep = np.isin(kind, kinds)
        if also is not None:
            keep |= also
        truth_of, valid_items = {}, set()
        for idx in np.flatnonzero(keep):
            it = item[idx]
            if it in truth_of:
                continue
            if kind[idx] in LABELLED_KINDS:
                ci = ed.class_index(rows[clip[idx]]["class"])
                if ci is None:
                    truth_of[it] = None
                    continue
                truth_of[it] = ci
            else:
                truth_of[it] = 0
            valid_items.add(it)
        keep &= np.array([truth_of.get(v) is not None for v in item])
        self.P, self.item = P[keep], item[keep]
        self.ids = np.array(sorted(valid_items))
        index = {v: i for i, v in enumerate(self.ids)}
        self.row = np.array([index[v] for v in self.item])
        self.truth = np.array([truth_of[v] for v in self.ids])
        item_fold = dict(zip(item, fold))
        item_kind = dict(zip(item, kind))
        self.fold = np.array([item_fold[v] for v in self.ids])
        self.kind = np.array([item_kind[v] for v in self.ids])
        self.first = np.r_[True, self.item[1:] != self.item[:-1]]

    def detections(self, c, on, windows):
        """Per item: the peak probability of an event of type `c` (0 when none), as the engine's hysteresis
        finds it with this on-threshold and a minimum duration of `windows` windows."""
        p = self.P[:, c]
        above = p >= on * OFF_RATIO
        # One window below the off-threshold between two above it (same item) is bridged.
        bridged = above.copy()
        bridged[1:-1] |= above[:-2] & above[2:] & ~self.first[1:-1] & ~self.first[2:]
        run_start = bridged & (np.r_[True, ~bridged[:-1]] | self.first)
        run = np.cumsum(run_start) * bridged
        runs = int(run.max())
        out = np.zeros(len(self.ids))
        if runs == 0:
            return out
        pos = np.arange(len(p))
        last = np.full(runs + 1, -1)
        np.maximum.at(last, run, np.where(bridged, pos, -1))
        opened = np.full(runs + 1, len(p))
        np.minimum.at(opened, run, np.where(bridged & (p >= on), pos, len(p)))
        peak = np.zeros(runs + 1)
        np.maximum.at(peak, run, np.where(bridged, p, 0.0))
        ok = (opened < len(p)) & (last - opened + 1 >= windows)
        ok[0] = False
        sel = bridged & ok[run]
        np.maximum.at(out, self.row[sel], p[sel])
        return out


class DetectionTable:
    """Every (type, on-threshold, minimum duration) setting's per-item event peak, computed once."""

    def __init__(self, clips):
        self.clips = clips
        self.peak = {(c, g, w): clips.detections(c, g, w)
                     for c in range(1, C) for g in GRID for w in DURATION_WINDOWS}

    def labels(self, settings, mask=slice(None)):
        best = np.stack([self.peak[(c,) + settings[c]][mask] for c in range(1, C)], axis=1)
        return np.where(best.max(axis=1) > 0, best.argmax(axis=1) + 1, 0)


def macro_f1(truth, pred):
    f1s = []
    for c in sorted(set(truth[truth > 0])):
        tp = np.sum((truth == c) & (pred == c))
        fp = np.sum((truth != c) & (pred == c))
        fn = np.sum((truth == c) & (pred != c))
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return float(np.mean(f1s))


def tune(table, mask, passes=2, neighbours=0):
    """Coordinate ascent over types: each type's (threshold, duration) maximising macro-F1 on the masked items.
    With `neighbours` k > 0 a setting is judged by the mean macro-F1 of the on-thresholds within k grid steps of
    it (same duration), so that a threshold in the middle of a plateau beats a lone peak that a clip or two made."""
    settings = {c: (max(0.5, threshold_choices(c)[0]), duration_choices(c)[0]) for c in range(1, C)}
    truth = table.clips.truth[mask]
    for _ in range(passes):
        for c in range(1, C):
            thresholds = threshold_choices(c)
            scored = []
            for w in duration_choices(c):
                f1 = []
                for g in thresholds:
                    trial = dict(settings)
                    trial[c] = (g, w)
                    f1.append(macro_f1(truth, table.labels(trial, mask)))
                for i, g in enumerate(thresholds):
                    near = f1[max(0, i - neighbours): i + neighbours + 1]
                    scored.append((float(np.mean(near)), -w, (g, w)))
            settings[c] = max(scored)[2]
    return settings


def write_errors(path, scored, clip_of_item, rows):
    """The held-out clips and bedroom scenes whose nested label is wrong, one per line: what was scored (`scored`:
    (name, ClipWindows, labels) triples; only clean clips and scenes, kinds 0 and 1), the clip's file, its true
    class and the predicted type."""
    with open(path, "w") as fh:
        fh.write("scored\tfile\tclass\tpredicted\n")
        for name, items, labels in scored:
            for i in np.flatnonzero(np.isin(items.kind, (0, 1)) & (items.truth != labels)):
                row = rows[clip_of_item[int(items.ids[i])]]
                fh.write(f"{name}\t{row['file']}\t{row['class']}\t{ed.CLASSES[labels[i]]}\n")


AMBIENT_TYPES = ("bird", "music", "traffic", "water", "wind")
THIN_BELOW_CLIPS = 30


def type_groups(report):
    """Macro-F1 over the types with at least THIN_BELOW_CLIPS clips, over the ambient types, and over the thin
    ones (fewer clips), from a `train.report`."""
    per = report["classes"]
    sets = {"macroF1AtLeast30Clips": [t for t, v in per.items() if v["support"] >= THIN_BELOW_CLIPS],
            "macroF1Ambient": [t for t in per if t in AMBIENT_TYPES],
            "macroF1Thin": [t for t, v in per.items() if v["support"] < THIN_BELOW_CLIPS]}
    out = {k: round(float(np.mean([per[t]["f1"] for t in ts])), 4) for k, ts in sets.items() if ts}
    out["thinTypes"] = sets["macroF1Thin"]
    return out


def source_of(row):
    """The data root (combined manifest) and the source a clip came from (a Debian package without its version)."""
    dataset, source = row.get("dataset", "") or "single", row["source_repo"].split("=")[0]
    return source if source.startswith(dataset + ":") else f"{dataset}:{source}"


def by_source(ids, truth, pred, clip_of_item, rows, key):
    """`train.report` of the clean clips of each value of key(row)."""
    out = {}
    keys = np.array([key(rows[clip_of_item[int(i)]]) for i in ids])
    for name in sorted(set(keys)):
        sel = keys == name
        report = train.report(dict(zip(ids[sel].tolist(), truth[sel].tolist())),
                              dict(zip(ids[sel].tolist(), pred[sel].tolist())))
        report.update(type_groups(report))
        report.pop("confusion")
        if not report["classes"]:  # a source of negatives only: no event type to average over
            report["macroF1"] = None
        out[name] = report
    return out


def nested_settings(table, mask, neighbours=0, report=None):
    """Per fold, the settings tuned on the masked items of the other folds (`report(fold, settings)` is told each)."""
    out = {}
    for f in np.unique(table.clips.fold):
        out[int(f)] = tune(table, (table.clips.fold != f) & mask, neighbours=neighbours)
        if report:
            report(int(f), out[int(f)])
    return out


def nested_labels(table, fold_settings):
    """Each item's label under the settings tuned without its fold."""
    out = np.zeros(len(table.clips.ids), int)
    for f, settings in fold_settings.items():
        out[table.clips.fold == f] = table.labels(settings, table.clips.fold == f)
    return out


def items_report(items, labels, mask):
    """`train.report` of the masked items of a ClipWindows."""
    ids = items.ids[mask].tolist()
    return train.report(dict(zip(ids, items.truth[mask].tolist())), dict(zip(ids, labels[mask].tolist())))


def write_settings(path, settings):
    header, tensors = modelfile.read(path)
    header["onThreshold"] = {ed.CLASSES[c]: float(g) for c, (g, _) in settings.items()}
    header["offThreshold"] = {ed.CLASSES[c]: round(float(g) * OFF_RATIO, 3) for c, (g, _) in settings.items()}
    header["minDurationSecondsByType"] = {ed.CLASSES[c]: w * HOP_SECONDS for c, (_, w) in settings.items()}
    names = [t["name"] for t in header.pop("tensors")]
    for k in ("payloadBytes", "payloadFNV1a64"):
        header.pop(k)
    modelfile.write(path, header, [(n, tensors[n]) for n in names])
    print(f"settings written to {path}", file=sys.stderr)


def tuning_mask(clips, item, clip, rows, dataset):
    """The scored items the tuning objective counts: all, or with `dataset` only the labelled clips of that data root
    (a combined manifest's `dataset` column) beside every negative scene."""
    if dataset is None:
        return np.ones(len(clips.ids), bool)
    clip_of_item = dict(zip(item.tolist(), clip.tolist()))
    return np.array([kind not in LABELLED_KINDS or (rows[clip_of_item[int(i)]].get("dataset", "") or "single") == dataset
                     for i, kind in zip(clips.ids, clips.kind)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oof", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--figures", default=None)
    ap.add_argument("--models", default="", help="comma-separated model files to receive the final settings")
    ap.add_argument("--fold-models", default=None, help="folder with fold<k>.bin: each gets settings tuned "
                                                       "without fold k")
    ap.add_argument("--errors", default=None,
                    help="write the held-out clips and bedroom scenes labelled wrongly here (TSV: scored, file, class, "
                         "predicted)")
    ap.add_argument("--neighbours", type=int, default=0,
                    help="judge an on-threshold by the mean macro-F1 of the thresholds within this many grid steps "
                         "(0: its own)")
    ap.add_argument("--band-limited", action="store_true",
                    help="tune on the held-out 8-kHz and 4-kHz copies and the clips recorded at 8 kHz instead of the "
                         "clean clips (a model run only on band-limited audio); the other clean clips are scored "
                         "with those settings")
    ap.add_argument("--tune-dataset", default=None,
                    help="tune on the clips of this data root only (a combined manifest's dataset column); the other "
                         "roots' clips are still scored (study: settings for the root the figures are read on)")
    args = ap.parse_args()
    d = np.load(args.oof)
    rows = ed.read_manifest(args.manifest)
    P, fold, clip, kind, item = d["P"], d["fold"], d["clip"], d["kind"], d["item"]
    if args.band_limited and not np.isin(kind, BAND_LIMITED_COPY_KINDS).any():
        ap.error(f"--band-limited: {args.oof} holds no band-limited copies (train.py --band-limited-copies)")
    tuned_kinds = BAND_LIMITED_COPY_KINDS if args.band_limited else (0,)
    # With --band-limited, the clean clips recorded at 8 kHz are tuned on too: band-limited audio without copies.
    recorded_narrow = np.array([ed.is_narrowband(row) for row in rows])[np.maximum(clip, 0)] & (clip >= 0)
    also = (kind == 0) & recorded_narrow if args.band_limited else None
    scored = DetectionTable(ClipWindows(P, item, kind, clip, fold, rows, kinds=tuned_kinds + (2, 3), also=also))
    mixes = DetectionTable(ClipWindows(P, item, kind, clip, fold, rows, kinds=(1,)))
    clean_table = (DetectionTable(ClipWindows(P, item, kind, clip, fold, rows, kinds=(0,))) if args.band_limited
                   else scored)
    clips = scored.clips
    tuned_on = tuning_mask(clips, item, clip, rows, args.tune_dataset)
    fold_settings = nested_settings(
        scored, tuned_on, args.neighbours,
        report=lambda f, settings: print(f"fold {f}: {json.dumps({ed.CLASSES[c]: s for c, s in settings.items()})}",
                                         file=sys.stderr))
    # Each fold's items labelled with the settings tuned without it; bedroom scenes of held-out clips (and, with
    # --band-limited, the clean clips) are scored with the same nested settings, not used for tuning.
    pred = nested_labels(scored, fold_settings)
    mix_pred = nested_labels(mixes, fold_settings)
    clean_items = clean_table.clips
    clean_pred = nested_labels(clean_table, fold_settings)
    clean = clean_items.kind == 0
    if args.errors:
        write_errors(args.errors, (("clean", clean_items, clean_pred), ("bedroomMix", mixes.clips, mix_pred)),
                     dict(zip(item.tolist(), clip.tolist())), rows)
    figures = {
        "heldOutClean": items_report(clean_items, clean_pred, clean),
        "heldOutBedroomMix": items_report(mixes.clips, mix_pred, slice(None)),
        "bandLimitedNegativesFalseAlarmRate": round(float(np.mean(pred[clips.kind == 2] != 0)), 4),
        "roomToneScenesFalseAlarmRate": round(float(np.mean(pred[clips.kind == 3] != 0)), 4),
        "thresholds": "per type on-threshold and minimum duration, tuned on the other folds (nested)"
                      + (" on the 8-kHz and 4-kHz copies and the clips recorded at 8 kHz" if args.band_limited else "")}
    # The held-out band-limited copies (when the run trained with them), scored with the same nested settings.
    copy_kinds = [k for k in BAND_LIMITED_COPY_KINDS if np.any(kind == k)]
    if args.band_limited:  # tuned on them: already labelled
        copies_table, copies_pred = scored, pred
    elif copy_kinds:
        copies_table = DetectionTable(ClipWindows(P, item, kind, clip, fold, rows, kinds=tuple(copy_kinds)))
        copies_pred = nested_labels(copies_table, fold_settings)
    for k in copy_kinds:
        copies = copies_table.clips.kind == k
        report = items_report(copies_table.clips, copies_pred, copies)
        negatives = copies & (copies_table.clips.truth == 0)
        report["negatives"] = int(negatives.sum())
        report["negativesFalseAlarmRate"] = round(float(np.mean(copies_pred[negatives] != 0)), 4)
        figures[f"heldOutCopies{train.COPY_KIND_NAMES[k]}"] = report
    # The clean clips of the sources recorded at 8 kHz: band-limited audio as recorded.
    narrow_items = np.isin(clean_items.ids, item[recorded_narrow])
    if narrow_items.any():
        figures["heldOutRecordedAt8kHz"] = items_report(clean_items, clean_pred, clean & narrow_items)
    figures["heldOutClean"].update(type_groups(figures["heldOutClean"]))
    clip_of_item = dict(zip(item.tolist(), clip.tolist()))
    ids, truth, labels = clean_items.ids[clean], clean_items.truth[clean], clean_pred[clean]
    figures["heldOutCleanByDataset"] = by_source(ids, truth, labels, clip_of_item, rows,
                                                 lambda row: row.get("dataset", "") or "single")
    figures["heldOutCleanBySource"] = by_source(ids, truth, labels, clip_of_item, rows, source_of)
    final = tune(scored, tuned_on, neighbours=args.neighbours)
    figures["finalThresholds"] = {ed.CLASSES[c]: float(g) for c, (g, _) in final.items()}
    figures["finalMinDurationSeconds"] = {ed.CLASSES[c]: w * HOP_SECONDS for c, (_, w) in final.items()}
    print(json.dumps({"macroF1": figures["heldOutClean"]["macroF1"],
                      "byDataset": {k: (v["macroF1"], v.get("macroF1AtLeast30Clips"),
                                        v["classes"].get("snoring", {}).get("f1"))
                                    for k, v in figures["heldOutCleanByDataset"].items()},
                      "snoring": figures["heldOutClean"]["classes"]["snoring"],
                      "bl": figures["bandLimitedNegativesFalseAlarmRate"],
                      "room": figures["roomToneScenesFalseAlarmRate"],
                      "copies": {k: ({t: v["classes"].get(t, {}).get("recall")
                                         for t in ("snoring", "talking", "coughing")}, v["negativesFalseAlarmRate"])
                                 for k, v in figures.items() if k.startswith("heldOutCopies")}}), file=sys.stderr)
    if args.figures:
        with open(args.figures, "w") as fh:
            json.dump(figures, fh, indent=1, sort_keys=True)
    targets = [(p, final) for p in args.models.split(",") if p]
    if args.fold_models:
        targets += [(f"{args.fold_models}/fold{f}.bin", s) for f, s in fold_settings.items()]
    for path, settings in targets:
        write_settings(path, settings)


if __name__ == "__main__":
    main()
