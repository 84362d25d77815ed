"""vmdkit.batch on a local Ray with two CPUs: 1,000 generated motions and damaged files give
the same results as a serial run, damaged files are error rows, and a rerun skips everything
finished."""

import importlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import vmdkit
from vmdkit import batch

COUNT = 1000


def _generate(folder: Path) -> list:
    """COUNT small motions of a few bones and a morph (seeded), in two subfolders with
    clashing names, plus three damaged files."""
    rng = np.random.default_rng(7)
    names = ["センター", "上半身", "右腕", "左腕", "頭"]
    for i in range(COUNT):
        n = int(rng.integers(2, 40))
        rotation = rng.normal(size=(n, 4)).astype(np.float32)
        rotation /= np.linalg.norm(rotation, axis=1, keepdims=True)
        motion = vmdkit.Motion.from_arrays(
            model_name="batch",
            bones={
                "frame": np.sort(rng.integers(0, 300, n)).astype(np.uint32),
                "names": names,
                "name_index": rng.integers(0, len(names), n).astype(np.uint32),
                "position": rng.normal(size=(n, 3)).astype(np.float32),
                "rotation": rotation,
            },
            morphs={
                "frame": np.array([0, 30], dtype=np.uint32),
                "names": ["あ"],
                "name_index": np.array([0, 0], dtype=np.uint32),
                "weight": np.array([0.0, float(rng.random())], dtype=np.float32),
            },
        )
        sub = folder / ("a" if i % 2 else "b")
        sub.mkdir(exist_ok=True)
        vmdkit.write(motion, sub / f"m{i // 2:04d}.vmd")
    good = (folder / "a" / "m0000.vmd").read_bytes()
    (folder / "damaged").mkdir()
    (folder / "damaged" / "cut.vmd").write_bytes(good[:70])
    (folder / "damaged" / "text.vmd").write_bytes(b"not a motion at all")
    (folder / "damaged" / "count.vmd").write_bytes(good[:50] + b"\xff\xff\xff\xff")
    return batch.find_motions(folder)


def _outputs(folder: Path) -> dict:
    pq = importlib.import_module("pyarrow.parquet")
    out = {}
    for p in sorted(folder.rglob("*.parquet")):
        out[str(p.relative_to(folder))] = pq.read_table(p)
    return out


@pytest.fixture(scope="module")
def ray_local():
    ray = importlib.import_module("ray")  # a missing Ray fails the test, it does not skip
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_matches_serial_and_reruns_skip(tmp_path, ray_local):
    inputs = tmp_path / "in"
    inputs.mkdir()
    paths = _generate(inputs)
    assert len(paths) == COUNT + 3

    start = time.monotonic()
    parallel = batch.convert(inputs, tmp_path / "ray", use_ray=True)
    elapsed = time.monotonic() - start
    serial = batch.convert(inputs, tmp_path / "serial", use_ray=False)
    print(f"{len(paths)} files on Ray (2 CPUs) in {elapsed:.1f} s")
    assert elapsed < 120, f"{elapsed:.1f} s"

    assert [r["path"] for r in parallel] == paths
    strip = lambda rows: [{k: v for k, v in r.items() if k != "output"} for r in rows]
    assert strip(parallel) == strip(serial)
    errors = [r for r in parallel if r["status"] == "error"]
    assert sorted(Path(r["path"]).name for r in errors) == ["count.vmd", "cut.vmd", "text.vmd"]
    assert all(r["error_type"] == "ReadError" and r["message"] for r in errors), errors
    assert sum(r["status"] == "ok" for r in parallel) == COUNT
    # Same-named files of the two subfolders keep apart.
    assert (tmp_path / "ray" / "a" / "m0000.bone.parquet").exists()
    assert (tmp_path / "ray" / "b" / "m0000.bone.parquet").exists()

    ray_tables, serial_tables = _outputs(tmp_path / "ray"), _outputs(tmp_path / "serial")
    assert len(ray_tables) == 2 * COUNT
    assert ray_tables.keys() == serial_tables.keys()
    for name, table in ray_tables.items():
        other = serial_tables[name]
        assert table.drop(["path"]).equals(other.drop(["path"])), name
        assert table.column("path") == other.column("path")

    # The tables hold the motion's keys.
    first = next(r for r in parallel if r["status"] == "ok")
    motion = vmdkit.read(first["path"])
    table = ray_tables[str(Path(first["output"]).relative_to(tmp_path / "ray"))]
    assert np.array_equal(table.column("frame").to_numpy(), motion.bones.frame)

    again = batch.convert(inputs, tmp_path / "ray", use_ray=True)
    assert [r["status"] for r in again if r["status"] != "error"] == ["skipped"] * COUNT


def test_world_joints_equal_model_pose(tmp_path, corpus):
    dance = corpus / "takahirox__mmd-viewer-js" / "vmd__wavefile_v2.vmd"
    model = corpus / "MMD-Blender__blender_mmd_tools" / "samples__pmx__初音ミク.pmx"
    rows = batch.convert([dance], tmp_path, kind="world", model=model, fps=10, use_ray=False)
    assert rows[0]["status"] == "ok", rows
    saved = np.load(rows[0]["output"])
    positions, rotations = vmdkit.Model.read(model).pose(vmdkit.read(dance), None, fps=10)
    assert np.array_equal(saved["positions"], positions)
    assert np.array_equal(saved["rotations"], rotations)
    assert saved["frames"][1] == 3.0
    assert list(saved["names"]) == vmdkit.Model.read(model).bone_names
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_every_world_npz_writer_has_the_clis_layout(tmp_path, corpus, vmdkit_cli):
    # Issue 27: batch.convert wrote `bone_names` and no fps, units, axes or scale, while
    # `vmdkit bake --model … -o x.npz` wrote `names` and all of them. One layout
    # (docs/world-npz.md) from the CLI, Model.save_world and the batch.
    dance = corpus / "takahirox__mmd-viewer-js" / "vmd__wavefile_v2.vmd"
    model = corpus / "MMD-Blender__blender_mmd_tools" / "samples__pmx__初音ミク.pmx"
    cli = tmp_path / "cli.npz"
    vmdkit_cli("bake", dance, "--fps", 10, "--model", model, "-o", cli)
    python = tmp_path / "python.npz"
    samples = vmdkit.Model.read(model).save_world(vmdkit.read(dance), python, fps=10)
    with pytest.raises(FileNotFoundError):
        vmdkit.Model.read(model).save_world(vmdkit.read(dance), tmp_path / "no" / "x.npz")
    rows = batch.convert([dance], tmp_path / "batch", kind="world", model=model, fps=10,
                         use_ray=False)
    assert rows[0]["status"] == "ok", rows
    metadata = ("fps", "scale", "units", "axes")
    with np.load(cli) as expected:
        assert sorted(expected.files) == sorted(
            ["positions", "rotations", "names", "parents", "fps", "frames", *metadata[1:]])
        assert expected["positions"].shape[0] == samples
        for other in (python, rows[0]["output"]):
            with np.load(other) as got:
                assert sorted(got.files) == sorted(expected.files), other
                for key in expected.files:
                    assert got[key].dtype == expected[key].dtype, (other, key)
                    np.testing.assert_array_equal(got[key], expected[key], err_msg=key)
        assert [expected[k].item() for k in metadata] == [10.0, 1.0, "mmd_units",
                                                          "mmd_left_handed_y_up"]


_QUIET_RUN = """
import sys, vmdkit
from vmdkit import batch
m = vmdkit.Motion.from_arrays(
    morphs={"frame": [0], "names": ["a"], "name_index": [0], "weight": [1.0]})
vmdkit.write(m, "in/a.vmd")
rows = batch.convert("in", "out", use_ray=True, overwrite=True,
                     verbose=sys.argv[1] == "verbose")
print(rows[0]["status"], rows[0]["output"])
"""


def test_a_ray_batch_is_quiet_unless_verbose(tmp_path):
    # Issue 27: a first Ray batch printed about 24 lines of Ray's INFO logs and a token
    # warning. A Ray the batch starts is quiet by default; verbose=True brings its logs back.
    # (Also: a relative folder, as a new user types it, once failed to mirror its outputs.)
    (tmp_path / "in").mkdir()
    runs = {}
    for mode in ("quiet", "verbose"):
        runs[mode] = subprocess.run([sys.executable, "-c", _QUIET_RUN, mode], cwd=tmp_path,
                                    capture_output=True, text=True, timeout=300)
        assert runs[mode].returncode == 0, runs[mode].stderr
        assert runs[mode].stdout.split()[0] == "ok", runs[mode].stdout
    assert runs["quiet"].stderr == ""
    assert "Ray" in runs["verbose"].stderr, runs["verbose"].stderr
    assert (tmp_path / "out" / "a.bone.parquet").exists()


def test_bad_kind_is_an_error(tmp_path):
    with pytest.raises(ValueError):
        batch.convert([], tmp_path, kind="pictures", use_ray=False)


def test_vmd_entries_that_are_not_files_are_error_rows(tmp_path):
    inputs = tmp_path / "in"
    inputs.mkdir()
    motion = vmdkit.Motion.from_arrays(
        morphs={"frame": [0], "names": ["a"], "name_index": [0], "weight": [1.0]})
    vmdkit.write(motion, inputs / "good.vmd")
    (inputs / "dangling.vmd").symlink_to(inputs / "gone.vmd")
    os.mkfifo(inputs / "pipe.vmd")
    (inputs / "folder.vmd").mkdir()
    rows = {Path(r["path"]).name: r for r in batch.convert(inputs, tmp_path / "out",
                                                            use_ray=False)}
    assert sorted(rows) == ["dangling.vmd", "folder.vmd", "good.vmd", "pipe.vmd"]
    assert rows["good.vmd"]["status"] == "ok"
    expected = {
        "dangling.vmd": ("FileNotFoundError", "symbolic link to .*gone.vmd, which does not"),
        "folder.vmd": ("IsADirectoryError", "a folder, not a motion file"),
        "pipe.vmd": ("OSError", "a FIFO, not a motion file"),
    }
    for name, (error_type, message) in expected.items():
        row = rows[name]
        assert row["status"] == "error" and row["error_type"] == error_type, row
        assert re.search(message, row["message"]) and name in row["message"], row
