#!/usr/bin/env python3
"""Writes small PMX 2.0 models into the folder given, as seeds for the fuzz targets that read
models (`bvh_export`, `gltf_textures`): made here from the format's layout, never from other
people's files. Each has a triangle mesh, one material whose texture, sphere map and toon name
files (inside the folder, beside it, absolute, through either slash) and a bone hierarchy that
is sound, points a parent forward, or closes a cycle."""
import os
import struct
import sys


def text(s):
    data = s.encode("utf-16-le")
    return struct.pack("<i", len(data)) + data


def f32(*values):
    return struct.pack("<%df" % len(values), *values)


def pmx(name, textures, bones):
    """`bones`: (name, parent index, position); the tail points at the next bone."""
    out = b"PMX " + f32(2.0)
    # UTF-16, no extra UVs, and 1-byte vertex, 1-byte texture, material, bone, morph, body indices.
    out += bytes([8, 0, 0, 1, 1, 1, 1, 1, 1])
    out += text(name) + text(name) + text("seed") + text("seed")
    vertices = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    out += struct.pack("<i", len(vertices))
    for i, (x, y, z) in enumerate(vertices):
        out += f32(x, y, z, 0, 0, -1, x, y) + bytes([0]) + struct.pack("<b", i % len(bones)) + f32(1)
    out += struct.pack("<i", 3) + bytes([0, 1, 2])
    out += struct.pack("<i", len(textures)) + b"".join(text(t) for t in textures)
    out += struct.pack("<i", 1)
    out += text("mat") + text("mat") + f32(1, 1, 1, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5)
    out += bytes([0]) + f32(0, 0, 0, 1, 1)
    sphere = 1 if len(textures) > 1 else -1
    toon = 2 if len(textures) > 2 else -1
    # Texture, sphere (mode 1: multiply), then a toon of the model's own (sharing flag 0).
    out += struct.pack("<bbBBb", 0 if textures else -1, sphere, 1, 0, toon)
    out += text("") + struct.pack("<i", 3)
    out += struct.pack("<i", len(bones))
    for i, (bone, parent, pos) in enumerate(bones):
        out += text(bone) + text(bone) + f32(*pos) + struct.pack("<bi", parent, 0)
        # Flags: the tail is a bone (0x0001), rotatable, movable, visible, enabled.
        out += struct.pack("<H", 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010)
        out += struct.pack("<b", (i + 1) % len(bones))
    # No morphs, display frames, rigid bodies or joints.
    out += struct.pack("<iiii", 0, 0, 0, 0)
    return out


def main(folder):
    chain = [("センター", -1, (0, 8, 0)), ("上半身", 0, (0, 10, 0)), ("首", 1, (0, 15, 0)),
             ("頭", 2, (0, 16, 0))]
    models = {
        "gen-sound.pmx": pmx("sound", ["tex.png", "sph.png", "toon.png"], chain),
        "gen-escape.pmx": pmx("escape", ["../secret.png", "..\\..\\secret.png", "/etc/passwd"], chain),
        # 上半身 hangs from 頭, listed after it: a forward parent without a cycle.
        "gen-forward.pmx": pmx("forward", ["sub/tex.jpg"], [(n, [-1, 3, 1, -1][i], q)
                                                             for i, (n, _, q) in enumerate(chain)]),
        "gen-cycle.pmx": pmx("cycle", [], [(n, (i + 1) % 4, q) for i, (n, _, q) in enumerate(chain)]),
        "gen-self.pmx": pmx("self", ["link.png", "inside-link.png", "pipe.png"], [(n, i, q) for i, (n, _, q) in enumerate(chain)]),
    }
    for name, data in models.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
