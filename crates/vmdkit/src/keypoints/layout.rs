//! [`JointLayout`]: a keypoint file's joint order, each joint mapped to a [`Role`] (or to none, for
//! joints the retargeting does not use), plus the synthetic points a layout implies.
//!
//! Layouts come from three places: the built-in tables ([`JointLayout::builtin`]), detection from a
//! file's joint names or count ([`JointLayout::detect`]), and user mapping files
//! ([`JointLayout::from_mapping`], `layout/mapping.rs`).

mod mapping;
#[cfg(test)]
mod tests;

use super::layouts::{Builtin, BUILTINS, BUILTIN_NAMES};
use crate::roles::{normalize, Role};
use std::collections::HashMap;
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

/// A face mesh held by a layout as a block of consecutive joints, in the mesh's own order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaceBlock {
    /// Which mesh, and so which point is which.
    pub mesh: FaceMesh,
    /// The index of the mesh's first point among the layout's joints.
    pub first: usize,
}

/// The face meshes layouts carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FaceMesh {
    /// MediaPipe Face Mesh's 468 points.
    MediaPipe468,
    /// MediaPipe Face Mesh with the irises refined: the 468 points, then 5 for each iris
    /// (468–472 the subject's right iris centre and rim, 473–477 the left, as MediaPipe orders
    /// them).
    MediaPipe478,
    /// The 68 points of the iBUG 300-W annotation, COCO-WholeBody's face.
    Ibug68,
}

impl FaceMesh {
    /// The number of points.
    pub fn len(self) -> usize {
        match self {
            FaceMesh::MediaPipe468 => 468,
            FaceMesh::MediaPipe478 => 478,
            FaceMesh::Ibug68 => 68,
        }
    }

    /// Whether the mesh has iris points, for gaze.
    pub fn has_irises(self) -> bool {
        self == FaceMesh::MediaPipe478
    }
}

impl FaceBlock {
    /// The joint indices the block covers.
    pub fn joints(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.mesh.len()
    }
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
    /// (`BODY_25B` finds `body25b`).
    pub fn builtin(name: &str) -> Option<JointLayout> {
        let key = normalize(name);
        BUILTINS.iter().find(|b| normalize(b.name) == key).map(|b| from_table(b))
    }

    /// [`JointLayout::builtin`], with an error that lists the choices.
    pub fn builtin_or_error(name: &str) -> Result<JointLayout, JointLayoutError> {
        JointLayout::builtin(name).ok_or_else(|| JointLayoutError::UnknownLayout {
            name: name.to_string(),
            choices: &BUILTIN_NAMES,
        })
    }

    /// The layout of a file with `joint_count` joints and, when it has them, these names.
    ///
    /// Names (one per joint) are compared case-insensitively and without punctuation or spaces
    /// (`r_hip`, `RHip` and `R Hip` are one name), and also under the other names a format's
    /// files use (Pose2Sim's TRC calls BODY_25B's `UpperNeck` `Neck`). The built-in layout that
    /// recognises the most names wins, provided it recognises at least half of them and what
    /// the retargeting needs of a body; the result follows the file's joint order and names,
    /// unknown names having no role. Without usable names the count decides, when exactly one
    /// built-in layout has that many joints.
    pub fn detect(
        names: Option<&[String]>,
        joint_count: usize,
    ) -> Result<JointLayout, JointLayoutError> {
        if let Some(names) = names.filter(|n| n.len() == joint_count && !n.is_empty()) {
            if let Some(layout) = detect_by_names(names)? {
                return Ok(layout);
            }
        }
        let fitting: Vec<&Builtin> =
            BUILTINS.iter().copied().filter(|b| b.joints.len() == joint_count).collect();
        match fitting.as_slice() {
            [one] => Ok(from_table(one)),
            [] => Err(JointLayoutError::JointCount {
                count: joint_count,
                counts: BUILTINS.iter().map(|b| (b.name, b.joints.len())).collect(),
            }),
            many => Err(JointLayoutError::Ambiguous {
                what: format!("{joint_count} joints"),
                candidates: many.iter().map(|b| b.name).collect(),
            }),
        }
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

fn from_table(table: &Builtin) -> JointLayout {
    let joints = table
        .joints
        .iter()
        .map(|&(name, role)| LayoutJoint { name: name.to_string(), role })
        .collect();
    with_synthetic(table.name, joints, table)
}

/// The table's synthetic points that the joints can make and do not already give.
fn with_synthetic(name: &str, joints: Vec<LayoutJoint>, table: &Builtin) -> JointLayout {
    let mut layout =
        JointLayout { name: name.to_string(), joints, synthetic: Vec::new(), face: None };
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

/// How well a built-in layout recognises a file's names.
struct NameMatch {
    table: &'static Builtin,
    roles: Vec<Option<Role>>,
    recognised: usize,
    renamed: usize,
}

impl NameMatch {
    /// Best first: more names recognised, fewer of them through aliases, fewer of the layout's
    /// joints absent from the file.
    fn rank(&self) -> (std::cmp::Reverse<usize>, usize, usize) {
        (
            std::cmp::Reverse(self.recognised),
            self.renamed,
            self.table.joints.len() - self.recognised,
        )
    }
}

fn match_names(table: &'static Builtin, keys: &[String]) -> NameMatch {
    // The table's names normalised once, not once per key: a file may name a hundred thousand
    // joints. The first joint or alias of a name is the one that counts.
    let mut joints: HashMap<String, usize> = HashMap::with_capacity(table.joints.len());
    for (i, (name, _)) in table.joints.iter().enumerate() {
        joints.entry(normalize(name)).or_insert(i);
    }
    let mut aliases: HashMap<String, String> = HashMap::with_capacity(table.aliases.len());
    for (alias, name) in table.aliases {
        aliases.entry(normalize(alias)).or_insert_with(|| normalize(name));
    }
    let find = |key: &str| joints.get(key).copied();
    let mut used = vec![false; table.joints.len()];
    let mut found = NameMatch { table, roles: Vec::new(), recognised: 0, renamed: 0 };
    for key in keys {
        let direct = find(key);
        let index = direct.or_else(|| find(aliases.get(key)?));
        // A second name for a joint already matched is left without a role.
        let index = index.filter(|&i| !std::mem::replace(&mut used[i], true));
        found.roles.push(index.and_then(|i| table.joints[i].1));
        if index.is_some() {
            found.recognised += 1;
            found.renamed += direct.is_none() as usize;
        }
    }
    found
}

fn detect_by_names(names: &[String]) -> Result<Option<JointLayout>, JointLayoutError> {
    let keys: Vec<String> = names.iter().map(|n| normalize(n)).collect();
    let layout_of = |m: &NameMatch| {
        let joints = names
            .iter()
            .zip(&m.roles)
            .map(|(name, &role)| LayoutJoint { name: name.clone(), role })
            .collect();
        with_synthetic(m.table.name, joints, m.table)
    };
    let mut matches: Vec<(NameMatch, JointLayout)> = BUILTINS
        .iter()
        .map(|table| match_names(table, &keys))
        .filter(|m| m.recognised * 2 >= names.len())
        .map(|m| {
            let layout = layout_of(&m);
            (m, layout)
        })
        .filter(|(_, layout)| layout.missing_body_roles().is_empty())
        .collect();
    matches.sort_by_key(|(m, _)| m.rank());
    let Some(best) = matches.first().map(|(m, _)| m.rank()) else {
        return Ok(None);
    };
    let tied: Vec<&(NameMatch, JointLayout)> =
        matches.iter().filter(|(m, _)| m.rank() == best).collect();
    // Layouts that agree on every joint's role differ only in name: take the first.
    if tied.iter().any(|(m, _)| m.roles != tied[0].0.roles) {
        return Err(JointLayoutError::Ambiguous {
            what: "the joint names".to_string(),
            candidates: tied.iter().map(|(m, _)| m.table.name).collect(),
        });
    }
    Ok(matches.into_iter().next().map(|(_, layout)| layout))
}
