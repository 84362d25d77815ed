"""retarget and keypoints: round trips as accurate as the Rust tests', real keypoint files, and
the errors of bad input."""

import csv
import json

import numpy as np
import pytest

import vmdkit

MIKU = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"
TRACE = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx"
FLAT = "miu200521358__mmd_base/tests__resources__平面3つ.pmx"
DANCES = [
    "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd",
    "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd",
]
POSFILE = "wayne931121__VMD-Lifting__posfile.csv"

# What crates/vmdkit/tests/it/retarget_accuracy.rs asks of an exact round trip (model units, °).
MAX_JOINT = 0.02
MAX_DIRECTION = 0.1
EXACT = {"smooth": "none", "floor": "keep", "dense": True, "ik": False, "units": "m"}


@pytest.mark.parametrize("model_path", [TRACE, MIKU])
@pytest.mark.parametrize("dance", DANCES)
@pytest.mark.parametrize("layout", ["h36m", "blazepose33"])
def test_keypoints_retarget_keypoints_round_trips(corpus, model_path, dance, layout):
    model = vmdkit.Model.read(corpus / model_path)
    motion = vmdkit.read(corpus / dance)
    kp, names = vmdkit.keypoints(motion, model, layout)
    assert kp.dtype == np.float32 and kp.shape[1:] == (len(names), 3)
    clip = kp[:241]
    out, report = vmdkit.retarget(clip, layout, model, **EXACT)
    assert isinstance(out, vmdkit.Motion)
    assert report["layout"] == layout and report["frames"] == 241
    worst_joint = max(r["max"] for r in report["residuals"])
    worst_direction = max(d["max_degrees"] for d in report["directions"])
    assert worst_joint <= MAX_JOINT and worst_direction <= MAX_DIRECTION
    # Read off again: the same joints, to the same bound (in metres: 0.08 m per unit).
    again, again_names = vmdkit.keypoints(out, model, layout)
    assert again_names == names and again.shape == clip.shape
    present = np.isfinite(clip).all(axis=-1)
    assert present.sum() > 0.5 * present.size
    np.testing.assert_array_equal(np.isfinite(again).all(axis=-1), present)
    error = np.linalg.norm(again - clip, axis=-1)[present]
    assert error.max() <= MAX_JOINT * 0.08 + 1e-5, error.max()


def test_keypoints_equal_the_command(corpus, vmdkit_cli, tmp_path):
    out = tmp_path / "joints.npy"
    vmdkit_cli("keypoints", corpus / DANCES[1], "--model", corpus / MIKU, "--layout", "coco17",
               "--fps", 60, "--units", "mm", "--up", "z", "-o", out)
    model = vmdkit.Model.read(corpus / MIKU)
    kp, names = vmdkit.keypoints(vmdkit.read(corpus / DANCES[1]), model, "coco17", fps=60,
                                 units="mm", up="z")
    np.testing.assert_array_equal(kp, np.load(out))
    assert len(names) == 17 and names[0].lower() == "nose"


def test_the_standard_model_is_the_default(corpus):
    motion = vmdkit.read(corpus / DANCES[1])
    standard = vmdkit.Model.standard()
    kp, names = vmdkit.keypoints(motion, None, "h36m")
    np.testing.assert_array_equal(kp, vmdkit.keypoints(motion, standard, "h36m")[0])
    # Layout "auto" finds h36m from the joint names (17 joints alone would be ambiguous).
    out, report = vmdkit.retarget(kp[:120], names=names, **EXACT)
    assert report["layout"] == "h36m"
    assert max(r["max"] for r in report["residuals"]) <= MAX_JOINT
    again, _ = vmdkit.keypoints(out, None, "h36m")
    assert again.shape == (120, 17, 3)


def test_real_estimator_output_with_defaults(pose_dir):
    with open(pose_dir / POSFILE, newline="") as f:
        rows = list(csv.reader(f))
    values = np.array([[float(v) for v in row[1:]] for row in rows[1:]], dtype=np.float32)
    kp = values.reshape(len(values), 17, 3)
    # posfile is Y up with +X at the subject's left, as MMD: left-handed, millimetres.
    out, report = vmdkit.retarget(kp, "lftd17", units="mm", left_handed=True, fps=30)
    assert report["frames"] == len(kp) and report["keys"] < report["dense_keys"]
    assert report["units_per_metre"] == pytest.approx(12.5, rel=0.3)
    assert report["penetration"] < 1e-6 and not report["handedness"]["corrected"]
    # Missing joints and confidences: the solve goes on around them.
    holes = kp.copy()
    holes[::7, 3] = np.nan
    confidence = np.ones(kp.shape[:2], dtype=np.float32)
    confidence[::5, 6] = 0.1
    _, report = vmdkit.retarget(holes, "lftd17", units="mm", left_handed=True,
                                confidence=confidence, smooth=3.0)
    assert report["frames"] == len(kp)


def test_bad_input_raises(corpus):
    kp = np.zeros((10, 17, 3), dtype=np.float32)
    with pytest.raises(vmdkit.RetargetError, match="unknown layout `h37m`.*h36m"):
        vmdkit.retarget(kp, "h37m")
    with pytest.raises(vmdkit.RetargetError, match="several layouts.*layout="):
        vmdkit.retarget(kp)
    with pytest.raises(vmdkit.RetargetError, match="33 joints but the keypoints have 17"):
        vmdkit.retarget(kp, "blazepose33")
    assert issubclass(vmdkit.RetargetError, vmdkit.VmdError)
    for shape in [(10, 17), (10, 17, 2), (17, 3), (2, 10, 17, 3)]:
        with pytest.raises(ValueError, match=r"\(F, J, 3\)"):
            vmdkit.retarget(np.zeros(shape), "h36m")
    with pytest.raises(ValueError, match="confidence"):
        vmdkit.retarget(kp, "h36m", confidence=np.ones((10, 16)))
    with pytest.raises(ValueError, match="names has 3"):
        vmdkit.retarget(kp, names=["a", "b", "c"])
    for keywords in [{"up": "x"}, {"units": "furlong"}, {"units": -1.0}, {"smooth": "max"},
                     {"floor": "air"}, {"fps": 0.0}, {"max_angle_error": -1.0}]:
        with pytest.raises(ValueError):
            vmdkit.retarget(kp, "h36m", **keywords)
    with pytest.raises(vmdkit.RetargetError, match="no usable frame"):
        vmdkit.retarget(np.full((10, 17, 3), np.nan), "h36m")
    # A model without a body's bones.
    flat = vmdkit.Model.read(corpus / FLAT)
    with pytest.raises(vmdkit.RetargetError, match="no bone named"):
        vmdkit.retarget(kp, "h36m", flat)
    motion = vmdkit.read(corpus / DANCES[1])
    with pytest.raises(vmdkit.RetargetError, match="no bone named"):
        vmdkit.keypoints(motion, flat, "h36m")
    with pytest.raises(vmdkit.RetargetError, match="unknown layout"):
        vmdkit.keypoints(motion, None, "h37m")
    with pytest.raises(ValueError, match="auto"):
        vmdkit.keypoints(motion, None, "auto")
    with pytest.raises(ValueError):
        vmdkit.keypoints(motion, None, "h36m", fps=-1.0)


@pytest.mark.parametrize("smooth", [-5, -5.0, 0, float("nan"), float("inf"), "-5", "nan",
                                    "inf", "0", "5 Hz"])
def test_a_cutoff_that_is_not_positive_is_refused_as_number_or_text(smooth):
    kp = np.zeros((10, 17, 3), dtype=np.float32)
    with pytest.raises(ValueError, match="positive cutoff in Hz"):
        vmdkit.retarget(kp, "h36m", smooth=smooth)


def test_a_cutoff_given_as_text_is_the_number():
    rng = np.random.default_rng(3)
    motion = vmdkit.read(vmdkit.Pose.read(b"Vocaloid Pose Data file\n\nm.osm;\n0;\n")
                         .to_motion().to_bytes())
    kp, _ = vmdkit.keypoints(motion, None, "h36m")
    kp = np.repeat(kp[:1], 40, axis=0) + rng.normal(scale=0.01, size=(40, 17, 3)).astype(np.float32)
    by_number, _ = vmdkit.retarget(kp, "h36m", smooth=2.5, dense=True)
    by_text, _ = vmdkit.retarget(kp, "h36m", smooth="2.5", dense=True)
    assert by_number.to_bytes() == by_text.to_bytes()


def test_huge_keypoint_arrays_raise_memory_error(bounded):
    out = bounded('vmdkit.retarget(np.broadcast_to(np.float32(0), (10**8, 17, 3)), "h36m")')
    assert out["error"] == "MemoryError", out


def test_a_mapping_file_is_a_layout(corpus, tmp_path):
    motion = vmdkit.read(corpus / DANCES[1])
    h36m, names = vmdkit.keypoints(motion, None, "h36m")
    mapping = tmp_path / "mine.txt"
    roles = ["pelvis", "right_hip", "right_knee", "right_ankle", "left_hip", "left_knee",
             "left_ankle", "spine", "thorax", "nose", "head_top", "left_shoulder",
             "left_elbow", "left_wrist", "right_shoulder", "right_elbow", "right_wrist"]
    mapping.write_text("".join(f"j{i} = {r}\n" for i, r in enumerate(roles)))
    for layout in (mapping, str(mapping)):
        mine, mine_names = vmdkit.keypoints(motion, None, layout)
        assert mine_names == [f"j{i}" for i in range(17)]
        assert mine.shape == h36m.shape


def test_a_lone_hand_needs_its_side():
    # 21 joints are one hand of MediaPipe's; nothing says which without hand=.
    kp = np.zeros((10, 21, 3), dtype=np.float32)
    with pytest.raises(vmdkit.RetargetError, match="side is unknown.*hand="):
        vmdkit.retarget(kp)
    with pytest.raises(ValueError, match="hand must be"):
        vmdkit.retarget(kp, hand="middle")


VIDEO = "handface/google-ai-edge__mediapipe-samples__examples__gesture_recognizer__android__app__src__androidTest__assets__test_video.mp4"


def _video(pose_dir, kind):
    path = pose_dir / f"{VIDEO}.{kind}.json"
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    with open(path) as f:
        return json.load(f)


def _face(pose_dir):
    """The shared video's face mesh in pixels (y down), (F, 478, 3), at 25 fps."""
    doc = _video(pose_dir, "face")
    scale = np.array([doc["width"], doc["height"], doc["width"]], np.float32)
    return np.array([f[0]["landmarks"] for f in doc["frames"]], np.float32) * scale


def test_a_face_alone_keys_the_models_morphs_and_reports_the_missing(corpus, pose_dir, tmp_path):
    model = vmdkit.Model.read(corpus / MIKU)
    assert "あ" in model.morph_names and "え" not in model.morph_names
    face = _face(pose_dir)
    motion, report = vmdkit.retarget(face, "mediapipe_face_iris", model, fps=25.0, up="-y")
    assert report["body"] is False and report["fingers"] is None
    section = report["face"]
    assert section["frames_with_face"] == section["frames"] == 233
    missing = {m["role"]: m["looked_for"][0] for m in section["missing"]}
    assert missing == {"e": "え", "blink_right": "ウィンク右"}
    driven = {m["role"]: m["morph"] for m in section["morphs"]}
    assert driven["a"] == "あ" and driven["blink"] == "まばたき" and "e" not in driven
    assert section["morph_keys"] > 0
    keyed = set(motion.morph_names)
    assert keyed <= set(model.morph_names) and "あ" in keyed and len(motion.morphs) > 0

    # morph_map gives え's role to お; calibrate takes the first 30 frames as the neutral face.
    mapping = tmp_path / "map.txt"
    mapping.write_text("# Miku has no え: her お will do\ne = お\n", encoding="utf-8")
    _, mapped = vmdkit.retarget(
        face, "mediapipe_face_iris", model, fps=25.0, up="-y", morph_map=mapping, calibrate=30
    )
    section = mapped["face"]
    assert section["calibration"] == {"kind": "first_frames", "frames": 30}
    assert [m["role"] for m in section["missing"]] == ["blink_right"]
    assert {"role": "e", "morph": "お"}.items() <= next(
        m for m in section["morphs"] if m["role"] == "e"
    ).items()
    # A path given as text works the same.
    _, as_text = vmdkit.retarget(
        face, "mediapipe_face_iris", model, fps=25.0, up="-y", morph_map=str(mapping)
    )
    assert [m["role"] for m in as_text["face"]["missing"]] == ["blink_right"]


def test_a_bad_morph_map_or_calibrate_is_refused(corpus, tmp_path):
    face = np.zeros((3, 478, 3), np.float32)
    mapping = tmp_path / "map.txt"
    mapping.write_text("wink = ウィンク\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown face role `wink`"):
        vmdkit.retarget(face, "mediapipe_face_iris", morph_map=mapping)
    with pytest.raises(OSError, match="cannot read the morph map"):
        vmdkit.retarget(face, "mediapipe_face_iris", morph_map=tmp_path / "absent.txt")
    with pytest.raises(ValueError, match="calibrate"):
        vmdkit.retarget(face, "mediapipe_face_iris", calibrate=0)


def test_hands_alone_report_the_fingers_as_a_dict(corpus, pose_dir):
    doc = _video(pose_dir, "hands")
    # MediaPipe labels hands as in a selfie: its "Left" is the anatomical right hand.
    points = np.full((len(doc["frames"]), 42, 3), np.nan, np.float32)
    for i, hands in enumerate(doc["frames"]):
        for hand in hands:
            first = 21 if hand["handedness"]["label"] == "Left" else 0
            points[i, first : first + 21] = hand["world_landmarks"]
    model = vmdkit.Model.read(corpus / MIKU)
    _, report = vmdkit.retarget(points, "mediapipe_hands", model, fps=25.0, up="-y", units="m")
    assert report["body"] is False and report["face"] is None
    fingers = report["fingers"]
    assert isinstance(fingers, dict) and sum(fingers["solved_frames"]) > 150
    assert fingers["direction_mean_degrees"] < 5.0
