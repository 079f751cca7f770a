"""NumPy reference of SleepAnalysis's audio front end (FrontEndConfiguration.standard), for training in Python.

Computes, for 16 kHz mono float samples in -1..1, exactly what `FrontEnd.process` gives (to float rounding):

* frames: frame i ends at sample (i + 1) * 160 and covers the last 512 samples (zeros before the stream start),
  so one second gives 100 frames; a trailing partial hop gives no frame;
* periodic Hann window, unnormalised real FFT, power |X_k|^2;
* 64 mel bands, 50-8000 Hz, Slaney mel scale with Slaney area normalisation (librosa's default
  ``librosa.filters.mel(sr=16000, n_fft=512, n_mels=64, fmin=50, fmax=8000)``);
  log_mel = ln(mel energy + 1e-10);
* dbfs = 10 log10(2 * ms), ms = sum(|X_k|^2 * c_k) / N / E_w (c_k = 1 at DC and Nyquist, 2 elsewhere; E_w = sum of
  w^2 over the window samples after the stream start), floored at ms = 1e-16;
* db_spl = the same with |X_k|^2 weighted by the IEC 61672-1 A-curve at each bin's frequency, + offset (default 120,
  a -26 dBFS / 94 dB SPL MEMS microphone).

Audio at other rates must first be resampled to 16 kHz (the library uses libsoxr "HQ"; scipy's
``resample_poly`` is close but not identical).

Checked against the C core (sa_front_end fed in 150-sample chunks, 3 s of noise, tone and leading silence): largest
difference 4e-6 in log-mel, 8e-6 dB in dB SPL, 2e-6 dB in dBFS.

Usage: python3 Tools/frontend/frontend_reference.py FILE.wav   (prints frame count and a summary)
"""
import sys

import numpy as np

SAMPLE_RATE = 16000
FFT_SIZE = 512
HOP = 160
BANDS = 64
LOW_HZ = 50.0
HIGH_HZ = 8000.0
LOG_FLOOR = 1e-10
DEFAULT_OFFSET_DB = 120.0


def hz_to_mel(f):
    f = np.asarray(f, dtype=np.float64)
    return np.where(f < 1000.0, f * 3.0 / 200.0, 15.0 + 27.0 * np.log(np.maximum(f, 1e-9) / 1000.0) / np.log(6.4))


def mel_to_hz(m):
    m = np.asarray(m, dtype=np.float64)
    return np.where(m < 15.0, m * 200.0 / 3.0, 1000.0 * np.exp((m - 15.0) * np.log(6.4) / 27.0))


def mel_bank():
    """(BANDS, FFT_SIZE // 2 + 1) Slaney-normalised triangular filters."""
    edges = mel_to_hz(np.linspace(hz_to_mel(LOW_HZ), hz_to_mel(HIGH_HZ), BANDS + 2))
    freqs = np.arange(FFT_SIZE // 2 + 1) * SAMPLE_RATE / FFT_SIZE
    bank = np.zeros((BANDS, freqs.size))
    for b in range(BANDS):
        lo, centre, hi = edges[b], edges[b + 1], edges[b + 2]
        rising = (freqs - lo) / (centre - lo)
        falling = (hi - freqs) / (hi - centre)
        bank[b] = np.maximum(0.0, np.minimum(rising, falling)) * 2.0 / (hi - lo)
    return bank


def a_weighting_power(freqs):
    """Linear power gain of the IEC 61672-1 A-weighting (0 at DC)."""
    f1, f2, f3, f4 = 20.598997, 107.65265, 737.86223, 12194.217
    f = np.asarray(freqs, dtype=np.float64)
    fsq = f * f
    r = (f4 ** 2 * fsq ** 2) / ((fsq + f1 ** 2) * np.sqrt((fsq + f2 ** 2) * (fsq + f3 ** 2)) * (fsq + f4 ** 2))
    return r * r * 10 ** (2.0 / 10)


def front_end(samples, offset_db=DEFAULT_OFFSET_DB):
    """Returns (log_mel [T, 64] float32, db_spl [T], dbfs [T]) for 16 kHz mono samples."""
    x = np.asarray(samples, dtype=np.float64)
    frames = x.size // HOP
    padded = np.concatenate([np.zeros(FFT_SIZE), x])
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(FFT_SIZE) / FFT_SIZE)
    ends = (np.arange(frames) + 1) * HOP + FFT_SIZE
    index = ends[:, None] - FFT_SIZE + np.arange(FFT_SIZE)[None, :]
    power = np.abs(np.fft.rfft(padded[index] * window, axis=1)) ** 2
    log_mel = np.log(power @ mel_bank().T + LOG_FLOOR)

    bins = FFT_SIZE // 2 + 1
    factors = np.full(bins, 2.0 / FFT_SIZE)
    factors[0] = factors[-1] = 1.0 / FFT_SIZE
    freqs = np.arange(bins) * SAMPLE_RATE / FFT_SIZE
    a_factors = factors * a_weighting_power(freqs)
    valid = np.minimum((np.arange(frames) + 1) * HOP, FFT_SIZE)
    cumulative = np.concatenate([[0.0], np.cumsum(window[::-1] ** 2)])  # energy of the last n window samples
    window_energy = cumulative[valid]
    flat = power @ factors / window_energy
    weighted = power @ a_factors / window_energy
    dbfs = 10 * np.log10(np.maximum(flat, 1e-16) * 2)
    db_spl = 10 * np.log10(np.maximum(weighted, 1e-16) * 2) + offset_db
    return log_mel.astype(np.float32), db_spl.astype(np.float32), dbfs.astype(np.float32)


def main():
    import soundfile

    samples, rate = soundfile.read(sys.argv[1], dtype="float32", always_2d=True)
    if rate != SAMPLE_RATE:
        sys.exit(f"{sys.argv[1]}: {rate} Hz; resample to 16 kHz first")
    log_mel, db_spl, dbfs = front_end(samples.mean(axis=1))
    print(f"{log_mel.shape[0]} frames; dB SPL mean {db_spl.mean():.2f}; log-mel mean {log_mel.mean():.4f}")


if __name__ == "__main__":
    main()
