"""The librosa peer of `sleepanalysis-bench peer`: our audio front end as a Python user would write it with librosa.

For each analysed signal of FILE (its one channel, ``librosa.to_mono`` of its channels, or with --stereo each channel,
as `sleepanalysis analyze --stereo` analyses each sleeper's microphone; librosa's multichannel calls take them
together): resample to 16 kHz (``librosa.resample``, whose default is soxr's high quality, as our libsoxr "HQ"), STFT
of 512 samples every 160 (periodic Hann), power, the A-weighted level of each frame (``librosa.A_weighting``) and 64
mel bands from 50 to 8000 Hz, logged. That is a fraction of what the pipeline
computes (no events, breathing, audio health, staging or journal).

The file is read and processed in ten-minute blocks (``soundfile.blocks``) so that a whole night fits in memory;
each block is resampled on its own and its STFT continues from the previous block's last samples.

Prints one JSON object on standard output: ``cpuSeconds`` is ``time.process_time()`` from after the imports (librosa's
lazily loaded parts included) to the end, file reading included. A missing module gives exit status 3 and
``{"missingModule": NAME}``.

Usage: python3 Tools/bench/librosa_peer.py FILE [--stereo]
"""
import json
import sys

try:
    import time

    import librosa
    import numpy as np
    import soundfile
except ModuleNotFoundError as error:
    print(json.dumps({"missingModule": error.name}))
    sys.exit(3)

RATE = 16000
FFT_SIZE = 512
HOP = 160
BANDS = 64
LOW_HZ = 50.0
HIGH_HZ = 8000.0
BLOCK_SECONDS = 600
OFFSET_DB = 120.0


class Stream:
    """The analysed signals (channels, samples): the samples the next block's STFT continues from, and the frames."""

    def __init__(self, channels):
        self.tail = np.zeros((channels, FFT_SIZE - HOP), dtype=np.float32)
        self.frames = 0


def analyse_block(stream, signals, rate, mel_bank, a_gain, bin_factors):
    """signals: (channels, samples) at `rate`. Returns the block's (dB SPL (channels, frames), log-mel (channels, 64,
    frames)), or None before the first whole frame."""
    if rate != RATE:
        signals = librosa.resample(signals, orig_sr=rate, target_sr=RATE)
    signals = np.concatenate([stream.tail, signals.astype(np.float32, copy=False)], axis=1)
    if signals.shape[1] < FFT_SIZE:
        stream.tail = signals
        return None
    power = np.abs(librosa.stft(signals, n_fft=FFT_SIZE, hop_length=HOP, window="hann", center=False)) ** 2
    level_db = librosa.power_to_db(2 * ((a_gain * bin_factors) @ power), amin=1e-16) + OFFSET_DB
    log_mel = np.log(mel_bank @ power + 1e-10)
    frames = power.shape[2]
    stream.frames += frames * signals.shape[0]
    stream.tail = signals[:, frames * HOP:]
    return level_db, log_mel


def main():
    arguments = sys.argv[1:]
    stereo = "--stereo" in arguments
    paths = [argument for argument in arguments if argument != "--stereo"]
    if len(paths) != 1:
        sys.exit("usage: librosa_peer.py FILE [--stereo]")
    # librosa loads its submodules on first use: load them before the clock starts.
    _ = (librosa.resample, librosa.stft, librosa.A_weighting, librosa.filters.mel, librosa.power_to_db, librosa.to_mono)
    _ = librosa.resample(np.zeros(4410, dtype=np.float32), orig_sr=44100, target_sr=RATE)

    start = time.process_time()
    info = soundfile.info(paths[0])
    rate = info.samplerate
    mel_bank = librosa.filters.mel(sr=RATE, n_fft=FFT_SIZE, n_mels=BANDS, fmin=LOW_HZ, fmax=HIGH_HZ)
    freqs = librosa.fft_frequencies(sr=RATE, n_fft=FFT_SIZE)
    with np.errstate(divide="ignore"):  # the A-curve is -inf dB at 0 Hz
        a_gain = librosa.db_to_power(librosa.A_weighting(freqs))
    window_energy = np.sum(librosa.filters.get_window("hann", FFT_SIZE) ** 2)
    bin_factors = np.full(freqs.size, 2.0 / (FFT_SIZE * window_energy))
    bin_factors[[0, -1]] /= 2
    stream = Stream(info.channels if stereo else 1)
    samples_read = 0
    for block in soundfile.blocks(paths[0], blocksize=BLOCK_SECONDS * rate, dtype="float32", always_2d=True):
        # (channels, samples): each channel with --stereo, else the file's one channel or librosa's mix to mono.
        signals = block.T if stereo or block.shape[1] == 1 else librosa.to_mono(block.T)[np.newaxis, :]
        analyse_block(stream, signals, rate, mel_bank, a_gain, bin_factors)
        samples_read += block.shape[0]
    cpu = time.process_time() - start
    print(
        json.dumps(
            {
                "peer": "librosa",
                "librosaVersion": librosa.__version__,
                "cpuSeconds": cpu,
                "audioSeconds": samples_read / rate,
                "sampleRate": rate,
                "channels": stream.tail.shape[0],
                "frames": stream.frames,
            }
        )
    )


if __name__ == "__main__":
    main()
