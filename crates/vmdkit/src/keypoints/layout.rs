//! [`JointLayout`]: a keypoint file's joint order, each joint mapped to a [`Role`] (or to none, for
//! joints the retargeting does not use), plus the synthetic points a layout implies.
//!
//! Layouts come from three places: the built-in tables ([`JointLayout::builtin`]), detection from a
//! file's joint names or count ([`JointLayout::detect`]), and user mapping files
//! ([`JointLayout::from_mapping`], `layout/mapping.rs`).

mod by_names;
mod mapping;
#[cfg(test)]
mod tests;

use super::face::FaceBlock;
use super::layouts::{Builtin, Kind, BUILTINS, BUILTIN_NAMES};
use crate::roles::{normalize, Role, Side};
use std::path::PathBuf;

/// One joint of a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutJoint {
    /// The joint's name in the layout's own terms (`LKnee`, `left_knee`, `r_ankle`).
    pub name: String,
    /// What the joint is, when the retargeting uses it.
    pub role: Option<Role>,
}

/// A point a layout does not have but implies: the mean of other roles (COCO's missing pelvis is
/// the mean of its hips).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntheticPoint {
    /// The role the point stands for.
    pub role: Role,
    /// The roles averaged.
    pub mean_of: Vec<Role>,
}

/// A named joint order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JointLayout {
    /// The layout's name (`h36m`, or the user file's name).
    pub name: String,
    /// The joints, in file order.
    pub joints: Vec<LayoutJoint>,
    /// Points implied by the joints, for roles no joint has.
    pub synthetic: Vec<SyntheticPoint>,
    /// The face landmarks the layout carries, as one block of consecutive joints (joints
    /// without a role), when it has them.
    pub face: Option<FaceBlock>,
}

/// Why no layout could be chosen or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JointLayoutError {
    /// A layout name that is not built in.
    #[error("unknown layout `{name}`; the built-in layouts are {}", choices.join(", "))]
    UnknownLayout {
        /// The name asked for.
        name: String,
        /// The built-in layouts' names.
        choices: &'static [&'static str],
    },
    /// A file without recognisable joint names has a joint count no layout has.
    #[error(
        "{count} joints fit no built-in layout ({})",
        counts.iter().map(|(n, c)| format!("{n}: {c}")).collect::<Vec<_>>().join(", ")
    )]
    JointCount {
        /// The file's joint count.
        count: usize,
        /// Each built-in layout's name and joint count.
        counts: Vec<(&'static str, usize)>,
    },
    /// More than one built-in layout fits the file.
    #[error("{what} fit several layouts ({})", candidates.join(", "))]
    Ambiguous {
        /// What was matched: "17 joints", or "the joint names".
        what: String,
        /// The layouts that fit.
        candidates: Vec<&'static str>,
    },
    /// A layout of one hand under names that do not say which (MediaPipe's `wrist`,
    /// `thumb_cmc`, …, or 21 unnamed joints), and no side was given.
    #[error(
        "the hand's side is unknown: {layout} names one hand's points without saying which \
         hand; prefixed names (`right_wrist`, `right_index_finger_pip`) or a given side fix it"
    )]
    HandSideUnknown {
        /// The layout that fits (`mediapipe_hand`).
        layout: &'static str,
    },
    /// A user mapping file that cannot be read as one.
    #[error("layout mapping, line {line}: {message}")]
    Mapping {
        /// The 1-based line, or 0 for the file as a whole.
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// A mapping file that cannot be read at all.
    #[error("cannot read layout file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
}

impl JointLayoutError {
    /// Whether naming a layout (a built-in one or a mapping file) resolves this error: the
    /// front ends add their own words for how (a flag, an argument).
    pub fn choosing_a_layout_may_help(&self) -> bool {
        matches!(self, JointLayoutError::JointCount { .. } | JointLayoutError::Ambiguous { .. })
    }

    /// Whether giving the hand's side resolves this error ([`JointLayout::detect_with`],
    /// [`JointLayout::builtin_for`]): the front ends add their own words for how.
    pub fn giving_the_hand_side_may_help(&self) -> bool {
        matches!(self, JointLayoutError::HandSideUnknown { .. })
    }
}

impl JointLayout {
    /// The joint index that has `role`, if any.
    pub fn joint_of(&self, role: Role) -> Option<usize> {
        self.joints.iter().position(|j| j.role == Some(role))
    }

    /// Whether the layout gives `role`, as a joint or a synthetic point.
    pub fn has(&self, role: Role) -> bool {
        self.joint_of(role).is_some() || self.synthetic.iter().any(|s| s.role == role)
    }

    /// The names [`JointLayout::builtin`] knows.
    pub fn builtin_names() -> &'static [&'static str] {
        &BUILTIN_NAMES
    }

    /// A built-in layout by name, compared as [`JointLayout::detect`] compares joint names
    /// (`BODY_25B` finds `body25b`); `None` for `mediapipe_hand`, which needs a side
    /// ([`JointLayout::builtin_for`]).
    pub fn builtin(name: &str) -> Option<JointLayout> {
        JointLayout::builtin_for(name, None, None).ok()
    }

    /// [`JointLayout::builtin`], with an error that lists the choices.
    pub fn builtin_or_error(name: &str) -> Result<JointLayout, JointLayoutError> {
        JointLayout::builtin_for(name, None, None)
    }

    /// A built-in layout by name for a file of `joint_count` joints, when known, whose one
    /// hand is on side `hand`, when the layout's names do not say (`mediapipe_hand`; other
    /// layouts ignore it). A layout with a face mesh named for a file of its iris variant's
    /// size is that variant: `holistic` for 553 joints is `holistic_iris`, `mediapipe_face`
    /// for 478 is `mediapipe_face_iris`.
    pub fn builtin_for(
        name: &str,
        hand: Option<Side>,
        joint_count: Option<usize>,
    ) -> Result<JointLayout, JointLayoutError> {
        let key = normalize(name);
        let find = |key: &str| BUILTINS.iter().copied().find(|b| normalize(b.name) == key);
        let Some(mut table) = find(&key) else {
            return Err(JointLayoutError::UnknownLayout {
                name: name.to_string(),
                choices: &BUILTIN_NAMES,
            });
        };
        if let (Some(count), Some(iris)) = (joint_count, find(&format!("{key}iris"))) {
            if table.len() != count && iris.len() == count {
                table = iris;
            }
        }
        from_table(table, hand)
    }

    /// [`JointLayout::detect_with`] without a hand's side.
    pub fn detect(
        names: Option<&[String]>,
        joint_count: usize,
    ) -> Result<JointLayout, JointLayoutError> {
        JointLayout::detect_with(names, joint_count, None)
    }

    /// The layout of a file with `joint_count` joints and, when it has them, these names;
    /// `hand` is the side of a lone hand whose names do not say it (MediaPipe's unprefixed
    /// `wrist`, `thumb_cmc`, …, or 21 unnamed joints): without it such a file is
    /// [`JointLayoutError::HandSideUnknown`].
    ///
    /// Names (one per joint) are compared case-insensitively and without punctuation or spaces
    /// (`r_hip`, `RHip` and `R Hip` are one name), and also under the other names a format's
    /// files use (Pose2Sim's TRC calls BODY_25B's `UpperNeck` `Neck`). The built-in layout that
    /// recognises the most names wins, provided it recognises at least half of them and, for a
    /// body's layout, what the retargeting needs of a body (a layout of hands or a face alone
    /// needs a hand or the whole face); the result follows the file's joint order and names,
    /// unknown names having no role, and keeps the face mesh where the file has all of it in
    /// order. Without usable names the count decides, when exactly one built-in layout has
    /// that many joints.
    pub fn detect_with(
        names: Option<&[String]>,
        joint_count: usize,
        hand: Option<Side>,
    ) -> Result<JointLayout, JointLayoutError> {
        if let Some(names) = names.filter(|n| n.len() == joint_count && !n.is_empty()) {
            if let Some(layout) = by_names::detect(names, hand)? {
                return Ok(layout);
            }
        }
        let fitting: Vec<&Builtin> =
            BUILTINS.iter().copied().filter(|b| b.len() == joint_count).collect();
        match fitting.as_slice() {
            [one] => from_table(one, hand),
            [] => Err(JointLayoutError::JointCount {
                count: joint_count,
                counts: BUILTINS.iter().map(|b| (b.name, b.len())).collect(),
            }),
            many => Err(JointLayoutError::Ambiguous {
                what: format!("{joint_count} joints"),
                candidates: many.iter().map(|b| b.name).collect(),
            }),
        }
    }

    /// Whether the layout gives what the retargeting needs of a body
    /// (`missing_body_roles` is empty).
    pub fn has_body(&self) -> bool {
        self.missing_body_roles().is_empty()
    }

    /// Whether a joint gives a finger point of the hand on `side` (the hand's wrist alone is
    /// no hand).
    pub fn has_hand(&self, side: Side) -> bool {
        Role::hand_points(side)[1..].iter().any(|&r| self.joint_of(r).is_some())
    }

    /// The sides whose hand the layout gives ([`JointLayout::has_hand`]), left first.
    pub fn hand_sides(&self) -> Vec<Side> {
        Side::BOTH.into_iter().filter(|&s| self.has_hand(s)).collect()
    }

    /// Whether the layout carries a face mesh.
    pub fn has_face(&self) -> bool {
        self.face.is_some()
    }

    /// The roles the retargeting needs for a body that the layout gives neither as a joint nor
    /// as a synthetic point: the pelvis (or both hips), and both shoulders, elbows, wrists,
    /// knees and ankles.
    pub(crate) fn missing_body_roles(&self) -> Vec<Role> {
        use Role::*;
        let mut missing = Vec::new();
        let hips = self.has(LeftHip) && self.has(RightHip);
        if !(self.has(Pelvis) || hips) {
            missing.push(Pelvis);
        }
        for role in [LeftShoulder, LeftElbow, LeftWrist, LeftKnee, LeftAnkle] {
            for role in [role, role.mirrored()] {
                if !self.has(role) {
                    missing.push(role);
                }
            }
        }
        missing
    }
}

/// The table's layout, an unsided hand's roles turned to `hand`'s side.
fn from_table(table: &Builtin, hand: Option<Side>) -> Result<JointLayout, JointLayoutError> {
    let side = side_of(table, hand)?;
    let joints = table.joints().into_iter();
    let joints = joints.map(|(name, role)| (name.into_owned(), on_side(role, side))).collect();
    let mut layout = from_table_joints(table, joints);
    layout.face = table.face();
    Ok(layout)
}

/// The side an unsided hand's table is read on (left for the other tables, whose roles say
/// their side themselves).
fn side_of(table: &Builtin, hand: Option<Side>) -> Result<Side, JointLayoutError> {
    match (table.kind, hand) {
        (Kind::UnsidedHand, None) => Err(JointLayoutError::HandSideUnknown { layout: table.name }),
        (Kind::UnsidedHand, Some(side)) => Ok(side),
        _ => Ok(Side::Left),
    }
}

/// A table's role as read on `side`: tables give the left hand of an unsided hand, and every
/// other role on its own side, which `Side::Left` keeps.
fn on_side(role: Option<Role>, side: Side) -> Option<Role> {
    match side {
        Side::Left => role,
        Side::Right => role.map(Role::mirrored),
    }
}

/// A layout of the table's name with these joints and the table's synthetic points that the
/// joints can make and do not already give; no face.
fn from_table_joints(table: &Builtin, joints: Vec<(String, Option<Role>)>) -> JointLayout {
    let joints = joints.into_iter().map(|(name, role)| LayoutJoint { name, role }).collect();
    let mut layout =
        JointLayout { name: table.name.to_string(), joints, synthetic: Vec::new(), face: None };
    layout.synthetic = table
        .synthetic
        .iter()
        .filter(|(role, of)| {
            layout.joint_of(*role).is_none() && of.iter().all(|r| layout.joint_of(*r).is_some())
        })
        .map(|&(role, of)| SyntheticPoint { role, mean_of: of.to_vec() })
        .collect();
    layout
}
