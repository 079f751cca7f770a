"""The events model file: magic, version, JSON header, float32 tensors. Read by EventClassifierModel.swift."""
import json
import struct

import numpy as np

MAGIC = b"SAEVTMDL"
# Version 1: dense layers over the pooled statistics. Version 2: a convolutional front ("convolution" in the
# header) whose summary joins the statistics.


def version_of(header):
    return 2 if "convolution" in header else 1


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def fnv1a64_fast(data):
    """Same as fnv1a64, vectorised in chunks only over Python ints (payloads are a few hundred KB)."""
    return fnv1a64(data)


def write(path, header, tensors):
    """tensors: list of (name, array). The header gets the tensor table and the payload checksum."""
    payload = b"".join(np.ascontiguousarray(a, dtype="<f4").tobytes() for _, a in tensors)
    header = dict(header)
    header["tensors"] = [{"name": n, "shape": list(np.shape(a))} for n, a in tensors]
    header["payloadBytes"] = len(payload)
    header["payloadFNV1a64"] = f"{fnv1a64_fast(payload):016x}"
    blob = json.dumps(header, sort_keys=True).encode()
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<II", version_of(header), len(blob)))
        f.write(blob)
        f.write(payload)


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == MAGIC
    version, n = struct.unpack("<II", data[8:16])
    header = json.loads(data[16:16 + n])
    payload = data[16 + n:]
    tensors, off = {}, 0
    for t in header["tensors"]:
        count = int(np.prod(t["shape"])) if t["shape"] else 1
        tensors[t["name"]] = np.frombuffer(payload, "<f4", count, off).reshape(t["shape"])
        off += 4 * count
    return header, tensors
