"""Random equalisation of training windows: a smooth random gain curve over the mel bands (an overall tilt plus
slow bumps), as different microphones, rooms and recording chains colour the same sound.

It works on a window's log-mel frames (the package's own numbers, as `build_dataset.py --log-mel` stored them):
the gain is added in the log domain, the log floor applied again, and the window's pooled statistics and network
patch recomputed from the result. The pooling here is a vectorised copy of `features_ref.pool`, which reproduces
the package's statistics from the same frames to within 0.005 (`check_pooling` measures it); the two broadband
level statistics (mean and maximum frame dBFS) are not recomputable from the mel frames and are shifted by the
gain's power-weighted mean instead."""
import numpy as np

import eventdata as ed
import features_ref as fr

NEPERS_PER_DB = np.log(10.0) / 10.0   # natural-log power units per decibel
BANDS = fr.N_MELS
RECOMPUTED = 5 * fr.REDUCED_BANDS + 14  # every statistic but the two frame-dBFS ones (the last two)


def random_gains(n, rng, tilt_db=8.0, bump_db=4.0, anchors=6):
    """n gain curves over the 64 mel bands, in natural-log power units: a linear tilt of up to ±tilt_db from the
    lowest to the highest band's centre value, plus bumps of up to ±bump_db at `anchors` evenly spaced bands,
    interpolated linearly."""
    position = np.linspace(-0.5, 0.5, BANDS)
    tilt = rng.uniform(-tilt_db, tilt_db, (n, 1)) * position[None, :]
    anchor_at = np.linspace(0, BANDS - 1, anchors)
    bumps = rng.uniform(-bump_db, bump_db, (n, anchors))
    curve = np.stack([np.interp(np.arange(BANDS), anchor_at, b) for b in bumps])
    return ((tilt + curve) * NEPERS_PER_DB).astype(np.float32)


def pool_batch(L):
    """`features_ref.pool` for a batch of full windows (N, frames, 64), without the two frame-dBFS statistics:
    (N, RECOMPUTED)."""
    L = np.maximum(L.astype(np.float64), ed.LOG_FLOOR)
    n = L.shape[1]
    R = 0.5 * (L[:, :, 0::2] + L[:, :, 1::2])
    e = R.mean(axis=2)
    m = e.mean(axis=1)
    mean_r = R.mean(axis=1)
    f1 = mean_r - m[:, None]
    f2 = np.sqrt(np.maximum(0.0, (R ** 2).mean(axis=1) - mean_r ** 2))
    f3 = R.max(axis=1) - mean_r
    f4 = np.abs(np.diff(R, axis=1)).mean(axis=1)
    w = np.exp(2.0 * (e - e.max(axis=1, keepdims=True)))
    ew = (w * e).sum(axis=1) / w.sum(axis=1)
    f5 = (w[:, :, None] * R).sum(axis=1) / w.sum(axis=1)[:, None] - ew[:, None]
    std_e = np.sqrt(np.maximum(0.0, (e ** 2).mean(axis=1) - m ** 2))
    rmax = R.max(axis=2, keepdims=True)
    pw = np.exp(R - rmax)
    k = np.arange(fr.REDUCED_BANDS)
    c = (pw * k).sum(axis=2) / pw.sum(axis=2) / fr.REDUCED_BANDS
    flat = e - (rmax[:, :, 0] + np.log(pw.mean(axis=2)))
    d = e - m[:, None]
    var = (d ** 2).sum(axis=1)
    acf = [np.where(var > 1e-9, (d[:, :-lag] * d[:, lag:]).sum(axis=1) / np.maximum(var, 1e-9), 0.0)
           for lag in fr.ACF_LAGS]
    g = np.stack([std_e, e.max(axis=1) - m, m - e.min(axis=1), np.abs(np.diff(e, axis=1)).mean(axis=1),
                  c.mean(axis=1), np.sqrt(np.maximum(0.0, (c ** 2).mean(axis=1) - c.mean(axis=1) ** 2)),
                  flat.mean(axis=1), np.sqrt(np.maximum(0.0, (flat ** 2).mean(axis=1) - flat.mean(axis=1) ** 2)),
                  *acf, (e > m[:, None] + 1.0).mean(axis=1), m / 10.0], axis=1)
    assert n > max(fr.ACF_LAGS)
    return np.concatenate([f1, f2, f3, f4, f5, g], axis=1).astype(np.float32)


def equalise(X, M, gains):
    """Windows (statistics X, log-mel frames M) heard through the gain curves: new (X, M)."""
    M = M.astype(np.float32)
    shifted = np.maximum(M + gains[:, None, :], ed.LOG_FLOOR)
    X = X.copy()
    X[:, :RECOMPUTED] = pool_batch(shifted)
    # Broadband level change of each window (dB), from its mel power before and after.
    before = np.exp(M.astype(np.float64)).sum(axis=(1, 2))
    after = np.exp(shifted.astype(np.float64)).sum(axis=(1, 2))
    X[:, RECOMPUTED:] += (10.0 * np.log10(after / np.maximum(before, 1e-30)) / 20.0)[:, None].astype(np.float32)
    return X, shifted


def check_pooling(X, M, limit=0.05):
    """Which windows the vectorised pooling reproduces (largest difference under `limit`): only those can be
    equalised faithfully (a window of a stream shorter than one second was pooled over fewer frames)."""
    ok = np.zeros(len(X), bool)
    for s in range(0, len(X), 4096):
        recomputed = pool_batch(M[s:s + 4096])
        ok[s:s + 4096] = np.abs(recomputed - X[s:s + 4096, :RECOMPUTED]).max(axis=1) < limit
    return ok
