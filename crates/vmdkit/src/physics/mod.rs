//! Physics: a model's rigid bodies and joints simulated as MMD simulates them, between the two
//! deform passes of a pose, on the rapier3d engine.
//!
//! * [`PhysicsWorld`] (this file; `build.rs` makes it, `step.rs` steps it): one model's bodies and
//!   joints; [`PhysicsWorld::pose`] poses one frame with physics, carrying the simulation over
//!   from the previous call. [`PhysicsPoser`] (`poser.rs`) does it for a motion, frame by frame.
//! * [`PhysicsNote`] (`notes.rs`): bodies and joints left out or changed, and why.
//!
//! # MMD's conventions, as implemented
//!
//! * **Per pose**: pass 1 of the skeleton (bones without the after-physics flag, with their IK,
//!   [`PoseEvaluator::evaluate_before_physics`]); the kinematic bodies' targets from those bones;
//!   the steps; the bones the bodies move, and the pass-1 bones below them that no body moves,
//!   evaluated again from their local transforms ([`PoseEvaluator::apply_physics`]); pass 2
//!   ([`PoseEvaluator::evaluate_after_physics`]).
//! * **Bodies**: sphere (radius `size.x`), box (half extents `size`), capsule (radius `size.x`,
//!   cylinder height `size.y`, along the body's Y). Rotations from the file's Euler angles as
//!   `Ry · Rx · Rz` (glam's `EulerRot::YXZ`). The mass is the file's; the engine computes the
//!   inertia from the shape. Friction and restitution of a contact are the two bodies' values
//!   multiplied, as Bullet does. Sleeping and CCD are off. Collision: a body is in group
//!   `1 << group` and meets the groups its mask's set bits name; two bodies collide when each
//!   meets the other's group (the same test as Bullet's). Joined bodies may collide, as in
//!   Bullet; models mask them apart.
//! * **Modes**: 0 follows its bone: a kinematic body moved each step along the way from the
//!   previous pose's transform to this one's (positions linearly, rotations by slerp). 1 moves
//!   its bone: `bone world = body world · offset⁻¹`, with `offset` the body's rest transform
//!   relative to its bone's rest. 2 rotates its bone (same formula, rotation only); the bone
//!   keeps the position its parent and local transform give it, and the body stays where the
//!   engine put it, as saba and babylon-mmd do. (Putting the body back at its bone after the
//!   steps, tried before, kept models from settling in Bullet and tore the joints from 初音ミク's
//!   mode 2 skirt bodies to the boneless ones beside them by up to 2.4 units on the captured
//!   dance; without it the worst is 1.2.) Of several simulated bodies on one bone the first
//!   moves it.
//!   A body without a bone is simulated (or, in mode 0, held at rest) and moves
//!   nothing. A simulated body on an after-physics bone moves nothing (pass 2 would overwrite
//!   it).
//! * **Joints**: a 6-DOF joint whose frames in the two bodies are `body rest⁻¹ · joint frame`
//!   (the joint frame from its position and Y-X-Z Euler angles). Per axis: bounds both zero:
//!   locked; lower ≤ upper: limited; lower > upper: free. A positive spring constant becomes a
//!   force-based motor pulling the axis to 0 with that stiffness and no damping: force (torque)
//!   per unit (radian) of displacement, as Bullet's `btGeneric6DofSpringConstraint`, whose
//!   equilibrium is also the pose the joint was made in. The engine holds an axis on 2·atan2 of
//!   that component of the relative rotation and its real part, the angle itself about a single
//!   axis; limits are *measured* ([`JointReading::limit_excess`]) as Bullet's 6-DOF constraint
//!   reads them, the Euler angles of `Rx · Ry · Rz`, which is what an MMD limit means. The two
//!   agree to first order; a skirt swung 1.5 rad forward and 0.15 rad sideways reads 0 on its
//!   locked twist in Bullet's angles and 0.11 rad in the per-axis measure.
//! * **Solver**: 8 iterations per step, twice the engine's default: 初音ミク's 0.1–0.5 mass
//!   skirt and hair bodies hang from bodies that follow their bones, and with 4 iterations the
//!   corpus dances stretch their joints about half as far again, for about two thirds of the
//!   time per frame. Two internal PGS iterations instead, or joints twice as stiff, lowered the
//!   stretch less or raised the limit excess. BENCHMARKS.md ("Physics") has the figures.
//! * **Damping**: Bullet scales a velocity by `(1 − d)^dt` per step, so over time by
//!   `exp(ln(1 − d) · t)`; the engine scales it by `1 / (1 + c · dt)`, which is `exp(−c t)` to
//!   first order in the step. So `c = −ln(1 − d)`, with `d` clamped to 0.999 (at 1 it would be
//!   infinite) and negative or NaN `d` read as 0.
//! * **Steps**: fixed steps of [`PhysicsSettings::step`] (1/120 s by default, as saba and
//!   mmd-anim; babylon-mmd and BoneBaker use 1/60): as many as the pose's `dt` and the time left
//!   over before make (at 30 fps, four per frame). 1/120 s about halves 1/60's joint stretch on
//!   the corpus models for under twice its cost, well inside the 20×-real-time budget
//!   (BENCHMARKS.md, "Physics", measures 60, 120 and 240 steps a second); three.js' player
//!   also warns that 1/60 "easily breaks models". At most one second
//!   of simulation per pose: a larger `dt` is cut, so no input makes a pose take unbounded
//!   time. Gravity is (0, −98, 0) model units per s².
//! * **Start and cuts**: the first pose (and the first after [`PhysicsWorld::reset`]) places
//!   every body from that pose, with no velocity, and runs [`PhysicsSettings::settle_seconds`]
//!   of steps with the pose held. When the root bone (全ての親, else センター, else bone 0) moves
//!   further than [`PhysicsSettings::reset_distance`] between two poses, the same happens (a
//!   cut): the bodies teleport to their bones and settle.
//! * **Soft limits**: MMD's Bullet 2.75 lets limits and locked axes give under load (its 6-DOF
//!   constraint corrects only a share of the error per step), and breasts, neckties and skirts
//!   rely on it. Here every joint is a soft constraint of the engine with a natural frequency of
//!   one period per step (120 Hz at the default step), critically damped, instead of the
//!   engine's default (10⁶ Hz, rigid): stiff enough that a limit under a steady load holds (the
//!   limit test: a 1-unit-mass arm 8 units out pulled onto a ±0.3 rad limit by gravity passes it
//!   by less than 0.02 rad), soft enough that a body pressed into another by its joint (初音ミク's
//!   necktie against the chest) comes to rest instead of jittering. What gives under a dance
//!   is measured ([`PhysicsStats::max_limit_excess`], [`PhysicsStats::max_joint_error`],
//!   [`PhysicsWorld::joint_readings`]); the corpus test states its bounds. A body that follows
//!   its bone wins every contact, so a limb pushing a skirt through its limits moves it past
//!   them, as in MMD.
//! * **Determinism**: the engine runs on one thread (its parallel feature is off) and nothing
//!   here depends on time or addresses, so the same model, settings and poses give the same
//!   bits on one machine.
//! * **Damaged bodies** never explode the world: a body whose size, position or rotation is not
//!   finite, whose size is not positive or whose collision group is above 15 is left out (with
//!   its joints); a simulated body with
//!   a mass that is not positive follows its bone instead; a bone index out of range makes a
//!   body that moves nothing; a joint with a missing, out-of-range or repeated body, or a value
//!   that is NaN (an infinite spring, position or rotation too; an infinite limit frees its
//!   axis), is left out. These are the problems [`Model::physics_problems`] reports, so what a
//!   front end warns about is what the simulation changed. [`PhysicsWorld::notes`] lists each.
//!
//! # What differs from MMD's Bullet 2.75
//!
//! A different solver (rapier's soft-constraint PGS with substeps, not Bullet's sequential
//! impulses with ERP/CFM), so trajectories differ in detail; limits give differently (above); springs
//! are the engine's implicit motors, which add a little numerical damping where Bullet's explicit
//! spring adds none; limits are held on the per-axis measure above, not on Bullet's Euler
//! angles; and there is no ground plane (MikuMikuMoving's) and no wind.

mod build;
mod convert;
mod notes;
mod poser;
mod step;

#[cfg(test)]
mod tests;

pub use notes::PhysicsNote;
pub use poser::PhysicsPoser;

use crate::model::Model;
use crate::skeleton::{PhysicsBone, Pose, PoseEvaluator, PoseInput, Skeleton};
use build::{PlanStep, SimBody, SimJoint};
use convert::Transform;
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
    /// The largest distance, in model units, between the two anchors of a joint with a
    /// simulated body (after a pose's steps), NaN once a body's transform was NaN.
    pub max_joint_error: f32,
    /// The largest angle, in radians, by which a joint's limited or locked rotation axis went
    /// past its limit (after a pose's steps).
    pub max_limit_excess: f32,
}

/// One joint's state after the last pose ([`PhysicsWorld::joint_readings`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointReading {
    /// Index into the model's joints.
    pub joint: usize,
    /// The distance between the joint's anchors on its two bodies, model units.
    pub error: f32,
    /// How far, in radians, a limited or locked rotation axis is past its limit (0 within).
    pub limit_excess: f32,
    /// Both bodies follow their bones: the animation alone moves the joint's ends, so its
    /// figures say nothing about the simulation (they are left out of [`PhysicsStats`]).
    pub kinematic: bool,
}

/// A model's rigid bodies and joints in a physics world, stepped pose by pose.
pub struct PhysicsWorld {
    engine: rapier3d::prelude::PhysicsWorld,
    settings: PhysicsSettings,
    bodies: Vec<SimBody>,
    joints: Vec<SimJoint>,
    plan: Vec<PlanStep>,
    driven: Vec<usize>,
    notes: Vec<PhysicsNote>,
    /// The bone whose jumps are cuts.
    root: Option<usize>,
    last_root: Option<Vec3>,
    started: bool,
    /// Simulated time owed to the next pose, seconds.
    accumulator: f64,
    /// Per body: where this pose and the previous one place it.
    targets: Vec<Transform>,
    previous: Vec<Transform>,
    scratch: Vec<PhysicsBone>,
    stats: PhysicsStats,
    last_joint_error: f32,
    last_limit_excess: f32,
}

impl PhysicsWorld {
    /// Builds the world for `model` (whose skeleton is `skeleton`).
    pub fn new(model: &Model, skeleton: &Skeleton, settings: &PhysicsSettings) -> PhysicsWorld {
        let step = if settings.step.is_finite() && settings.step > 1e-5 {
            settings.step
        } else {
            1.0 / 120.0
        };
        let settings = PhysicsSettings { step, ..*settings };
        let built = build::build(model, skeleton, step, settings.gravity);
        let root = ["全ての親", "センター"]
            .iter()
            .find_map(|name| skeleton.bone_index(name))
            .or((skeleton.bone_count() > 0).then_some(0));
        let n = built.bodies.len();
        PhysicsWorld {
            stats: PhysicsStats {
                bodies: n,
                joints: built.joints.len(),
                ..PhysicsStats::default()
            },
            engine: built.engine,
            settings,
            bodies: built.bodies,
            joints: built.joints,
            scratch: Vec::with_capacity(built.plan.len()),
            plan: built.plan,
            driven: built.driven,
            notes: built.notes,
            root,
            last_root: None,
            started: false,
            accumulator: 0.0,
            targets: vec![Transform::IDENTITY; n],
            previous: vec![Transform::IDENTITY; n],
            last_joint_error: 0.0,
            last_limit_excess: 0.0,
        }
    }

    /// The bones a simulated body moves, in deform order.
    pub fn driven_bones(&self) -> &[usize] {
        &self.driven
    }

    /// Poses `input` with physics: the bones before physics, `dt` seconds of simulation, then
    /// the bodies' bones and the after-physics bones. The first call after [`PhysicsWorld::new`]
    /// or [`PhysicsWorld::reset`] places the bodies from this pose and settles them.
    ///
    /// # Panics
    /// If `input` or `pose` were made for another skeleton than the world's.
    pub fn pose(&mut self, evaluator: &PoseEvaluator, input: &PoseInput, dt: f32, pose: &mut Pose) {
        self.run(evaluator, input, dt, pose);
    }

    /// Makes the next [`PhysicsWorld::pose`] start afresh.
    pub fn reset(&mut self) {
        self.started = false;
        self.last_root = None;
    }

    /// Counts and the worst joint error seen.
    pub fn stats(&self) -> PhysicsStats {
        self.stats
    }

    /// The settings in use (a step that is not a positive number is replaced by 1/120 s).
    pub fn settings(&self) -> &PhysicsSettings {
        &self.settings
    }

    /// What building left out or changed.
    pub fn notes(&self) -> &[PhysicsNote] {
        &self.notes
    }

    /// After the last pose: the largest distance between a joint's two anchors, and the largest
    /// excess of a joint angle over its limit (radians), over the joints with a simulated body.
    pub fn last_joint_figures(&self) -> (f32, f32) {
        (self.last_joint_error, self.last_limit_excess)
    }

    /// Every joint in the world (the model's joints less those left out), as it is now.
    pub fn joint_readings(&self) -> impl Iterator<Item = JointReading> + '_ {
        self.joints.iter().map(|j| self.reading(j))
    }

    /// The largest linear speed of a simulated body now, model units per second.
    pub fn max_speed(&self) -> f32 {
        self.fastest()
    }
}
