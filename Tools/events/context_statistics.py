"""Study: a window's pooled statistics joined with their mean over its neighbours (`train.py --context-windows K`).

Each window's 176 statistics are followed by their mean over the windows K before to K after it in the same clip or
scene (fewer at the clip's edges), so the network hears about 1 + K seconds around the window instead of one. Only
for measuring whether a longer view helps the steady types (music, traffic, water, wind, bird); the engine does not
compute these inputs, so a model trained with them cannot be exported."""
import numpy as np


def neighbour_means(X, item, offset, span):
    """Per window, the mean of X over the windows of the same item whose rank in time is within `span` of its own."""
    order = np.lexsort((offset, item))
    Xs = X[order].astype(np.float64)
    items = item[order]
    starts = np.flatnonzero(np.r_[True, items[1:] != items[:-1]])
    ends = np.r_[starts[1:], len(items)]
    out = np.empty_like(Xs)
    cumulative = np.vstack([np.zeros((1, X.shape[1])), np.cumsum(Xs, axis=0)])
    for s, e in zip(starts, ends):
        rank = np.arange(s, e)
        lo = np.maximum(rank - span, s)
        hi = np.minimum(rank + span + 1, e)
        out[s:e] = (cumulative[hi] - cumulative[lo]) / (hi - lo)[:, None]
    result = np.empty_like(out)
    result[order] = out
    return result.astype(X.dtype)


def with_context(X, item, offset, span):
    """X followed by its neighbour means (twice the columns)."""
    return np.hstack([X, neighbour_means(X, item, offset, span)])
