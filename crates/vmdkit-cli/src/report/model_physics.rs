//! A model's rigid bodies and joints as `vmdkit info --json MODEL.pmx` prints them, in the
//! `rigid_bodies` and `joints` arrays of the model's document (`model.rs`):
//!
//! ```text
//! "rigid_bodies": [{"index", "name", "name_en", "bone" (index or null), "mode" (0 follow bone,
//!                   1 physics, 2 physics with the bone's position), "shape" ("sphere"|"box"|
//!                   "capsule"), "size": [x, y, z], "position": [x, y, z] (model space),
//!                   "rotation": [x, y, z] (radians), "mass", "linear_damping",
//!                   "angular_damping", "restitution", "friction", "group" (0-15), "mask"}],
//! "joints": [{"index", "name", "name_en", "kind" (0: 6-DOF spring), "body_a", "body_b"
//!             (indices or null), "position", "rotation", "linear_min", "linear_max",
//!             "angular_min", "angular_max", "linear_spring", "angular_spring"}],
//! "physics_problems": ["rigid body 3 \"髪1\": mass -1 of a simulated body is not positive", …]
//! ```
//!
//! Values are the file's, except a PMD body's position, which the reader converts to model
//! space. A NaN or infinite number is `null` (JSON has no such numbers); `physics_problems` says
//! which.

use serde::Serialize;
use vmdkit::model::{Joint, RigidBody};

/// One rigid body.
#[derive(Clone, Debug, Serialize)]
pub struct RigidBodyDoc<'a> {
    /// Its index in the model's rigid bodies (joints name bodies by it).
    pub index: usize,
    /// The body's name.
    pub name: &'a str,
    /// The English name.
    pub name_en: &'a str,
    /// The related bone's index, as stored (it may be out of range: see the problems).
    pub bone: Option<usize>,
    /// The file's mode number: 0 follows the bone, 1 physics, 2 physics with bone position.
    pub mode: u8,
    /// `sphere`, `box` or `capsule`.
    pub shape: &'static str,
    /// The shape's size (sphere: radius in x; box: half extents; capsule: radius, height).
    pub size: [f32; 3],
    /// Centre, model space.
    pub position: [f32; 3],
    /// Rotation in radians (Y, then X, then Z).
    pub rotation: [f32; 3],
    /// Mass.
    pub mass: f32,
    /// Linear damping.
    pub linear_damping: f32,
    /// Angular damping.
    pub angular_damping: f32,
    /// Restitution.
    pub restitution: f32,
    /// Friction.
    pub friction: f32,
    /// Collision group.
    pub group: u8,
    /// Non-collision mask: bit *g* set means the body collides with group *g*.
    pub mask: u16,
}

/// One joint.
#[derive(Clone, Debug, Serialize)]
pub struct JointDoc<'a> {
    /// Its index in the model's joints.
    pub index: usize,
    /// The joint's name.
    pub name: &'a str,
    /// The English name.
    pub name_en: &'a str,
    /// The joint type as stored (0: 6-DOF spring).
    pub kind: u8,
    /// Rigid body A's index, as stored.
    pub body_a: Option<usize>,
    /// Rigid body B's index, as stored.
    pub body_b: Option<usize>,
    /// Frame origin, model space.
    pub position: [f32; 3],
    /// Frame rotation in radians.
    pub rotation: [f32; 3],
    /// Lower translation limits.
    pub linear_min: [f32; 3],
    /// Upper translation limits.
    pub linear_max: [f32; 3],
    /// Lower rotation limits, radians.
    pub angular_min: [f32; 3],
    /// Upper rotation limits, radians.
    pub angular_max: [f32; 3],
    /// Spring constants per translation axis.
    pub linear_spring: [f32; 3],
    /// Spring constants per rotation axis.
    pub angular_spring: [f32; 3],
}

impl<'a> RigidBodyDoc<'a> {
    /// The document of body `index`.
    pub fn new(index: usize, b: &'a RigidBody) -> Self {
        RigidBodyDoc {
            index,
            name: &b.name,
            name_en: &b.name_en,
            bone: b.bone,
            mode: b.mode.file_value(),
            shape: b.shape.name(),
            size: b.size.to_array(),
            position: b.position.to_array(),
            rotation: b.rotation.to_array(),
            mass: b.mass,
            linear_damping: b.linear_damping,
            angular_damping: b.angular_damping,
            restitution: b.restitution,
            friction: b.friction,
            group: b.group,
            mask: b.mask,
        }
    }
}

impl<'a> JointDoc<'a> {
    /// The document of joint `index`.
    pub fn new(index: usize, j: &'a Joint) -> Self {
        JointDoc {
            index,
            name: &j.name,
            name_en: &j.name_en,
            kind: j.kind,
            body_a: j.body_a,
            body_b: j.body_b,
            position: j.position.to_array(),
            rotation: j.rotation.to_array(),
            linear_min: j.linear_min.to_array(),
            linear_max: j.linear_max.to_array(),
            angular_min: j.angular_min.to_array(),
            angular_max: j.angular_max.to_array(),
            linear_spring: j.linear_spring.to_array(),
            angular_spring: j.angular_spring.to_array(),
        }
    }
}
