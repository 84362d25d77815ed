"""Speed of the Python package beside other Python VMD readers and beside the Rust bake.

    python crates/vmdkit-py/bench/read_bench.py [--repeat N] [--cli PATH] [--large-mb MB]

Run from the repository root with the package installed (scripts/python-tests.sh or
`maturin develop --release`) and, for the peers, `pip install pypmxvmd==2.7.2
mmd-bone-tools==1.0.0`; a peer that cannot be imported is reported as missing.

Reading, side by side in this one process, on the largest corpus dance (MANIFEST.tsv, by bytes)
and on a motion of about `--large-mb` MB made in a temporary folder by `vmdkit shift` and
`vmdkit merge` (the dance's keys repeated later and later; deleted afterwards):

* numpy floor: the file memory-mapped, the bone count, the 111-byte bone records viewed as a
  structured dtype (`np.frombuffer`), and frame, position and rotation copied out into their
  own arrays: what any reader that produces those arrays must at least do.
* vmdkit: `vmdkit.read(path)`, then `motion.bones.frame`, `.position` and `.rotation` when the
  Motion has them (their absence is reported: the timing is then of the read alone).
* pypmxvmd 2.7.2 `load_vmd(path)` and mmd-bone-tools 1.0.0 `read_vmd(bytes)`: their objects,
  and then the same three arrays built from them.

Posing: `Model.pose(motion, None)` (every frame at 30 fps) against the Rust bake, in-process
(`--rust-bake-ms miku=MS --rust-bake-ms semi_standard=MS`, the `bake_dance/vmdkit/pose_at/*`
times of `cargo bench -p vmdkit --bench posing -- bake_dance/vmdkit`, which pose the same
pairs) and end to end (read the model and the motion, pose, write an NPZ) against the release
`vmdkit bake --model` command, timed the same way.

Times are the best of `--repeat` runs (wall clock, `time.perf_counter`).
"""

import argparse
import csv
import gc
import json
import mmap
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import vmdkit

ROOT = Path(__file__).resolve().parents[3]
CORPUS = Path(os.environ.get("VMDKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
# The dances posed: the first two are crates/vmdkit/benches/posing.rs's `bake_dance` pairs
# ("miku", "semi_standard"), the labels `--rust-bake-ms` takes.
WAVEFILE = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd"
TRACE = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx"
POSE_CASES = [
    ("miku", "wavefile_v2.vmd on 初音ミク.pmx", WAVEFILE,
     "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"),
    ("semi_standard", "wavefile_v2.vmd on the trace model", WAVEFILE, TRACE),
    ("longest", "サンプルモーション2.vmd on the trace model",
     "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd", TRACE),
]

BONE_RECORD = np.dtype(
    [
        ("name", "S15"),
        ("frame", "<u4"),
        ("position", "<f4", (3,)),
        ("rotation", "<f4", (4,)),
        ("interpolation", "u1", (64,)),
    ]
)
assert BONE_RECORD.itemsize == 111


def timed(fn, repeat):
    """The times of `repeat` runs of `fn`, in seconds, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        result = None
        gc.collect()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def best(fn, repeat):
    """The fastest of `repeat` runs of `fn`, in seconds, and its last result."""
    times, result = timed(fn, repeat)
    return min(times), result


def numpy_floor(path):
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        # Version 2 header: 30-byte signature and a 20-byte model name, then the bone count.
        count = int.from_bytes(data[50:54], "little")
        records = np.frombuffer(data, BONE_RECORD, count=count, offset=54)
        out = (
            np.ascontiguousarray(records["frame"]),
            np.ascontiguousarray(records["position"]),
            np.ascontiguousarray(records["rotation"]),
        )
        del records  # the map cannot close while an array views it
    return out


def vmdkit_read(path):
    motion = vmdkit.read(path)
    bones = getattr(motion, "bones", None)
    if bones is None or not hasattr(bones, "frame"):
        return motion, None
    return motion, (np.asarray(bones.frame), np.asarray(bones.position),
                    np.asarray(bones.rotation))


def pypmxvmd_read(path, arrays):
    import pypmxvmd

    motion = pypmxvmd.load_vmd(str(path))
    if not arrays:
        return motion
    keys = motion.bone_frames
    # pypmxvmd gives rotations as Euler angles in degrees (three numbers), as it stores them.
    return peer_arrays(keys, (k.frame_number for k in keys), (len(keys), -1))


def bone_tools_read(path, arrays):
    from mmd_bone_tools.vmd import read_vmd

    motion = read_vmd(Path(path).read_bytes())
    if not arrays:
        return motion
    keys = motion.bones
    return peer_arrays(keys, (k.frame for k in keys), (-1, 4))


def peer_arrays(keys, frames, rotation_shape):
    """The frame, position and rotation arrays built from a peer's objects, one per key, as a
    user of that reader would build them."""
    return (
        np.fromiter(frames, np.uint32, count=len(keys)),
        np.array([k.position for k in keys], np.float32).reshape(-1, 3),
        np.array([k.rotation for k in keys], np.float32).reshape(rotation_shape),
    )


def available(module):
    try:
        __import__(module)
        return True
    except ImportError as err:
        print(f"note: {module} cannot be imported ({err}); its rows are left out")
        return False


def largest_dance():
    with open(CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t")
                if r["kind"] == "vmd" and r["parse_ok"] == "yes"]
    return CORPUS / max(rows, key=lambda r: int(r["bytes"]))["local_path"]


def make_large(cli, dance, folder, megabytes):
    """A motion of about `megabytes` MB: the dance, then copies shifted past each other's end."""
    copies = max(2, round(megabytes * 1e6 / dance.stat().st_size))
    info = subprocess.run([cli, "info", "--json", dance], check=True, capture_output=True,
                          text=True).stdout
    last = json.loads(info)["frame_range"][1]
    parts = []
    for k in range(copies):
        part = folder / f"part{k}.vmd"
        subprocess.run([cli, "shift", dance, part, "--frames", str(k * (last + 1))],
                       check=True, capture_output=True)
        parts.append(part)
    out = folder / "large.vmd"
    subprocess.run([cli, "merge", *parts, "-o", out], check=True, capture_output=True)
    for part in parts:
        part.unlink()
    return out


def read_table(path, repeat, peers):
    """Rows of (reader, seconds to objects, seconds to arrays, bone keys)."""
    rows = []
    t, (frames, _, _) = best(lambda: numpy_floor(path), repeat)
    keys = len(frames)
    rows.append(("numpy frombuffer (floor)", None, t, keys))
    t, (motion, arrays) = best(lambda: vmdkit_read(path), repeat)
    if arrays is None:
        rows.append(("vmdkit.read (Motion has no bone arrays yet)", t, None, None))
    else:
        assert len(arrays[0]) == keys
        rows.append(("vmdkit.read + bones.frame/position/rotation", None, t, keys))
    del motion, arrays
    for label, fn in peers:
        t_obj, motion = best(lambda: fn(path, False), repeat)
        del motion
        t_arr, arrays = best(lambda: fn(path, True), repeat)
        assert len(arrays[0]) == keys, (label, len(arrays[0]), keys)
        rows.append((label, t_obj, t_arr, keys))
        del arrays
    return rows


def print_read(title, path, rows):
    size = path.stat().st_size
    print(f"\n### {title}: {path.name}, {size / 1e6:.1f} MB, {rows[0][3]:,} bone keys\n")
    print("| reader | to its objects | to frame/position/rotation arrays | arrays vs numpy floor |")
    print("|---|---:|---:|---:|")
    floor = rows[0][2]
    for label, t_obj, t_arr, _ in rows:
        obj = f"{t_obj * 1e3:,.1f} ms" if t_obj is not None else "–"
        arr = f"{t_arr * 1e3:,.1f} ms" if t_arr is not None else "–"
        ratio = f"{t_arr / floor:,.1f}×" if t_arr is not None else "–"
        print(f"| {label} | {obj} | {arr} | {ratio} |")


def pose_rows(cli, repeat, rust_ms, folder):
    print("\n### Posing a whole dance (every frame at 30 fps, IK on)\n")
    print("| dance and model | frames × bones | Python `Model.pose`, best (median) | in-process "
          "Rust bake | ratio | Python read + pose + `np.savez` | `vmdkit bake --model` "
          "(release) | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for key, label, dance, model_path in POSE_CASES:
        dance, model_path = CORPUS / dance, CORPUS / model_path
        model, motion = vmdkit.Model.read(model_path), vmdkit.read(dance)
        times, (positions, _) = timed(lambda: model.pose(motion, None), repeat)
        t_pose, t_median = min(times), sorted(times)[len(times) // 2]
        out = folder / "bake.npz"

        def python_bake():
            m, mo = vmdkit.Model.read(model_path), vmdkit.read(dance)
            p, r = m.pose(mo, None)
            np.savez(out, positions=p, rotations=r, names=np.array(m.bone_names),
                     parents=m.parents)

        t_py, _ = best(python_bake, repeat)
        t_cli, _ = best(lambda: subprocess.run(
            [cli, "bake", dance, "--fps", "30", "--model", model_path, "-o", out],
            check=True, capture_output=True), repeat)
        f, b = positions.shape[:2]
        rust = rust_ms.get(key)
        rust_cells = (f"{rust:.1f} ms | {t_pose * 1e3 / rust:.2f}" if rust else "– | –")
        print(f"| {label} | {f} × {b} | {t_pose * 1e3:.1f} ms ({t_median * 1e3:.1f} ms) | "
              f"{rust_cells} | {t_py * 1e3:.1f} ms | {t_cli * 1e3:.1f} ms | "
              f"{t_py / t_cli:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--large-repeat", type=int, default=2)
    parser.add_argument("--large-mb", type=float, default=200.0)
    parser.add_argument("--cli", default=os.environ.get("VMDKIT_CLI"),
                        help="the release vmdkit binary (default: target/release/vmdkit)")
    parser.add_argument("--rust-bake-ms", action="append", default=[], metavar="LABEL=MS",
                        help="criterion's bake_dance/vmdkit/pose_at/LABEL time (LABEL: miku or "
                             "semi_standard) to compare Model.pose with")
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    cli = args.cli or str(target / "release" / "vmdkit")
    if not Path(cli).exists():
        sys.exit(f"no vmdkit binary at {cli}: cargo build --release -p vmdkit-cli, or --cli")
    rust_ms = dict(item.rsplit("=", 1) for item in args.rust_bake_ms)
    rust_ms = {k: float(v) for k, v in rust_ms.items()}

    peers = []
    if available("pypmxvmd"):
        peers.append(("pypmxvmd 2.7.2 load_vmd", pypmxvmd_read))
    if available("mmd_bone_tools"):
        peers.append(("mmd-bone-tools 1.0.0 read_vmd", bone_tools_read))
    print(f"vmdkit {vmdkit.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}")

    dance = largest_dance()
    print_read("Largest corpus dance", dance, read_table(dance, args.repeat, peers))
    folder = Path(tempfile.mkdtemp(prefix="vmdkit-bench-"))
    try:
        if not args.skip_large:
            large = make_large(cli, dance, folder, args.large_mb)
            print_read("Large motion", large, read_table(large, args.large_repeat, peers))
            large.unlink()
        pose_rows(cli, args.repeat, rust_ms, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
