#!/usr/bin/env python3
"""Helpers of night-service-load.sh (Python's standard library only).

usage: night_service_load.py chunks DIR MINUTES       writes DIR/NNNN.wav: MINUTES of 16-kHz mono 16-bit audio
                                                      (breathing-like noise bursts) in 30-second WAV chunks
       night_service_load.py report TIMES_FILE CLIENTS CHUNKS
                                                      reads "status seconds" lines (one per chunk upload) and
                                                      prints the count by status and p50/p90/p99/max latency
"""
import math
import os
import random
import struct
import sys
import wave

RATE = 16_000


def chunks(directory: str, minutes: int) -> int:
    os.makedirs(directory, exist_ok=True)
    generator = random.Random(7)
    count = minutes * 2
    for index in range(count):
        frames = bytearray()
        for n in range(30 * RATE):
            t = (index * 30 * RATE + n) / RATE
            breath = 0.5 + 0.5 * math.sin(2 * math.pi * t / 4.0)
            sample = generator.gauss(0, 0.02 + 0.05 * breath)
            frames += struct.pack("<h", max(-32768, min(32767, int(sample * 32767))))
        with wave.open(os.path.join(directory, f"{index:04d}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(bytes(frames))
    return count


def report(path: str, clients: int, per_client: int) -> int:
    statuses = {}
    times = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            parts = line.split()
            if len(parts) != 2:
                continue
            statuses[parts[0]] = statuses.get(parts[0], 0) + 1
            times.append(float(parts[1]))
    times.sort()

    def quantile(q: float) -> float:
        return times[min(len(times) - 1, int(math.ceil(q * len(times))) - 1)] * 1000 if times else float("nan")

    expected = clients * per_client
    print(f"chunk uploads: {len(times)} of {expected}; by status: "
          + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
    print(f"chunk latency: p50 {quantile(0.5):.0f} ms, p90 {quantile(0.9):.0f} ms, p99 {quantile(0.99):.0f} ms, "
          f"max {quantile(1.0):.0f} ms")
    return 0 if statuses.get("201", 0) == expected else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "chunks":
        print(chunks(sys.argv[2], int(sys.argv[3])))
        sys.exit(0)
    if len(sys.argv) == 5 and sys.argv[1] == "report":
        sys.exit(report(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
