//! What building the physics world left out or changed, body by body and joint by joint.

use std::fmt;

/// One thing [`PhysicsWorld::new`](super::PhysicsWorld::new) did not build as the model says,
/// and why. A damaged body never explodes the simulation: it is left out or follows its bone.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PhysicsNote {
    /// The rigid body is not in the world (its joints are left out too).
    BodyLeftOut {
        /// Index into the model's rigid bodies.
        body: usize,
        /// Why, in a few words.
        reason: &'static str,
    },
    /// The rigid body would be simulated, but follows its bone instead.
    BodyMadeKinematic {
        /// Index into the model's rigid bodies.
        body: usize,
        /// Why.
        reason: &'static str,
    },
    /// The rigid body is simulated but moves no bone.
    BodyDrivesNothing {
        /// Index into the model's rigid bodies.
        body: usize,
        /// Why.
        reason: &'static str,
    },
    /// The joint is not in the world.
    JointLeftOut {
        /// Index into the model's joints.
        joint: usize,
        /// Why.
        reason: &'static str,
    },
}

impl fmt::Display for PhysicsNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhysicsNote::BodyLeftOut { body, reason } => {
                write!(f, "rigid body {body} left out: {reason}")
            }
            PhysicsNote::BodyMadeKinematic { body, reason } => {
                write!(f, "rigid body {body} follows its bone instead of being simulated: {reason}")
            }
            PhysicsNote::BodyDrivesNothing { body, reason } => {
                write!(f, "rigid body {body} is simulated but moves no bone: {reason}")
            }
            PhysicsNote::JointLeftOut { joint, reason } => {
                write!(f, "joint {joint} left out: {reason}")
            }
        }
    }
}
