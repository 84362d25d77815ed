"""VMD -> BVH read by an independent reader: bvhio's world positions of every joint of a BVH
that `vmdkit convert` wrote agree with `vmdkit pose` of the same motion on the same model
(right-handed: z negated; --metres: 0.08 m per unit)."""

import json

import bvhio
import pytest

MIKU = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"
TRACE = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx"
DANCE = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd"

# As the Rust test of vmdkit's own reader asks (measured: at most 1.4e-5 units, bvhio computing
# in single precision with PyGLM).
TOLERANCE = 1e-4


def poses(vmdkit_cli, dance, model, frame):
    """vmdkit's pose at `frame` (30 fps): bone name -> position, MMD axes and units."""
    doc = json.loads(vmdkit_cli("pose", dance, "--model", model, "--frame", frame, "--json"))
    return {b["name"]: b["position"] for b in doc["bones"]}


@pytest.mark.parametrize("model_path", [TRACE, MIKU])
@pytest.mark.parametrize("metres", [False, True])
def test_bvhio_reads_the_pose_vmdkit_plays(corpus, vmdkit_cli, tmp_path, model_path, metres):
    model, dance = corpus / model_path, corpus / DANCE
    out = tmp_path / "dance.bvh"
    # One frame a second keeps bvhio's pure-Python posing quick: 247 frames.
    args = ["convert", dance, out, "--model", model, "--fps", "1"]
    vmdkit_cli(*(args + ["--metres"] if metres else args))
    scale = 0.08 if metres else 1.0

    bvh = bvhio.readAsBvh(str(out))
    assert bvh.FrameCount == 247
    assert abs(bvh.FrameTime - 1.0) < 1e-9
    hierarchy = bvhio.readAsHierarchy(str(out))
    joints = [j for j, _, _ in hierarchy.layout()]
    worst = 0.0
    compared = 0
    for second in [0, 1, 17, 60, 100, 180, 246]:
        expected = poses(vmdkit_cli, dance, model, second * 30)
        hierarchy.loadPose(second)
        for joint in joints:
            if joint.Name not in expected:
                continue  # the shared root, and End Sites
            x, y, z = expected[joint.Name]
            p = joint.PositionWorld
            err = max(abs(p.x - x * scale), abs(p.y - y * scale), abs(p.z + z * scale)) / scale
            worst = max(worst, err)
            compared += 1
    print(f"{model_path} metres={metres}: {compared} joint positions, worst {worst:.2e} units")
    assert compared >= 7 * 100
    assert worst < TOLERANCE
