"""Model.pose: the same arrays as `vmdkit bake --model`, any frames, and no GIL held."""

import threading
import time

import numpy as np
import pytest

import vmdkit

MIKU = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"
WAVEFILE = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd"
MEI = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd"
HAND_SHAKE = "mmdagent__mmdagent-mirror/MMDAgent_Example__Motion__mei_hand_shake__mei_hand_shake.vmd"
TRACE = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx"
LONGEST = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd"


def bake(vmdkit_cli, tmp_path, motion, model, *flags, fps=30):
    out = tmp_path / "bake.npz"
    vmdkit_cli("bake", motion, "--fps", fps, "--model", model, "-o", out, *flags)
    with np.load(out) as npz:
        return {k: npz[k] for k in npz.files}


# (model, motion, pose keywords, the same for the command)
CASES = [
    (MIKU, WAVEFILE, {}, [], 30),
    (MIKU, WAVEFILE, {"up": "y"}, ["--up", "y"], 30),
    (MIKU, WAVEFILE, {"metres": True, "up": "z", "fps": 60}, ["--metres", "--up", "z"], 60),
    (MEI, HAND_SHAKE, {"ik": False, "up": None}, ["--ik", "off"], 30),
    (MEI, HAND_SHAKE, {"ik": "plain", "fps": 24, "up": "y"}, ["--ik", "plain", "--up", "y"], 24),
]


@pytest.mark.parametrize("model_path,motion_path,keywords,flags,fps", CASES)
def test_pose_equals_the_world_bake(
    corpus, vmdkit_cli, tmp_path, model_path, motion_path, keywords, flags, fps
):
    model = vmdkit.Model.read(corpus / model_path)
    motion = vmdkit.read(corpus / motion_path)
    expected = bake(vmdkit_cli, tmp_path, corpus / motion_path, corpus / model_path, *flags,
                    fps=fps)
    positions, rotations = model.pose(motion, None, **keywords)
    assert positions.dtype == rotations.dtype == np.float32
    assert positions.shape == expected["positions"].shape
    assert rotations.shape == expected["rotations"].shape
    assert list(expected["names"]) == model.bone_names
    np.testing.assert_allclose(positions, expected["positions"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(rotations, expected["rotations"], rtol=0, atol=1e-6)
    # The bake's sample times, given as frames, pose the same.
    fps_keywords = {k: v for k, v in keywords.items() if k != "fps"}
    again, _ = model.pose(motion, expected["frames"], **fps_keywords)
    np.testing.assert_array_equal(again, positions)


def test_frames_of_any_shape(corpus):
    model = vmdkit.Model.read(corpus / MIKU)
    motion = vmdkit.read(corpus / WAVEFILE)
    bones = len(model)
    frames = np.array([[0.0, 10.5], [120.0, 2000.25]])
    positions, rotations = model.pose(motion, frames)
    assert positions.shape == (2, 2, bones, 3) and rotations.shape == (2, 2, bones, 4)
    one, one_rot = model.pose(motion, 120.0)
    assert one.shape == (bones, 3) and one_rot.shape == (bones, 4)
    np.testing.assert_array_equal(one, positions[1, 0])
    listed, _ = model.pose(motion, [120, 10.5])
    np.testing.assert_array_equal(listed[1], positions[0, 1])
    # Out of order, repeated: each pose depends only on its frame.
    assert model.pose(motion, [])[0].shape == (0, bones, 3)
    np.testing.assert_allclose(np.linalg.norm(rotations, axis=-1), 1, atol=1e-6)
    # The right-handed Y-up frame is MMD's own (the default) with Z mirrored.
    y_up, _ = model.pose(motion, frames, up="y")
    np.testing.assert_array_equal(positions * [1, 1, -1], y_up)


def test_pose_defaults_to_mmds_own_frame_like_the_cli(corpus, vmdkit_cli, tmp_path):
    # Issue 27: the same bone's z had opposite signs in `Model.pose` and `vmdkit pose`.
    model = vmdkit.Model.read(corpus / MIKU)
    motion = vmdkit.read(corpus / WAVEFILE)
    default, _ = model.pose(motion, [100.0])
    mmd, _ = model.pose(motion, [100.0], up=None)
    np.testing.assert_array_equal(default, mmd)
    assert "None (the default) MMD's own" in vmdkit.Model.pose.__doc__
    assert "None, the default: MMD's own" in vmdkit.Model.save_world.__doc__
    expected = bake(vmdkit_cli, tmp_path, corpus / WAVEFILE, corpus / MIKU)
    np.testing.assert_allclose(model.pose(motion, expected["frames"][:3])[0],
                               expected["positions"][:3], rtol=0, atol=1e-6)
    assert str(expected["axes"]) == "mmd_left_handed_y_up"
    help_text = " ".join(vmdkit_cli("bake", "--help").split())
    assert "default: MMD's own left-handed frame" in help_text


def test_bad_arguments_raise_value_errors(corpus):
    model = vmdkit.Model.read(corpus / MIKU)
    motion = vmdkit.read(corpus / WAVEFILE)
    for keywords in [{"up": "x"}, {"ik": "fast"}, {"fps": 0}, {"fps": float("nan")}]:
        with pytest.raises(ValueError):
            model.pose(motion, None, **keywords)
    with pytest.raises(ValueError):
        model.pose(motion, [1.0, float("inf")])
    with pytest.raises(TypeError):
        model.pose("not a motion", None)


def test_pose_releases_the_gil(corpus):
    model = vmdkit.Model.read(corpus / TRACE)
    motion = vmdkit.read(corpus / LONGEST)
    # Long enough (a few tenths of a second) for the main thread's loop to notice a held GIL.
    frames = np.tile(np.arange(0, 7400, dtype=np.float64), 2)
    started, done = threading.Event(), threading.Event()
    results = []

    def work():
        started.set()
        results.append(model.pose(motion, frames))
        done.set()

    worker = threading.Thread(target=work)
    t0 = time.perf_counter()
    worker.start()
    started.wait()
    gaps, last = [], time.perf_counter()
    while not done.is_set():
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    worker.join()
    elapsed = time.perf_counter() - t0
    assert results[0][0].shape == (len(frames), len(model), 3)
    # Holding the GIL, the pose would stop this loop for its whole run; released, the loop only
    # waits for the interpreter's switch interval (5 ms) and the scheduler.
    assert max(gaps) < elapsed / 2, (max(gaps), elapsed)


def test_threads_pose_at_once_and_agree(corpus):
    model = vmdkit.Model.read(corpus / MIKU)
    motion = vmdkit.read(corpus / WAVEFILE)
    frames = np.arange(0, 2810, 0.5)
    alone = model.pose(motion, frames)
    out = [None] * 4

    def work(i):
        out[i] = model.pose(motion, frames)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for positions, rotations in out:
        np.testing.assert_array_equal(positions, alone[0])
        np.testing.assert_array_equal(rotations, alone[1])


def test_a_far_key_does_not_allocate_its_whole_span(corpus):
    # One key at MMD's last frame: every frame through it would be hundreds of gigabytes.
    record = "センター".encode("cp932").ljust(15, b"\0") + (2**32 - 1).to_bytes(4, "little")
    record += np.array([0, 0, 0, 0, 0, 0, 1], "<f4").tobytes() + bytes(64)
    data = b"Vocaloid Motion Data 0002".ljust(30, b"\0") + b"far".ljust(20, b"\0")
    data += (1).to_bytes(4, "little") + record + bytes(4)
    motion = vmdkit.read(data)
    model = vmdkit.Model.read(corpus / MIKU)
    with pytest.raises(vmdkit.VmdError, match="pass the frames"):
        model.pose(motion, None)
    positions, _ = model.pose(motion, [0, 2**32 - 1])
    assert positions.shape == (2, len(model), 3)


def test_huge_frame_arrays_raise_memory_error(bounded):
    out = bounded("""
        m = vmdkit.Motion.from_arrays(morphs={"frame": [0], "names": ["b"], "name_index": [0],
                                              "weight": [0.5]})
        vmdkit.Model.standard().pose(m, np.broadcast_to(5.0, (10**9,)))
    """)
    assert out["error"] == "MemoryError" and "frame times" in out["message"], out
