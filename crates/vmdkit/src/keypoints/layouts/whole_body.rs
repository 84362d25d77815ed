//! The built-in layouts with hands and faces.
//!
//! Sources of the orders and names:
//! * `mediapipe_hand`: MediaPipe Hands' `HandLandmark` enum (`WRIST = 0`, `THUMB_CMC = 1`, …,
//!   `PINKY_TIP = 20`; `mediapipe/python/solutions/hands.py`), its names in lower case.
//! * `mediapipe_hands`: the two hands of MediaPipe Hands (or of Holistic's
//!   `left_hand_landmarks`, `right_hand_landmarks`), left then right, under the role names
//!   (`left_hand_wrist`, `left_thumb_cmc`, …); `left_wrist` is also read as the hand's wrist.
//! * `holistic`, `holistic_iris`: MediaPipe Holistic's outputs in the order vmdkit's capture
//!   writes them: `pose_landmarks` (33, `PoseLandmark` order), `left_hand_landmarks` (21),
//!   `right_hand_landmarks` (21), `face_landmarks` (468, or 478 with `refine_face_landmarks`,
//!   the irises last).
//! * `mediapipe_face`, `mediapipe_face_iris`: Face Mesh alone, 468 or 478 points.
//! * `coco_wholebody`: COCO-WholeBody's 133 keypoints as mmpose's dataset info
//!   (`configs/_base_/datasets/coco_wholebody.py`) names them: COCO's 17, six foot points, the
//!   68 face points `face-0`…`face-67` (iBUG 300-W order), then the left and right hands'
//!   `*_hand_root`, `*_thumb1..4`, `*_forefinger1..4`, `*_middle_finger1..4`,
//!   `*_ring_finger1..4`, `*_pinky_finger1..4` (base to tip, as MediaPipe's 21).
//! * `smplx`: the first 55 of SMPL-X's `JOINT_NAMES` (`smplx/joint_names.py`): SMPL's first 22,
//!   `jaw`, `left_eye_smplhf`, `right_eye_smplhf`, then per hand (left first) index, middle,
//!   pinky, ring, thumb, three joints each. `thumb1..3` are the thumb's CMC, MCP and IP joints,
//!   `index1..3` a finger's MCP, PIP and DIP; SMPL-X has no finger tips, so those roles are
//!   absent, and its hand's wrist is the body's.

use super::{Builtin, Kind, Part, BLAZEPOSE33_JOINTS, HIPS, SHOULDERS, SMPL_BODY22};
use crate::keypoints::face::FaceMesh;
use crate::roles::Role::*;
use crate::roles::{Role, Side};

/// One hand of MediaPipe Hands, the side given by the caller.
pub(in crate::keypoints) const MEDIAPIPE_HAND: Builtin = Builtin {
    name: "mediapipe_hand",
    parts: &[Part::UnsidedHand],
    synthetic: &[],
    aliases: &[],
    kind: Kind::UnsidedHand,
};

/// Both hands of MediaPipe Hands, left then right.
pub(in crate::keypoints) const MEDIAPIPE_HANDS: Builtin = Builtin {
    name: "mediapipe_hands",
    parts: &[Part::Hand(Side::Left), Part::Hand(Side::Right)],
    synthetic: &[],
    aliases: &[("left_wrist", "left_hand_wrist"), ("right_wrist", "right_hand_wrist")],
    kind: Kind::Parts,
};

/// MediaPipe Holistic: pose, left hand, right hand, face mesh.
pub(in crate::keypoints) const HOLISTIC: Builtin = Builtin {
    name: "holistic",
    parts: &[
        Part::Joints(BLAZEPOSE33_JOINTS),
        Part::Hand(Side::Left),
        Part::Hand(Side::Right),
        Part::Face(FaceMesh::MediaPipe468, "face_"),
    ],
    synthetic: &[(Pelvis, HIPS), (Thorax, SHOULDERS)],
    aliases: &[],
    kind: Kind::Body,
};

/// MediaPipe Holistic with the irises refined.
pub(in crate::keypoints) const HOLISTIC_IRIS: Builtin = Builtin {
    name: "holistic_iris",
    parts: &[
        Part::Joints(BLAZEPOSE33_JOINTS),
        Part::Hand(Side::Left),
        Part::Hand(Side::Right),
        Part::Face(FaceMesh::MediaPipe478, "face_"),
    ],
    synthetic: &[(Pelvis, HIPS), (Thorax, SHOULDERS)],
    aliases: &[],
    kind: Kind::Body,
};

/// MediaPipe Face Mesh's 468 points alone.
pub(in crate::keypoints) const MEDIAPIPE_FACE: Builtin = Builtin {
    name: "mediapipe_face",
    parts: &[Part::Face(FaceMesh::MediaPipe468, "face_")],
    synthetic: &[],
    aliases: &[],
    kind: Kind::Parts,
};

/// MediaPipe Face Mesh's 478 points (irises refined) alone.
pub(in crate::keypoints) const MEDIAPIPE_FACE_IRIS: Builtin = Builtin {
    name: "mediapipe_face_iris",
    parts: &[Part::Face(FaceMesh::MediaPipe478, "face_")],
    synthetic: &[],
    aliases: &[],
    kind: Kind::Parts,
};

/// COCO-WholeBody's body: COCO's 17 keypoints, then the feet.
const COCO_WHOLEBODY_BODY: &[(&str, Option<Role>)] = &[
    ("nose", Some(Nose)),
    ("left_eye", Some(LeftEye)),
    ("right_eye", Some(RightEye)),
    ("left_ear", Some(LeftEar)),
    ("right_ear", Some(RightEar)),
    ("left_shoulder", Some(LeftShoulder)),
    ("right_shoulder", Some(RightShoulder)),
    ("left_elbow", Some(LeftElbow)),
    ("right_elbow", Some(RightElbow)),
    ("left_wrist", Some(LeftWrist)),
    ("right_wrist", Some(RightWrist)),
    ("left_hip", Some(LeftHip)),
    ("right_hip", Some(RightHip)),
    ("left_knee", Some(LeftKnee)),
    ("right_knee", Some(RightKnee)),
    ("left_ankle", Some(LeftAnkle)),
    ("right_ankle", Some(RightAnkle)),
    ("left_big_toe", Some(LeftBigToe)),
    ("left_small_toe", Some(LeftSmallToe)),
    ("left_heel", Some(LeftHeel)),
    ("right_big_toe", Some(RightBigToe)),
    ("right_small_toe", Some(RightSmallToe)),
    ("right_heel", Some(RightHeel)),
];

/// COCO-WholeBody's hands, left then right, in MediaPipe's order under mmpose's names.
const COCO_WHOLEBODY_HANDS: &[(&str, Option<Role>)] = &[
    ("left_hand_root", Some(LeftHandWrist)),
    ("left_thumb1", Some(LeftThumbCmc)),
    ("left_thumb2", Some(LeftThumbMcp)),
    ("left_thumb3", Some(LeftThumbIp)),
    ("left_thumb4", Some(LeftThumbTip)),
    ("left_forefinger1", Some(LeftIndexFingerMcp)),
    ("left_forefinger2", Some(LeftIndexFingerPip)),
    ("left_forefinger3", Some(LeftIndexFingerDip)),
    ("left_forefinger4", Some(LeftIndexFingerTip)),
    ("left_middle_finger1", Some(LeftMiddleFingerMcp)),
    ("left_middle_finger2", Some(LeftMiddleFingerPip)),
    ("left_middle_finger3", Some(LeftMiddleFingerDip)),
    ("left_middle_finger4", Some(LeftMiddleFingerTip)),
    ("left_ring_finger1", Some(LeftRingFingerMcp)),
    ("left_ring_finger2", Some(LeftRingFingerPip)),
    ("left_ring_finger3", Some(LeftRingFingerDip)),
    ("left_ring_finger4", Some(LeftRingFingerTip)),
    ("left_pinky_finger1", Some(LeftPinkyMcp)),
    ("left_pinky_finger2", Some(LeftPinkyPip)),
    ("left_pinky_finger3", Some(LeftPinkyDip)),
    ("left_pinky_finger4", Some(LeftPinkyTip)),
    ("right_hand_root", Some(RightHandWrist)),
    ("right_thumb1", Some(RightThumbCmc)),
    ("right_thumb2", Some(RightThumbMcp)),
    ("right_thumb3", Some(RightThumbIp)),
    ("right_thumb4", Some(RightThumbTip)),
    ("right_forefinger1", Some(RightIndexFingerMcp)),
    ("right_forefinger2", Some(RightIndexFingerPip)),
    ("right_forefinger3", Some(RightIndexFingerDip)),
    ("right_forefinger4", Some(RightIndexFingerTip)),
    ("right_middle_finger1", Some(RightMiddleFingerMcp)),
    ("right_middle_finger2", Some(RightMiddleFingerPip)),
    ("right_middle_finger3", Some(RightMiddleFingerDip)),
    ("right_middle_finger4", Some(RightMiddleFingerTip)),
    ("right_ring_finger1", Some(RightRingFingerMcp)),
    ("right_ring_finger2", Some(RightRingFingerPip)),
    ("right_ring_finger3", Some(RightRingFingerDip)),
    ("right_ring_finger4", Some(RightRingFingerTip)),
    ("right_pinky_finger1", Some(RightPinkyMcp)),
    ("right_pinky_finger2", Some(RightPinkyPip)),
    ("right_pinky_finger3", Some(RightPinkyDip)),
    ("right_pinky_finger4", Some(RightPinkyTip)),
];

/// COCO-WholeBody: body and feet, face, hands. No pelvis and no neck base, as COCO.
pub(in crate::keypoints) const COCO_WHOLEBODY: Builtin = Builtin {
    name: "coco_wholebody",
    parts: &[
        Part::Joints(COCO_WHOLEBODY_BODY),
        Part::Face(FaceMesh::Ibug68, "face-"),
        Part::Joints(COCO_WHOLEBODY_HANDS),
    ],
    synthetic: &[(Pelvis, HIPS), (Thorax, SHOULDERS)],
    aliases: &[],
    kind: Kind::Body,
};

/// SMPL-X's joints after SMPL's 22 body joints (55 in all): the jaw and eyes, 15 joints a hand.
/// `spine3` has no role, as in `smpl24`; the eyes are the eyeballs' centres.
const SMPLX_JOINTS: &[(&str, Option<Role>)] = &[
    ("jaw", Some(Jaw)),
    ("left_eye_smplhf", Some(LeftEye)),
    ("right_eye_smplhf", Some(RightEye)),
    ("left_index1", Some(LeftIndexFingerMcp)),
    ("left_index2", Some(LeftIndexFingerPip)),
    ("left_index3", Some(LeftIndexFingerDip)),
    ("left_middle1", Some(LeftMiddleFingerMcp)),
    ("left_middle2", Some(LeftMiddleFingerPip)),
    ("left_middle3", Some(LeftMiddleFingerDip)),
    ("left_pinky1", Some(LeftPinkyMcp)),
    ("left_pinky2", Some(LeftPinkyPip)),
    ("left_pinky3", Some(LeftPinkyDip)),
    ("left_ring1", Some(LeftRingFingerMcp)),
    ("left_ring2", Some(LeftRingFingerPip)),
    ("left_ring3", Some(LeftRingFingerDip)),
    ("left_thumb1", Some(LeftThumbCmc)),
    ("left_thumb2", Some(LeftThumbMcp)),
    ("left_thumb3", Some(LeftThumbIp)),
    ("right_index1", Some(RightIndexFingerMcp)),
    ("right_index2", Some(RightIndexFingerPip)),
    ("right_index3", Some(RightIndexFingerDip)),
    ("right_middle1", Some(RightMiddleFingerMcp)),
    ("right_middle2", Some(RightMiddleFingerPip)),
    ("right_middle3", Some(RightMiddleFingerDip)),
    ("right_pinky1", Some(RightPinkyMcp)),
    ("right_pinky2", Some(RightPinkyPip)),
    ("right_pinky3", Some(RightPinkyDip)),
    ("right_ring1", Some(RightRingFingerMcp)),
    ("right_ring2", Some(RightRingFingerPip)),
    ("right_ring3", Some(RightRingFingerDip)),
    ("right_thumb1", Some(RightThumbCmc)),
    ("right_thumb2", Some(RightThumbMcp)),
    ("right_thumb3", Some(RightThumbIp)),
];

/// SMPL-X. Its hands hang from the body's wrists, so each hand's own wrist is the body's
/// wrist (a synthetic point of one role).
pub(in crate::keypoints) const SMPLX: Builtin = Builtin {
    name: "smplx",
    parts: &[Part::Joints(SMPL_BODY22), Part::Joints(SMPLX_JOINTS)],
    synthetic: &[(LeftHandWrist, &[LeftWrist]), (RightHandWrist, &[RightWrist])],
    aliases: &[],
    kind: Kind::Body,
};
