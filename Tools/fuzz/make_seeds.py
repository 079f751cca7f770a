#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz harnesses, Tools/fuzz/corpus/<harness>/ (run from the repository root).

Small, valid inputs the fuzzer mutates from: audio files in the formats libsndfile reads (written through
libsndfile itself, with ctypes), sensor CSV files, tiny events model files in each layout the loader knows
(perceptron; convolutional front; an ensemble with differing fronts, member types and a cascade gate), the bundled
staging model cut down to four trees per classifier, model store records and ISO 8601 intervals, and a few
inputs each parser must reject. Licence keys are minted with `sleepanalysis license issue` (see README.md), as
they need the fuzzing issuer's signature. The output is deterministic: rerunning rewrites the same bytes.
"""

import ctypes
import ctypes.util
import json
import math
import os
import random
import struct
import sys

ROOT = os.path.join("Tools", "fuzz", "corpus")


def write(harness, name, data):
    """Writes one seed file."""
    folder = os.path.join(ROOT, harness)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))


# --- audio -------------------------------------------------------------------------------------------------

def wav(chunks):
    """A RIFF/WAVE file from (id, body) chunks; the RIFF size is computed."""
    body = b"WAVE"
    for chunk_id, chunk in chunks:
        body += chunk_id + struct.pack("<I", len(chunk)) + chunk + (b"\0" if len(chunk) % 2 else b"")
    return b"RIFF" + struct.pack("<I", len(body)) + body


def fmt(tag, channels, rate, bits):
    """A `fmt ` chunk body."""
    block = channels * bits // 8
    return struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)


def tone(frames, channels, scale):
    """Interleaved integer samples of a short tone."""
    return [int(scale * math.sin(0.3 * i + c)) for i in range(frames) for c in range(channels)]


def sndfile_bytes(path, major, minor, channels, rate, frames):
    """Writes a file through libsndfile's own encoder (FLAC, Ogg Vorbis, AIFF, ...) and returns its bytes."""
    library = ctypes.CDLL(ctypes.util.find_library("sndfile") or "libsndfile.so.1")

    class Info(ctypes.Structure):
        _fields_ = [("frames", ctypes.c_int64), ("samplerate", ctypes.c_int), ("channels", ctypes.c_int),
                    ("format", ctypes.c_int), ("sections", ctypes.c_int), ("seekable", ctypes.c_int)]

    library.sf_open.restype = ctypes.c_void_p
    library.sf_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(Info)]
    library.sf_writef_short.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_short), ctypes.c_int64]
    library.sf_close.argtypes = [ctypes.c_void_p]
    info = Info(0, rate, channels, major | minor, 0, 0)
    handle = library.sf_open(path.encode(), 0x20, ctypes.byref(info))  # SFM_WRITE
    if not handle:
        sys.exit(f"libsndfile cannot write {path}")
    samples = tone(frames, channels, 8000)
    library.sf_writef_short(handle, (ctypes.c_short * len(samples))(*samples), frames)
    library.sf_close(handle)
    with open(path, "rb") as handle:
        data = handle.read()
    os.remove(path)
    return data


def audio_seeds():
    pcm16 = struct.pack("<64h", *tone(64, 1, 12000))
    write("audio", "pcm16_mono.wav", wav([(b"fmt ", fmt(1, 1, 16000, 16)), (b"data", pcm16)]))
    stereo = struct.pack("<64f", *[s / 32768 for s in tone(32, 2, 12000)])
    write("audio", "float32_stereo.wav", wav([(b"fmt ", fmt(3, 2, 48000, 32)), (b"data", stereo)]))
    pcm8 = bytes(128 + s for s in tone(48, 1, 100))
    write("audio", "pcm8_with_list_chunk.wav",
          wav([(b"fmt ", fmt(1, 1, 8000, 8)), (b"LIST", b"INFOINAM\x05\0\0\0night\0"), (b"data", pcm8)]))
    # A recorder that never finalised its header (data size 0xFFFFFFFF) and one cut short (size too large).
    open_ended = wav([(b"fmt ", fmt(1, 1, 16000, 16)), (b"data", pcm16)])
    write("audio", "unfinalised_header.wav", open_ended[:40] + struct.pack("<I", 0xFFFFFFFF) + open_ended[44:])
    # A WAVE file cut off is read for what it holds (the header's length is a warning in a replay's result).
    write("audio", "truncated_data.wav", open_ended[:40] + struct.pack("<I", 4096) + open_ended[44:])
    # Headers that under-state the audio (read to its real end): a WAVE data size of 16 bytes followed by the
    # rest of the audio and a LIST chunk (metadata, not sound), one never finalised (size 0), an AIFF whose SSND
    # chunk and an AU whose data size say less than the file holds.
    listed = wav([(b"fmt ", fmt(1, 1, 16000, 16)), (b"data", pcm16), (b"LIST", b"INFOINAM\x05\0\0\0night\0")])
    write("audio", "understated_with_list.wav", listed[:40] + struct.pack("<I", 16) + listed[44:])
    write("audio", "never_finalised.wav", open_ended[:40] + struct.pack("<I", 0) + open_ended[44:])
    aiff = sndfile_bytes(scratch := os.path.join(ROOT, "audio", ".scratch"), 0x020000, 0x0002, 1, 16000, 64)
    ssnd = aiff.index(b"SSND")
    write("audio", "understated_ssnd.aiff", aiff[:ssnd + 4] + struct.pack(">I", 8 + 20) + aiff[ssnd + 8:])
    au = sndfile_bytes(scratch, 0x030000, 0x0002, 1, 16000, 64)  # AU, PCM_16
    write("audio", "understated.au", au[:8] + struct.pack(">I", 20) + au[12:])
    # A header claiming 2^31 - 1 Hz: refused before a block is allocated for it.
    forged = wav([(b"fmt ", fmt(1, 1, 16000, 16)), (b"data", pcm16)])
    write("audio", "bad_rate_above_768k.wav", forged[:24] + struct.pack("<I", 2**31 - 1) + forged[28:])
    write("audio", "bad_three_channels.wav",
          wav([(b"fmt ", fmt(1, 3, 16000, 16)), (b"data", struct.pack("<48h", *tone(16, 3, 9000)))]))
    flac = sndfile_bytes(scratch, 0x170000, 0x0002, 1, 16000, 400)  # FLAC, PCM_16
    write("audio", "mono.flac", flac)
    # STREAMINFO's 36-bit total-samples field (bytes 21.5-25): under-stated (read to the real end anyway) and 0
    # (unknown, as a stream written to a pipe).
    def with_total(total):
        word = int.from_bytes(flac[18:26], "big") & ~0xFFFFFFFFF | total
        return flac[:18] + word.to_bytes(8, "big") + flac[26:]
    write("audio", "flac_header_understated.flac", with_total(40))
    write("audio", "flac_length_unknown.flac", with_total(0))
    write("audio", "stereo.aiff", sndfile_bytes(scratch, 0x020000, 0x0002, 2, 22050, 40))  # AIFF, PCM_16
    write("audio", "mono.au", sndfile_bytes(scratch, 0x030000, 0x0006, 1, 8000, 40))  # AU, FLOAT
    write("audio", "mono.ogg", sndfile_bytes(scratch, 0x200000, 0x0060, 1, 16000, 800))  # OGG, VORBIS
    opus = sndfile_bytes(scratch, 0x200000, 0x0064, 2, 48000, 2400)  # OGG, OPUS: the single-stream decoder's path
    write("audio", "stereo.opus", opus)
    write("audio", "bad_truncated.opus", opus[: len(opus) * 2 // 3])


# --- sensor CSV --------------------------------------------------------------------------------------------

def sensor_seeds():
    write("sensor-csv", "accelerometer_relative.csv",
          "timestamp,x,y,z\n0.00,0.01,-0.02,0.99\n0.02,0.011,-0.021,0.98\n0.04,1.5e-3,-0.02,1.01\n")
    write("sensor-csv", "accelerometer_ms2_iso.csv",
          "# device: phone\n# units: m/s^2\ntimestamp,x_ms2,y_ms2,z_ms2\n"
          "2026-12-01T22:00:00Z,0.1,0.2,9.81\n2026-12-01 23:00:00.050+01:00,0.1,0.2,9.80\n"
          "2026-12-01T23:00:00.100+0100,0.1,0.2,9.79\n")
    write("sensor-csv", "accelerometer_epoch_crlf_bom.csv",
          "\ufefftimestamp,x_g,y_g,z_g\r\n1796162400.25,0,0,1\r\n\r\n# a comment\r\n1796162400.50,0,0.1,1\r\n")
    write("sensor-csv", "heart_rate.csv", "timestamp,bpm\n0,61\n30,60.5\n60,58\n")
    write("sensor-csv", "activity_counts.csv", "timestamp,activity_count\n2026-12-01T23:00:00-05:00,0\n"
          "2026-12-01T23:00:30-0500,12\n2026-12-01T23:01:00-05,3\n")
    write("sensor-csv", "bad_backwards_and_nan.csv", "timestamp,bpm\n10,60\n5,61\n6,nan\n")
    write("sensor-csv", "bad_units_conflict.csv", "# units: g\ntimestamp,x_ms2,y_ms2,z_ms2\n0,1,2,3\n")
    write("sensor-csv", "bad_no_zone_and_hex.csv", "timestamp,activity_count\n2026-12-01T23:00:00,0x1p3\n")
    # Local times (read in Europe/Stockholm by the one-night pass), and the hour skipped in spring there.
    write("sensor-csv", "accelerometer_local_times.csv", "timestamp,x,y,z\n" + "".join(
        f"2026-12-01 {hour:02d}:{minute:02d}:00,0,0,1\n" for hour in (22, 23) for minute in (0, 30)))
    write("sensor-csv", "bad_skipped_local_hour.csv", "timestamp,x,y,z\n2026-03-29 02:30:00,0,0,1\n")
    write("sensor-csv", "accelerometer_duplicate_rows.csv",
          "timestamp,x,y,z\n0.0,0,0,1\n0.0,0,0,1\n0.1,0,0,1\n0.1,0,0,1\n0.1,0,0,1\n")
    write("sensor-csv", "accelerometer_month_apart.csv", "timestamp,x,y,z\n0.0,0,0,1\n0.1,0,0,1\n2592000.0,0,0,1\n")


# --- events model ------------------------------------------------------------------------------------------

def events_model(version, header, tensors):
    """An events model file: magic, version, JSON header with tensor table and checksum, float32 payload."""
    payload = b"".join(struct.pack(f"<{len(values)}f", *values) for _, _, values in tensors)
    checksum = 0xCBF29CE484222325
    for byte in payload:
        checksum = ((checksum ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    header = dict(header, tensors=[{"name": name, "shape": shape} for name, shape, _ in tensors],
                  payloadBytes=len(payload), payloadFNV1a64=f"{checksum:016x}")
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    return b"SAEVTMDL" + struct.pack("<II", version, len(text)) + text + payload


def events_seeds():
    rng = random.Random(23)

    def values(count, positive=False):
        return [round(rng.uniform(0.5, 1.5) if positive else rng.uniform(-1, 1), 4) for _ in range(count)]

    classes, features, hidden, signature = ["none", "snoring", "coughing"], 3, [4], 2
    base = {
        "name": "events", "activation": "relu", "output": "softmax", "featureVersion": 1, "classes": classes,
        "featureCount": features, "windowFrames": 4, "windowHopFrames": 2, "logFloor": -18.0, "hidden": hidden,
        "onThreshold": {"snoring": 0.5, "coughing": 0.4}, "offThreshold": {"snoring": 0.3, "coughing": 0.24},
        "minDurationSeconds": 0.5, "minDurationSecondsByType": {"coughing": 0.25}, "mergeGapSeconds": 1.0,
        "signatureDim": signature,
    }

    def dense(prefix, inputs):
        sizes = [inputs] + hidden + [len(classes)]
        layers = []
        for layer in range(len(sizes) - 1):
            layers.append((f"{prefix}dense{layer}.weight", [sizes[layer + 1], sizes[layer]],
                           values(sizes[layer + 1] * sizes[layer])))
            layers.append((f"{prefix}dense{layer}.bias", [sizes[layer + 1]], values(sizes[layer + 1])))
        return layers

    def common():
        return [("featureMean", [features], values(features)), ("featureStd", [features], values(features, True)),
                ("signatureMean", [features], values(features)),
                ("signatureProjection", [signature, features], values(signature * features)),
                ("referenceInput", [features], values(features)),
                ("referenceOutput", [len(classes)], values(len(classes), True))]

    write("events-model", "perceptron_v1.bin", events_model(1, base, common() + dense("", features)))

    over_time = {"melBands": 4, "bandGroup": 2, "frameGroup": 2, "channels": [2]}
    band_time = {"melBands": 4, "bandGroup": 1, "frameGroup": 2, "channels": [2, 3], "bandTime": True}
    front = [("referenceLogMel", [4, 4], values(16)), ("patchMean", [2], values(2)),
             ("patchStd", [2], values(2, True)), ("conv0.weight", [2, 2, 3], values(12)),
             ("conv0.bias", [2], values(2))]
    write("events-model", "convolution_v2.bin",
          events_model(2, dict(base, convolution=over_time), common() + front + dense("", 2 * 2 + features)))

    second = [("member1.patchMean", [4], values(4)), ("member1.patchStd", [4], values(4, True)),
              ("member1.conv0.weight", [2, 1, 3, 3], values(18)), ("member1.conv0.bias", [2], values(2)),
              ("member1.conv1.weight", [3, 2, 3, 3], values(54)), ("member1.conv1.bias", [3], values(3))]
    ensemble = dict(base, convolution=over_time, members=2, memberConvolutions=[over_time, band_time],
                    memberTypes={"snoring": [0, 1]}, cascadeGate=0.2)
    write("events-model", "ensemble_v2.bin",
          events_model(2, ensemble, common() + front + dense("", 2 * 2 + features) + second
                       + dense("member1.", 2 * 3 + features)))
    write("events-model", "bad_magic.bin", b"SAEVTMDX" + struct.pack("<II", 1, 2) + b"{}")


# --- staging model -----------------------------------------------------------------------------------------

def staging_seeds():
    with open(os.path.join("Models", "staging.json")) as handle:
        model = json.load(handle)
    for variant in model["variants"]:
        variant["trees"]["trees"] = variant["trees"]["trees"][:4]
    write("staging-model", "staging_four_trees.json", json.dumps(model, separators=(",", ":")))
    leaf_only = json.loads(json.dumps(model))
    for variant in leaf_only["variants"]:
        variant["trees"]["trees"] = [{"feature": [], "threshold": [], "left": [], "right": [], "defaultLeft": [],
                                      "missingType": [], "leaf": [0.1 * k]} for k in range(4)]
    write("staging-model", "staging_leaf_only.json", json.dumps(leaf_only, indent=1))
    write("staging-model", "bad_format.json", '{"format":"sleepanalysis-staging-0","variants":[]}')


# --- model store records, intervals --------------------------------------------------------------------------

def record_seeds():
    entry = {"name": "events", "version": "2026.11", "file": "events-2026.11.bin", "size": 685718,
             "sha256": "9d477d8499d4fa42" * 4}
    staging = dict(entry, name="staging", file="staging.json", size=1490106)
    write("model-manifest", "manifest.json", json.dumps([entry, staging], indent=2))
    write("model-manifest", "installed.json", json.dumps(
        {"libraryVersion": "1.0.0", "baseURL": "https://models.example.com/v1/", "models": [entry]}, indent=2))
    write("model-manifest", "bad_path_entry.json", json.dumps([dict(entry, file="../events.bin", size=-1)]))


def interval_seeds():
    for index, text in enumerate([
        "2026-12-01T06:30:00+01:00/2026-12-01T07:00:00+01:00", "2026-12-01T06:30Z/07:00Z",
        "2026-12-01T06:30:00Z/PT30M", "PT30M/2026-12-01T07:00:00Z", "2026-03-29 02:30/P1DT2H",
        "P1Y2M3W/2026-12-01T07:00:00.250-05:00", "2026-10-25T02:30:00,5/PT1,5H",
    ]):
        write("iso8601-interval", f"interval_{index}.txt", text)
    write("iso8601-interval", "bad_time_only_start.txt", "06:30/07:00")
    write("iso8601-interval", "bad_fractional_years.txt", "2026-12-01T06:30Z/P1.5Y")


# --- the night service's router and chunk intake --------------------------------------------------------------

def night_service_seeds():
    session = "/v1/sessions/6B7D8220-16DF-40F7-A411-C2721AB07C12"
    pcm16 = struct.pack("<64h", *tone(64, 1, 12000))
    chunk = wav([(b"fmt ", fmt(1, 1, 16000, 16)), (b"data", pcm16)])
    write("night-service", "put_audio_wav.bin", f"PUT {session}/audio/0\n".encode() + chunk)
    scratch = os.path.join(ROOT, "night-service", ".scratch")
    flac = sndfile_bytes(scratch, 0x170000, 0x0002, 1, 16000, 400)
    write("night-service", "put_audio_flac.bin", f"PUT {session}/audio/17\n".encode() + flac)
    write("night-service", "put_accelerometer.csv", f"PUT {session}/accelerometer/1\ntimestamp,x,y,z\n0.1,0,0,1\n")
    write("night-service", "put_heart_rate.csv", f"PUT {session}/heart-rate/0\n# bpm\ntimestamp,bpm\n0,61\n")
    write("night-service", "post_sessions.txt", 'POST /v1/sessions\n{"userId": "ana", "startTime": "2026-12-01T23:00Z"}')
    write("night-service", "get_nights.txt", "GET /v1/users/ana%20b%2Fc/nights?from=2026-12-01T00%3A00Z&to=+\n")
    write("night-service", "delete_user.txt", "DELETE /v1/users/x\n")
    write("night-service", "head_result.txt", f"HEAD {session}/result\n")
    write("night-service", "bad_unknown_path.txt", "GET /v1/sessions\n")
    write("night-service", "bad_escape.txt", "GET /v1/users/%zz/nights\n")
    write("night-service", "bad_not_audio.bin", f"PUT {session}/audio/0\nRIFF....WAVEfmt ")
    # A WAV cut off after 16 bytes of data: taken, and read for what it holds (with a warning).
    write("night-service", "truncated_wav.bin", f"PUT {session}/audio/1\n".encode() + chunk[:60])
    write("night-service", "bad_csv_nul.bin", f"PUT {session}/heart-rate/0\n".encode() + b"0,6\x001\n")


def main():
    night_service_seeds()
    audio_seeds()
    sensor_seeds()
    events_seeds()
    staging_seeds()
    record_seeds()
    interval_seeds()


if __name__ == "__main__":
    main()
