//! [`Role`]: what a joint of a keypoint layout is, anatomically, whatever the layout calls it.
//! Layouts map their joints to roles; the retargeting places every role on an MMD skeleton.

use serde::{Deserialize, Serialize};

/// An anatomical point a keypoint layout can give. "Left" is the subject's own left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Role {
    /// Midpoint of the hip joints (H36M "hip", BODY_25 "MidHip", SMPL "pelvis").
    Pelvis,
    /// Lower and middle spine, about a third of the way from the pelvis to the neck base
    /// (H36M "spine", SMPL "spine1").
    Spine,
    /// Upper spine, between the spine and the neck base (SMPL "spine2"/"spine3").
    Chest,
    /// Base of the neck, between the shoulders (H36M "thorax", BODY_25 "Neck", SMPL "neck").
    Thorax,
    /// Centre of the head (SMPL "head").
    HeadCentre,
    /// Top of the head (H36M "Head", BODY_25B "HeadTop", which Pose2Sim writes as "Head").
    HeadTop,
    /// Nose, or H36M's "neck/nose" point in front of the chin.
    Nose,
    /// Left eye.
    LeftEye,
    /// Right eye.
    RightEye,
    /// Left ear.
    LeftEar,
    /// Right ear.
    RightEar,
    /// Left corner of the mouth.
    MouthLeft,
    /// Right corner of the mouth.
    MouthRight,
    /// Inner end of the left collarbone (SMPL "left_collar").
    LeftCollar,
    /// Inner end of the right collarbone.
    RightCollar,
    /// Left shoulder joint.
    LeftShoulder,
    /// Right shoulder joint.
    RightShoulder,
    /// Left elbow.
    LeftElbow,
    /// Right elbow.
    RightElbow,
    /// Left wrist.
    LeftWrist,
    /// Right wrist.
    RightWrist,
    /// Centre of the left hand, at the knuckles of the middle finger (SMPL "left_hand").
    LeftHand,
    /// Centre of the right hand.
    RightHand,
    /// Base of the left index finger (BlazePose "left_index").
    LeftIndex,
    /// Base of the right index finger.
    RightIndex,
    /// Base of the left little finger (BlazePose "left_pinky").
    LeftPinky,
    /// Base of the right little finger.
    RightPinky,
    /// Left thumb (BlazePose "left_thumb").
    LeftThumb,
    /// Right thumb.
    RightThumb,
    /// Left hip joint.
    LeftHip,
    /// Right hip joint.
    RightHip,
    /// Left knee.
    LeftKnee,
    /// Right knee.
    RightKnee,
    /// Left ankle.
    LeftAnkle,
    /// Right ankle.
    RightAnkle,
    /// Left heel.
    LeftHeel,
    /// Right heel.
    RightHeel,
    /// Tip of the left foot (BlazePose "left_foot_index", SMPL "left_foot").
    LeftToe,
    /// Tip of the right foot.
    RightToe,
    /// Left big toe (BODY_25 "LBigToe").
    LeftBigToe,
    /// Right big toe.
    RightBigToe,
    /// Left small toe (BODY_25 "LSmallToe").
    LeftSmallToe,
    /// Right small toe.
    RightSmallToe,
}

impl Role {
    /// Every role, in declaration order.
    pub const ALL: [Role; 43] = {
        use Role::*;
        [
            Pelvis,
            Spine,
            Chest,
            Thorax,
            HeadCentre,
            HeadTop,
            Nose,
            LeftEye,
            RightEye,
            LeftEar,
            RightEar,
            MouthLeft,
            MouthRight,
            LeftCollar,
            RightCollar,
            LeftShoulder,
            RightShoulder,
            LeftElbow,
            RightElbow,
            LeftWrist,
            RightWrist,
            LeftHand,
            RightHand,
            LeftIndex,
            RightIndex,
            LeftPinky,
            RightPinky,
            LeftThumb,
            RightThumb,
            LeftHip,
            RightHip,
            LeftKnee,
            RightKnee,
            LeftAnkle,
            RightAnkle,
            LeftHeel,
            RightHeel,
            LeftToe,
            RightToe,
            LeftBigToe,
            RightBigToe,
            LeftSmallToe,
            RightSmallToe,
        ]
    };

    /// The name in snake case, as user layout files and reports write it (`left_knee`).
    pub fn name(self) -> &'static str {
        ROLE_NAMES[self as usize]
    }

    /// The role a snake-case name stands for ([`Role::name`]).
    pub fn from_name(name: &str) -> Option<Role> {
        ROLE_NAMES.iter().position(|n| *n == name).map(|i| Role::ALL[i])
    }

    /// The same point on the other side (`LeftKnee` ↔ `RightKnee`); central points are their own.
    pub fn mirrored(self) -> Role {
        let name = self.name();
        let other = if let Some(rest) = name.strip_prefix("left_") {
            format!("right_{rest}")
        } else if let Some(rest) = name.strip_prefix("right_") {
            format!("left_{rest}")
        } else if name == "mouth_left" {
            "mouth_right".to_string()
        } else if name == "mouth_right" {
            "mouth_left".to_string()
        } else {
            return self;
        };
        Role::from_name(&other).unwrap_or(self)
    }
}

const ROLE_NAMES: [&str; 43] = [
    "pelvis",
    "spine",
    "chest",
    "thorax",
    "head_centre",
    "head_top",
    "nose",
    "left_eye",
    "right_eye",
    "left_ear",
    "right_ear",
    "mouth_left",
    "mouth_right",
    "left_collar",
    "right_collar",
    "left_shoulder",
    "right_shoulder",
    "left_elbow",
    "right_elbow",
    "left_wrist",
    "right_wrist",
    "left_hand",
    "right_hand",
    "left_index",
    "right_index",
    "left_pinky",
    "right_pinky",
    "left_thumb",
    "right_thumb",
    "left_hip",
    "right_hip",
    "left_knee",
    "right_knee",
    "left_ankle",
    "right_ankle",
    "left_heel",
    "right_heel",
    "left_toe",
    "right_toe",
    "left_big_toe",
    "right_big_toe",
    "left_small_toe",
    "right_small_toe",
];

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Role;

    #[test]
    fn names_and_roles_match_one_to_one() {
        for (i, role) in Role::ALL.iter().enumerate() {
            assert_eq!(*role as usize, i);
            assert_eq!(Role::from_name(role.name()), Some(*role));
            assert_eq!(role.mirrored().mirrored(), *role);
        }
        assert_eq!(Role::LeftKnee.mirrored(), Role::RightKnee);
        assert_eq!(Role::MouthLeft.mirrored(), Role::MouthRight);
        assert_eq!(Role::Pelvis.mirrored(), Role::Pelvis);
    }
}
