"""A clip-level training term (multiple-instance learning) that matches how clips are scored.

`evaluate events` labels a clip by the highest window probability of each type (a type is detected when one window
reaches its threshold). Window labels only approximate that: a window of a five-second rooster clip in which the
rooster is silent, but the background is within 15 dB of the crow, is labelled "bird". The clip term instead takes,
for every event type, the highest probability over all of a clip's windows (labelled or not) and asks it to be high
for the clip's type and low for every other type (binary cross-entropy); for a negative clip every type's maximum
is asked to be low. It is added to the window loss (`eventnet.fit(..., bags=Bags(...))`, `train.py
--clip-loss-weight`)."""
import numpy as np
import torch

import eventdata as ed

MAX_WINDOWS = 20  # a longer clip contributes a random subset of its windows to each draw


class Bags:
    """The training clips ("bags") of windows: indices into the full window arrays, and each bag's class index.

    `X`, `P`: every window's statistics and patch (all windows of the dataset, not only the training ones);
    `variants`: the equalised copies (X, P) of all windows, or none; `item`, `label`: per window, its bag and the
    bag's class (-1: not a training bag); `weight`: the term's weight."""

    def __init__(self, X, P, variants, item, label, weight):
        self.X, self.P, self.variants, self.weight = X, P, variants, weight
        chosen = np.flatnonzero(label >= 0)
        order = chosen[np.argsort(item[chosen], kind="stable")]
        _, starts = np.unique(item[order], return_index=True)
        self.windows = np.split(order, starts[1:])
        self.labels = np.array([label[w[0]] for w in self.windows])
        counts = np.bincount(self.labels, minlength=len(ed.CLASSES)).astype(float)
        self.class_weights = (counts.sum() / np.maximum(counts, 1) / len(ed.CLASSES)) ** 0.5

    def draw(self, count, rng):
        """`count` random bags: window indices (flat), the bag of each window, and the bags' labels."""
        chosen = rng.integers(0, len(self.windows), count)
        parts, owner = [], []
        for k, b in enumerate(chosen):
            w = self.windows[b]
            if len(w) > MAX_WINDOWS:
                w = rng.choice(w, MAX_WINDOWS, replace=False)
            parts.append(w)
            owner.append(np.full(len(w), k))
        return np.concatenate(parts), np.concatenate(owner), self.labels[chosen]


def bag_labels(clip, kind, rows):
    """Per window, the class index of the clip or scene it belongs to: the manifest class for clean clips and
    bedroom scenes (negatives: none), none for band-limited negatives and background scenes, -1 for untrained
    types."""
    label = np.zeros(len(clip), int)
    known = {}
    for i in np.flatnonzero(clip >= 0):
        c = clip[i]
        if c not in known:
            index = ed.class_index(rows[c]["class"])
            known[c] = -1 if index is None else index
        label[i] = known[c]
    label[(kind == 2) | (kind == 3)] = 0
    return label


def loss(probabilities, owner, labels, class_weights):
    """Binary cross-entropy of each bag's per-type maximum window probability against its label.

    `probabilities`: (windows, classes) softmax outputs; `owner`: each window's bag (0..bags-1); `labels`: the
    bags' classes; `class_weights`: per class, applied to the bags of that class."""
    bags = len(labels)
    classes = probabilities.shape[1]
    index = torch.from_numpy(owner).long().unsqueeze(1).expand(-1, classes)
    best = torch.zeros(bags, classes).scatter_reduce(0, index, probabilities, reduce="amax", include_self=True)
    best = best[:, 1:].clamp(1e-6, 1 - 1e-6)
    target = torch.zeros_like(best)
    rows = np.flatnonzero(labels > 0)
    target[rows, labels[rows] - 1] = 1.0
    per_bag = -(target * torch.log(best) + (1 - target) * torch.log(1 - best)).sum(dim=1)
    weights = torch.tensor(class_weights[labels], dtype=torch.float32)
    return (weights * per_bag).sum() / weights.sum()
