"""Makes a two-sleeper stereo recording at 44.1 kHz from two mono nights (e.g. composed nights kept by
`sleepanalysis evaluate composed-staging --keep DIR`), for `sleepanalysis-bench peer --stereo`.

Each channel is one sleeper's microphone: its own night plus the other night 10 dB lower (the other side of the bed),
resampled with soxr (high quality) and written as 16-bit WAV, as long as the shorter night.

Usage: python3 Tools/bench/make_stereo_night.py PRIMARY SECONDARY OUT.wav [--rate 44100]
"""
import argparse

import numpy as np
import soundfile
import soxr

CROSSTALK = 10 ** (-10 / 20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("primary")
    parser.add_argument("secondary")
    parser.add_argument("out")
    parser.add_argument("--rate", type=int, default=44100)
    arguments = parser.parse_args()
    primary, primary_rate = soundfile.read(arguments.primary, dtype="float32")
    secondary, secondary_rate = soundfile.read(arguments.secondary, dtype="float32")
    if primary.ndim != 1 or secondary.ndim != 1 or primary_rate != secondary_rate:
        raise SystemExit("two mono nights at the same rate expected")
    length = min(primary.size, secondary.size)
    left = primary[:length] + CROSSTALK * secondary[:length]
    right = secondary[:length] + CROSSTALK * primary[:length]
    stereo = np.stack([left, right], axis=1)
    if arguments.rate != primary_rate:
        stereo = soxr.resample(stereo, primary_rate, arguments.rate, quality="HQ")
    soundfile.write(arguments.out, np.clip(stereo, -1, 1), arguments.rate, subtype="PCM_16")
    print(f"{arguments.out}: {stereo.shape[0] / arguments.rate / 3600:.2f} h, {arguments.rate} Hz, 2 channels")


if __name__ == "__main__":
    main()
