//! The built-in layouts as tables: each format's joints in its own order, named as its own code
//! or documentation spells them, with the role each joint plays.
//!
//! Sources of the orders (checked against their code, or against a real file of
//! `../shared/pose` where one exists):
//! * `h36m`: `H36M_NAMES` of 3d-pose-baseline, the 17 of the 32 Human3.6M joints that move, in
//!   the order 3d-pose-baseline and VideoPose3D keep them.
//! * `lftd17`: "Lifting from the Deep" as VMD-Lifting writes it (`posfile.csv`'s header).
//! * `coco17`: the COCO keypoint annotation order.
//! * `blazepose33`: MediaPipe Pose's `PoseLandmark` order (the `.pose` world-landmark CSVs).
//! * `body25`: OpenPose's `POSE_BODY_25_BODY_PARTS`.
//! * `body25b`: OpenPose's `POSE_BODY_25B_BODY_PARTS` (experimental model); Pose2Sim writes the
//!   same points into TRC files under its own names, given here as aliases.
//! * `smpl24`: the SMPL body model's joints.

//! * `mediapipe_hand`, `mediapipe_hands`, `holistic`, `holistic_iris`, `mediapipe_face`,
//!   `mediapipe_face_iris`, `coco_wholebody`, `smplx`: `layouts/whole_body.rs`, with their
//!   sources.

mod whole_body;

use super::face::{FaceBlock, FaceMesh};
use crate::roles::Role::*;
use crate::roles::{Role, Side};
use std::borrow::Cow;

/// One built-in layout's table.
pub(super) struct Builtin {
    /// The name `--layout` takes.
    pub name: &'static str,
    /// The joints in file order, part after part.
    pub parts: &'static [Part],
    /// Roles no joint has, as the mean of roles that joints have.
    pub synthetic: &'static [(Role, &'static [Role])],
    /// Other names files of this format give a joint, and the joint they stand for, so that
    /// detection by names maps renamed marker sets (Pose2Sim's TRC) by name, not by order.
    pub aliases: &'static [(&'static str, &'static str)],
    /// What the layout holds, which decides what detection asks of it.
    pub kind: Kind,
}

/// A run of a table's joints.
pub(super) enum Part {
    /// Joints as written: name and role.
    Joints(&'static [(&'static str, Option<Role>)]),
    /// One hand's 21 points in MediaPipe's order under their role names (`left_hand_wrist`,
    /// `left_thumb_cmc`, …), as the layouts made of MediaPipe's hands name them.
    Hand(Side),
    /// One hand's 21 points under MediaPipe's own unprefixed names (`wrist`, `thumb_cmc`, …),
    /// with the left hand's roles: the caller gives the side.
    UnsidedHand,
    /// A face mesh, its points named by a prefix and their index (`face_0`, `face-0`), without
    /// roles.
    Face(FaceMesh, &'static str),
}

/// What a built-in layout holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A body (perhaps with hands and a face): detection by names asks for what the
    /// retargeting needs of a body.
    Body,
    /// Hands or a face without a body.
    Parts,
    /// One hand whose side the names do not say ([`Part::UnsidedHand`]).
    UnsidedHand,
}

impl Part {
    fn len(&self) -> usize {
        match self {
            Part::Joints(joints) => joints.len(),
            Part::Hand(_) | Part::UnsidedHand => 21,
            Part::Face(mesh, _) => mesh.len(),
        }
    }
}

impl Builtin {
    /// The number of joints.
    pub fn len(&self) -> usize {
        self.parts.iter().map(Part::len).sum()
    }

    /// Every joint's name and role, in file order; an unsided hand with the left hand's roles.
    pub fn joints(&self) -> Vec<(Cow<'static, str>, Option<Role>)> {
        let mut joints = Vec::with_capacity(self.len());
        for part in self.parts {
            match *part {
                Part::Joints(list) => {
                    joints.extend(list.iter().map(|&(name, role)| (Cow::Borrowed(name), role)))
                }
                Part::Hand(side) => joints.extend(
                    Role::hand_points(side).map(|role| (Cow::Borrowed(role.name()), Some(role))),
                ),
                Part::UnsidedHand => joints.extend(
                    Role::hand_points(Side::Left).map(|role| (unsided_name(role), Some(role))),
                ),
                Part::Face(mesh, prefix) => joints
                    .extend((0..mesh.len()).map(|i| (Cow::Owned(format!("{prefix}{i}")), None))),
            }
        }
        joints
    }

    /// The table's face mesh and where it starts, if it has one.
    pub fn face(&self) -> Option<FaceBlock> {
        let mut first = 0;
        for part in self.parts {
            if let Part::Face(mesh, _) = *part {
                return Some(FaceBlock { mesh, first });
            }
            first += part.len();
        }
        None
    }

    /// The name of a table's face points without their index (`face_`), if it has a face.
    pub fn face_prefix(&self) -> Option<&'static str> {
        self.parts.iter().find_map(|p| match *p {
            Part::Face(_, prefix) => Some(prefix),
            _ => None,
        })
    }
}

/// MediaPipe's `HandLandmark` name of a left-hand role in lower case: the role's name without
/// `left_`, the hand's wrist being plain `wrist`.
fn unsided_name(role: Role) -> Cow<'static, str> {
    match role.name().strip_prefix("left_") {
        Some("hand_wrist") => Cow::Borrowed("wrist"),
        Some(rest) => Cow::Borrowed(rest),
        None => Cow::Borrowed(role.name()),
    }
}

const HIPS: &[Role] = &[LeftHip, RightHip];
const SHOULDERS: &[Role] = &[LeftShoulder, RightShoulder];

/// Human3.6M's 17 moving joints. "Neck/Nose" sits in front of the chin, closer to a nose than
/// to a neck, and "Head" is the top of the head; "RFoot"/"LFoot" are the ankles.
const H36M: Builtin = Builtin {
    name: "h36m",
    parts: &[Part::Joints(&[
        ("Hip", Some(Pelvis)),
        ("RHip", Some(RightHip)),
        ("RKnee", Some(RightKnee)),
        ("RFoot", Some(RightAnkle)),
        ("LHip", Some(LeftHip)),
        ("LKnee", Some(LeftKnee)),
        ("LFoot", Some(LeftAnkle)),
        ("Spine", Some(Spine)),
        ("Thorax", Some(Thorax)),
        ("Neck/Nose", Some(Nose)),
        ("Head", Some(HeadTop)),
        ("LShoulder", Some(LeftShoulder)),
        ("LElbow", Some(LeftElbow)),
        ("LWrist", Some(LeftWrist)),
        ("RShoulder", Some(RightShoulder)),
        ("RElbow", Some(RightElbow)),
        ("RWrist", Some(RightWrist)),
    ])],
    synthetic: &[],
    aliases: &[],
    kind: Kind::Body,
};

/// "Lifting from the Deep": Human3.6M's points under their own names, "neck" being H36M's
/// "Neck/Nose".
const LFTD17: Builtin = Builtin {
    name: "lftd17",
    parts: &[Part::Joints(&[
        ("hip", Some(Pelvis)),
        ("r_hip", Some(RightHip)),
        ("r_knee", Some(RightKnee)),
        ("r_ankle", Some(RightAnkle)),
        ("l_hip", Some(LeftHip)),
        ("l_knee", Some(LeftKnee)),
        ("l_ankle", Some(LeftAnkle)),
        ("spine", Some(Spine)),
        ("thorax", Some(Thorax)),
        ("neck", Some(Nose)),
        ("head_top", Some(HeadTop)),
        ("l_shoulder", Some(LeftShoulder)),
        ("l_elbow", Some(LeftElbow)),
        ("l_wrist", Some(LeftWrist)),
        ("r_shoulder", Some(RightShoulder)),
        ("r_elbow", Some(RightElbow)),
        ("r_wrist", Some(RightWrist)),
    ])],
    synthetic: &[],
    aliases: &[],
    kind: Kind::Body,
};

/// COCO keypoints: no pelvis and no neck, so both are implied. The shoulders' midpoint sits
/// lower than MMD's neck base; the solver decides whether to use it.
const COCO17: Builtin = Builtin {
    name: "coco17",
    parts: &[Part::Joints(&[
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
    ])],
    synthetic: &[(Pelvis, HIPS), (Thorax, SHOULDERS)],
    aliases: &[],
    kind: Kind::Body,
};

/// MediaPipe Pose's 33 landmarks, in `PoseLandmark` order: BLAZEPOSE33's joints, and the
/// first part of Holistic's.
pub(super) const BLAZEPOSE33_JOINTS: &[(&str, Option<Role>)] = &[
    ("nose", Some(Nose)),
    ("left_eye_inner", None),
    ("left_eye", Some(LeftEye)),
    ("left_eye_outer", None),
    ("right_eye_inner", None),
    ("right_eye", Some(RightEye)),
    ("right_eye_outer", None),
    ("left_ear", Some(LeftEar)),
    ("right_ear", Some(RightEar)),
    ("mouth_left", Some(MouthLeft)),
    ("mouth_right", Some(MouthRight)),
    ("left_shoulder", Some(LeftShoulder)),
    ("right_shoulder", Some(RightShoulder)),
    ("left_elbow", Some(LeftElbow)),
    ("right_elbow", Some(RightElbow)),
    ("left_wrist", Some(LeftWrist)),
    ("right_wrist", Some(RightWrist)),
    ("left_pinky", Some(LeftPinky)),
    ("right_pinky", Some(RightPinky)),
    ("left_index", Some(LeftIndex)),
    ("right_index", Some(RightIndex)),
    ("left_thumb", Some(LeftThumb)),
    ("right_thumb", Some(RightThumb)),
    ("left_hip", Some(LeftHip)),
    ("right_hip", Some(RightHip)),
    ("left_knee", Some(LeftKnee)),
    ("right_knee", Some(RightKnee)),
    ("left_ankle", Some(LeftAnkle)),
    ("right_ankle", Some(RightAnkle)),
    ("left_heel", Some(LeftHeel)),
    ("right_heel", Some(RightHeel)),
    ("left_foot_index", Some(LeftToe)),
    ("right_foot_index", Some(RightToe)),
];

/// MediaPipe Pose (BlazePose). The eye corners have no role: the eye centres carry the same
/// information. "foot_index" is the tip of the foot.
const BLAZEPOSE33: Builtin = Builtin {
    name: "blazepose33",
    parts: &[Part::Joints(BLAZEPOSE33_JOINTS)],
    synthetic: &[(Pelvis, HIPS), (Thorax, SHOULDERS)],
    aliases: &[],
    kind: Kind::Body,
};

/// OpenPose BODY_25: COCO's points plus a neck (the shoulders' midpoint as trained), a mid-hip
/// and six foot points.
const BODY25: Builtin = Builtin {
    name: "body25",
    parts: &[Part::Joints(&[
        ("Nose", Some(Nose)),
        ("Neck", Some(Thorax)),
        ("RShoulder", Some(RightShoulder)),
        ("RElbow", Some(RightElbow)),
        ("RWrist", Some(RightWrist)),
        ("LShoulder", Some(LeftShoulder)),
        ("LElbow", Some(LeftElbow)),
        ("LWrist", Some(LeftWrist)),
        ("MidHip", Some(Pelvis)),
        ("RHip", Some(RightHip)),
        ("RKnee", Some(RightKnee)),
        ("RAnkle", Some(RightAnkle)),
        ("LHip", Some(LeftHip)),
        ("LKnee", Some(LeftKnee)),
        ("LAnkle", Some(LeftAnkle)),
        ("REye", Some(RightEye)),
        ("LEye", Some(LeftEye)),
        ("REar", Some(RightEar)),
        ("LEar", Some(LeftEar)),
        ("LBigToe", Some(LeftBigToe)),
        ("LSmallToe", Some(LeftSmallToe)),
        ("LHeel", Some(LeftHeel)),
        ("RBigToe", Some(RightBigToe)),
        ("RSmallToe", Some(RightSmallToe)),
        ("RHeel", Some(RightHeel)),
    ])],
    synthetic: &[],
    aliases: &[],
    kind: Kind::Body,
};

/// OpenPose BODY_25B, trained on MPII-style head points: "UpperNeck" is the top of the neck
/// (in Pose2Sim's static trial 8 cm above the shoulders and 10 cm below the nose), which no
/// role describes, and "HeadTop" the top of the head (13 cm above the nose). Pose2Sim writes
/// them as "Neck" and "Head"; the file's numbers, not the names, say what they are.
const BODY25B: Builtin = Builtin {
    name: "body25b",
    parts: &[Part::Joints(&[
        ("Nose", Some(Nose)),
        ("LEye", Some(LeftEye)),
        ("REye", Some(RightEye)),
        ("LEar", Some(LeftEar)),
        ("REar", Some(RightEar)),
        ("LShoulder", Some(LeftShoulder)),
        ("RShoulder", Some(RightShoulder)),
        ("LElbow", Some(LeftElbow)),
        ("RElbow", Some(RightElbow)),
        ("LWrist", Some(LeftWrist)),
        ("RWrist", Some(RightWrist)),
        ("LHip", Some(LeftHip)),
        ("RHip", Some(RightHip)),
        ("LKnee", Some(LeftKnee)),
        ("RKnee", Some(RightKnee)),
        ("LAnkle", Some(LeftAnkle)),
        ("RAnkle", Some(RightAnkle)),
        ("UpperNeck", None),
        ("HeadTop", Some(HeadTop)),
        ("LBigToe", Some(LeftBigToe)),
        ("LSmallToe", Some(LeftSmallToe)),
        ("LHeel", Some(LeftHeel)),
        ("RBigToe", Some(RightBigToe)),
        ("RSmallToe", Some(RightSmallToe)),
        ("RHeel", Some(RightHeel)),
    ])],
    synthetic: &[(Pelvis, HIPS), (Thorax, SHOULDERS)],
    aliases: &[("Neck", "UpperNeck"), ("Head", "HeadTop")],
    kind: Kind::Body,
};

/// The first 22 joints of SMPL and SMPL-X alike: the body without SMPL's hand joints.
pub(super) const SMPL_BODY22: &[(&str, Option<Role>)] = &[
    ("pelvis", Some(Pelvis)),
    ("left_hip", Some(LeftHip)),
    ("right_hip", Some(RightHip)),
    ("spine1", Some(Spine)),
    ("left_knee", Some(LeftKnee)),
    ("right_knee", Some(RightKnee)),
    ("spine2", Some(Chest)),
    ("left_ankle", Some(LeftAnkle)),
    ("right_ankle", Some(RightAnkle)),
    ("spine3", None),
    ("left_foot", Some(LeftToe)),
    ("right_foot", Some(RightToe)),
    ("neck", Some(Thorax)),
    ("left_collar", Some(LeftCollar)),
    ("right_collar", Some(RightCollar)),
    ("head", Some(HeadCentre)),
    ("left_shoulder", Some(LeftShoulder)),
    ("right_shoulder", Some(RightShoulder)),
    ("left_elbow", Some(LeftElbow)),
    ("right_elbow", Some(RightElbow)),
    ("left_wrist", Some(LeftWrist)),
    ("right_wrist", Some(RightWrist)),
];

/// SMPL's 24 joints. "spine3" lies between "spine2" and the neck, with no role of its own;
/// "left_foot" is the ball of the foot, the nearest SMPL has to a toe.
const SMPL24: Builtin = Builtin {
    name: "smpl24",
    parts: &[
        Part::Joints(SMPL_BODY22),
        Part::Joints(&[("left_hand", Some(LeftHand)), ("right_hand", Some(RightHand))]),
    ],
    synthetic: &[],
    aliases: &[],
    kind: Kind::Body,
};

/// Every built-in layout, in the order detection prefers them on a tie.
pub(super) const BUILTINS: [&Builtin; 15] = [
    &H36M,
    &LFTD17,
    &COCO17,
    &BLAZEPOSE33,
    &BODY25,
    &BODY25B,
    &SMPL24,
    &whole_body::MEDIAPIPE_HAND,
    &whole_body::MEDIAPIPE_HANDS,
    &whole_body::HOLISTIC,
    &whole_body::HOLISTIC_IRIS,
    &whole_body::MEDIAPIPE_FACE,
    &whole_body::MEDIAPIPE_FACE_IRIS,
    &whole_body::COCO_WHOLEBODY,
    &whole_body::SMPLX,
];

/// The names of [`BUILTINS`], in the same order.
pub(super) const BUILTIN_NAMES: [&str; 15] = [
    "h36m",
    "lftd17",
    "coco17",
    "blazepose33",
    "body25",
    "body25b",
    "smpl24",
    "mediapipe_hand",
    "mediapipe_hands",
    "holistic",
    "holistic_iris",
    "mediapipe_face",
    "mediapipe_face_iris",
    "coco_wholebody",
    "smplx",
];
