"""How an ensemble's member outputs become the model's output, the rule EventWindowClassifier.swift applies.

Without a gate: the mean of every member's softmax output. With a cascade gate g: on a window where the first
member's highest event probability (every output but "none", index 0) reaches g, the mean of all members; on the
others, the first member's output alone (the others are not run)."""
import numpy as np


def combine(outputs, gate=None):
    """outputs: a list of (windows x classes) arrays, the first member first. Returns the model's output."""
    first = np.asarray(outputs[0])
    mean = np.mean(np.stack([np.asarray(o) for o in outputs]), axis=0)
    if gate is None or len(outputs) == 1:
        return mean
    heard = first[..., 1:].max(axis=-1) >= gate
    return np.where(heard[..., None], mean, first)


def gate_pass_fraction(first, gate):
    """The fraction of windows on which the members after the first run."""
    return float(np.mean(np.asarray(first)[:, 1:].max(axis=1) >= gate))
