"""Reference (numpy) implementation of the event features, for prototyping and for checking the package.

The shipped model is trained on the numbers the package itself exports (`sleepanalysis features events`); this
module re-implements the same pooling so the C code can be checked against it, and offers a numpy log-mel
for quick experiments before the package's front end is available."""
import numpy as np

N_MELS = 64
N_FFT = 512
HOP = 160
SR = 16000
REDUCED_BANDS = 32
LOG_FLOOR = -18.0           # log-mel values are clamped here before pooling (digital silence)
ACF_LAGS = (3, 6, 12, 25)


def _mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def _imel(m):
    return 700.0 * (10.0 ** (m / 2595.0) - 1.0)


def mel_filterbank():
    freqs = np.fft.rfftfreq(N_FFT, 1.0 / SR)
    edges = _imel(np.linspace(_mel(50.0), _mel(8000.0), N_MELS + 2))
    fb = np.zeros((N_MELS, len(freqs)))
    for m in range(N_MELS):
        lo, mid, hi = edges[m], edges[m + 1], edges[m + 2]
        up = (freqs - lo) / (mid - lo)
        down = (hi - freqs) / (hi - mid)
        fb[m] = np.maximum(0.0, np.minimum(up, down))
    return fb


_FB = mel_filterbank()


def logmel(x):
    """Frames of 512 samples ending every 160 samples (zeros before the start): (frames, 64) ln power, dBFS."""
    n = len(x) // HOP
    padded = np.concatenate([np.zeros(N_FFT, np.float32), x.astype(np.float32)])
    idx = (np.arange(n)[:, None] + 1) * HOP + N_FFT - N_FFT + np.arange(N_FFT)[None, :]
    frames = padded[idx]
    spec = np.abs(np.fft.rfft(frames * np.hanning(N_FFT + 1)[:-1], axis=1)) ** 2
    mel = spec @ _FB.T
    dbfs = 10.0 * np.log10(np.mean(frames[:, -HOP:] ** 2, axis=1) + 1e-12)
    return np.log(mel + 1e-10).astype(np.float32), dbfs.astype(np.float32)


def pool_windows(L, dbfs=None):
    """Pooled statistics of a batch of windows of log-mel frames (N, n, 64) -> (N, FEATURE_COUNT) (see
    FEATURE_NAMES). Without `dbfs` (N, n: each frame's level), the last two statistics (mean and maximum frame
    dBFS) are left out: (N, FEATURE_COUNT - 2)."""
    L = np.maximum(np.asarray(L, np.float64), LOG_FLOOR)
    n = L.shape[1]
    R = 0.5 * (L[:, :, 0::2] + L[:, :, 1::2])
    e = R.mean(axis=2)
    m = e.mean(axis=1)
    mean_r = R.mean(axis=1)
    f1 = mean_r - m[:, None]
    f2 = np.sqrt(np.maximum(0.0, (R ** 2).mean(axis=1) - mean_r ** 2))
    f3 = R.max(axis=1) - mean_r
    f4 = np.abs(np.diff(R, axis=1)).mean(axis=1) if n > 1 else np.zeros_like(mean_r)
    w = np.exp(2.0 * (e - e.max(axis=1, keepdims=True)))
    ew = (w * e).sum(axis=1) / w.sum(axis=1)
    f5 = (w[:, :, None] * R).sum(axis=1) / w.sum(axis=1)[:, None] - ew[:, None]
    std_e = np.sqrt(np.maximum(0.0, (e ** 2).mean(axis=1) - m ** 2))
    rmax = R.max(axis=2, keepdims=True)
    pw = np.exp(R - rmax)
    k = np.arange(REDUCED_BANDS)
    c = (pw * k).sum(axis=2) / pw.sum(axis=2) / REDUCED_BANDS
    flat = e - (rmax[:, :, 0] + np.log(pw.mean(axis=2)))
    d = e - m[:, None]
    var = (d ** 2).sum(axis=1)
    acf = [(d[:, :-lag] * d[:, lag:]).sum(axis=1) / np.maximum(var, 1e-9) * (var > 1e-9) if n > lag
           else np.zeros_like(m) for lag in ACF_LAGS]
    g = [std_e, e.max(axis=1) - m, m - e.min(axis=1),
         np.abs(np.diff(e, axis=1)).mean(axis=1) if n > 1 else np.zeros_like(m),
         c.mean(axis=1), np.sqrt(np.maximum(0.0, (c ** 2).mean(axis=1) - c.mean(axis=1) ** 2)),
         flat.mean(axis=1), np.sqrt(np.maximum(0.0, (flat ** 2).mean(axis=1) - flat.mean(axis=1) ** 2)),
         *acf, (e > m[:, None] + 1.0).mean(axis=1), m / 10.0]
    if dbfs is not None:
        dbfs = np.asarray(dbfs, np.float64)
        g += [dbfs.mean(axis=1) / 20.0, dbfs.max(axis=1) / 20.0]
    return np.concatenate([f1, f2, f3, f4, f5, np.stack(g, axis=1)], axis=1).astype(np.float32)


def pool(L, dbfs):
    """Pooled statistics of one window of log-mel frames (n, 64) and their levels (n) -> feature vector."""
    return pool_windows(np.asarray(L)[None], np.asarray(dbfs)[None])[0]


FEATURE_COUNT = 5 * REDUCED_BANDS + 16


def window_starts(n_frames, window=100, hop=50):
    """Frame offsets of the windows the engine evaluates over a stream of n_frames frames."""
    if n_frames < 10:
        return []
    if n_frames < window:
        return [0]
    starts = list(range(0, n_frames - window + 1, hop))
    last_end = starts[-1] + window
    if n_frames - last_end >= hop // 2:
        starts.append(n_frames - window)
    return starts


def windows(L, dbfs, window=100, hop=50):
    starts = window_starts(L.shape[0], window, hop)
    X = np.stack([pool(L[s: s + window], dbfs[s: s + window]) for s in starts]) if starts else \
        np.zeros((0, FEATURE_COUNT), np.float32)
    return X, np.array(starts)
