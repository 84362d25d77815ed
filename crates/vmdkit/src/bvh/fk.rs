//! Forward kinematics of a [`Bvh`]: every joint's world position and rotation at a frame.

use super::{Bvh, Channel, Joint};
use glam::{DQuat, DVec3};

/// How a joint's position channels combine with its OFFSET (see the
/// [module documentation](super#conventions)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PositionOffset {
    /// The position channels are the joint's whole translation from its parent; its OFFSET is
    /// only the rest pose (bvh-toolbox, Blender). `walk01.bvh`'s own FK is read this way.
    #[default]
    Replace,
    /// The position channels are added to the OFFSET.
    Add,
}

/// Options of [`Bvh::world_pose`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FkOptions {
    /// How position channels combine with OFFSETs.
    pub position_offset: PositionOffset,
}

/// A joint's world transform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointPose {
    /// Where the joint is, in the file's axes and units.
    pub position: DVec3,
    /// Its orientation from the file's axes.
    pub rotation: DQuat,
}

impl Bvh {
    /// A joint's transform relative to its parent at `frame`: translation and rotation.
    pub fn local_transform(
        &self,
        frame: usize,
        joint: usize,
        options: FkOptions,
    ) -> (DVec3, DQuat) {
        local(&self.joints[joint], self.frame(frame), options)
    }

    /// Every joint's world transform at `frame`.
    pub fn world_pose(&self, frame: usize, options: FkOptions) -> Vec<JointPose> {
        let mut out = Vec::with_capacity(self.joints.len());
        self.world_pose_into(frame, options, &mut out);
        out
    }

    /// [`Bvh::world_pose`] into a buffer, which is cleared first: no allocation once it has
    /// grown to the joint count.
    pub fn world_pose_into(&self, frame: usize, options: FkOptions, out: &mut Vec<JointPose>) {
        out.clear();
        let values = self.frame(frame);
        for joint in &self.joints {
            let (t, r) = local(joint, values, options);
            // Parents come first in file order, so theirs is already computed.
            let pose = match joint.parent {
                Some(p) => {
                    let parent = out[p];
                    JointPose {
                        position: parent.position + parent.rotation * t,
                        rotation: parent.rotation * r,
                    }
                }
                None => JointPose { position: t, rotation: r },
            };
            out.push(pose);
        }
    }
}

fn local(joint: &Joint, values: &[f64], options: FkOptions) -> (DVec3, DQuat) {
    let own = &values[joint.first_channel..joint.first_channel + joint.channels.len()];
    let mut rotation = DQuat::IDENTITY;
    let mut position = DVec3::ZERO;
    let mut positioned = false;
    for (&channel, &value) in joint.channels.iter().zip(own) {
        let (axis, is_rotation) = channel.axis();
        if is_rotation {
            let angle = value.to_radians();
            let step = match channel {
                Channel::Xrotation => DQuat::from_rotation_x(angle),
                Channel::Yrotation => DQuat::from_rotation_y(angle),
                _ => DQuat::from_rotation_z(angle),
            };
            rotation *= step;
        } else {
            position[axis] = value;
            positioned = true;
        }
    }
    let translation = match options.position_offset {
        PositionOffset::Replace if positioned => {
            // Axes without a channel keep the OFFSET's component.
            let mut t = joint.offset;
            for &channel in &joint.channels {
                let (axis, is_rotation) = channel.axis();
                if !is_rotation {
                    t[axis] = position[axis];
                }
            }
            t
        }
        _ => joint.offset + position,
    };
    (translation, rotation)
}
