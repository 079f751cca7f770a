"""False alarms of an event model on synthetic bedside breathing: room tone with breathing of randomised sound
(`Tools/fixtures/synth.py`: inhale and exhale bands, airflow rumble, rate, levels), none of which is an event.

The shared clip set has close-microphone breathing only; a bedside microphone hears breath as soft band-limited
noise bursts every few seconds, which an ambient-sound detector can take for water or wind. This measures how
often: it writes the scenes and a manifest (class `other`) to a temporary folder, runs
`sleepanalysis evaluate events --model MODEL` on them, and prints the share of scenes with an event, by type.

Usage (from the repository root, after `swift build -c release --product sleepanalysis`):
    python3 Tools/events/studies/breathing_false_alarms.py [--model Models/events.bin] [--scenes 40] [--seconds 30]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures"))
import synth  # noqa: E402

HEADER = "class\tfile\tsource_repo\tcommit\toriginal_path\tlicense\tduration_s\tnotes\tgroup"


def write_scenes(folder, count, seconds, seed):
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(count):
        style = synth.BreathStyle(
            inhale_band=(rng.uniform(100, 500), rng.uniform(1200, 3500)),
            exhale_band=(rng.uniform(80, 300), rng.uniform(700, 2000)),
            airflow_rumble=float(rng.choice([0.0, 0.4, 0.7])))
        room = synth.room_tone(rng, seconds, level_db=float(rng.uniform(-62, -54)),
                               fan_hz=float(rng.choice([50.0, 60.0])))
        rate = rng.uniform(10, 18)
        breath, _ = synth.breathing(rng, seconds, lambda t: rate, style, level_db=float(rng.uniform(-66, -56)))
        name = f"breathing_{k:03d}.flac"
        sf.write(os.path.join(folder, name), (room + breath).astype(np.float32), synth.RATE)
        rows.append(f"other\t{name}\tsynthetic\t-\t-\t-\t{seconds}\tsynthetic bedside breathing\tsynthetic{k}")
    with open(os.path.join(folder, "MANIFEST.tsv"), "w") as handle:
        handle.write(HEADER + "\n" + "\n".join(rows) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="Models/events.bin")
    ap.add_argument("--binary", default=".build/release/sleepanalysis")
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="sa-breathing-") as folder:
        write_scenes(folder, args.scenes, args.seconds, args.seed)
        out = subprocess.run([args.binary, "evaluate", "events", "--model", args.model, "--manifest",
                              os.path.join(folder, "MANIFEST.tsv"), "--root", folder, "--format", "json"],
                             check=True, capture_output=True, text=True).stdout
    labels = json.loads(out)["confusion"].get("none", {})
    alarms = {k: v for k, v in sorted(labels.items()) if k != "none"}
    total = sum(labels.values())
    print(json.dumps({"scenes": total, "withEvent": sum(alarms.values()),
                      "falseAlarmRate": round(sum(alarms.values()) / max(total, 1), 3), "byType": alarms}))


if __name__ == "__main__":
    main()
