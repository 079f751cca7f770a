"""Stage-sequence model shared by training and evaluation: transition priors from the Sleep-EDF hypnograms and
an HMM (forward filter for real time, forward-backward for the whole night) that mirrors
Sources/SleepAnalysis/Staging/StageSequenceModel.swift exactly. Stage order: awake, light, deep, rem."""
import csv
import glob
import os

import numpy as np

RK_TO_STAGE = {"W": 0, "1": 1, "2": 1, "3": 2, "4": 2, "R": 3}
MARGIN_EPOCHS = 60  # keep 30 min of wake before the first and after the last sleep epoch


def sleepedf_sequences(directory):
    """Each recording's stage sequence (0-3), trimmed to the sleep period +- 30 min; None marks unscored."""
    sequences = []
    for path in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        with open(path) as handle:
            stages = [RK_TO_STAGE.get(row["stage_rk"]) for row in csv.DictReader(handle)]
        asleep = [i for i, s in enumerate(stages) if s not in (None, 0)]
        if not asleep:
            continue
        first, last = max(0, asleep[0] - MARGIN_EPOCHS), min(len(stages), asleep[-1] + MARGIN_EPOCHS + 1)
        sequences.append(stages[first:last])
    return sequences


def transition_matrix(sequences, pseudo_count=1.0):
    """transitions[from][to] per 30-s epoch, counted over consecutive scored epochs, add-`pseudo_count` smoothed."""
    counts = np.full((4, 4), pseudo_count)
    for stages in sequences:
        for a, b in zip(stages[:-1], stages[1:]):
            if a is not None and b is not None:
                counts[a, b] += 1
    return counts / counts.sum(axis=1, keepdims=True)


def emission(posterior, priors, exponent):
    return np.maximum(posterior, 1e-6) / np.power(np.maximum(priors, 1e-6), exponent)


def normalised(v):
    s = v.sum()
    return v / s if s > 0 and np.isfinite(s) else np.full(len(v), 1.0 / len(v))


def forward(emissions, initial, transitions):
    out = np.zeros_like(emissions)
    previous = None
    for t, e in enumerate(emissions):
        predicted = initial if previous is None else previous @ transitions
        previous = normalised(predicted * e)
        out[t] = previous
    return out


def forward_backward(emissions, initial, transitions):
    fwd = forward(emissions, initial, transitions)
    post = np.zeros_like(emissions)
    backward = np.ones(4)
    for t in range(len(emissions) - 1, -1, -1):
        post[t] = normalised(fwd[t] * backward)
        backward = normalised(transitions @ (emissions[t] * backward))
    return post
