"""Shared definitions for the event-model tools: classes, the clip manifest, grouped folds."""
import csv
import os
import re
import numpy as np
import soundfile as sf

SAMPLE_RATE = 16000
HOP = 160
WINDOW_FRAMES = 100          # 1 s analysis window
WINDOW_HOP_FRAMES = 50       # evaluated every 0.5 s
LOG_FLOOR = -18.0            # natural-log mel floor of the pooling and the network input
MIN_CLIP_SECONDS = 1.0       # shorter clips are centred in zeros to this length (same rule as `evaluate events`)

# Order = output index of the classifier. Index 0 is "none" (no event). `digestive` has no training data
# (one burp clip) and so has no output: the engine reports probability 0 for it and never detects it.
CLASSES = ["none", "movement", "snoring", "talking", "coughing", "bird", "cat", "dog", "fart", "music",
           "sneeze", "throatClearing", "traffic", "water", "wind"]
NEGATIVE_CLASSES = {"breathing", "other"}
UNTRAINED_TYPES = {"digestive"}
# Sources recorded at 8 kHz (cat meows, spoken digits): everything else is band-limited at random in training.
NARROWBAND_GROUP_PREFIXES = ("cat", "fsdd")


def class_index(label):
    """Classifier output index of a manifest class (negatives map to none, untrained types to None)."""
    if label in NEGATIVE_CLASSES:
        return 0
    if label in UNTRAINED_TYPES:
        return None
    return CLASSES.index(label)


def read_manifest(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def read_mono(path):
    """A sound file as float32 mono at SAMPLE_RATE (channels averaged, other rates resampled by polyphase filter)."""
    audio, rate = sf.read(path, dtype="float32", always_2d=True)
    audio = audio.mean(axis=1)
    if rate != SAMPLE_RATE:
        from math import gcd
        from scipy.signal import resample_poly
        g = gcd(rate, SAMPLE_RATE)
        audio = resample_poly(audio, SAMPLE_RATE // g, rate // g).astype(np.float32)
    return audio


def load_clip(root, row):
    return read_mono(os.path.join(root, row["file"]))


def pad_short(audio):
    """Centre a clip shorter than MIN_CLIP_SECONDS in zeros (the evaluate command does the same)."""
    need = int(MIN_CLIP_SECONDS * SAMPLE_RATE)
    if len(audio) >= need:
        return audio
    left = (need - len(audio)) // 2
    return np.concatenate([np.zeros(left, np.float32), audio, np.zeros(need - len(audio) - left, np.float32)])


# Rain and thunder are hard negatives for water and wind (issue 26): the Debian import labels them "other"; the
# shared clip set labels rain (ESC-50 / ESC-10 `rain`, the Minetest rain loops) as water, so those rows are relabelled.
HARD_NEGATIVE_PATTERN = re.compile(r"category=(rain|thunderstorm)\b|(^|[_/])(rain|thunder)[_.]")


def hard_negative(row):
    """Whether a water or wind row is rain or thunder (note `category=rain`, or a file named rain_... / thunder_...),
    which the model is to call nothing."""
    if row["class"] not in ("water", "wind"):
        return False
    text = " ".join(row.get(k, "") for k in ("notes", "original_path", "file")).lower()
    return HARD_NEGATIVE_PATTERN.search(text) is not None


def with_hard_negatives(row):
    """The row, relabelled "other" when it is rain or thunder labelled water or wind (the note says so)."""
    if not hard_negative(row):
        return row
    row = dict(row)
    row["notes"] = (row.get("notes", "") + f"; relabelled from {row['class']}: rain and thunder are hard negatives "
                    "for water and wind").lstrip("; ")
    row["class"] = "other"
    return row


def is_narrowband(row):
    return row["group"].startswith(NARROWBAND_GROUP_PREFIXES)


def grouped_folds(rows, n_folds=5, seed=0):
    """Fold index per row: every group on one side, classes spread evenly (greedy by group size).

    Rows of a combined manifest (combine_manifests.py, column `dataset`) from a data root other than the first
    row's are given folds after the first root's rows, which keep the folds they have on their own: figures on
    them stay comparable with runs on that root alone."""
    first = rows[0].get("dataset", "") if rows else ""
    base = [i for i, row in enumerate(rows) if row.get("dataset", "") == first]
    added = [i for i, row in enumerate(rows) if row.get("dataset", "") != first]
    fold = np.zeros(len(rows), int)
    per_class_load = {}
    fold[base] = _assign_folds(rows, base, n_folds, np.random.default_rng(seed), per_class_load)
    if added:
        fold[added] = _assign_folds(rows, added, n_folds, np.random.default_rng(seed + 1), per_class_load)
    return fold


def _assign_folds(rows, indices, n_folds, rng, per_class_load):
    """Folds of the rows `indices`, added to the per-class fold loads already there."""
    groups = {}
    for i in indices:
        groups.setdefault((rows[i]["class"], rows[i]["group"]), []).append(i)
    # A group name shared across classes must still stay in one fold.
    by_group = {}
    for (cls, grp), idx in groups.items():
        by_group.setdefault(grp, []).extend(idx)
    fold_of_group = {}
    items = list(by_group.items())
    rng.shuffle(items)
    items.sort(key=lambda kv: -len(kv[1]))
    for grp, idx in items:
        cls = rows[idx[0]]["class"]
        load = per_class_load.setdefault(cls, np.zeros(n_folds))
        fold = int(np.argmin(load + rng.random(n_folds) * 1e-3))
        fold_of_group[grp] = fold
        for i in idx:
            per_class_load.setdefault(rows[i]["class"], np.zeros(n_folds))[fold] += 1
    return np.array([fold_of_group[rows[i]["group"]] for i in indices], int)


def kept_groups(rows, rows_in_training, fraction, seed):
    """A learning-curve subset: per manifest class, a random `fraction` of the groups among `rows_in_training`
    (at least one per class). Returns a boolean mask over rows."""
    rng = np.random.default_rng(seed)
    by_class = {}
    for i in np.flatnonzero(rows_in_training):
        by_class.setdefault(rows[i]["class"], set()).add(rows[i]["group"])
    keep = set()
    for cls, groups in sorted(by_class.items()):
        groups = sorted(groups)
        count = max(1, int(round(fraction * len(groups))))
        keep.update((cls, g) for g in rng.choice(groups, count, replace=False))
    return np.array([(row["class"], row["group"]) in keep for row in rows])
