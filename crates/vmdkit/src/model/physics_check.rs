//! What is wrong with a model's rigid bodies and joints for a simulation: indices that name
//! nothing, sizes and masses a physics engine cannot use, values that are not numbers.
//!
//! A reader keeps such records (one bad body should not cost a model its bones); the
//! simulation leaves out every body and joint with a problem, and front ends show the list as
//! warnings.

use super::rigid::{Joint, RigidBody, RigidShape};
use super::types::Model;
use glam::Vec3;
use std::fmt;

/// Whether a [`PhysicsProblem`] is about a rigid body or a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhysicsItem {
    /// An entry of [`Model::rigid_bodies`].
    RigidBody,
    /// An entry of [`Model::joints`].
    Joint,
}

/// One of a joint's two bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointEnd {
    /// [`Joint::body_a`].
    A,
    /// [`Joint::body_b`].
    B,
}

/// What is wrong ([`PhysicsProblem::kind`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PhysicsProblemKind {
    /// A body's bone index is past the end of the bone table.
    BoneOutOfRange {
        /// The index as stored.
        bone: usize,
        /// How many bones the model has.
        bones: usize,
    },
    /// A body's collision group is above 15 (groups are bits of a 16-bit mask).
    GroupOutOfRange {
        /// The group as stored.
        group: u8,
    },
    /// A size the shape uses is not a positive number (a capsule's height may be 0).
    BadSize {
        /// The body's shape.
        shape: RigidShape,
        /// The size as stored.
        size: Vec3,
    },
    /// A simulated body's mass is not a positive number: a physics engine makes a body of
    /// zero mass immovable and cannot use a negative or NaN one.
    BadMass {
        /// The mass as stored.
        mass: f32,
    },
    /// A field that must be a finite number is NaN or infinite (limits: NaN).
    NotFinite {
        /// The field's name, e.g. `"position"`.
        field: &'static str,
    },
    /// A joint has no body at one end (−1).
    MissingBody {
        /// Which end.
        end: JointEnd,
    },
    /// A joint's body index is past the end of the rigid body table.
    BodyOutOfRange {
        /// Which end.
        end: JointEnd,
        /// The index as stored.
        body: usize,
        /// How many rigid bodies the model has.
        bodies: usize,
    },
    /// A joint joins a body to itself.
    SameBodies {
        /// The body at both ends.
        body: usize,
    },
}

/// A rigid body or joint that a simulation cannot use, and why. Shown as, e.g.,
/// `rigid body 3 "髪1": mass -1 of a simulated body is not positive`.
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsProblem {
    /// A body or a joint.
    pub item: PhysicsItem,
    /// Its index in [`Model::rigid_bodies`] or [`Model::joints`].
    pub index: usize,
    /// Its name.
    pub name: String,
    /// What is wrong.
    pub kind: PhysicsProblemKind,
}

impl fmt::Display for PhysicsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let item = match self.item {
            PhysicsItem::RigidBody => "rigid body",
            PhysicsItem::Joint => "joint",
        };
        write!(f, "{item} {} {:?}: ", self.index, crate::shown::Shown(&self.name))?;
        let end = |end: &JointEnd| match end {
            JointEnd::A => "A",
            JointEnd::B => "B",
        };
        match &self.kind {
            PhysicsProblemKind::BoneOutOfRange { bone, bones } => {
                write!(f, "bone index {bone} is out of range (there are {bones})")
            }
            PhysicsProblemKind::GroupOutOfRange { group } => {
                write!(f, "collision group {group} is above 15")
            }
            PhysicsProblemKind::BadSize { shape, size } => write!(
                f,
                "{} size [{}, {}, {}] is not positive",
                shape.name(),
                size.x,
                size.y,
                size.z
            ),
            PhysicsProblemKind::BadMass { mass } => {
                write!(f, "mass {mass} of a simulated body is not positive")
            }
            PhysicsProblemKind::NotFinite { field } => write!(f, "{field} is not a finite number"),
            PhysicsProblemKind::MissingBody { end: e } => write!(f, "body {} is none", end(e)),
            PhysicsProblemKind::BodyOutOfRange { end: e, body, bodies } => {
                write!(f, "body {} index {body} is out of range (there are {bodies})", end(e))
            }
            PhysicsProblemKind::SameBodies { body } => {
                write!(f, "joins rigid body {body} to itself")
            }
        }
    }
}

fn finite(v: Vec3) -> bool {
    v.is_finite()
}

/// Whether the sizes the shape uses are positive numbers.
fn size_ok(shape: RigidShape, s: Vec3) -> bool {
    let positive = |v: f32| v.is_finite() && v > 0.0;
    match shape {
        RigidShape::Sphere => positive(s.x),
        RigidShape::Box => positive(s.x) && positive(s.y) && positive(s.z),
        // A capsule of height 0 is a sphere, which engines accept.
        RigidShape::Capsule => positive(s.x) && s.y.is_finite() && s.y >= 0.0,
    }
}

/// A problem for each field whose check failed.
fn not_finite(
    fields: impl IntoIterator<Item = (&'static str, bool)>,
) -> impl Iterator<Item = PhysicsProblemKind> {
    fields.into_iter().filter(|f| !f.1).map(|(field, _)| PhysicsProblemKind::NotFinite { field })
}

fn body_problems(body: &RigidBody, bones: usize) -> Vec<PhysicsProblemKind> {
    let mut out = Vec::new();
    if let Some(bone) = body.bone.filter(|&b| b >= bones) {
        out.push(PhysicsProblemKind::BoneOutOfRange { bone, bones });
    }
    if body.group > 15 {
        out.push(PhysicsProblemKind::GroupOutOfRange { group: body.group });
    }
    if !size_ok(body.shape, body.size) {
        out.push(PhysicsProblemKind::BadSize { shape: body.shape, size: body.size });
    }
    // A body that follows its bone is moved, not simulated: its mass is never used.
    if body.mode.is_simulated() && !(body.mass.is_finite() && body.mass > 0.0) {
        out.push(PhysicsProblemKind::BadMass { mass: body.mass });
    }
    let fields = [
        ("position", finite(body.position)),
        ("rotation", finite(body.rotation)),
        ("linear damping", body.linear_damping.is_finite()),
        ("angular damping", body.angular_damping.is_finite()),
        ("restitution", body.restitution.is_finite()),
        ("friction", body.friction.is_finite()),
    ];
    out.extend(not_finite(fields));
    out
}

fn joint_problems(joint: &Joint, bodies: usize) -> Vec<PhysicsProblemKind> {
    let mut out = Vec::new();
    for (end, body) in [(JointEnd::A, joint.body_a), (JointEnd::B, joint.body_b)] {
        match body {
            None => out.push(PhysicsProblemKind::MissingBody { end }),
            Some(body) if body >= bodies => {
                out.push(PhysicsProblemKind::BodyOutOfRange { end, body, bodies })
            }
            Some(_) => {}
        }
    }
    if let (Some(a), Some(b)) = (joint.body_a, joint.body_b) {
        if a == b {
            out.push(PhysicsProblemKind::SameBodies { body: a });
        }
    }
    // An infinite limit is a (strange) free axis; only NaN makes a limit meaningless.
    let fields = [
        ("position", finite(joint.position)),
        ("rotation", finite(joint.rotation)),
        ("linear lower limit", !joint.linear_min.is_nan()),
        ("linear upper limit", !joint.linear_max.is_nan()),
        ("angular lower limit", !joint.angular_min.is_nan()),
        ("angular upper limit", !joint.angular_max.is_nan()),
        ("linear spring", finite(joint.linear_spring)),
        ("angular spring", finite(joint.angular_spring)),
    ];
    out.extend(not_finite(fields));
    out
}

impl Model {
    /// Every rigid body and joint a simulation cannot use, in file order, bodies first: bone
    /// and body indices out of range, a joint without a body or joining a body to itself,
    /// collision groups above 15, sizes the shape uses that are not positive, simulated bodies
    /// whose mass is not positive, and NaN or infinite positions, rotations, dampings, springs
    /// (NaN limits). Empty for a sound model.
    ///
    /// ```
    /// let model = vmdkit::example::example_model();
    /// assert!(model.physics_problems().is_empty());
    /// ```
    pub fn physics_problems(&self) -> Vec<PhysicsProblem> {
        let bodies = self.rigid_bodies.iter().enumerate().flat_map(|(index, body)| {
            body_problems(body, self.bones.len()).into_iter().map(move |kind| PhysicsProblem {
                item: PhysicsItem::RigidBody,
                index,
                name: body.name.clone(),
                kind,
            })
        });
        let joints = self.joints.iter().enumerate().flat_map(|(index, joint)| {
            joint_problems(joint, self.rigid_bodies.len()).into_iter().map(move |kind| {
                PhysicsProblem { item: PhysicsItem::Joint, index, name: joint.name.clone(), kind }
            })
        });
        bodies.chain(joints).collect()
    }
}
