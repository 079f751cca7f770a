"""Cuts the soak's short nights out of the demo night: WAV (16-bit) clips of the given minutes, each from its own
offset, written as OUT_DIR/clip-<minutes>m-<offset>m.wav; prints their paths, one a line.

    python3 Tools/postgres/soak_clips.py Fixtures/night_short.ogg OUT_DIR 2:0 3:4 4:9 5:15
"""

import sys
from pathlib import Path

import soundfile


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    source, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    audio, rate = soundfile.read(source, dtype="int16")
    for spec in sys.argv[3:]:
        minutes, offset = (int(part) for part in spec.split(":"))
        first = offset * 60 * rate
        last = first + minutes * 60 * rate
        if last > len(audio):
            sys.exit(f"{spec}: the source is only {len(audio) / rate / 60:.1f} minutes long")
        path = out_dir / f"clip-{minutes}m-{offset}m.wav"
        soundfile.write(path, audio[first:last], rate, subtype="PCM_16")
        print(path)


if __name__ == "__main__":
    main()
