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
    /// Jaw (SMPL-X "jaw").
    Jaw => "jaw",
    /// The left hand's wrist as a hand layout gives it (MediaPipe Hands' `wrist`), which may
    /// differ from the body's left wrist: finger solving uses the hand's own.
    LeftHandWrist => "left_hand_wrist",
    /// The left thumb's carpometacarpal joint (the thumb's base in the palm).
    LeftThumbCmc => "left_thumb_cmc",
    /// The left thumb's knuckle (metacarpophalangeal joint).
    LeftThumbMcp => "left_thumb_mcp",
    /// The left thumb's joint between its two phalanges.
    LeftThumbIp => "left_thumb_ip",
    /// The left thumb's tip.
    LeftThumbTip => "left_thumb_tip",
    /// The left index finger's knuckle (metacarpophalangeal joint).
    LeftIndexFingerMcp => "left_index_finger_mcp",
    /// The left index finger's middle joint (proximal interphalangeal).
    LeftIndexFingerPip => "left_index_finger_pip",
    /// The left index finger's end joint (distal interphalangeal).
    LeftIndexFingerDip => "left_index_finger_dip",
    /// The left index finger's tip.
    LeftIndexFingerTip => "left_index_finger_tip",
    /// The left middle finger's knuckle (metacarpophalangeal joint).
    LeftMiddleFingerMcp => "left_middle_finger_mcp",
    /// The left middle finger's middle joint (proximal interphalangeal).
    LeftMiddleFingerPip => "left_middle_finger_pip",
    /// The left middle finger's end joint (distal interphalangeal).
    LeftMiddleFingerDip => "left_middle_finger_dip",
    /// The left middle finger's tip.
    LeftMiddleFingerTip => "left_middle_finger_tip",
    /// The left ring finger's knuckle (metacarpophalangeal joint).
    LeftRingFingerMcp => "left_ring_finger_mcp",
    /// The left ring finger's middle joint (proximal interphalangeal).
    LeftRingFingerPip => "left_ring_finger_pip",
    /// The left ring finger's end joint (distal interphalangeal).
    LeftRingFingerDip => "left_ring_finger_dip",
    /// The left ring finger's tip.
    LeftRingFingerTip => "left_ring_finger_tip",
    /// The left little finger's knuckle (metacarpophalangeal joint).
    LeftPinkyMcp => "left_pinky_mcp",
    /// The left little finger's middle joint (proximal interphalangeal).
    LeftPinkyPip => "left_pinky_pip",
    /// The left little finger's end joint (distal interphalangeal).
    LeftPinkyDip => "left_pinky_dip",
    /// The left little finger's tip.
    LeftPinkyTip => "left_pinky_tip",
    /// The right hand's wrist as a hand layout gives it (MediaPipe Hands' `wrist`), which may
    /// differ from the body's right wrist: finger solving uses the hand's own.
    RightHandWrist => "right_hand_wrist",
    /// The right thumb's carpometacarpal joint (the thumb's base in the palm).
    RightThumbCmc => "right_thumb_cmc",
    /// The right thumb's knuckle (metacarpophalangeal joint).
    RightThumbMcp => "right_thumb_mcp",
    /// The right thumb's joint between its two phalanges.
    RightThumbIp => "right_thumb_ip",
    /// The right thumb's tip.
    RightThumbTip => "right_thumb_tip",
    /// The right index finger's knuckle (metacarpophalangeal joint).
    RightIndexFingerMcp => "right_index_finger_mcp",
    /// The right index finger's middle joint (proximal interphalangeal).
    RightIndexFingerPip => "right_index_finger_pip",
    /// The right index finger's end joint (distal interphalangeal).
    RightIndexFingerDip => "right_index_finger_dip",
    /// The right index finger's tip.
    RightIndexFingerTip => "right_index_finger_tip",
    /// The right middle finger's knuckle (metacarpophalangeal joint).
    RightMiddleFingerMcp => "right_middle_finger_mcp",
    /// The right middle finger's middle joint (proximal interphalangeal).
    RightMiddleFingerPip => "right_middle_finger_pip",
    /// The right middle finger's end joint (distal interphalangeal).
    RightMiddleFingerDip => "right_middle_finger_dip",
    /// The right middle finger's tip.
    RightMiddleFingerTip => "right_middle_finger_tip",
    /// The right ring finger's knuckle (metacarpophalangeal joint).
    RightRingFingerMcp => "right_ring_finger_mcp",
    /// The right ring finger's middle joint (proximal interphalangeal).
    RightRingFingerPip => "right_ring_finger_pip",
    /// The right ring finger's end joint (distal interphalangeal).
    RightRingFingerDip => "right_ring_finger_dip",
    /// The right ring finger's tip.
    RightRingFingerTip => "right_ring_finger_tip",
    /// The right little finger's knuckle (metacarpophalangeal joint).
    RightPinkyMcp => "right_pinky_mcp",
    /// The right little finger's middle joint (proximal interphalangeal).
    RightPinkyPip => "right_pinky_pip",
    /// The right little finger's end joint (distal interphalangeal).
    RightPinkyDip => "right_pinky_dip",
    /// The right little finger's tip.
    RightPinkyTip => "right_pinky_tip",
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

/// A side of the body, the subject's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The subject's left.
    Left,
    /// The subject's right.
    Right,
}

impl Side {
    /// Both sides, left first.
    pub const BOTH: [Side; 2] = [Side::Left, Side::Right];

    /// `left` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// A finger, thumb first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finger {
    /// The thumb: base in the palm (CMC), MCP, IP, tip.
    Thumb,
    /// The index finger: MCP, PIP, DIP, tip.
    Index,
    /// The middle finger.
    Middle,
    /// The ring finger.
    Ring,
    /// The little finger (MediaPipe's "pinky").
    Pinky,
}

impl Finger {
    /// The five fingers, thumb first, as MediaPipe Hands orders them.
    pub const ALL: [Finger; 5] =
        [Finger::Thumb, Finger::Index, Finger::Middle, Finger::Ring, Finger::Pinky];
}

impl Role {
    /// A hand's 21 points in MediaPipe Hands' `HandLandmark` order: the hand's wrist, then four
    /// points per finger from the base to the tip, thumb first.
    pub fn hand_points(side: Side) -> [Role; 21] {
        let first = match side {
            Side::Left => Role::LeftHandWrist as usize,
            Side::Right => Role::RightHandWrist as usize,
        };
        std::array::from_fn(|i| Role::ALL[first + i])
    }

    /// The four points of one finger of one hand, base to tip (CMC, MCP, IP, tip for the
    /// thumb; MCP, PIP, DIP, tip for the others).
    pub fn finger_points(side: Side, finger: Finger) -> [Role; 4] {
        let hand = Role::hand_points(side);
        let first = 1 + 4 * finger as usize;
        std::array::from_fn(|i| hand[first + i])
    }

    /// The side and finger of a finger point, or the side of a hand's wrist (finger `None`).
    pub fn hand_part(self) -> Option<(Side, Option<Finger>)> {
        for side in Side::BOTH {
            let hand = Role::hand_points(side);
            if let Some(i) = hand.iter().position(|&r| r == self) {
                return Some((side, (i > 0).then(|| Finger::ALL[(i - 1) / 4])));
            }
        }
        None
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

    #[test]
    fn hand_points_follow_mediapipe_order() {
        use super::{Finger, Side};
        let names: Vec<&str> = Role::hand_points(Side::Right).iter().map(|r| r.name()).collect();
        assert_eq!(names[0], "right_hand_wrist");
        assert_eq!(
            names[1..5],
            ["right_thumb_cmc", "right_thumb_mcp", "right_thumb_ip", "right_thumb_tip"]
        );
        assert_eq!(names[20], "right_pinky_tip");
        let index = Role::finger_points(Side::Left, Finger::Index);
        assert_eq!(index[1].name(), "left_index_finger_pip");
        assert_eq!(index[1].hand_part(), Some((Side::Left, Some(Finger::Index))));
        assert_eq!(Role::LeftHandWrist.hand_part(), Some((Side::Left, None)));
        assert_eq!(Role::LeftWrist.hand_part(), None);
        for (l, r) in Role::hand_points(Side::Left).iter().zip(Role::hand_points(Side::Right)) {
            assert_eq!(l.mirrored(), r);
        }
    }
}
