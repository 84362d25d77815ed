"""vmdkit.capture with hands and face: Holistic and Hands on the shared pose/handface photos
and video, checked against MediaPipe 0.10.21's own results stored beside each file
(``.hands.json``, ``.holistic.json``; see pose/handface/SOURCES.md).

Run in the capture environment (scripts/python-tests.sh); under CI=true a missing estimator
fails them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import vmdkit
from vmdkit.capture import HOLISTIC_IRIS, LANDMARKS, parts_for

VIDEO = ("google-ai-edge__mediapipe-samples__examples__gesture_recognizer__android__app__src__"
         "androidTest__assets__test_video.mp4")
SAMPLES = "yanghaku__mediapipe-rs-dev__assets__testdata__img__gesture_recognition_google_samples__"
THUMBS_UP, VICTORY = SAMPLES + "thumbs_up.jpg", SAMPLES + "victory.jpg"
TWO_HANDS = ("google-ai-edge__mediapipe-samples__examples__pose_landmarker__ios__"
             "PoseLandmarkerTests__test_image.jpg")
NO_BODY = "tensorflow__tfjs-models__hand-pose-detection__test_data__hands.jpg"
TRACE = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx"
MIKU = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"
MEI = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd"

LEFT, RIGHT, FACE = slice(33, 54), slice(54, 75), slice(75, 553)
# The video's frames where Hands finds a ghost second hand (SOURCES.md #12).
GHOSTS = [25, 27, 55, 56, 57, 58, 59]


@pytest.fixture(scope="session")
def handface(pose_dir) -> Path:
    try:
        import cv2  # noqa: F401
        import mediapipe  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("mediapipe (the capture extra) is not installed (CI=true: no skips)")
        pytest.skip("mediapipe (the capture extra) is not installed")
    return pose_dir / "handface"


def stored(path: Path, kind: str) -> dict:
    return json.loads(Path(f"{path}.{kind}.json").read_text())


def relative(world) -> np.ndarray:
    """A hand's world landmarks about its own wrist."""
    world = np.asarray(world, dtype=np.float64)
    return world - world[0]


def nearest(ours: np.ndarray, hands: list) -> float:
    """The largest landmark difference (metres) between our hand, about its wrist, and the
    stored hand that resembles it most."""
    return min((float(np.abs(relative(ours) - relative(h["world_landmarks"])).max())
                for h in hands), default=np.inf)


@pytest.fixture(scope="session")
def video(handface):
    return vmdkit.capture(handface / VIDEO, hands=True, face=True, progress=False)


def test_the_layout_is_holistic_iris_with_the_agreed_names(video):
    assert video.layout == "holistic_iris" and video.summary["layout"] == "holistic_iris"
    assert len(HOLISTIC_IRIS) == 553 and HOLISTIC_IRIS[:33] == LANDMARKS
    assert HOLISTIC_IRIS[33:37] == ("left_hand_wrist", "left_thumb_cmc", "left_thumb_mcp",
                                    "left_thumb_ip")
    assert HOLISTIC_IRIS[54] == "right_hand_wrist" and HOLISTIC_IRIS[74] == "right_pinky_tip"
    assert HOLISTIC_IRIS[62] == "right_index_finger_tip"
    assert HOLISTIC_IRIS[75] == "face_0" and HOLISTIC_IRIS[-1] == "face_477"
    assert video.keypoints.shape == (195, 553, 3) and video.names == HOLISTIC_IRIS


def test_the_videos_one_hand_goes_to_the_right_wrist_and_its_copies_are_dropped(handface,
                                                                                video):
    holistic = stored(handface / VIDEO, "holistic")["frames"]
    copies = sum(f["left_hand_landmarks"] is not None for f in holistic)
    assert copies >= 90  # Holistic's "left hand" is the right hand again in 92 frames
    # She raises her right hand only: no frame has a left hand, ghosts and copies included.
    assert np.isnan(video.keypoints[:, LEFT]).all()
    assert video.summary["left_hand"] == 0
    right = np.isfinite(video.keypoints[:, RIGHT]).all(axis=(1, 2))
    assert right.sum() == video.summary["right_hand"] >= 160
    assert not right[:23].any()  # frames 0-22: no hand in the picture
    assert right[60:].all()  # the thumbs-up toward the camera, every frame
    assert video.summary["hands_dropped"] >= 5
    # Holistic's copies: two hands reported, one placed.
    assert video.summary["holistic_copies"] >= 80
    for f in GHOSTS[2:]:
        assert right[f] and np.isnan(video.keypoints[f, LEFT]).all()


def test_the_videos_hand_is_mediapipes_own_placed_at_the_wrist(handface, video):
    hands = stored(handface / VIDEO, "hands")["frames"]
    right = np.flatnonzero(np.isfinite(video.keypoints[:, RIGHT]).all(axis=(1, 2)))
    errors = [nearest(video.keypoints[f, RIGHT], hands[f]) for f in right]
    # Hands runs only where Holistic sees a hand, while the stored run fed it every frame: its
    # tracking (each frame's crop comes from the last frame's hand) takes another course, and
    # the same model on slightly other crops gives the hand's shape within millimetres.
    assert np.median(errors) < 6e-3 and np.percentile(errors, 90) < 1.2e-2, np.round(errors, 4)
    # Its wrist sits on the body's right wrist, in the body's world frame.
    wrist = LANDMARKS.index("right_wrist")
    seen = right[np.isfinite(video.keypoints[right, wrist]).all(axis=1)]
    assert len(seen) > 100
    np.testing.assert_allclose(video.keypoints[seen, 54], video.keypoints[seen, wrist], atol=1e-6)


def test_the_videos_face_is_mediapipes_own_by_one_similarity(handface, video):
    holistic = stored(handface / VIDEO, "holistic")
    w, h = holistic["width"], holistic["height"]
    assert video.summary["face"] == 195
    nose = LANDMARKS.index("nose")
    for f, frame in enumerate(holistic["frames"]):
        ref = np.asarray(frame["face_landmarks"], dtype=np.float64) * [w, h, w]
        ref -= ref[1]
        ours = video.keypoints[f, FACE].astype(np.float64)
        # The nose tip on the body's nose (where it is seen: it is in every frame here).
        assert np.isfinite(video.keypoints[f, nose]).all()
        np.testing.assert_allclose(ours[1], video.keypoints[f, nose], atol=1e-6)
        ours -= ours[1]
        scale = float((ours * ref).sum() / (ref * ref).sum())
        assert 1e-4 < scale < 1e-2  # metres per pixel of a face a few hundred pixels wide
        # The same mesh, scaled: within 0.1 mm over a face some 15 cm wide.
        assert np.abs(ours - scale * ref).max() < 1e-4
        # The scale is the body's eye distance over the mesh's.
        eyes = np.linalg.norm(video.landmarks[f, 2, :3] - video.landmarks[f, 5, :3])
        mesh = np.linalg.norm((ours[33] + ours[133]) / 2 - (ours[362] + ours[263]) / 2)
        assert abs(mesh - eyes) < 1e-5


@pytest.mark.parametrize("photo", [THUMBS_UP, VICTORY])
def test_a_photos_hand_reported_twice_by_holistic_is_one_right_hand(handface, photo):
    holistic = stored(handface / photo, "holistic")
    assert holistic["left_hand_landmarks"] is not None  # the copy (SOURCES.md #3, #5)
    got = vmdkit.capture(handface / photo, hands=True, face=True)
    assert got.summary["left_hand"] == 0 and got.summary["right_hand"] == 1
    assert np.isnan(got.keypoints[0, LEFT]).all()
    assert nearest(got.keypoints[0, RIGHT], stored(handface / photo, "hands")["hands"]) < 1e-5
    # The face where Holistic found one (#3), none where it did not (#5, blurred).
    assert np.isfinite(got.keypoints[0, FACE]).all() == (holistic["face_landmarks"] is not None)


def test_two_hands_go_to_the_sides_holistic_gives_them(handface):
    holistic = stored(handface / TWO_HANDS, "holistic")
    hands = stored(handface / TWO_HANDS, "hands")["hands"]
    got = vmdkit.capture(handface / TWO_HANDS, hands=True, face=True)
    assert got.summary["left_hand"] == got.summary["right_hand"] == 1
    for side, ours in (("left", got.keypoints[0, LEFT]), ("right", got.keypoints[0, RIGHT])):
        # The stored Hands hand whose wrist is nearest Holistic's hand of that side.
        wrist = np.asarray(holistic[f"{side}_hand_landmarks"][0][:2])
        same = min(hands, key=lambda h: np.linalg.norm(np.asarray(h["landmarks"][0][:2]) - wrist))
        assert np.abs(relative(ours) - relative(same["world_landmarks"])).max() < 1e-5


def test_hands_without_a_body_are_no_capture(handface):
    with pytest.raises(vmdkit.CaptureError, match="no person"):
        vmdkit.capture(handface / NO_BODY, hands=True, face=True)


def test_the_model_decides_the_parts_by_default(corpus):
    assert parts_for(vmdkit.Model.read(corpus / TRACE)) == (True, False)  # fingers, no morphs
    assert parts_for(vmdkit.Model.read(corpus / MIKU)) == (True, True)
    assert parts_for(vmdkit.Model.read(corpus / MEI)) == (True, True)
    assert "まばたき" in vmdkit.Model.read(corpus / MIKU).morph_names
    assert vmdkit.Model.standard().morph_names == []


def capture_command(*args):
    return subprocess.run([sys.executable, "-m", "vmdkit._capture_cli", *map(str, args)],
                          capture_output=True, text=True, encoding="utf-8")


def test_the_command_writes_the_whole_keypoints_and_body_only_as_before(handface, tmp_path):
    photo = handface / THUMBS_UP
    whole = capture_command(photo, "-o", tmp_path / "w.vpd", "--keypoints-out",
                            tmp_path / "w.json", "--hands", "--face", "-q")
    assert whole.returncode == 0, whole.stderr
    kp = json.loads((tmp_path / "w.json").read_text())
    assert kp["names"] == list(HOLISTIC_IRIS) and len(kp["frames"][0]) == 553
    frame = kp["frames"][0]
    assert all(p is None for p in frame[LEFT]) and all(p is not None for p in frame[RIGHT])
    assert all(p is not None for p in frame[FACE])
    body = capture_command(photo, "-o", tmp_path / "b.vpd", "--keypoints-out",
                           tmp_path / "b.json", "--no-hands", "--no-face", "-q")
    assert body.returncode == 0, body.stderr
    kp = json.loads((tmp_path / "b.json").read_text())
    assert kp["names"] == list(LANDMARKS) and len(kp["frames"][0]) == 33
    # The body-only path is MediaPipe Pose as before: the API gives the same pose.
    api = vmdkit.capture(photo, hands=False, face=False)
    assert api.layout == "blazepose33" and api.keypoints.shape == (1, 33, 3)
    assert (tmp_path / "b.vpd").read_bytes() == api.output.to_bytes()


def a_hand(wrist, size=100.0) -> np.ndarray:
    """21 image points: the wrist at ``wrist``, the rest spread over a box ``size`` wide."""
    points = np.zeros((21, 3))
    points[1:, 0] = np.linspace(-size / 2, size / 2, 20)
    points[1:, 1] = -size
    return points + [wrist[0], wrist[1], 0.0]


def test_each_hand_goes_to_its_nearer_wrist_once():
    from vmdkit.capture._hands import match

    wrists = np.array([[100.0, 500.0], [900.0, 500.0]])  # the body's left, right
    # One hand at each wrist, given in either order.
    assert match(wrists, [a_hand((880, 510)), a_hand((120, 490))]) == (1, 0)
    # A copy and a ghost over the right hand: the nearest keeps the wrist; none goes left.
    hands = [a_hand((950, 520)), a_hand((905, 505)), a_hand((930, 480), 60)]
    assert match(wrists, hands) == (None, 1)
    # A hand farther than its own size from every wrist belongs to no arm seen.
    assert match(wrists, [a_hand((500, 100))]) == (None, None)
    # A wrist the body does not give takes no hand.
    assert match(np.array([[np.nan, np.nan], [900.0, 500.0]]), [a_hand((110, 500))]) == (
        None, None)


def test_the_face_is_moved_by_one_similarity():
    from vmdkit.capture._face import place

    rng = np.random.default_rng(1)
    mesh = rng.uniform(0, 300, (478, 3))
    body = np.zeros((33, 4))
    body[2, :3], body[5, :3] = [0.03, 0, 0], [-0.03, 0, 0]  # eyes 6 cm apart
    nose = np.array([0.1, -0.5, 0.2])
    got = place(mesh, body, nose)
    np.testing.assert_allclose(got[1], nose, atol=1e-6)
    eyes = np.linalg.norm((got[33] + got[133]) / 2 - (got[362] + got[263]) / 2)
    assert abs(eyes - 0.06) < 1e-6
    # Distances scale alike everywhere: the shape is kept.
    ratio = np.linalg.norm(got[10] - got[200]) / np.linalg.norm(mesh[10] - mesh[200])
    assert abs(ratio - 0.06 / np.linalg.norm((mesh[33] + mesh[133]) / 2
                                            - (mesh[362] + mesh[263]) / 2)) < 1e-6


def test_the_whole_layout_is_retargeted_and_vmdkit_retarget_reads_it_again(
        handface, corpus, vmdkit_cli, tmp_path):
    out, kp = tmp_path / "w.vpd", tmp_path / "w.json"
    done = capture_command(handface / THUMBS_UP, "-o", out, "--model", corpus / MIKU,
                           "--keypoints-out", kp, "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    # Miku has fingers and the facial morphs: both parts are on by default.
    assert summary["layout"] == "holistic_iris"
    assert summary["right_hand"] == summary["face"] == 1
    again = tmp_path / "again.vmd"
    report = json.loads(vmdkit_cli("retarget", kp, "--model", corpus / MIKU, "--dense",
                                   "--smooth", "none", "--json", "-o", again))
    assert report["layout"] == "holistic_iris" and report["frames"] == 1
    # The same keypoints retargeted the same way give the same pose.
    pose = vmdkit.Pose.read(out)
    rerun = vmdkit.Pose.from_motion(vmdkit.read(again), 0.0)
    assert rerun.bone_names == pose.bone_names
    np.testing.assert_allclose(rerun.rotations, pose.rotations, atol=1e-4)


def test_the_photo_moves_mikus_right_fingers_and_face(handface, corpus):
    got = vmdkit.capture(handface / THUMBS_UP, model=corpus / MIKU)
    report = got.report
    # Fingers: the right hand solved in the one frame, the left (a copy, dropped) in none.
    assert report["fingers"]["solved_frames"] == [0, 1]
    fingers = {b for b in got.output.bone_names if "指" in b}
    assert {"右親指１", "右人指１", "右中指１", "右薬指１", "右小指１"} <= fingers
    assert not any(b.startswith("左") for b in fingers)
    # Face: found, and solved against the model's own morphs.
    assert report["face"]["frames_with_face"] == 1 and report["face"]["morphs_known"]
