"""vmdkit.Pose: VPD poses read, written and made from motions."""

import numpy as np
import pytest

import vmdkit

DANCE = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd"


def test_a_motions_pose_round_trips_through_vpd(corpus, tmp_path):
    motion = vmdkit.read(corpus / DANCE)
    pose = vmdkit.Pose.from_motion(motion, 120.5)
    assert len(pose) == len(pose.bone_names) > 0
    assert pose.model_file == motion.model_name + ".osm"
    assert pose.rotations.shape == (len(pose), 4) and pose.translations.shape == (len(pose), 3)
    pose.write(tmp_path / "p.vpd")
    again = vmdkit.Pose.read(tmp_path / "p.vpd")
    assert again.bone_names == pose.bone_names
    assert vmdkit.Pose.read((tmp_path / "p.vpd").read_bytes()).bone_names == pose.bone_names
    # VPD text keeps six decimals.
    np.testing.assert_allclose(again.rotations, pose.rotations, atol=1e-6)
    np.testing.assert_allclose(again.translations, pose.translations, atol=1e-5)
    # As a one-frame motion and back: the same pose.
    keyed = again.to_motion(7)
    assert set(keyed.bones.frame.tolist()) == {7}
    back = vmdkit.Pose.from_motion(keyed, 7.0)
    assert back.bone_names == again.bone_names
    np.testing.assert_allclose(back.rotations, again.rotations, atol=1e-6)


def test_bad_vpds_raise_read_error_and_missing_files_os_error(tmp_path):
    with pytest.raises(vmdkit.ReadError, match="line"):
        vmdkit.Pose.read(b"not a pose file\n")
    (tmp_path / "bad.vpd").write_bytes(b"Vocaloid Pose Data file\n\nm.osm;\n3;\n")
    with pytest.raises(vmdkit.ReadError, match="bad.vpd"):
        vmdkit.Pose.read(tmp_path / "bad.vpd")
    with pytest.raises(FileNotFoundError):
        vmdkit.Pose.read(tmp_path / "none.vpd")


@pytest.mark.parametrize("frame", [float("nan"), float("inf"), float("-inf")])
def test_a_frame_that_is_not_a_number_is_refused(frame):
    motion = vmdkit.Motion.from_arrays(
        morphs={"frame": [0, 10], "names": ["b"], "name_index": [0, 0], "weight": [0.0, 1.0]})
    with pytest.raises(ValueError, match="frame must be a number"):
        vmdkit.Pose.from_motion(motion, frame)
