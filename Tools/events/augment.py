"""Bedroom augmentation: distance attenuation, room reverberation, room tone / fans and other steady machine
noise / traffic hum, level and pitch variation, random band-limiting to 4 kHz. Every background is synthesised
here (no recorded noise), so no clip of the evaluation data leaks into training through a background."""
import numpy as np
from scipy import signal

SR = 16000


def db_to_gain(db):
    return 10.0 ** (db / 20.0)


def rms(x):
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64)) + 1e-20))


def active_rms(x):
    """RMS over the loudest half of 20-ms blocks: the level of the sound itself, not of its silences."""
    n = len(x) // 320
    if n < 2:
        return rms(x)
    blocks = np.sqrt(np.mean(x[: n * 320].reshape(n, 320) ** 2, axis=1) + 1e-20)
    top = np.sort(blocks)[n // 2:]
    return float(np.sqrt(np.mean(top ** 2)))


def colored_noise(n, rng, exponent):
    """Noise whose spectrum falls from white (exponent 0) towards brown (exponent 2): white noise mixed with
    its leaky integral (an IIR filter: cheap for long signals)."""
    white = rng.standard_normal(n).astype(np.float32)
    brown = signal.lfilter([1.0], [1.0, -0.995], white).astype(np.float32)
    brown /= rms(brown) + 1e-12
    w = float(np.clip(exponent / 2.0, 0.0, 1.0))
    x = (1.0 - w) * white + w * brown
    return (x / (rms(x) + 1e-12)).astype(np.float32)


def room_tone(n, rng):
    """Quiet room tone: pinkish/brownish noise, optional mains hum and a gentle low-pass (walls)."""
    x = colored_noise(n, rng, rng.uniform(0.8, 2.0))
    if rng.random() < 0.5:
        t = np.arange(n) / SR
        mains = rng.choice([50.0, 60.0])
        hum = sum(rng.uniform(0.05, 0.3) / k * np.sin(2 * np.pi * mains * k * t + rng.uniform(0, 6.28))
                  for k in (1, 2, 3))
        x = x + hum.astype(np.float32)
    b, a = signal.butter(2, rng.uniform(2000, 7500) / (SR / 2))
    return signal.lfilter(b, a, x).astype(np.float32)


def fan_noise(n, rng):
    """A fan: band-limited noise with a blade-rate modulation and a motor tone."""
    x = colored_noise(n, rng, rng.uniform(0.3, 1.2))
    lo, hi = rng.uniform(80, 300), rng.uniform(1500, 6000)
    b, a = signal.butter(2, [lo / (SR / 2), hi / (SR / 2)], btype="band")
    x = signal.lfilter(b, a, x)
    t = np.arange(n) / SR
    blade = rng.uniform(8, 40)
    x *= 1.0 + rng.uniform(0.05, 0.3) * np.sin(2 * np.pi * blade * t)
    x += rng.uniform(0.0, 0.2) * np.sin(2 * np.pi * rng.uniform(90, 250) * t)
    return (x / (rms(x) + 1e-12)).astype(np.float32)


def traffic_hum(n, rng):
    """Distant traffic through a window: brown noise low-passed, with slow swells."""
    x = colored_noise(n, rng, 2.0)
    b, a = signal.butter(2, rng.uniform(300, 1200) / (SR / 2))
    x = signal.lfilter(b, a, x)
    t = np.arange(n) / SR
    x *= 1.0 + 0.5 * np.sin(2 * np.pi * rng.uniform(0.05, 0.3) * t + rng.uniform(0, 6.28))
    return (x / (rms(x) + 1e-12)).astype(np.float32)


def stationary_noise(n, rng):
    """Any steady machine noise (fan, air conditioner, air purifier, fridge hum, ...): white noise shaped by a
    random smooth spectral envelope (gains at 8 log-spaced frequencies from 30 Hz to 8 kHz, interpolated, with a
    random overall tilt), sometimes with a blade-rate modulation."""
    anchors = np.geomspace(30.0, 8000.0, 8)
    gains_db = rng.uniform(-30.0, 0.0, len(anchors)) + rng.uniform(-4.0, 2.0) * np.log2(anchors / 500.0)
    spectrum = np.fft.rfft(rng.standard_normal(n))
    freqs = np.fft.rfftfreq(n, 1.0 / SR)
    envelope_db = np.interp(np.log(np.maximum(freqs, 1.0)), np.log(anchors), gains_db)
    x = np.fft.irfft(spectrum * db_to_gain(envelope_db), n)
    if rng.random() < 0.5:
        t = np.arange(n) / SR
        x *= 1.0 + rng.uniform(0.05, 0.3) * np.sin(2 * np.pi * rng.uniform(5, 50) * t)
    return (x / (rms(x) + 1e-12)).astype(np.float32)


def background(n, rng, fan_probability=0.35):
    """A bedroom background of n samples at unit RMS: room tone, sometimes plus a fan or another steady machine
    noise, and/or traffic hum."""
    x = room_tone(n, rng)
    if rng.random() < fan_probability:
        machine = fan_noise(n, rng) if rng.random() < 0.5 else stationary_noise(n, rng)
        x = x + db_to_gain(rng.uniform(-6, 6)) * machine
    if rng.random() < 0.25:
        x = x + db_to_gain(rng.uniform(-10, 0)) * traffic_hum(n, rng)
    return (x / (rms(x) + 1e-12)).astype(np.float32)


def room_impulse(rng):
    """A synthetic bedroom impulse response: direct path plus exponentially decaying diffuse tail."""
    rt60 = rng.uniform(0.15, 0.6)
    n = int(rt60 * SR)
    t = np.arange(n) / SR
    tail = rng.standard_normal(n) * np.exp(-6.91 * t / rt60)
    b, a = signal.butter(1, rng.uniform(3000, 7000) / (SR / 2))
    tail = signal.lfilter(b, a, tail)
    tail[: int(0.002 * SR)] = 0.0
    direct_to_reverb_db = rng.uniform(-3, 12)  # 1-3 m from the microphone
    h = tail / (np.sqrt(np.sum(tail ** 2)) + 1e-12) * db_to_gain(-direct_to_reverb_db)
    h[0] = 1.0
    return h.astype(np.float32)


def band_limit(x):
    """Simulate an 8 kHz recording: down to 8 kHz and back (nothing above 4 kHz)."""
    y = signal.resample_poly(x, 1, 2)
    return signal.resample_poly(y, 2, 1)[: len(x)].astype(np.float32)


def pitch_shift(x, rng, max_semitones=1.5):
    """Level-preserving speed change of a few semitones (pitch and tempo together)."""
    ratio = 2.0 ** (rng.uniform(-max_semitones, max_semitones) / 12.0)
    up, down = int(round(ratio * 100)), 100
    return signal.resample_poly(x, down, up).astype(np.float32)


def bedroom_scene(event, rng, narrowband, pad_seconds=(0.3, 1.0)):
    """Place an event clip in a bedroom. Returns (mix, event_part, offset) with event_part the event alone
    (as heard at the microphone) aligned with mix; offset is where the clip starts in the mix (samples)."""
    x = event.astype(np.float32)
    if rng.random() < 0.5:
        x = pitch_shift(x, rng)
    if not narrowband and rng.random() < 0.3:
        x = band_limit(x)
    if rng.random() < 0.8:
        x = signal.fftconvolve(x, room_impulse(rng))[: len(x) + int(0.3 * SR)].astype(np.float32)
    left = int(rng.uniform(*pad_seconds) * SR)
    right = int(rng.uniform(*pad_seconds) * SR)
    n = left + len(x) + right
    ev = np.zeros(n, np.float32)
    ev[left: left + len(x)] = x
    # Event level at the microphone: a source at 1-3 m, between -10 and -30 dB relative to close recording
    # level (taken as -20 dBFS active RMS); background at a quiet-bedroom level below it.
    event_db = -20.0 + rng.uniform(-30.0, -10.0) + rng.uniform(-6, 6)
    ev *= db_to_gain(event_db) / (active_rms(x) + 1e-12)
    bg_db = rng.uniform(-75.0, -48.0)
    bg = background(n, rng) * db_to_gain(bg_db)
    mix = ev + bg
    peak = np.max(np.abs(mix))
    if peak > 0.99:
        mix *= 0.99 / peak
        ev *= 0.99 / peak
    return mix.astype(np.float32), ev, left


def negative_scene(n, rng):
    """Background alone (room tone, fan, traffic hum) at a bedroom level: a 'none' example."""
    bg_db = rng.uniform(-80.0, -40.0)
    x = background(n, rng, fan_probability=0.6) * db_to_gain(bg_db)
    if rng.random() < 0.3:
        x = band_limit(x)
    return x.astype(np.float32)
