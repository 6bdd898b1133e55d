"""Shared helpers for shasta's Python tests: names, vector locations, buffer types."""

import array
import hashlib
import mmap
import os
from pathlib import Path

import pytest

import shasta

NAMES = ("sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256")
REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors"


def pyca_dir():
    """pyca's RFC 4231 and RFC 5869 files, copied from Debian's python3-cryptography-vectors."""
    return VECTORS / "pyca"


def read_records(path, last_field):
    """Records of 'Name = value' lines, a record ending at `last_field`."""
    records, current = [], {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("["):
            continue
        if "=" not in line:
            continue
        key, _, value = line.partition("=")
        current[key.strip()] = value.strip()
        if key.strip() == last_field:
            records.append(current)
            current = {}
    return records


def buffer_kinds(data):
    """The same bytes as every buffer type hashlib takes (name, object), NumPy's when installed."""
    kinds = [
        ("bytes", bytes(data)),
        ("bytearray", bytearray(data)),
        ("memoryview", memoryview(data)),
        ("memoryview-slice", memoryview(b"xx" + data + b"yy")[2:2 + len(data)]),
        ("array-B", array.array("B", data)),
    ]
    if len(data) % 4 == 0:
        kinds.append(("array-I", array.array("I", data)))
    if data:
        m = mmap.mmap(-1, len(data))
        m.write(data)
        kinds.append(("mmap", m))
    try:
        import numpy as np
    except ImportError:
        return kinds
    kinds.append(("numpy-uint8", np.frombuffer(data, dtype=np.uint8).copy()))
    if len(data) % 8 == 0 and data:
        kinds.append(("numpy-2d", np.frombuffer(data, dtype=np.uint8).copy().reshape(-1, 8)))
    if len(data) % 4 == 0:
        kinds.append(("numpy-uint32", np.frombuffer(data, dtype=np.uint32).copy()))
    return kinds


def hashlib_new(name, data=b""):
    return hashlib.new(name, data)


def outcome(fn, *args, **kwargs):
    """('ok', value) or ('raise', exception type, message): to compare hashlib's behaviour with shasta's."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - every refusal is compared
        return ("raise", type(e), str(e))


def shape(result):
    """outcome() without the value or message: ('ok',) or ('raise', type)."""
    return result[:1] if result[0] == "ok" else result[:2]
