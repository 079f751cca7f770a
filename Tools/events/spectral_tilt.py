"""Random equalisation of training windows: a smooth random gain curve over the mel bands (an overall tilt plus
slow bumps), as different microphones, rooms and recording chains colour the same sound; optionally a shift of the
whole spectrum by a few mel bands first, as another throat, animal or engine makes the same kind of sound higher
or lower.

It works on a window's log-mel frames (the package's own numbers, as `build_dataset.py --log-mel` stored them):
the gain is added in the log domain, the log floor applied again, and the window's pooled statistics and network
patch recomputed from the result. `features_ref.pool_windows` reproduces the package's statistics from the same
frames to within 0.005 (`check_pooling` measures it); the two broadband
level statistics (mean and maximum frame dBFS) are not recomputable from the mel frames and are shifted by the
gain's power-weighted mean instead."""
import numpy as np

import eventdata as ed
import features_ref as fr

NEPERS_PER_DB = np.log(10.0) / 10.0   # natural-log power units per decibel
BANDS = fr.N_MELS
RECOMPUTED = fr.FEATURE_COUNT - 2  # every statistic but the two frame-dBFS ones (the last two)


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


def band_shift(M, shifts):
    """Each window's log-mel frames (N, frames, 64) moved up (positive shift) or down the mel axis by its shift
    (N integers), the edge band repeated into the bands left empty."""
    source = np.clip(np.arange(BANDS)[None, :] - shifts[:, None], 0, BANDS - 1)
    return np.take_along_axis(M, source[:, None, :], axis=2)


def equalise(X, M, gains, shifts=None):
    """Windows (statistics X, log-mel frames M) heard through the gain curves, after a band shift when `shifts`
    is given: new (X, M). The frame-level dBFS statistics follow the gain only (a shift, like a pitch change,
    keeps the level)."""
    M = M.astype(np.float32)
    if shifts is not None:
        M = band_shift(M, shifts)
    coloured = np.maximum(M + gains[:, None, :], ed.LOG_FLOOR)
    X = X.copy()
    X[:, :RECOMPUTED] = fr.pool_windows(coloured)
    # Broadband level change of each window (dB), from its mel power before and after.
    before = np.exp(M.astype(np.float64)).sum(axis=(1, 2))
    after = np.exp(coloured.astype(np.float64)).sum(axis=(1, 2))
    X[:, RECOMPUTED:] += (10.0 * np.log10(after / np.maximum(before, 1e-30)) / 20.0)[:, None].astype(np.float32)
    return X, coloured


def check_pooling(X, M, limit=0.05):
    """Which windows the vectorised pooling reproduces (largest difference under `limit`): only those can be
    equalised faithfully (a window of a stream shorter than one second was pooled over fewer frames)."""
    ok = np.zeros(len(X), bool)
    for s in range(0, len(X), 4096):
        recomputed = fr.pool_windows(M[s:s + 4096])
        ok[s:s + 4096] = np.abs(recomputed - X[s:s + 4096, :RECOMPUTED]).max(axis=1) < limit
    return ok
