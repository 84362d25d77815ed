"""A reference reader of sound VMD files in NumPy alone, to check vmdkit's arrays against.

It follows the layout of the format (header, then six counted sections of fixed-size records,
the property records variable) and nothing else: no repairs, no decoding of names.
"""

import struct

import numpy as np

BONE = np.dtype(
    [
        ("name", "u1", 15),
        ("frame", "<u4"),
        ("position", "<f4", 3),
        ("rotation", "<f4", 4),
        ("interpolation", "u1", 64),
    ]
)
MORPH = np.dtype([("name", "u1", 15), ("frame", "<u4"), ("weight", "<f4")])
CAMERA = np.dtype(
    [
        ("frame", "<u4"),
        ("distance", "<f4"),
        ("target", "<f4", 3),
        ("rotation", "<f4", 3),
        ("interpolation", "u1", 24),
        ("view_angle", "<u4"),
        ("perspective", "u1"),
    ]
)
LIGHT = np.dtype([("frame", "<u4"), ("color", "<f4", 3), ("direction", "<f4", 3)])
SHADOW = np.dtype([("frame", "<u4"), ("mode", "u1"), ("distance", "<f4")])


def name_bytes(field) -> bytes:
    """A name field's bytes up to the NUL."""
    raw = bytes(field)
    return raw.split(b"\0", 1)[0]


def parse(data: bytes) -> dict:
    """The records of every section present, as structured arrays (property: a list)."""
    v1 = data[:30].startswith(b"Vocaloid Motion Data file")
    at = 30 + (10 if v1 else 20)
    out: dict = {"model_name": name_bytes(data[30:at])}
    for key, dtype in (
        ("bone", BONE),
        ("morph", MORPH),
        ("camera", CAMERA),
        ("light", LIGHT),
        ("self_shadow", SHADOW),
    ):
        if at + 4 > len(data):
            out[key] = np.zeros(0, dtype)
            continue
        (count,) = struct.unpack_from("<I", data, at)
        at += 4
        out[key] = np.frombuffer(data, dtype, count, at)
        at += count * dtype.itemsize
    props = []
    if at + 4 <= len(data):
        (count,) = struct.unpack_from("<I", data, at)
        at += 4
        for _ in range(count):
            frame, visible, n = struct.unpack_from("<IBI", data, at)
            at += 9
            ik = []
            for _ in range(n):
                ik.append((name_bytes(data[at : at + 20]), data[at + 20]))
                at += 21
            props.append((frame, visible, ik))
    out["property"] = props
    return out
