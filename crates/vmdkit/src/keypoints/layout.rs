//! [`Layout`]: a keypoint file's joint order, each joint mapped to a [`Role`] (or to none, for
//! joints the retargeting does not use), plus the synthetic points a layout implies.

use super::Role;

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
pub struct Layout {
    /// The layout's name (`h36m`, or the user file's name).
    pub name: String,
    /// The joints, in file order.
    pub joints: Vec<LayoutJoint>,
    /// Points implied by the joints, for roles no joint has.
    pub synthetic: Vec<SyntheticPoint>,
}

impl Layout {
    /// The joint index that has `role`, if any.
    pub fn joint_of(&self, role: Role) -> Option<usize> {
        self.joints.iter().position(|j| j.role == Some(role))
    }

    /// Whether the layout gives `role`, as a joint or a synthetic point.
    pub fn has(&self, role: Role) -> bool {
        self.joint_of(role).is_some() || self.synthetic.iter().any(|s| s.role == role)
    }
}
