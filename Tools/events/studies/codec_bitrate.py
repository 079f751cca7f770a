#!/usr/bin/env python3
"""Bit rate and level of the Opus copies (`sleepanalysis ... --band-limit opus`) over the clips that
`bandlimited_recall.py` scores: each clip (padded as there) encoded to Ogg Opus by the system's libsndfile, the library
the package links, with the package's setting (16 kHz mono, compression level for a 12-kbit/s target, as
`AudioFileWriter.Format.opusCompressionLevel` computes it), and decoded by it again (the package's own Opus decoder
gives libsndfile's samples: `OggOpusDecoderTests`).

    python3 Tools/events/studies/codec_bitrate.py --folds-dir DIR --root /

Prints the per-clip file bit rate (Ogg pages and Opus headers included), the total over all clips, the bit rate of all
clips joined into one stream (the codec's own rate, without the per-file overhead), the coding modes of that stream's
packets (from each packet's TOC byte, RFC 6716 section 3.1) and the level change."""
import argparse
import ctypes
import ctypes.util
import json
import os
import sys
import tempfile

import numpy as np

TARGET_BITS_PER_SECOND = 12_000  # EventBandLimit.opusBitsPerSecond
SAMPLE_RATE = 16_000
SF_FORMAT_OGG, SF_FORMAT_OPUS = 0x200000, 0x0064
SFM_READ, SFM_WRITE = 0x10, 0x20
SFC_SET_COMPRESSION_LEVEL = 0x1301


class SF_INFO(ctypes.Structure):
    _fields_ = [("frames", ctypes.c_int64), ("samplerate", ctypes.c_int), ("channels", ctypes.c_int),
                ("format", ctypes.c_int), ("sections", ctypes.c_int), ("seekable", ctypes.c_int)]


def library():
    """The system's libsndfile, opened before `soundfile` (imported by eventdata) can load its bundled copy."""
    lib = ctypes.CDLL(ctypes.util.find_library("sndfile"))
    lib.sf_open.restype = ctypes.c_void_p
    lib.sf_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(SF_INFO)]
    lib.sf_command.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    lib.sf_writef_float.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    lib.sf_writef_float.restype = ctypes.c_int64
    lib.sf_readf_float.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    lib.sf_readf_float.restype = ctypes.c_int64
    lib.sf_close.argtypes = [ctypes.c_void_p]
    lib.sf_version_string.restype = ctypes.c_char_p
    return lib


LIB = library()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import eventdata as ed  # noqa: E402


def round_trip(lib, x, path):
    """`x` through an Ogg Opus file at `path` and back: (decoded samples, file bytes)."""
    info = SF_INFO(samplerate=SAMPLE_RATE, channels=1, format=SF_FORMAT_OGG | SF_FORMAT_OPUS)
    handle = lib.sf_open(path.encode(), SFM_WRITE, ctypes.byref(info))
    if not handle:
        raise OSError(f"{path}: libsndfile cannot write Ogg Opus")
    level = ctypes.c_double(1 - (TARGET_BITS_PER_SECOND - 6_000 + 0.5) / 250_000)
    if lib.sf_command(handle, SFC_SET_COMPRESSION_LEVEL, ctypes.byref(level), ctypes.sizeof(level)) != 1:
        raise OSError("libsndfile did not take the compression level")
    x = np.ascontiguousarray(x, dtype=np.float32)
    if lib.sf_writef_float(handle, x.ctypes.data, len(x)) != len(x):
        raise OSError(f"{path}: short write")
    lib.sf_close(handle)
    size = os.path.getsize(path)
    info = SF_INFO()
    handle = lib.sf_open(path.encode(), SFM_READ, ctypes.byref(info))
    y = np.zeros(info.frames, dtype=np.float32)
    got = lib.sf_readf_float(handle, y.ctypes.data, len(y))
    lib.sf_close(handle)
    return y[:got], size


def packet_modes(path):
    """How many audio packets of the Ogg Opus file at `path` use each mode and bandwidth (RFC 6716, 3.1)."""
    data = open(path, "rb").read()
    modes = {}
    position, page = 0, 0
    while position < len(data):
        if data[position:position + 4] != b"OggS":
            raise ValueError(f"{path}: no Ogg page at byte {position}")
        lacing = data[position + 27: position + 27 + data[position + 26]]
        offset, packet = position + 27 + len(lacing), b""
        for length in lacing:
            packet += data[offset: offset + length]
            offset += length
            if length < 255:
                if page >= 2 and packet:  # pages 0 and 1: OpusHead, OpusTags
                    config = packet[0] >> 3
                    if config < 12:
                        name = "SILK " + ("narrowband", "mediumband", "wideband")[config // 4]
                    elif config < 16:
                        name = "hybrid " + ("super-wideband", "fullband")[(config - 12) // 2]
                    else:
                        name = "CELT " + ("narrowband", "wideband", "super-wideband", "fullband")[(config - 16) // 4]
                    modes[name] = modes.get(name, 0) + 1
                packet = b""
        position, page = offset, page + 1
    return modes


def main():
    assert ed.SAMPLE_RATE == SAMPLE_RATE
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds-dir", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--types", default="snoring,talking,coughing")
    args = ap.parse_args()
    types = args.types.split(",")
    lib = LIB
    clips = []
    k = 0
    while os.path.exists(os.path.join(args.folds_dir, f"fold{k}.tsv")):
        clips += [ed.pad_short(ed.load_clip(args.root, r)) for r in ed.read_manifest(
            os.path.join(args.folds_dir, f"fold{k}.tsv")) if r["class"] in types and not ed.is_narrowband(r)]
        k += 1
    rates, levels, bits, seconds = [], [], 0.0, 0.0
    with tempfile.TemporaryDirectory(prefix="sa-codec-bitrate-") as tmp:
        path = os.path.join(tmp, "copy.opus")
        for x in clips:
            y, size = round_trip(lib, x, path)
            duration = len(x) / ed.SAMPLE_RATE
            rates.append(size * 8 / duration)
            bits += size * 8
            seconds += duration
            n = min(len(x), len(y))
            levels.append(10 * np.log10(max(np.mean(y[:n] ** 2), 1e-20) / max(np.mean(x[:n] ** 2), 1e-20)))
        _, size = round_trip(lib, np.concatenate(clips), path)
        modes = packet_modes(path)
    print(json.dumps({
        "libsndfile": lib.sf_version_string().decode(), "clips": len(clips), "seconds": round(seconds, 1),
        "perClipKbps": {q: round(float(np.percentile(rates, p)) / 1000, 2)
                        for q, p in (("p10", 10), ("median", 50), ("p90", 90))},
        "allClipsKbps": round(bits / seconds / 1000, 2), "oneStreamKbps": round(size * 8 / seconds / 1000, 2),
        "oneStreamPackets": modes,
        "levelChangeDb": {q: round(float(np.percentile(levels, p)), 2) for q, p in (("p5", 5), ("median", 50),
                                                                                     ("p95", 95))}}))


if __name__ == "__main__":
    main()
