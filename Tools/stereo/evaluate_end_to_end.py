#!/usr/bin/env python3
"""End-to-end two-sleeper figure: composed scenes through `sleepanalysis analyze --stereo` (the SDK's
multi-channel path with the shipped events model), detected events matched to the ground truth.

For each scene (`scene_*.wav` + `scene_*.json` from compose_scenes.py) it runs
    sleepanalysis analyze SCENE --stereo --preset P --format json --quiet --start 2026-01-01T00:00:00Z
and, per true event, looks for detected events (any type) overlapping it in each sleeper's result:
owner only (right), the other sleeper only (wrong), both, or neither (missed). Events that began before both
sessions were running are left out (a session started after the replay began does not see them). Detected
events overlapping no true event are counted as spurious.

Usage:
    python3 Tools/stereo/evaluate_end_to_end.py --cli .build/release/sleepanalysis --scenes /tmp/stereo_scenes \
        [--preset bedSideMics centeredMicArray detectionStrengthOnly] [--json]
"""

import argparse
import datetime
import glob
import json
import os
import subprocess
import sys
import tempfile

START = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def seconds(stamp):
    return (datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")) - START).total_seconds()


def analyse(cli, scene, preset, storage):
    command = [cli, "analyze", scene, "--stereo", "--preset", preset, "--format", "json", "--quiet",
               "--start", "2026-01-01T00:00:00Z", "--storage", storage]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def evaluate(cli, scenes, preset):
    counts = {"primary": 0, "secondary": 0, "both": 0, "neither": 0}
    rows = {owner: dict(counts) for owner in ("primary", "secondary")}
    skipped = spurious = total = 0
    with tempfile.TemporaryDirectory() as storage:
        for wav in scenes:
            truth = json.load(open(wav[:-4] + ".json"))
            report = analyse(cli, wav, preset, storage)
            detected = {}
            begins = []
            for channel in ("primary", "secondary"):
                result = report[channel]
                begins.append(seconds(result["startTime"]))
                detected[channel] = [
                    (seconds(e["interval"]["start"]), seconds(e["interval"]["start"]) + e["interval"]["duration"])
                    for e in result["events"] if e.get("source") == "audio"]
            first = max(begins)
            used = {channel: set() for channel in detected}
            for event in truth["events"]:
                if event["start"] < first:
                    skipped += 1
                    continue
                total += 1
                hit = {}
                for channel, spans in detected.items():
                    matches = [i for i, (s, e) in enumerate(spans) if s < event["end"] and e > event["start"]]
                    used[channel].update(matches)
                    hit[channel] = bool(matches)
                outcome = ("both" if hit["primary"] and hit["secondary"] else "primary" if hit["primary"]
                           else "secondary" if hit["secondary"] else "neither")
                rows[event["owner"]][outcome] += 1
            for channel, spans in detected.items():
                spurious += sum(1 for i, (s, e) in enumerate(spans) if i not in used[channel] and s >= first)
    found = total - sum(rows[o]["neither"] for o in rows)
    right = rows["primary"]["primary"] + rows["secondary"]["secondary"]
    wrong = rows["primary"]["secondary"] + rows["secondary"]["primary"]
    both = rows["primary"]["both"] + rows["secondary"]["both"]
    return {
        "preset": preset, "scenes": len(scenes), "events": total, "skippedBeforeBothSessions": skipped,
        "detected": found, "detectionRate": found / total if total else 0,
        "rightSleeperOnly": right / found if found else 0, "bothSleepers": both / found if found else 0,
        "wrongSleeperOnly": wrong / found if found else 0,
        "accuracyWhenOneSleeper": right / (right + wrong) if right + wrong else 0,
        "spuriousEvents": spurious, "confusion": rows,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=".build/release/sleepanalysis")
    parser.add_argument("--scenes", required=True)
    parser.add_argument("--preset", nargs="+", default=["bedSideMics", "centeredMicArray", "detectionStrengthOnly"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    reports = []
    for geometry in sorted(os.listdir(args.scenes)):
        scenes = sorted(glob.glob(os.path.join(args.scenes, geometry, "scene_*.wav")))
        if not scenes:
            continue
        for preset in args.preset:
            report = evaluate(args.cli, scenes, preset)
            report["geometry"] = geometry
            reports.append(report)
            if not args.json:
                print(f"{preset} on {geometry}: {report['events']} events ({report['skippedBeforeBothSessions']} "
                      f"before both sessions), detected {report['detectionRate']:.1%}; of detected: right sleeper "
                      f"{report['rightSleeperOnly']:.1%}, both {report['bothSleepers']:.1%}, wrong "
                      f"{report['wrongSleeperOnly']:.1%}; accuracy when one sleeper "
                      f"{report['accuracyWhenOneSleeper']:.1%}; spurious {report['spuriousEvents']}", flush=True)
    if args.json:
        json.dump({"reports": reports}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
