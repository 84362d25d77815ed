"""Sampling: the same values as `vmdkit sample --json` prints, to the last f32 bit."""

import json
import subprocess

import numpy as np
import pytest

import vmdkit

# Dances with bones, morphs and properties, camera motions, and the largest file.
FILES = [
    "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd",
    "mmdagent-ex__MMDAgent-EX/Release__AppData__motion__32_frustrated.vmd",
    "hashi4__vmdgadgets/sample__lookat__sm33053472__jewel_camera.vmd",
    "olyutorskii__Vmd2XML/src__test__resources__testdata__vmd110820__camera__camera.vmd",
    "MMD-Blender__blender_mmd_tools/samples__vmd__test.vmd",
]


def cli_sample(cli, path, frame):
    out = subprocess.run(
        [str(cli), "sample", str(path), "--frame", repr(frame), "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def frames_of(motion):
    last = (motion.frame_range or (0, 0))[1]
    return [0.0, 0.5, 7.25, 100 / 3, last / 2 + 0.125, float(last), last + 10.0]


def f32(values):
    return np.asarray(values, dtype=np.float32)


@pytest.fixture(scope="module")
def motions(corpus, largest_dance):
    paths = [corpus / f for f in FILES] + [largest_dance]
    return [(p, vmdkit.read(p)) for p in paths]


def test_bones_morphs_and_camera_equal_the_cli(cli, motions):
    compared = 0
    for path, motion in motions:
        frames = frames_of(motion)
        positions, rotations = motion.sample(frames)
        weights = motion.sample_morphs(frames)
        camera = motion.sample_camera(frames)
        for i, t in enumerate(frames):
            doc = cli_sample(cli, path, t)
            bones = list(doc["bones"].values())
            assert len(bones) == positions.shape[1] == len(motion.bone_names)
            for b, value in enumerate(bones):
                assert np.array_equal(positions[i, b], f32(value["translation"])), (path, t, b)
                assert np.array_equal(rotations[i, b], f32(value["rotation"])), (path, t, b)
            assert np.array_equal(weights[i], f32(list(doc["morphs"].values()))), (path, t)
            if doc["camera"] is None:
                assert camera is None
            else:
                for key in ("target", "distance", "rotation", "fov", "eye", "forward", "up"):
                    assert np.array_equal(camera[key][i], f32(doc["camera"][key])), (path, key)
                assert camera["perspective"][i] == doc["camera"]["perspective"]
            compared += 1
    assert compared >= 30


def test_chosen_bones_and_morphs_come_in_the_order_asked(motions):
    path, motion = motions[0]
    names = motion.bone_names
    frames = np.linspace(0, 200, 41)
    all_pos, all_rot = motion.sample(frames)
    pick = [names[5], names[0], names[3]]
    pos, rot = motion.sample(frames, bones=pick)
    assert pos.shape == (41, 3, 3) and rot.shape == (41, 3, 4)
    assert np.array_equal(pos, all_pos[:, [5, 0, 3]])
    assert np.array_equal(rot, all_rot[:, [5, 0, 3]])
    # Raw names select the same tracks.
    raw = motion.bone_names_raw
    pos_raw, _ = motion.sample(frames, bones=[raw[5], raw[0], raw[3]])
    assert np.array_equal(pos_raw, pos)
    morphs = motion.morph_names
    w = motion.sample_morphs(frames, morphs=[morphs[2], morphs[1]])
    assert np.array_equal(w, motion.sample_morphs(frames)[:, [2, 1]])


def test_out_of_order_frames_give_the_same_values(motions):
    _, motion = motions[-1]
    frames = np.array([500.5, 3.0, 1200.25, 0.0, 3.0, 999.0])
    pos, rot = motion.sample(frames)
    for i, t in enumerate(frames):
        p1, r1 = motion.sample([t])
        assert np.array_equal(pos[i], p1[0]) and np.array_equal(rot[i], r1[0])


def test_sampling_arguments_are_checked():
    motion = vmdkit.Motion.from_arrays(
        bones={"frame": [0], "name_index": [0], "names": ["センター"], "position": [[1, 2, 3]],
               "rotation": [[0, 0, 0, 1]]}
    )
    pos, rot = motion.sample([0, 5])
    assert pos.dtype == np.float32 and pos.shape == (2, 1, 3)
    assert np.array_equal(pos[1, 0], [1, 2, 3])
    with pytest.raises(KeyError, match="右腕"):
        motion.sample([0], bones=["右腕"])
    with pytest.raises(TypeError):
        motion.sample([0], bones="センター")
    with pytest.raises(TypeError):
        motion.sample([0], bones=[1])
    with pytest.raises(ValueError, match="finite"):
        motion.sample([float("nan")])
    with pytest.raises((TypeError, ValueError)):
        motion.sample([[0, 1]])
    assert motion.sample([])[0].shape == (0, 1, 3)
    assert motion.sample([1], bones=[])[0].shape == (1, 0, 3)
    assert motion.sample_morphs([1, 2]).shape == (2, 0)
    assert motion.sample_camera([1]) is None


# A motion with a bone, a morph and a camera key, built in the reproducers' children.
TINY = """
m = vmdkit.Motion.from_arrays(
    bones={"frame": [0], "names": ["a"], "name_index": [0], "position": [[0, 0, 0]],
           "rotation": [[0, 0, 0, 1]]},
    morphs={"frame": [0], "names": ["b"], "name_index": [0], "weight": [0.5]},
    camera={"frame": [0], "distance": [-45], "target": [[0, 10, 0]], "rotation": [[0, 0, 0]]},
)
"""


@pytest.mark.parametrize("call", [
    # The frame times alone are 8 GB: a zero-stride array costs the caller nothing.
    "m.sample_morphs(np.broadcast_to(5.0, (10**9,)))",
    "m.sample(np.broadcast_to(5.0, (10**9,)))",
    # The times fit (160 MB); the arrays sampled into do not.
    "m.sample(np.broadcast_to(5.0, (2 * 10**7,)))",
    "m.sample_camera(np.broadcast_to(5.0, (2 * 10**7,)))",
])
def test_huge_frame_arrays_raise_memory_error(bounded, call):
    out = bounded(TINY + call)
    assert out["error"] == "MemoryError", out
