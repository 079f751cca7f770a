"""Distillation targets from a large pretrained audio network (the teacher) for the small event network.

The teacher is far too slow for the engine (about 0.1 s per 3-s chunk), so it only takes part in training:
`studies/teacher_embeddings.py` stores one embedding per clip of the manifest, and each training window of a clip
(the windows that carry the clip's class) gets two extra targets from it:

- the teacher's class probabilities: a logistic regression on the embeddings of the training clips, its output
  for each clip cross-fitted over groups (so the targets are as wrong as the teacher is on unseen groups, not
  memorised), learnt through a soft cross-entropy;
- the embedding itself, reduced by PCA to `hint_dims` components: the network's last hidden layer is asked to
  predict it through a linear head that is used in training only.

With `unlabelled` clips (the upper-bound diagnostic `train.py --teacher-bound`), those clips' windows learn the
teacher's probabilities alone (from a regression fitted on the labelled clips), their labels never used.

Nothing of the teacher ends up in the model file."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

import eventdata as ed

C = len(ed.CLASSES)
UNLABELLED = -100  # class index of a window that learns from the teacher only (cross-entropy ignores it)


def load_embeddings(path):
    """file (relative to the clip folder) -> the clip's mean teacher embedding."""
    data = np.load(path)
    return {str(f): e for f, e in zip(data["files"], data["embedding"])}


def fitted_regression(E, labels, C_reg=0.1):
    """The teacher's class probabilities as a function of its embedding: (scaler, logistic regression)."""
    scaler = StandardScaler().fit(E)
    model = LogisticRegression(C=C_reg, max_iter=2000, class_weight="balanced")
    return scaler, model.fit(scaler.transform(E), labels)


def clip_probabilities(E, labels, groups, C_reg=0.1, folds=5, seed=0):
    """Teacher probabilities for each clip, cross-fitted: each clip's from a regression that did not see its group."""
    rng = np.random.default_rng(seed)
    names = np.unique(groups)
    fold_of = dict(zip(names, rng.permutation(len(names)) % folds))
    fold = np.array([fold_of[g] for g in groups])
    out = np.zeros((len(E), C), np.float32)
    for k in range(folds):
        tr, te = fold != k, fold == k
        if not te.any():
            continue
        scaler, model = fitted_regression(E[tr], labels[tr], C_reg)
        out[np.ix_(te, model.classes_)] = model.predict_proba(scaler.transform(E[te]))
    return out


class Targets:
    """Teacher targets for the windows a network trains on (aligned with its X, P, y)."""

    def __init__(self, clip, y, rows, embeddings, soft_weight=0.5, hint_weight=1.0, hint_dims=32, unlabelled=()):
        self.soft_weight, self.hint_weight = soft_weight, hint_weight
        used = np.unique(clip[clip >= 0])
        used = [c for c in used if rows[c]["file"] in embeddings and ed.class_index(rows[c]["class"]) is not None]
        E = np.array([embeddings[rows[c]["file"]] for c in used], np.float32)
        labels = np.array([ed.class_index(rows[c]["class"]) for c in used])
        groups = np.array([rows[c]["group"] for c in used])
        unknown = np.isin(used, list(unlabelled))
        soft = np.zeros((len(used), C), np.float32)
        soft[~unknown] = clip_probabilities(E[~unknown], labels[~unknown], groups[~unknown])
        if unknown.any():
            scaler, model = fitted_regression(E[~unknown], labels[~unknown])
            soft[np.ix_(unknown, model.classes_)] = model.predict_proba(scaler.transform(E[unknown]))
        pca = PCA(hint_dims, random_state=0).fit(E)
        hint = pca.transform(E)
        hint /= np.sqrt(pca.explained_variance_.mean())
        row_of_clip = np.full(len(rows), -1)
        row_of_clip[used] = np.arange(len(used))
        r = np.where(clip >= 0, row_of_clip[np.maximum(clip, 0)], -1)
        class_of_row = np.array([-2 if ed.class_index(row["class"]) is None else ed.class_index(row["class"])
                                 for row in rows])
        has = (r >= 0) & ((class_of_row[np.maximum(clip, 0)] == y) | np.isin(clip, list(unlabelled)))
        self.mask = torch.from_numpy(has)
        self.soft = torch.from_numpy(np.where(has[:, None], soft[np.maximum(r, 0)], 0).astype(np.float32))
        self.hint = torch.from_numpy(np.where(has[:, None], hint[np.maximum(r, 0)], 0).astype(np.float32))
        self.hint_dims = hint_dims

    def hint_head(self, width):
        """The training-only layer that maps the network's last hidden layer to the teacher's components."""
        return nn.Linear(width, self.hint_dims)

    def loss(self, idx, logits, hidden, head):
        """Distillation loss of a batch (window indices `idx`): weighted soft cross-entropy plus embedding error."""
        m = self.mask[idx]
        if not bool(m.any()):
            return logits.sum() * 0.0
        total = 0.0
        if self.soft_weight > 0:
            q = self.soft[idx][m]
            total = total + self.soft_weight * -(q * F.log_softmax(logits[m], dim=1)).sum(dim=1).mean()
        if self.hint_weight > 0:
            total = total + self.hint_weight * F.mse_loss(head(hidden[m]), self.hint[idx][m])
        return total
