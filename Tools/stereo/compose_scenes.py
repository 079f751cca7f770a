#!/usr/bin/env python3
"""Composes two-sleeper stereo scenes from real clips, for the stereo assignment evaluation.

Each scene is a 16 kHz stereo WAV (channel 0 = primary microphone, channel 1 = secondary) and a JSON ground
truth beside it. Two sleepers make sounds (snoring, coughing, talking, sneezing, throat clearing: real clips from
`shared/data/audio`); sleeper A lies near the primary microphone, sleeper B near the secondary one. Each clip is
placed in a simple room model:

- direct path to each microphone: delayed by distance / speed of sound (fractional delay in the frequency
  domain) and attenuated as 1 / distance;
- room reverberation per microphone: exponentially decaying noise (RT60 0.3-0.5 s per scene, independent per
  microphone), scaled so direct and reverberant energy are equal at the critical distance (0.6-1.0 m);
- room tone: independent low-level coloured noise on each channel, plus a weak distant coherent source (a fan).

Geometries:
- `bedside`: microphones 1.5 m apart, one on each bedside table; each sleeper's head 0.3-0.5 m from its own
  microphone (the far microphone hears it about 2-4 ms later and 6-12 dB quieter).
- `centered`: a pair 10 cm apart on the headboard between the sleepers; heads 0.35-0.6 m to either side and
  0.2-0.5 m out (time differences up to about +-0.29 ms, level differences of 0-1 dB).

Clips of one `group` (recording, speaker) are given to one sleeper only in a scene, so the same voice or snorer
is never both sleepers. Everything is seeded: the same arguments give the same scenes.

Ground truth (`<scene>.json`): `geometry`, `microphoneSpacing`, `sampleRate`, `duration`, `rt60`, and `events`,
each with `start`, `end` (s, the sounding part of the clip as placed), `owner` (`primary`|`secondary`), `type`,
`clip`, `group`, `expectedDelay` (s; > 0 when the primary microphone hears it first) and
`expectedLevelDifference` (dB of the direct paths, primary minus secondary).

Usage:
    python3 Tools/stereo/compose_scenes.py --data ../shared/data/audio --out /tmp/stereo_scenes \
        [--scenes 20] [--seconds 60] [--seed 7] [--geometry bedside centered]
Writes OUT/bedside/scene_000.wav + .json, OUT/centered/..., and nothing into the repository.
"""

import argparse
import csv
import json
import math
import os
import sys

import numpy as np
import soundfile
from scipy.signal import fftconvolve

SAMPLE_RATE = 16_000
SPEED_OF_SOUND = 343.0
SLEEPER_CLASSES = ["snoring", "coughing", "talking", "sneeze", "throatClearing"]
MAX_EVENT_SECONDS = 4.0


def load_manifest(data_dir):
    """Clips of the sleeper classes: a list of dicts with class, file, group."""
    rows = []
    with open(os.path.join(data_dir, "MANIFEST.tsv"), newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["class"] in SLEEPER_CLASSES:
                rows.append({"class": row["class"], "file": row["file"], "group": row["group"]})
    rows.sort(key=lambda r: r["file"])
    return rows


def active_part(samples):
    """The sounding part of a clip: from the first to the last 32-ms frame within 30 dB of the loudest."""
    frame = 512
    count = len(samples) // frame
    if count == 0:
        return samples
    energy = np.array([np.mean(samples[i * frame:(i + 1) * frame] ** 2) for i in range(count)]) + 1e-12
    levels = 10 * np.log10(energy)
    loud = np.nonzero(levels > levels.max() - 30)[0]
    start, stop = loud[0] * frame, (loud[-1] + 1) * frame
    part = samples[start:stop]
    return part[: int(MAX_EVENT_SECONDS * SAMPLE_RATE)]


def read_clip(data_dir, clip):
    samples, rate = soundfile.read(os.path.join(data_dir, clip["file"]), dtype="float64", always_2d=True)
    if rate != SAMPLE_RATE:
        raise SystemExit(f"{clip['file']}: {rate} Hz, 16 kHz expected")
    mono = samples.mean(axis=1)
    mono = mono - mono.mean()
    part = active_part(mono)
    fade = min(160, len(part) // 4)
    if fade > 0:
        ramp = np.linspace(0, 1, fade)
        part = part.copy()
        part[:fade] *= ramp
        part[-fade:] *= ramp[::-1]
    peak = np.max(np.abs(part)) or 1.0
    return part / peak


def delayed(signal, delay_seconds, length):
    """`signal` delayed by a fractional number of samples (frequency-domain phase shift), `length` samples."""
    size = 1
    while size < length + len(signal):
        size *= 2
    spectrum = np.fft.rfft(signal, size)
    freqs = np.fft.rfftfreq(size, 1.0 / SAMPLE_RATE)
    shifted = np.fft.irfft(spectrum * np.exp(-2j * np.pi * freqs * delay_seconds), size)
    return shifted[:length]


def reverb_tail(rng, rt60, seconds=None):
    """Unit-energy exponentially decaying noise, starting 4 ms after the direct sound."""
    seconds = seconds or min(1.2, 1.5 * rt60)
    count = int(seconds * SAMPLE_RATE)
    t = np.arange(count) / SAMPLE_RATE
    tail = rng.standard_normal(count) * np.exp(-6.9078 * t / rt60)
    tail[: int(0.004 * SAMPLE_RATE)] = 0
    # Soften the highest frequencies a little (air and wall absorption).
    tail = np.convolve(tail, [0.25, 0.5, 0.25], mode="same")
    return tail / math.sqrt(np.sum(tail ** 2))


def room_tone(rng, count):
    """Independent per-channel coloured noise (mic self-noise and diffuse room noise)."""
    white = rng.standard_normal(count)
    spectrum = np.fft.rfft(white)
    freqs = np.fft.rfftfreq(count, 1.0 / SAMPLE_RATE)
    spectrum /= np.sqrt(np.maximum(freqs, 50.0) / 50.0)  # pink-ish
    noise = np.fft.irfft(spectrum, count)
    return noise / np.sqrt(np.mean(noise ** 2))


def geometry_positions(rng, geometry):
    """Microphone positions (primary, secondary) and head positions (A near primary, B near secondary), in m."""
    if geometry == "bedside":
        spacing = 1.5
        mics = np.array([[0.0, 0.0], [spacing, 0.0]])
        heads = []
        for side in (0, 1):
            distance = rng.uniform(0.3, 0.5)
            angle = rng.uniform(math.radians(25), math.radians(70))
            along = distance * math.cos(angle)
            x = along if side == 0 else spacing - along
            heads.append([x, distance * math.sin(angle)])
        return spacing, mics, np.array(heads)
    spacing = 0.1
    mics = np.array([[-spacing / 2, 0.0], [spacing / 2, 0.0]])
    heads = []
    for side in (0, 1):
        x = rng.uniform(0.35, 0.6)
        heads.append([-x if side == 0 else x, rng.uniform(0.2, 0.5)])
    return spacing, mics, np.array(heads)


def compose_scene(rng, clips_by_group, data_dir, geometry, seconds):
    count = int(seconds * SAMPLE_RATE)
    spacing, mics, heads = geometry_positions(rng, geometry)
    rt60 = rng.uniform(0.3, 0.5)
    critical = rng.uniform(0.6, 1.0)
    tails = [reverb_tail(rng, rt60) for _ in range(2)]

    # Per class, split the groups between the sleepers: one source is never both of them.
    sleeper_groups = [{}, {}]
    for kind in SLEEPER_CLASSES:
        groups = sorted(key for key in clips_by_group if key[0] == kind)
        order = rng.permutation(len(groups))
        for position, index in enumerate(order):
            sleeper_groups[position % 2].setdefault(kind, []).append(groups[index])

    out = np.zeros((2, count))
    events = []
    time = rng.uniform(0.5, 2.0)
    while True:
        owner = int(rng.integers(2))
        kinds = sorted(sleeper_groups[owner])
        kind_groups = sleeper_groups[owner][kinds[int(rng.integers(len(kinds)))]]
        group = kind_groups[int(rng.integers(len(kind_groups)))]
        candidates = clips_by_group[group]
        clip = candidates[int(rng.integers(len(candidates)))]
        source = read_clip(data_dir, clip)
        duration = len(source) / SAMPLE_RATE
        if time + duration + 1.0 > seconds:
            break
        level = 10 ** (rng.uniform(-26, -12) / 20)  # at 0.4 m from the mouth, before the room
        distances = np.linalg.norm(mics - heads[owner], axis=1)
        start = int(time * SAMPLE_RATE)
        span = len(source) + len(tails[0]) + 64
        span = min(span, count - start)
        for channel in range(2):
            direct = delayed(source, distances[channel] / SPEED_OF_SOUND, span) * (0.4 / distances[channel])
            reverb = fftconvolve(direct, tails[channel])[:span] * (distances[channel] / critical)
            out[channel, start:start + span] += level * (direct + reverb)
        travel = distances / SPEED_OF_SOUND
        events.append({
            "start": round(time + travel.min(), 4),
            "end": round(time + duration + travel.min(), 4),
            "owner": "primary" if owner == 0 else "secondary",
            "type": clip["class"],
            "clip": clip["file"],
            "group": clip["group"],
            "expectedDelay": round(float(travel[1] - travel[0]), 7),
            "expectedLevelDifference": round(float(20 * math.log10(distances[1] / distances[0])), 3),
        })
        time += duration + rng.uniform(1.0, 4.0)

    tone_level = 10 ** (rng.uniform(-62, -52) / 20)
    for channel in range(2):
        out[channel] += tone_level * room_tone(rng, count)
    fan = room_tone(rng, count) * tone_level * 0.5
    fan_position = np.array([rng.uniform(-2, 3), rng.uniform(2, 4)])
    for channel in range(2):
        distance = np.linalg.norm(mics[channel] - fan_position)
        out[channel] += np.roll(fan, int(round(distance / SPEED_OF_SOUND * SAMPLE_RATE)))
    peak = np.max(np.abs(out))
    if peak > 0.99:
        out *= 0.99 / peak
    truth = {
        "geometry": geometry, "microphoneSpacing": spacing, "sampleRate": SAMPLE_RATE, "duration": seconds,
        "rt60": round(rt60, 3), "criticalDistance": round(critical, 3),
        "microphones": mics.round(4).tolist(), "heads": heads.round(4).tolist(), "events": events,
    }
    return out, truth


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "../../../shared/data/audio"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--geometry", nargs="+", default=["bedside", "centered"], choices=["bedside", "centered"])
    args = parser.parse_args()

    clips = load_manifest(args.data)
    clips_by_group = {}
    for clip in clips:
        clips_by_group.setdefault((clip["class"], clip["group"]), []).append(clip)
    if len(clips_by_group) < 4:
        sys.exit(f"too few clip groups in {args.data}")
    for geometry_index, geometry in enumerate(args.geometry):
        directory = os.path.join(args.out, geometry)
        os.makedirs(directory, exist_ok=True)
        total = 0
        for scene in range(args.scenes):
            rng = np.random.default_rng([args.seed, geometry_index, scene])
            audio, truth = compose_scene(rng, clips_by_group, args.data, geometry, args.seconds)
            name = f"scene_{scene:03d}"
            soundfile.write(os.path.join(directory, name + ".wav"), audio.T.astype(np.float32), SAMPLE_RATE,
                            subtype="PCM_16")
            with open(os.path.join(directory, name + ".json"), "w") as handle:
                json.dump(truth, handle, indent=1)
            total += len(truth["events"])
        print(f"{geometry}: {args.scenes} scenes, {total} events -> {directory}")


if __name__ == "__main__":
    main()
