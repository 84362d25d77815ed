"""Edits: each returns a new Motion with its report, and leaves the original alone."""

import numpy as np
import pytest

import vmdkit

DANCE = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd"
CAMERA = "hashi4__vmdgadgets/sample__lookat__sm33053472__jewel_camera.vmd"


@pytest.fixture(scope="module")
def dance(corpus):
    return vmdkit.read(corpus / DANCE)


@pytest.fixture(scope="module")
def camera(corpus):
    return vmdkit.read(corpus / CAMERA)


def test_mirror_twice_is_the_original(dance):
    before = dance.to_bytes()
    mirrored = dance.mirror()
    assert isinstance(mirrored, vmdkit.Motion) and mirrored.to_bytes() != before
    report = mirrored.report
    assert ("右腕", "左腕") in [tuple(p) for p in report["swapped"]]
    assert set(report) == {"swapped", "unsided", "not_swapped"}
    assert mirrored.mirror().to_bytes() == before
    assert dance.to_bytes() == before and dance.report is None
    # X translations are negated.
    assert np.array_equal(mirrored.bones.position[:, 0], -dance.bones.position[:, 0])


def test_shift_and_trim(dance):
    shifted = dance.shift(30)
    assert np.array_equal(shifted.bones.frame, dance.bones.frame + 30)
    assert shifted.report == {"frames": 30}
    trimmed = dance.trim(100, 400)
    lo, hi = trimmed.frame_range
    assert 100 <= lo and hi <= 400
    assert set(trimmed.report) >= {"inserted", "dropped", "split_curves", "max_curve_bound"}
    frames = np.arange(100, 401, 7, dtype=float)
    p0, r0 = dance.sample(frames)
    p1, r1 = trimmed.sample(frames, bones=dance.bone_names_raw)
    assert np.abs(p0 - p1).max() < 0.05
    assert np.abs(np.abs((r0 * r1).sum(axis=-1)) - 1).max() < 1e-3


def test_retime(dance):
    slow = dance.retime(2.0)
    assert slow.frame_range[1] == 2 * dance.frame_range[1]
    report = slow.report
    assert report["factor"] == 2.0
    assert report["before"]["bones"] == len(dance.bones)
    assert report["errors"]["position"] <= 0.05
    assert report["errors"]["angle_degrees"] <= 0.5


def test_merge_a_dance_and_its_camera(dance, camera):
    merged = dance.merge(camera)
    assert len(merged.bones) == len(dance.bones) and len(merged.camera) == len(camera.camera)
    assert merged.model_name == dance.model_name
    collisions = merged.report["collisions"]
    assert len(collisions) == 2 and collisions[1]["camera"] == 0
    assert merged.report["model_name"] == dance.model_name
    with pytest.raises(TypeError):
        dance.merge("not a motion")


def test_rename_and_filter(dance):
    renamed = dance.rename(bones={"センター": "center", "ない骨": "x"})
    assert "center" in renamed.bone_names and "センター" not in renamed.bone_names
    entry = next(r for r in renamed.report["renamed"] if r["old"] == "センター")
    assert entry["new"] == "center" and entry["keys"] > 0 and entry["shortened"] is None
    assert ("bone", "ない骨") in [tuple(u) for u in renamed.report["unused"]]

    legs = dance.filter(["*足*"])
    assert legs.bone_names and all("足" in n for n in legs.bone_names)
    assert legs.report["dropped_keys"] == len(dance.bones) + len(dance.morphs) - len(
        legs.bones
    ) - len(legs.morphs)
    rest = dance.filter(["*足*"], drop=True)
    assert not any("足" in n for n in rest.bone_names)
    assert len(rest.bones) + len(legs.bones) == len(dance.bones)


def test_scale(dance, camera):
    big = dance.scale(2.0)
    assert np.array_equal(big.bones.position, dance.bones.position * np.float32(2))
    assert np.array_equal(big.bones.rotation, dance.bones.rotation)
    cam = camera.scale(0.5, camera=False)
    assert np.array_equal(cam.camera.target, camera.camera.target)
    with pytest.raises(ValueError):
        dance.scale(float("inf"))


def test_reduce_a_dense_motion():
    frames = np.arange(0, 300, dtype=np.uint32)
    t = frames / 300.0
    position = np.stack([np.sin(t * 6), t * 4, np.zeros_like(t)], axis=1).astype(np.float32)
    half = t * np.pi / 4
    rotation = np.stack([np.zeros_like(t), np.sin(half), np.zeros_like(t), np.cos(half)], 1)
    dense = vmdkit.Motion.from_arrays(
        bones={"frame": frames, "name_index": np.zeros(300, np.uint32), "names": ["センター"],
               "position": position, "rotation": rotation.astype(np.float32)}
    )
    small, report = dense.reduce(position=0.01, angle_degrees=0.1)
    assert isinstance(small, vmdkit.Motion) and small.report == report
    assert report["before"]["bones"] == 300 and report["after"]["bones"] < 60
    assert report["errors"]["position"] <= 0.01 and report["errors"]["angle_degrees"] <= 0.1
    p0, _ = dense.sample(frames)
    p1, _ = small.sample(frames)
    assert np.abs(p0 - p1).max() <= 0.01 + 1e-6
    baseline, _ = dense.reduce(method="baseline", threads=1)
    assert len(baseline.bones) < 300
    fast, fast_report = dense.reduce(position=0.01, angle_degrees=0.1, method="fast")
    assert len(fast.bones) < 300 and fast_report["errors"]["position"] <= 0.01
    assert np.abs(p0 - fast.sample(frames)[0]).max() <= 0.01 + 1e-6
