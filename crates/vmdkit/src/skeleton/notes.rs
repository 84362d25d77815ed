//! [`SkeletonNote`]: what building a [`Skeleton`](super::Skeleton) repaired or left out. Its own
//! file because the order, the bones and the IK chains all report into it while being built.

/// Something [`Skeleton::new`](super::Skeleton::new) had to repair or leave out.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SkeletonNote {
    /// The parent of `bone` closed a parent cycle; the bone is treated as a root.
    ParentCycle {
        /// The bone whose parent link was dropped.
        bone: usize,
    },
    /// An append whose source is the bone itself was ignored.
    SelfAppend {
        /// The bone that named itself as its append source.
        bone: usize,
    },
    /// An IK link that is the IK bone or its own effector was skipped.
    IkLinkSkipped {
        /// The IK bone whose chain listed the link.
        ik_bone: usize,
        /// The bone the skipped link names.
        link: usize,
    },
}

impl std::fmt::Display for SkeletonNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkeletonNote::ParentCycle { bone } => {
                write!(f, "bone {bone}: its parent closes a cycle; treated as a root")
            }
            SkeletonNote::SelfAppend { bone } => {
                write!(f, "bone {bone}: appends from itself; ignored")
            }
            SkeletonNote::IkLinkSkipped { ik_bone, link } => {
                write!(f, "IK bone {ik_bone}: link {link} is the IK bone or its effector; skipped")
            }
        }
    }
}
