"""Labelled clips from extracted Debian packages (run by import-debian-sounds.sh, which downloads and extracts them).

For every sound file of a package that a row of the label list matches (rows in order, the first match decides;
class `-` leaves the file out), the file is decoded, mixed to mono, resampled to 16 kHz, cut into 10-s segments
(a file of up to 15 s stays whole; of a longer file at most `max_segments` segments, spread evenly over it, and
no segment more than 20 dB under the file's loudest) and written as FLAC. A file whose loudest 10 s stay under
-40 dBFS RMS (ambience beds the games mix in quietly) is raised to -30 dBFS first, so that a labelled clip is not
as faint as the room-tone scenes that teach "no event"; the gain is in the manifest's notes. The manifest has the layout of
../shared/data/audio/MANIFEST.tsv; the licence of each file is the one its package's debian/copyright gives it
(machine-readable format: the last `Files:` stanza whose pattern matches the file's path in the source package);
one source file (track, call or loop) is one group."""
import argparse
import csv
import fnmatch
import hashlib
import os
import sys
import zipfile

import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "events"))
from eventdata import SAMPLE_RATE as RATE, read_mono  # noqa: E402  (one decoder for training and import)
SEGMENT_SECONDS = 10.0
WHOLE_UP_TO_SECONDS = 15.0
QUIET_BELOW_LOUDEST_DB = 20.0
FAINT_FILE_DBFS = -40.0
RAISED_TO_DBFS = -30.0
MANIFEST_FIELDS = ["class", "file", "source_repo", "commit", "original_path", "license", "duration_s", "notes",
                   "group"]
# Kept aside to audit figures: never imported, whatever a label list says.
FORBIDDEN_PACKAGE_PREFIXES = ("widelands", "wesnoth")


def read_tsv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def copyright_stanzas(path):
    """(file patterns, licence) of each `Files:` stanza of a machine-readable debian/copyright, in order."""
    stanzas, fields, key = [], {}, None
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in list(handle) + ["\n"]:
            if not line.strip():
                if "files" in fields and "license" in fields:
                    stanzas.append((fields["files"].split(), fields["license"].splitlines()[0].strip()))
                fields, key = {}, None
            elif line[0] in " \t":
                if key:
                    fields[key] += "\n" + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                key = key.strip().lower()
                fields[key] = value.strip()
    return stanzas


def licence_of(stanzas, source_path):
    found = None
    for patterns, licence in stanzas:
        if any(fnmatch.fnmatchcase(source_path, p) for p in patterns):
            found = licence
    if found is None:
        raise SystemExit(f"no licence in debian/copyright for {source_path}")
    return found


def sha256_prefix(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def loudest_dbfs(audio):
    step = int(SEGMENT_SECONDS * RATE)
    return max(rms_dbfs(audio[k:k + step]) for k in range(0, max(len(audio) - step, 0) + 1, step))


def raised(audio):
    """The audio and the gain (dB) applied: faint files are raised to RAISED_TO_DBFS (peaks kept under full scale)."""
    level = loudest_dbfs(audio)
    if level >= FAINT_FILE_DBFS:
        return audio, 0.0
    gain = min(RAISED_TO_DBFS - level, -20 * np.log10(np.max(np.abs(audio)) + 1e-12) - 1.0)
    return (audio * 10 ** (gain / 20)).astype(np.float32), gain


def segments(audio, max_segments):
    """(start s, samples) of the clips cut from one file."""
    if len(audio) <= WHOLE_UP_TO_SECONDS * RATE:
        return [(0.0, audio)]
    step = int(SEGMENT_SECONDS * RATE)
    count = len(audio) // step
    levels = [rms_dbfs(audio[k * step:(k + 1) * step]) for k in range(count)]
    loud = [k for k in range(count) if levels[k] >= max(levels) - QUIET_BELOW_LOUDEST_DB]
    if len(loud) > max_segments:
        loud = [loud[int(i)] for i in np.linspace(0, len(loud) - 1, max_segments).round()]
    return [(k * SEGMENT_SECONDS, audio[k * step:(k + 1) * step]) for k in loud]


def rms_dbfs(x):
    return 20 * np.log10(np.sqrt(np.mean(np.square(x, dtype=np.float64))) + 1e-12)


def package_files(extract, package):
    """(path relative to the sound root, how to open it) of every sound file of an extracted package."""
    root = os.path.join(extract, package["package"], package["sound_root"])
    if package["archive"]:
        archive = zipfile.ZipFile(os.path.join(root, package["archive"]))
        return [(name, ("zip", archive, name)) for name in archive.namelist()
                if name.lower().endswith((".ogg", ".wav", ".flac"))]
    out = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.lower().endswith((".ogg", ".wav", ".flac")):
                path = os.path.join(folder, name)
                out.append((os.path.relpath(path, root), ("file", path)))
    return sorted(out)


def open_audio(handle, scratch):
    if handle[0] == "file":
        return read_mono(handle[1])
    _, archive, name = handle
    path = os.path.join(scratch, os.path.basename(name))
    with archive.open(name) as src, open(path, "wb") as dst:
        dst.write(src.read())
    try:
        return read_mono(path)
    finally:
        os.remove(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", required=True, help="label list (package, pattern, class, max_segments, note)")
    ap.add_argument("--packages", required=True, help="package layout (package, sound_root, source_prefix, archive)")
    ap.add_argument("--extract", required=True, help="folder with one extracted tree per package")
    ap.add_argument("--debs", required=True, help="folder with the downloaded .deb files")
    ap.add_argument("--out", required=True, help="output folder (clips and MANIFEST.tsv)")
    args = ap.parse_args()
    labels = read_tsv(args.labels)
    packages = {p["package"]: p for p in read_tsv(args.packages)}
    for name in set(packages) | {row["package"] for row in labels}:
        if name.startswith(FORBIDDEN_PACKAGE_PREFIXES):
            raise SystemExit(f"{name} is kept aside for audits: it must not be imported")
    scratch = os.path.join(args.out, ".scratch")
    os.makedirs(scratch, exist_ok=True)
    manifest = []
    for name, package in packages.items():
        deb = next(f for f in sorted(os.listdir(args.debs)) if f.startswith(name + "_") and f.endswith(".deb"))
        version = deb.split("_")[1]
        source_repo, commit = f"debian:{name}={version}", "deb-sha256:" + sha256_prefix(os.path.join(args.debs, deb))
        stanzas = copyright_stanzas(os.path.join(args.extract, name, "usr/share/doc", name, "copyright"))
        rules = [row for row in labels if row["package"] == name]
        used = set()
        for relative, handle in package_files(args.extract, package):
            rule_index = next((i for i, r in enumerate(rules) if fnmatch.fnmatchcase(relative, r["pattern"])), None)
            if rule_index is None or rules[rule_index]["class"] == "-":
                continue
            rule = rules[rule_index]
            used.add(rule_index)
            audio, gain = raised(open_audio(handle, scratch))
            licence = licence_of(stanzas, package["source_prefix"] + relative)
            installed = os.path.join(package["sound_root"], package["archive"]) + ":" + relative \
                if package["archive"] else os.path.join(package["sound_root"], relative)
            stem = os.path.splitext(relative)[0].replace("/", "_")
            pieces = segments(audio, int(rule["max_segments"]))
            for start, clip in pieces:
                file = f"{rule['class']}/{name}/{stem}_{int(start):04d}.flac"
                os.makedirs(os.path.join(args.out, os.path.dirname(file)), exist_ok=True)
                sf.write(os.path.join(args.out, file), clip, RATE, format="FLAC", subtype="PCM_16")
                note = f"{rule['note']}; {start:.0f}-{start + len(clip) / RATE:.0f} s of {len(audio) / RATE:.1f} s"
                if gain:
                    note += f"; raised {gain:.1f} dB"
                manifest.append({"class": rule["class"], "file": file, "source_repo": source_repo,
                                 "commit": commit, "original_path": installed, "license": licence,
                                 "duration_s": f"{len(clip) / RATE:.2f}", "notes": note,
                                 "group": f"deb-{name}:{relative}"})
        unused = [rules[i]["pattern"] for i in range(len(rules)) if i not in used and rules[i]["class"] != "-"]
        if unused:
            raise SystemExit(f"{name}: label patterns that match no file: {unused}")
    os.rmdir(scratch)
    with open(os.path.join(args.out, "MANIFEST.tsv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, MANIFEST_FIELDS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(manifest)
    counts = {}
    for row in manifest:
        counts.setdefault(row["class"], [0, set()])
        counts[row["class"]][0] += 1
        counts[row["class"]][1].add(row["group"])
    for cls, (clips, groups) in sorted(counts.items()):
        print(f"{cls}\t{clips} clips\t{len(groups)} groups", file=sys.stderr)


if __name__ == "__main__":
    main()
