//! [`Role`]: what a joint is, anatomically, whatever a keypoint layout or a BVH skeleton calls
//! it. Keypoint layouts and BVH joint maps map their joints to roles, comparing joint names as
//! `normalize` folds them; the retargeting places every role on an MMD skeleton.

use serde::{Deserialize, Serialize};

/// Declares [`Role`] with each variant's snake-case name once, so that the enum, its
/// [`Role::ALL`] list and its names cannot drift apart.
macro_rules! roles {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// An anatomical point a keypoint layout can give. "Left" is the subject's own left.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        #[serde(rename_all = "snake_case")]
        #[non_exhaustive]
        pub enum Role {
            $($(#[$doc])* $variant,)*
        }

        impl Role {
            /// Every role, in declaration order.
            pub const ALL: &'static [Role] = &[$(Role::$variant,)*];

            /// The name in snake case, as user layout files and reports write it
            /// (`left_knee`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Role::$variant => $name,)*
                }
            }
        }
    };
}

roles! {
    /// Midpoint of the hip joints (H36M "hip", BODY_25 "MidHip", SMPL "pelvis").
    Pelvis => "pelvis",
    /// Lower and middle spine, about a third of the way from the pelvis to the neck base
    /// (H36M "spine", SMPL "spine1").
    Spine => "spine",
    /// Upper spine, between the spine and the neck base (SMPL "spine2"/"spine3").
    Chest => "chest",
    /// Base of the neck, between the shoulders (H36M "thorax", BODY_25 "Neck", SMPL "neck").
    Thorax => "thorax",
    /// Centre of the head (SMPL "head").
    HeadCentre => "head_centre",
    /// Top of the head (H36M "Head", BODY_25B "HeadTop", which Pose2Sim writes as "Head").
    HeadTop => "head_top",
    /// Nose, or H36M's "neck/nose" point in front of the chin.
    Nose => "nose",
    /// Left eye.
    LeftEye => "left_eye",
    /// Right eye.
    RightEye => "right_eye",
    /// Left ear.
    LeftEar => "left_ear",
    /// Right ear.
    RightEar => "right_ear",
    /// Left corner of the mouth.
    MouthLeft => "mouth_left",
    /// Right corner of the mouth.
    MouthRight => "mouth_right",
    /// Inner end of the left collarbone (SMPL "left_collar").
    LeftCollar => "left_collar",
    /// Inner end of the right collarbone.
    RightCollar => "right_collar",
    /// Left shoulder joint.
    LeftShoulder => "left_shoulder",
    /// Right shoulder joint.
    RightShoulder => "right_shoulder",
    /// Left elbow.
    LeftElbow => "left_elbow",
    /// Right elbow.
    RightElbow => "right_elbow",
    /// Left wrist.
    LeftWrist => "left_wrist",
    /// Right wrist.
    RightWrist => "right_wrist",
    /// Centre of the left hand, at the knuckles of the middle finger (SMPL "left_hand").
    LeftHand => "left_hand",
    /// Centre of the right hand.
    RightHand => "right_hand",
    /// Base of the left index finger (BlazePose "left_index").
    LeftIndex => "left_index",
    /// Base of the right index finger.
    RightIndex => "right_index",
    /// Base of the left little finger (BlazePose "left_pinky").
    LeftPinky => "left_pinky",
    /// Base of the right little finger.
    RightPinky => "right_pinky",
    /// Left thumb (BlazePose "left_thumb").
    LeftThumb => "left_thumb",
    /// Right thumb.
    RightThumb => "right_thumb",
    /// Left hip joint.
    LeftHip => "left_hip",
    /// Right hip joint.
    RightHip => "right_hip",
    /// Left knee.
    LeftKnee => "left_knee",
    /// Right knee.
    RightKnee => "right_knee",
    /// Left ankle.
    LeftAnkle => "left_ankle",
    /// Right ankle.
    RightAnkle => "right_ankle",
    /// Left heel.
    LeftHeel => "left_heel",
    /// Right heel.
    RightHeel => "right_heel",
    /// Tip of the left foot (BlazePose "left_foot_index", SMPL "left_foot").
    LeftToe => "left_toe",
    /// Tip of the right foot.
    RightToe => "right_toe",
    /// Left big toe (BODY_25 "LBigToe").
    LeftBigToe => "left_big_toe",
    /// Right big toe.
    RightBigToe => "right_big_toe",
    /// Left small toe (BODY_25 "LSmallToe").
    LeftSmallToe => "left_small_toe",
    /// Right small toe.
    RightSmallToe => "right_small_toe",
}

impl Role {
    /// The role a snake-case name stands for ([`Role::name`]).
    pub fn from_name(name: &str) -> Option<Role> {
        Role::ALL.iter().copied().find(|r| r.name() == name)
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

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A joint name as layout and joint-map detection compare it: lower case, letters and digits
/// only.
pub(crate) fn normalize(name: &str) -> String {
    name.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
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
