#!/usr/bin/env python3
"""Trains the staging model (Models/staging.json) from the feature table the Swift package computes.

    swift build -c release
    .build/release/sleepanalysis features staging --dataset walch --root ../shared/data/staging/walch \
        --out /tmp/staging/features.csv
    python3 Tools/staging/train.py --features /tmp/staging/features.csv \
        --hypnograms ../shared/data/staging/sleepedf_hypnograms/epochs --out Models/staging.json \
        [--loso /tmp/staging/loso]

For every input variant (activity + heart rate, activity only, heart rate only) and context (causal, whole
night) a LightGBM classifier (awake, light, deep, rem) is trained on the columns of that variant. The stage
sequence model takes its transitions from the Sleep-EDF hypnograms; its emission prior exponent and the
per-stage decision weights are tuned on out-of-fold predictions of an inner group cross-validation over the
training subjects only (so with --loso, the held-out subject never influences any choice). --loso DIR also
writes DIR/<subject>.json, a model trained without that subject, for
`sleepanalysis evaluate staging --model-dir DIR`.
Needs: numpy, scikit-learn, lightgbm.
"""
import argparse
import itertools
import json
import multiprocessing
import os
import sys

import lightgbm as lgb
import numpy as np
from sklearn.metrics import cohen_kappa_score

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sequence  # noqa: E402

PSG_TO_STAGE = {0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3}
STAGES = ["awake", "light", "deep", "rem"]
VARIANTS = {
    "activityAndHeartRate": lambda name: name.startswith(("time_", "act_", "hr_")),
    "activity": lambda name: name.startswith(("time_", "act_")),
    "heartRate": lambda name: name.startswith(("time_", "hr_")),
}
CONTEXTS = {"causal": "causal.", "wholeNight": "whole."}
LGB_PARAMS = dict(
    objective="multiclass", num_class=4, learning_rate=0.1, num_leaves=15, min_data_in_leaf=50,
    feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0, verbose=-1, num_threads=1, seed=7,
    max_bin=63,
)
ROUNDS = 70
INNER_FOLDS = 3
WEIGHT_GRID = [0.6, 0.8, 1.0, 1.25, 1.6, 2.0, 2.5, 3.2]
AWAKE_GRID = WEIGHT_GRID  # --awake-weights
EXPONENTS = [0.5, 1.0, None]  # None: no sequence model (each epoch decided alone)
MIN_WAKE_SPECIFICITY = 0.6  # --min-wake-specificity
WAKE_CLASS_WEIGHT = 1.0  # --wake-class-weight: training weight of wake epochs in the classifiers
AVAILABILITY_WINDOW = 20
CALIBRATION_BINS = 10  # equal-width confidence bins of the expected calibration error
TEMPERATURE_GRID = np.exp(np.arange(np.log(0.25), np.log(6.0), 0.01))
CALIBRATE = True  # --no-calibration: ship temperature 1 (the probabilities as they were)
# A priori (no audio-labelled PSG data): snoring happens in sleep, so each 3 s of snoring in an epoch multiplies the
# wake probability by 1 - 0.8 (SleepStager applies it per 3 s).
SNORING_WAKE_SUPPRESSION = 0.8
CLOCK_BIN_HOURS = 0.5
CLOCK_BINS = 20
LOSO_INPUTS = None  # (table, subjects, transitions, directory) of a --loso run
ARCHITECTURE = None  # the sleep-architecture prior (Models/staging-architecture.json), set by --architecture


def load_table(path):
    with open(path) as handle:
        header = handle.readline().strip().split(",")
        rows = [line.rstrip("\n").split(",") for line in handle]
    subjects = np.array([r[0] for r in rows])
    epochs = np.array([int(r[1]) for r in rows])
    labels = np.array([PSG_TO_STAGE.get(int(r[2]), -1) for r in rows])
    values = np.array([[float(v) if v else np.nan for v in r[3:]] for r in rows], dtype=np.float64)
    return header[3:], subjects, epochs, labels, values


class Table:
    def __init__(self, path):
        self.names, self.subjects, self.epochs, self.labels, self.values = load_table(path)

    def columns(self, variant, context):
        prefix = CONTEXTS[context]
        chosen = [(i, n[len(prefix):]) for i, n in enumerate(self.names)
                  if n.startswith(prefix) and VARIANTS[variant](n[len(prefix):])]
        return [i for i, _ in chosen], [n for _, n in chosen]


def fit(x, y):
    weight = None
    if WAKE_CLASS_WEIGHT == "balanced":  # wake weighs as much as an average class of the training rows
        weight = np.where(y == 0, len(y) / 4 / max(1, int(np.sum(y == 0))), 1.0)
    elif float(WAKE_CLASS_WEIGHT) != 1.0:
        weight = np.where(y == 0, float(WAKE_CLASS_WEIGHT), 1.0)
    return lgb.train(LGB_PARAMS, lgb.Dataset(x, label=y, weight=weight), num_boost_round=ROUNDS)


def export_trees(booster, feature_count):
    trees = []
    for info in booster.dump_model()["tree_info"]:
        nodes = dict(feature=[], threshold=[], left=[], right=[], defaultLeft=[], missingType=[], leaf=[])

        def visit(node):
            if "leaf_value" in node:
                nodes["leaf"].append(node["leaf_value"])
                return -len(nodes["leaf"])
            index = len(nodes["feature"])
            nodes["feature"].append(node["split_feature"])
            nodes["threshold"].append(float(node["threshold"]))
            nodes["defaultLeft"].append(bool(node["default_left"]))
            nodes["missingType"].append({"None": 0, "Zero": 1, "NaN": 2}[node["missing_type"]])
            nodes["left"].append(0)
            nodes["right"].append(0)
            nodes["left"][index] = visit(node["left_child"])
            nodes["right"][index] = visit(node["right_child"])
            return index

        visit(info["tree_structure"])
        trees.append(nodes)
    return dict(classCount=4, featureCount=feature_count, trees=trees)


def availability(table, rows, context):
    """Per row: which variant the Swift stager picks (inputs seen within 20 epochs, past only when causal)."""
    names = table.names
    act = ~np.isnan(table.values[rows, names.index("causal.act_log")])
    hr = ~np.isnan(table.values[rows, names.index("causal.hr_z")])
    out = []
    for i in range(len(rows)):
        lo = max(0, i - AVAILABILITY_WINDOW)
        hi = i if context == "causal" else min(len(rows) - 1, i + AVAILABILITY_WINDOW)
        a, h = act[lo:hi + 1].any(), hr[lo:hi + 1].any()
        out.append("activityAndHeartRate" if a and h else "activity" if a else "heartRate" if h else None)
    return out


def posteriors(table, models, rows_by_subject, context, clock, only=None):
    """Classifier posteriors for the given subjects' rows, with the stager's per-epoch variant choice
    (or the variant `only` for every row)."""
    result = {}
    for subject, rows in rows_by_subject.items():
        choice = [only] * len(rows) if only else availability(table, rows, context)
        post = np.zeros((len(rows), 4))
        for variant in VARIANTS:
            mask = np.array([c == variant for c in choice])
            if mask.any():
                columns, _ = table.columns(variant, context)
                post[mask] = models[variant].predict(table.values[np.ix_(rows[mask], columns)])
        none = np.array([c is None for c in choice])
        if none.any():
            hours = table.values[rows[none], table.names.index("causal.time_hours")]
            post[none] = clock_lookup(clock, hours)
        result[subject] = post
    return result


def architecture_prior(post, weights):
    """The sleep-architecture prior, as SleepStager/SleepArchitecturePrior in Swift: light, deep and REM times their
    share in the bin of minutes asleep so far over their overall share, rescaled to the old sleep total, wake
    unchanged; minutes asleep = 30 s for each earlier epoch whose weighted most probable stage is a sleep stage."""
    if ARCHITECTURE is None:
        return post
    starts = np.array(ARCHITECTURE["binStartMinutesAsleep"], dtype=float)
    ratios = np.array(ARCHITECTURE["sharesByMinutesAsleep"]) / np.array(ARCHITECTURE["overallShares"])
    out = post.copy()
    minutes = 0.0
    for t in range(len(post)):
        b = int(np.searchsorted(starts, minutes, side="right") - 1)
        sleep = post[t, 1:].sum()
        adjusted = post[t, 1:] * ratios[b]
        total = adjusted.sum()
        if total > 0 and np.isfinite(total):
            out[t, 1:] = adjusted * sleep / total
        weighted = out[t] * weights
        if weighted[1:].max() > weighted[0]:
            minutes += 0.5
    return out


def with_architecture(post_by_subject, weights):
    return {s: architecture_prior(p, np.asarray(weights, dtype=float)) for s, p in post_by_subject.items()}


def clock_prior(table, rows):
    hours = table.values[rows, table.names.index("causal.time_hours")]
    bins = np.clip((hours / CLOCK_BIN_HOURS).astype(int), 0, CLOCK_BINS - 1)
    counts = np.ones((CLOCK_BINS, 4))
    for b, y in zip(bins, table.labels[rows]):
        if y >= 0:
            counts[b, y] += 1
    return counts / counts.sum(axis=1, keepdims=True)


def clock_lookup(clock, hours):
    return clock[np.clip((hours / CLOCK_BIN_HOURS).astype(int), 0, CLOCK_BINS - 1)]


def smooth(post_by_subject, context, seq, exponent):
    """HMM posteriors (exponent None: the classifier posteriors themselves, no sequence model)."""
    if exponent is None:
        return {s: p / p.sum(axis=1, keepdims=True) for s, p in post_by_subject.items()}
    out = {}
    for subject, post in post_by_subject.items():
        e = sequence.emission(post, seq["classPriors"], exponent)
        run = sequence.forward if context == "causal" else sequence.forward_backward
        out[subject] = run(e, seq["initial"], seq["transitions"])
    return out


def decode(post_by_subject, context, seq, exponent, weights):
    return {s: (p * weights).argmax(axis=1) for s, p in smooth(post_by_subject, context, seq, exponent).items()}


def scores(truth, predicted):
    ok = truth >= 0
    t, p = truth[ok], predicted[ok]
    three = lambda a: np.where(a == 0, 0, np.where(a == 3, 2, 1))  # noqa: E731
    return dict(
        kappa4=cohen_kappa_score(t, p), kappa3=cohen_kappa_score(three(t), three(p)),
        kappa2=cohen_kappa_score(t == 0, p == 0), wakeSpecificity=float(np.mean(p[t == 0] == 0)),
        accuracy4=float(np.mean(t == p)), accuracy3=float(np.mean(three(t) == three(p))),
        accuracy2=float(np.mean((t == 0) == (p == 0))),
        recall={s: float(np.mean(p[t == k] == k)) for k, s in enumerate(STAGES) if np.any(t == k)},
    )


def published(post_by_subject, context, seq, exponent, weights, temperature=1.0):
    """The probabilities the Swift stager publishes per epoch: the (smoothed) posterior times the decision weights,
    normalised, then tempered (`StagingCalibration`: each probability to the power 1 / temperature, normalised
    again; the most probable stage does not change)."""
    out = {}
    for subject, p in smooth(post_by_subject, context, seq, exponent).items():
        q = np.maximum(p * weights, 0.0)
        q = q / np.maximum(q.sum(axis=1, keepdims=True), 1e-300)
        out[subject] = temper(q, temperature)
    return out


def temper(q, temperature):
    if temperature == 1.0:
        return q
    logq = np.log(np.maximum(q, 1e-12)) / temperature
    logq -= logq.max(axis=1, keepdims=True)
    e = np.exp(logq)
    return e / e.sum(axis=1, keepdims=True)


def expected_calibration_error(probabilities, truth, bins=CALIBRATION_BINS):
    """Top-label expected calibration error: epochs binned by the probability of their most probable stage
    (equal-width bins over 0-1), the mean |accuracy - confidence| weighted by the bin's share of epochs."""
    ok = truth >= 0
    p, t = probabilities[ok], truth[ok]
    confidence = p.max(axis=1)
    correct = (p.argmax(axis=1) == t).astype(float)
    index = np.minimum((confidence * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        m = index == b
        if m.any():
            total += m.sum() * abs(correct[m].mean() - confidence[m].mean())
    return float(total / max(1, len(t)))


def fit_temperature(probabilities, truth):
    """The temperature minimising the negative log-likelihood of the scored epochs (a grid of 1 % steps, 0.25-6)."""
    ok = truth >= 0
    p, t = probabilities[ok], truth[ok]
    best = None
    for temperature in TEMPERATURE_GRID:
        q = temper(p, temperature)
        nll = -np.mean(np.log(np.maximum(q[np.arange(len(t)), t], 1e-12)))
        if best is None or nll < best[0]:
            best = (nll, float(temperature))
    return round(best[1], 4)


def tune(post_by_subject, labels_by_subject, context, seq):
    """Emission exponent (or no sequence model) and decision weights maximising kappa4 + kappa3 + kappa2
    (wake specificity >= 0.6)."""
    order = list(post_by_subject)
    truth = np.concatenate([labels_by_subject[s] for s in order])
    best = None
    for exponent in EXPONENTS:
        smoothed = smooth(post_by_subject, context, seq, exponent)
        stacked = np.concatenate([smoothed[s] for s in order])
        weights, current = np.ones(4), None
        for _ in range(2):  # coordinate ascent over awake, deep, rem (light fixed at 1)
            for k in (0, 2, 3):
                for w in (AWAKE_GRID if k == 0 else WEIGHT_GRID):
                    trial = weights.copy()
                    trial[k] = w
                    s = scores(truth, (stacked * trial).argmax(axis=1))
                    objective = s["kappa4"] + s["kappa3"] + s["kappa2"]
                    objective -= 2.0 * max(0.0, MIN_WAKE_SPECIFICITY - s["wakeSpecificity"])
                    if current is None or objective > current:
                        current, weights = objective, trial
        if best is None or current > best[0]:
            best = (current, exponent, weights)
    return best[1], best[2]


def rows_by(table, subjects):
    return {s: np.where(table.subjects == s)[0] for s in subjects}


def sequence_params(table, rows, transitions):
    labelled = rows[table.labels[rows] >= 0]
    priors = np.bincount(table.labels[labelled], minlength=4) / len(labelled)
    first = np.ones(4)
    for s in sorted(set(table.subjects[rows])):
        r = rows[table.subjects[rows] == s]
        lab = table.labels[r][table.labels[r] >= 0]
        if len(lab):
            first[lab[0]] += 1
    return dict(initial=first / first.sum(), transitions=transitions, classPriors=priors)


def train_model(table, subjects, transitions, log):
    """A complete model from `subjects`: classifiers on all of them, tuning on inner out-of-fold predictions."""
    rows = np.concatenate([np.where(table.subjects == s)[0] for s in subjects])
    seq = sequence_params(table, rows, transitions)
    clock = clock_prior(table, rows)
    folds = [subjects[i::INNER_FOLDS] for i in range(INNER_FOLDS)]
    tuned = {}
    for context in CONTEXTS:
        oof = {}
        for fold in folds:
            train_subjects = [s for s in subjects if s not in fold]
            train_rows = np.concatenate([np.where(table.subjects == s)[0] for s in train_subjects])
            train_rows = train_rows[table.labels[train_rows] >= 0]
            # Tuning uses the activity + heart rate variant only (the one the walch nights use almost throughout).
            variant = "activityAndHeartRate"
            columns, _ = table.columns(variant, context)
            models = {variant: fit(table.values[np.ix_(train_rows, columns)], table.labels[train_rows])}
            oof.update(posteriors(table, models, rows_by(table, fold), context, clock, only=variant))
        labels = {s: table.labels[np.where(table.subjects == s)[0]] for s in subjects}
        tuned[context] = tune(oof, labels, context, seq)
        if ARCHITECTURE is not None:
            # The prior counts minutes asleep with the decision weights: tune again with it applied (it counts
            # with the first pass's weights; the model then applies it with the final ones).
            tuned[context] = tune(with_architecture(oof, tuned[context][1]), labels, context, seq)
        # Temperature scaling, fitted on the same inner out-of-fold predictions (so a held-out subject never
        # influences it): the probabilities the stager would publish for the training subjects it did not see.
        oof_post = with_architecture(oof, tuned[context][1]) if ARCHITECTURE is not None else oof
        published_oof = published(oof_post, context, seq, tuned[context][0], np.array(tuned[context][1]))
        stacked = np.concatenate([published_oof[s] for s in subjects])
        truth = np.concatenate([labels[s] for s in subjects])
        temperature = fit_temperature(stacked, truth) if CALIBRATE else 1.0
        tuned[context] = (tuned[context][0], tuned[context][1], temperature)
        log(f"  {context}: exponent {tuned[context][0]} weights {tuned[context][1].tolist()} temperature "
            f"{temperature} (inner ECE {expected_calibration_error(stacked, truth):.3f} -> "
            f"{expected_calibration_error(temper(stacked, temperature), truth):.3f})")
    labelled = rows[table.labels[rows] >= 0]
    variants, boosters = [], {}
    for context in CONTEXTS:
        for variant in VARIANTS:
            columns, names = table.columns(variant, context)
            booster = fit(table.values[np.ix_(labelled, columns)], table.labels[labelled])
            boosters[(variant, context)] = booster
            variants.append(dict(inputs=variant, context=context, featureNames=names,
                                 trees=export_trees(booster, len(columns))))
    model = dict(
        format="sleepanalysis-staging-1", name="staging-walch-gbdt-hmm-1", stages=STAGES, variants=variants,
        sequence=dict(initial=seq["initial"].tolist(), transitions=seq["transitions"].tolist(),
                      classPriors=seq["classPriors"].tolist()),
        emissionPriorExponents={c: float(tuned[c][0] or 1.0) for c in CONTEXTS},
        sequenceSmoothing={c: tuned[c][0] is not None for c in CONTEXTS},
        decisionWeights={c: tuned[c][1].tolist() for c in CONTEXTS},
        clockPrior=dict(binHours=CLOCK_BIN_HOURS, probabilities=clock.tolist()),
        snoringWakeSuppression=SNORING_WAKE_SUPPRESSION,
        calibration={c: dict(temperature=tuned[c][2]) for c in CONTEXTS},
    )
    if ARCHITECTURE is not None:
        model["architecture"] = ARCHITECTURE  # the prior the weights were tuned with travels with the model
    return model, boosters, seq, clock, tuned


def log(message):
    print(message, file=sys.stderr, flush=True)


def loso_fold(held_out):
    """Trains without `held_out` (on LOSO_INPUTS), writes DIR/<held_out>.json and returns its decoded stages
    per context."""
    table, subjects, transitions, directory = LOSO_INPUTS
    log(f"fold {held_out}")
    training = [s for s in subjects if s != held_out]
    model, boosters, seq, clock, tuned = train_model(table, training, transitions, log)
    with open(os.path.join(directory, f"{held_out}.json"), "w") as handle:
        json.dump(model, handle)
    predicted, probabilities = {}, {}
    for context in CONTEXTS:
        models = {v: boosters[(v, context)] for v in VARIANTS}
        post = with_architecture(posteriors(table, models, rows_by(table, [held_out]), context, clock),
                                 tuned[context][1])
        predicted[context] = decode(post, context, seq, tuned[context][0], np.array(tuned[context][1]))[held_out]
        probabilities[context] = published(post, context, seq, tuned[context][0], np.array(tuned[context][1]),
                                           tuned[context][2])[held_out]
    return predicted, probabilities


def main():
    global ARCHITECTURE, CALIBRATE, LOSO_INPUTS, MIN_WAKE_SPECIFICITY, WAKE_CLASS_WEIGHT, AWAKE_GRID
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--features", required=True)
    parser.add_argument("--hypnograms", required=True, help="sleepedf_hypnograms/epochs")
    parser.add_argument("--out", help="model file to write (trained on every subject)")
    parser.add_argument("--loso", help="directory for leave-one-subject-out models and predictions")
    parser.add_argument("--architecture", help="sleep-architecture prior applied to every posterior before "
                        "decoding (Models/staging-architecture.json, from architecture.py)")
    parser.add_argument("--min-wake-specificity", type=float, default=MIN_WAKE_SPECIFICITY,
                        help="the inner tuning penalises wake specificity below this (default 0.6)")
    parser.add_argument("--wake-class-weight", default=WAKE_CLASS_WEIGHT,
                        help="training weight of wake epochs in the classifiers: a number (default 1) or "
                        "'balanced' (the training rows' epochs / 4 / their wake epochs)")
    parser.add_argument("--awake-weights", help="comma-separated decision weights of wake the tuning tries "
                        "(default: the grid of every stage)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="leave-one-subject-out folds trained at once, one process each (default 1; the "
                        "figures do not depend on it)")
    parser.add_argument("--no-calibration", action="store_true",
                        help="ship temperature 1 in every context (no probability calibration)")
    args = parser.parse_args()
    CALIBRATE = not args.no_calibration
    MIN_WAKE_SPECIFICITY, WAKE_CLASS_WEIGHT = args.min_wake_specificity, args.wake_class_weight
    if args.awake_weights:
        AWAKE_GRID = [float(w) for w in args.awake_weights.split(",")]
    if args.architecture:
        with open(args.architecture) as handle:
            ARCHITECTURE = json.load(handle)
    table = Table(args.features)
    transitions = sequence.transition_matrix(sequence.sleepedf_sequences(args.hypnograms))
    subjects = sorted(set(table.subjects))
    if args.loso:
        os.makedirs(args.loso, exist_ok=True)
        predicted = {c: {} for c in CONTEXTS}
        LOSO_INPUTS = (table, subjects, transitions, args.loso)  # read by the forked workers, not pickled
        fold = loso_fold
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                folds = pool.map(fold, subjects)
        else:
            folds = [fold(held_out) for held_out in subjects]
        probabilities = {c: {} for c in CONTEXTS}
        for held_out, (by_context, probabilities_by_context) in zip(subjects, folds):
            for context in CONTEXTS:
                predicted[context][held_out] = by_context[context]
                probabilities[context][held_out] = probabilities_by_context[context]
        summary = {}
        for context in CONTEXTS:
            truth = np.concatenate([table.labels[table.subjects == s] for s in subjects])
            summary[context] = scores(truth, np.concatenate([predicted[context][s] for s in subjects]))
            summary[context]["expectedCalibrationError"] = expected_calibration_error(
                np.concatenate([probabilities[context][s] for s in subjects]), truth)
        print(json.dumps(summary, indent=2))
    if args.out:
        log("final model")
        model, *_ = train_model(table, subjects, transitions, log)
        with open(args.out, "w") as handle:
            json.dump(model, handle, separators=(",", ":"))


if __name__ == "__main__":
    main()
