"""Physics from Python: `vmdkit.bake_physics`, `Model.pose(..., physics=True)` and
`Model.save_world(..., physics=True)` agree with each other and with `vmdkit bake --physics`."""

import numpy as np
import pytest

import vmdkit

MIKU = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"
DANCE = "MMD-Blender__blender_mmd_tools/samples__vmd__test.vmd"
TRACE = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx"


def test_bake_physics_plays_without_physics_as_pose_with_physics(corpus):
    model = vmdkit.Model.read(corpus / MIKU)
    motion = vmdkit.read(corpus / DANCE)
    baked, report = vmdkit.bake_physics(motion, model)
    assert isinstance(baked, vmdkit.Motion)
    assert (report["bodies"], report["joints"], report["frames"]) == (45, 27, 25)
    assert report["steps"] > 0 and report["max_joint_error"] >= 0
    assert report["max_position_error"] < 1e-4
    assert report["reduce"] is None
    hair = [model.bone_index(n) for n in ("左髪２", "右髪６", "ﾈｸﾀｲ２")]
    assert all(b in report["baked_bones"] for b in hair)
    # Every baked bone has a key at every frame 0..=24.
    assert report["keys"] == 25 * len(report["baked_bones"])

    physics, _ = model.pose(motion, None, physics=True)
    played, _ = model.pose(baked, None)
    plain, _ = model.pose(motion, None)
    np.testing.assert_allclose(played, physics, rtol=0, atol=1e-4)
    assert np.abs(physics[:, hair] - plain[:, hair]).max() > 0.1
    # Bones no body moves are where they were without physics.
    others = [b for b in range(len(model)) if b not in report["baked_bones"]]
    body = [model.bone_index(n) for n in ("上半身", "左腕", "右足")]
    assert all(b in others for b in body)
    np.testing.assert_allclose(physics[:, body], plain[:, body], rtol=0, atol=1e-5)
    # Any frames: fractions blend the baked keys.
    some, _ = model.pose(motion, [[3.5, 10.0]], physics=True)
    assert some.shape == (1, 2, len(model), 3)
    np.testing.assert_allclose(some[0, 1], physics[10], rtol=0, atol=1e-6)


def test_save_world_with_physics_is_the_commands_bake(corpus, vmdkit_cli, tmp_path):
    model = vmdkit.Model.read(corpus / MIKU)
    motion = vmdkit.read(corpus / DANCE)
    ours = tmp_path / "ours.npz"
    assert model.save_world(motion, ours, physics=True) == 25
    theirs = tmp_path / "theirs.npz"
    vmdkit_cli("bake", corpus / DANCE, "--fps", 30, "--model", corpus / MIKU, "--physics",
               "-o", theirs)
    with np.load(ours) as a, np.load(theirs) as b:
        np.testing.assert_array_equal(a["positions"], b["positions"])
        np.testing.assert_array_equal(a["rotations"], b["rotations"])
    positions, _ = model.pose(motion, None, physics=True)
    with np.load(ours) as a:
        np.testing.assert_allclose(a["positions"], positions, rtol=0, atol=1e-6)


def test_bake_physics_reduces_checks_its_settings_and_leaves_models_without_bodies(corpus):
    model = vmdkit.Model.read(corpus / MIKU)
    motion = vmdkit.read(corpus / DANCE)
    thin, report = vmdkit.bake_physics(motion, model, reduce=True, max_angle_error=1.0)
    assert report["reduce"]["after"]["bones"] < report["reduce"]["before"]["bones"]
    assert report["reduce"]["errors"]["angle_degrees"] <= 1.0 + 1e-9
    for bad in ({"step": 0.0}, {"step": 1.0}, {"settle": -1.0}, {"reset_distance": 0.0}):
        with pytest.raises(ValueError):
            vmdkit.bake_physics(motion, model, **bad)
    no_bodies = vmdkit.Model.read(corpus / TRACE)
    same, report = vmdkit.bake_physics(motion, no_bodies)
    assert (report["bodies"], report["baked_bones"], report["keys"]) == (0, [], 0)
    assert same.to_bytes() == motion.to_bytes()
