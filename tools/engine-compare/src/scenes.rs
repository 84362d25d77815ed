//! The known-answer scenes of vmdkit's physics tests (the models of
//! crates/vmdkit/tests/it/common/physics_models.rs, included as they are), run the way those
//! tests run them, on either engine.

use crate::engine::{pose_hash, Figures, Kind};
use crate::physics_models::*;
use glam::{Quat, Vec3};
use std::f32::consts::PI;
use vmdkit::model::{Model, RigidMode};
use vmdkit::physics::PhysicsSettings;
use vmdkit::skeleton::{Pose, PoseEvaluator, PoseInput, Skeleton};

/// MMD's gravity, model units per s².
const G: f32 = 98.0;
/// One step per pose, so that every step is sampled.
const STEP: f32 = 1.0 / 120.0;

fn unsettled() -> PhysicsSettings {
    PhysicsSettings { settle_seconds: 0.0, ..PhysicsSettings::default() }
}

/// `model` for `seconds`, [`MOVING_BONE`] keyed to `rotation` (which places the bodies at the
/// start), one step per pose; `sample` gets the time and every pose.
fn run(
    kind: Kind,
    model: &Model,
    settings: &PhysicsSettings,
    rotation: Quat,
    seconds: f32,
    mut sample: impl FnMut(f32, &Pose),
) -> Figures {
    let skeleton = Skeleton::new(model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let mut input = PoseInput::new(&skeleton);
    input.bones[MOVING_BONE].rotation = rotation;
    let mut world = kind.make(model, &skeleton, settings);
    let mut pose = Pose::new(&skeleton);
    let steps = (seconds / STEP).round() as usize;
    for i in 0..=steps {
        world.pose(&evaluator, &input, if i == 0 { 0.0 } else { STEP }, &mut pose);
        sample(i as f32 * STEP, &pose);
    }
    world.figures()
}

/// The signed angle of a rotation about one model axis (0 X, 1 Y, 2 Z).
fn angle_about(q: Quat, axis: usize) -> f32 {
    let q = if q.w < 0.0 { -q } else { q };
    2.0 * [q.x, q.y, q.z][axis].clamp(-1.0, 1.0).asin()
}

/// The mean period between the first and last upward zero crossing, NaN with fewer than three.
fn period(angles: &[(f32, f32)]) -> f32 {
    let c: Vec<f32> = angles
        .windows(2)
        .filter(|w| w[0].1 < 0.0 && w[1].1 >= 0.0)
        .map(|w| w[0].0 + (w[1].0 - w[0].0) * (-w[0].1) / (w[1].1 - w[0].1))
        .collect();
    if c.len() < 3 {
        return f32::NAN;
    }
    (c[c.len() - 1] - c[0]) / (c.len() - 1) as f32
}

/// Pendulum (mode 1), 0.05 rad, 8 s: the period's relative error against the physical
/// pendulum's 2π √(I / (m g L)).
pub fn pendulum_period_error(kind: Kind, mode: RigidMode) -> f32 {
    let mut angles = Vec::new();
    run(kind, &pendulum(mode), &unsettled(), Quat::from_rotation_x(0.05), 8.0, |t, p| {
        angles.push((t, angle_about(p.rotation(MOVING_BONE), 0)));
    });
    let expected = 2.0 * PI * (pendulum_inertia_about_pivot() / (G * PENDULUM_LENGTH)).sqrt();
    period(&angles) / expected - 1.0
}

/// Angular spring, 0.2 rad, 10 s: the angular frequency's relative error against √(k/I).
pub fn spring_frequency_error(kind: Kind) -> f32 {
    let mut angles = Vec::new();
    run(kind, &angular_spring(), &unsettled(), Quat::from_rotation_y(0.2), 10.0, |t, p| {
        angles.push((t, angle_about(p.rotation(MOVING_BONE), 1)));
    });
    let omega = 2.0 * PI / period(&angles);
    omega / (SPRING_K / spring_inertia()).sqrt() - 1.0
}

/// Limit model, default settings (1 s settling), 4 s under gravity: the largest excess over the
/// limit (radians) and the final angle past it.
pub fn limit_excess(kind: Kind) -> (f32, f32) {
    let mut last = 0.0;
    let figures = run(kind, &limit(), &PhysicsSettings::default(), Quat::IDENTITY, 4.0, |_, p| {
        last = angle_about(p.rotation(MOVING_BONE), 0).abs();
    });
    (figures.max_limit_excess, last - LIMIT_ANGLE)
}

/// The hair chain with its head turning and sliding (vmdkit's determinism test's motion),
/// `frames` poses at 30 fps: every pose's bone positions, the pose hashes, and the figures.
pub fn hair_run(kind: Kind, frames: usize) -> (Vec<Vec<Vec3>>, Vec<u64>, Figures) {
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let mut input = PoseInput::new(&skeleton);
    let mut world = kind.make(&model, &skeleton, &PhysicsSettings::default());
    let mut pose = Pose::new(&skeleton);
    let (mut positions, mut hashes) = (Vec::new(), Vec::new());
    for f in 0..frames {
        let t = f as f32 / 30.0;
        input.bones[1].rotation = Quat::from_rotation_y(1.2 * (2.0 * t).sin());
        input.bones[1].translation = Vec3::new(3.0 * (3.0 * t).sin(), 0.0, 0.0);
        let dt = if f == 0 { 0.0 } else { 1.0 / 30.0 };
        world.pose(&evaluator, &input, dt, &mut pose);
        positions.push(pose.positions().to_vec());
        hashes.push(pose_hash(&pose));
    }
    (positions, hashes, world.figures())
}

/// Root-mean-square over frames of the distance between the two runs' positions of `bone`.
pub fn rms_distance(a: &[Vec<Vec3>], b: &[Vec<Vec3>], bone: usize) -> f32 {
    let sum: f32 = a.iter().zip(b).map(|(pa, pb)| pa[bone].distance_squared(pb[bone])).sum();
    (sum / a.len().max(1) as f32).sqrt()
}

/// How far the tip moved relative to the root over the run (the largest distance from its first
/// place), so that a difference between engines can be read against the motion's size.
pub fn tip_excursion(run: &[Vec<Vec3>]) -> f32 {
    let (root, tip) = hair_root_and_tip();
    let first = run[0][tip] - run[0][root];
    run.iter().map(|p| (p[tip] - p[root] - first).length()).fold(0.0, f32::max)
}

/// The chain's length, bone to bone.
pub fn chain_length() -> f32 {
    HAIR_SEGMENT * HAIR_LINKS as f32
}
