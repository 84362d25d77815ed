#!/usr/bin/env python3
"""Writes NPY and NPZ seeds for the `npy` fuzz target into the folder given: the structured
cases that broke readers before (zero-size dtypes under huge shapes, double-quoted headers
whose shapes overflow, members that inflate a thousandfold, archives of many names) beside
sound arrays of each dtype and order. Made here from the format's layout, never from other
people's files."""
import io
import os
import struct
import sys
import zipfile


def npy(header_dict, payload=b"", version=1):
    header = header_dict
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    if version == 1:
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload
    return b"\x93NUMPY\x02\x00" + struct.pack("<I", len(header)) + header.encode() + payload


def npz(members, method=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()


def main(out):
    sound = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 3), }",
                struct.pack("<18f", *range(18)))
    files = {
        "sound.npy": sound,
        "f8-2d.npy": npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                         struct.pack("<6d", *range(6))),
        "big-endian.npy": npy("{'descr': '>f4', 'fortran_order': False, 'shape': (1, 2, 3), }",
                              struct.pack(">6f", *range(6))),
        "fortran.npy": npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 1, 3), }",
                           struct.pack("<6f", *range(6))),
        "four.npy": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 4), }",
                        struct.pack("<8f", 1, 2, 3, .9, 4, 5, 6, .1)),
        "v2.npy": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 3), }",
                      struct.pack("<3f", 1, 2, 3), version=2),
        "s0-huge.npy": npy("{'descr': '|S0', 'fortran_order': False, 'shape': (4611686018427387904, 17, 3), }"),
        "v0-huge.npy": npy("{'descr': '|V0', 'fortran_order': False, 'shape': (1000000000000, 17, 3), }"),
        "u0-huge.npy": npy("{'descr': '<U0', 'fortran_order': False, 'shape': (99999999999, 3), }"),
        "dquote.npy": npy('{"descr": "<f4", "fortran_order": False, "shape": (6148914691236517206, 17, 3), }',
                          struct.pack("<3f", 1, 2, 3)),
        "spaces.npy": npy("{ 'shape' : ( 1 , 1 , 3 ) , 'fortran_order':False,'descr':'<f4'}",
                          struct.pack("<3f", 1, 2, 3)),
        "stored.npz": npz([("positions.npy", sound)]),
        "deflated.npz": npz([("keypoints.npy", sound)], zipfile.ZIP_DEFLATED),
        # 48 KiB of zeros under a small shape's header: inflates far beyond its compressed size.
        "inflating.npz": npz([("positions.npy", npy(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1024, 4, 3), }",
            bytes(1024 * 4 * 3 * 4)))], zipfile.ZIP_DEFLATED),
        "many-names.npz": npz([("m%05d.npy" % i, b"") for i in range(500)] + [("positions.npy", sound)]),
    }
    for name, data in files.items():
        with open(os.path.join(out, "gen-" + name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
