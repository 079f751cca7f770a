"""How an ensemble's member outputs become the model's output, the rule EventWindowClassifier.swift applies.

Without a gate: the mean of every member's softmax output. With a cascade gate g: on a window where the first
member's highest event probability (every output but "none", index 0) reaches g, the mean of all members; on the
others, the first member's output alone (the others are not run). With per-type member sets (`member_types`:
output index -> member indices, each set holding member 0), an output listed there is the mean over the members
of its set that ran; every other output is the mean over all members that ran."""
import numpy as np


def combine(outputs, gate=None, member_types=None):
    """outputs: a list of (windows x classes) arrays, the first member first. Returns the model's output."""
    stack = np.stack([np.asarray(o, np.float64) for o in outputs])
    classes = stack.shape[-1]
    chosen = np.ones((len(outputs), classes), bool)
    for output, members in (member_types or {}).items():
        chosen[:, output] = False
        chosen[list(members), output] = True
    mean = (stack * chosen[:, None, :]).sum(axis=0) / chosen.sum(axis=0)
    if gate is None or len(outputs) == 1:
        return mean
    first = stack[0]
    heard = first[..., 1:].max(axis=-1) >= gate
    return np.where(heard[..., None], mean, first)


def gate_pass_fraction(first, gate):
    """The fraction of windows on which the members after the first run."""
    return float(np.mean(np.asarray(first)[:, 1:].max(axis=1) >= gate))
