//! Physics: a model's rigid bodies and joints simulated as MMD simulates them, between the two
//! deform passes of a pose.
//!
//! PLACEHOLDER API (being implemented): the signatures below are what the rest of the crate
//! codes against; the bodies are filled in by the simulation work.

use crate::model::Model;
use crate::skeleton::{Pose, PoseEvaluator, PoseInput, Skeleton};
use glam::Vec3;

/// How the simulation runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhysicsSettings {
    /// The fixed simulation step, in seconds (default 1/120).
    pub step: f32,
    /// Gravity in model units per second² (default (0, −98, 0), as MMD).
    pub gravity: Vec3,
    /// Seconds simulated with the first pose held before it is used (default 1), so that
    /// bodies placed from the first frame settle instead of springing.
    pub settle_seconds: f32,
    /// When the model's root (全ての親 or センター) moves further than this many model units
    /// between two consecutive poses, the bodies are reset to their bones and settled again
    /// (a cut). `None`: never.
    pub reset_distance: Option<f32>,
}

impl Default for PhysicsSettings {
    fn default() -> Self {
        PhysicsSettings {
            step: 1.0 / 120.0,
            gravity: Vec3::new(0.0, -98.0, 0.0),
            settle_seconds: 1.0,
            reset_distance: Some(10.0),
        }
    }
}

/// Counts and the worst figures seen so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhysicsStats {
    /// Rigid bodies simulated or followed.
    pub bodies: usize,
    /// Joints between them.
    pub joints: usize,
    /// Poses made.
    pub frames: u64,
    /// Simulation steps taken, settling included.
    pub steps: u64,
    /// Resets (the first start and every cut).
    pub resets: u64,
    /// The largest distance, in model units, between the two anchors of a joint.
    pub max_joint_error: f32,
}

/// A model's rigid bodies and joints in a physics world, stepped pose by pose.
pub struct PhysicsWorld {
    _private: (),
}

impl PhysicsWorld {
    /// Builds the world for `model` (whose skeleton is `skeleton`).
    pub fn new(_model: &Model, _skeleton: &Skeleton, _settings: &PhysicsSettings) -> PhysicsWorld {
        todo!("physics simulation")
    }

    /// The bones a simulated body moves, in deform order.
    pub fn driven_bones(&self) -> &[usize] {
        todo!("physics simulation")
    }

    /// Poses `input` with physics: the bones before physics, `dt` seconds of simulation, then
    /// the bodies' bones and the after-physics bones. The first call after [`PhysicsWorld::new`]
    /// or [`PhysicsWorld::reset`] places the bodies from this pose and settles them.
    pub fn pose(
        &mut self,
        _evaluator: &PoseEvaluator,
        _input: &PoseInput,
        _dt: f32,
        _pose: &mut Pose,
    ) {
        todo!("physics simulation")
    }

    /// Makes the next [`PhysicsWorld::pose`] start afresh.
    pub fn reset(&mut self) {
        todo!("physics simulation")
    }

    /// Counts and the worst joint error seen.
    pub fn stats(&self) -> PhysicsStats {
        todo!("physics simulation")
    }
}
