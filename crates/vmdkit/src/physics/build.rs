//! Building the engine's world from a model: a body and a collider per valid rigid body, a
//! 6-DOF joint per valid joint, and the plan of which bones the bodies move. What is valid is
//! what [`Model::physics_problems`] accepts, with the policy the module documentation states.

use super::convert::{damping, euler, to_pose, to_vector, Transform};
use super::notes::PhysicsNote;
use crate::model::{
    Joint, Model, PhysicsItem, PhysicsProblemKind, RigidBody, RigidMode, RigidShape,
};
use crate::skeleton::{Skeleton, METRES_PER_UNIT};
use glam::Vec3;
use rapier3d::prelude::{
    CoefficientCombineRule, ColliderBuilder, GenericJoint, Group, ImpulseJointHandle,
    InteractionGroups, InteractionTestMode, JointAxesMask, JointAxis, MotorModel, PhysicsWorld,
    RigidBodyBuilder, RigidBodyHandle, SpringCoefficients,
};

/// The engine's solver iterations per step (its default is 4; module documentation, "Solver").
pub(super) const SOLVER_ITERATIONS: usize = 8;

/// How a simulated body moves its bone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Drive {
    /// Mode 1: the bone's world transform is the body's (less the offset).
    Whole,
    /// Mode 2: the bone's world rotation is the body's; its position stays its own.
    Rotation,
}

/// One rigid body in the world.
#[derive(Clone, Debug)]
pub(super) struct SimBody {
    pub handle: RigidBodyHandle,
    /// The bone it follows or drives, when there is one (in range).
    pub bone: Option<usize>,
    /// Moved to its bone each substep (mode 0, or a damaged dynamic body).
    pub kinematic: bool,
    /// Set on the one simulated body that moves its bone.
    pub drive: Option<Drive>,
    /// The body's rest transform relative to its bone's rest (identity rotation at the bone's
    /// rest position); the rest transform itself for a body without a bone.
    pub offset: Transform,
}

/// One joint in the world: its handle, bodies (indices into the world's bodies) and frames in
/// them, and the limits it was given, for measuring how far they are exceeded.
#[derive(Clone, Debug)]
pub(super) struct SimJoint {
    /// Index into the model's joints.
    pub index: usize,
    #[allow(dead_code)] // kept so that a joint can be looked up in the engine while debugging
    pub handle: ImpulseJointHandle,
    pub a: usize,
    pub b: usize,
    pub frame_a: Transform,
    pub frame_b: Transform,
    /// Per angular axis: the limits the engine holds (locked is [0, 0]), `None` when free.
    pub angular: [Option<[f32; 2]>; 3],
}

/// One step of the between-passes plan, in pass-1 deform order.
#[derive(Clone, Copy, Debug)]
pub(super) enum PlanStep {
    /// The bone is moved by world body `body`.
    Body { bone: u32, body: usize },
    /// The bone follows a parent that physics moved.
    Refresh { bone: u32 },
}

/// Everything [`build`] makes.
pub(super) struct Built {
    pub engine: PhysicsWorld,
    pub bodies: Vec<SimBody>,
    pub joints: Vec<SimJoint>,
    pub plan: Vec<PlanStep>,
    pub driven: Vec<usize>,
    pub notes: Vec<PhysicsNote>,
}

/// Builds the world for `model` on `skeleton`, with fixed step `step` and `gravity`.
pub(super) fn build(model: &Model, skeleton: &Skeleton, step: f32, gravity: Vec3) -> Built {
    let mut engine = PhysicsWorld::new();
    engine.gravity = to_vector(gravity);
    engine.integration_parameters.dt = step;
    // The engine's tolerances are in metres by default; a model unit is 8 cm.
    engine.integration_parameters.length_unit = (1.0 / METRES_PER_UNIT) as f32;
    // Twice the engine's default solver iterations: light skirt and hair bodies (0.1–0.5) hang
    // in chains from bodies that follow their bones (infinite mass), and with 4 iterations their
    // joints stretch further under a dance (module documentation, "Solver").
    engine.integration_parameters.num_solver_iterations = SOLVER_ITERATIONS;
    let mut notes = Vec::new();
    let mut bodies = Vec::new();
    // Per model rigid body: its index in `bodies`.
    let mut placed: Vec<Option<usize>> = vec![None; model.rigid_bodies.len()];
    let mut driver: Vec<Option<usize>> = vec![None; skeleton.bone_count()];
    let pass2 = after_physics_bones(skeleton);
    let problems = model.physics_problems();
    let has = |item: PhysicsItem, index: usize| {
        problems.iter().filter(move |p| p.item == item && p.index == index)
    };
    for (i, rb) in model.rigid_bodies.iter().enumerate() {
        let policy = BodyPolicy::of(has(PhysicsItem::RigidBody, i).map(|p| &p.kind));
        if let Some(reason) = policy.left_out {
            notes.push(PhysicsNote::BodyLeftOut { body: i, reason });
            continue;
        }
        let bone = match rb.bone {
            _ if policy.bone_out_of_range => {
                notes.push(PhysicsNote::BodyDrivesNothing {
                    body: i,
                    reason: "bone index out of range",
                });
                None
            }
            bone => bone,
        };
        let mut kinematic = !rb.mode.is_simulated();
        if !kinematic && policy.bad_mass {
            notes.push(PhysicsNote::BodyMadeKinematic { body: i, reason: "mass not positive" });
            kinematic = true;
        }
        let rest = Transform::new(rb.position, euler(rb.rotation));
        let offset = match bone {
            Some(b) => Transform::new(rb.position - skeleton.rest_position(b), rest.rotation),
            None => rest,
        };
        let mut drive = None;
        if let (false, Some(b)) = (kinematic, bone) {
            if pass2[b] {
                let reason = "its bone deforms after physics";
                notes.push(PhysicsNote::BodyDrivesNothing { body: i, reason });
            } else if driver[b].is_some() {
                let reason = "an earlier body moves its bone";
                notes.push(PhysicsNote::BodyDrivesNothing { body: i, reason });
            } else {
                driver[b] = Some(bodies.len());
                drive = Some(match rb.mode {
                    RigidMode::PhysicsWithBonePosition => Drive::Rotation,
                    _ => Drive::Whole,
                });
            }
        }
        let handle = insert_body(&mut engine, rb, rest, kinematic);
        placed[i] = Some(bodies.len());
        bodies.push(SimBody { handle, bone, kinematic, drive, offset });
    }
    let joints = model
        .joints
        .iter()
        .enumerate()
        .filter_map(|(j, joint)| {
            match joint_ends(joint, &placed, has(PhysicsItem::Joint, j).next().is_some()) {
                Ok((a, b)) => Some(insert_joint(&mut engine, &bodies, step, j, joint, a, b)),
                Err(reason) => {
                    notes.push(PhysicsNote::JointLeftOut { joint: j, reason });
                    None
                }
            }
        })
        .collect();
    let (plan, driven) = plan(skeleton, &driver);
    Built { engine, bodies, joints, plan, driven, notes }
}

/// Per bone: whether it deforms in pass 2 (after physics).
fn after_physics_bones(skeleton: &Skeleton) -> Vec<bool> {
    let mut pass2 = vec![false; skeleton.bone_count()];
    for b in skeleton.deform_order().skip(skeleton.pass2_start()) {
        pass2[b] = true;
    }
    pass2
}

/// What the simulation does with one body, from the problems [`Model::physics_problems`]
/// found in it: one rule, so that what a front end warns about is what the simulation changes.
#[derive(Default)]
struct BodyPolicy {
    /// Left out (with its joints), and why: an engine cannot place or shape it.
    left_out: Option<&'static str>,
    /// Simulated, but moves no bone.
    bone_out_of_range: bool,
    /// A simulated body without a usable mass: it follows its bone instead.
    bad_mass: bool,
}

impl BodyPolicy {
    fn of<'a>(problems: impl Iterator<Item = &'a PhysicsProblemKind>) -> BodyPolicy {
        let mut policy = BodyPolicy::default();
        // In order of precedence, so that the note names the first reason.
        let mut reasons = [None; 3];
        for problem in problems {
            match problem {
                PhysicsProblemKind::NotFinite { field: "position" | "rotation" } => {
                    reasons[0] = Some("position or rotation not finite")
                }
                PhysicsProblemKind::BadSize { .. } => {
                    reasons[1] = Some("size not finite or not positive")
                }
                PhysicsProblemKind::GroupOutOfRange { .. } => {
                    reasons[2] = Some("collision group above 15")
                }
                PhysicsProblemKind::BoneOutOfRange { .. } => policy.bone_out_of_range = true,
                PhysicsProblemKind::BadMass { .. } => policy.bad_mass = true,
                // Dampings, restitution and friction that are not numbers take Bullet's
                // defaults where the collider is made.
                _ => {}
            }
        }
        policy.left_out = reasons.into_iter().flatten().next();
        policy
    }
}

/// The body and its collider, at `rest`.
fn insert_body(
    engine: &mut PhysicsWorld,
    rb: &RigidBody,
    rest: Transform,
    kinematic: bool,
) -> RigidBodyHandle {
    let body = if kinematic {
        RigidBodyBuilder::kinematic_position_based()
    } else {
        RigidBodyBuilder::dynamic()
    }
    .pose(to_pose(rest))
    .linear_damping(damping(rb.linear_damping))
    .angular_damping(damping(rb.angular_damping))
    .can_sleep(false)
    .ccd_enabled(false);
    let s = rb.size;
    let shape = match rb.shape {
        RigidShape::Sphere => ColliderBuilder::ball(s.x),
        RigidShape::Box => ColliderBuilder::cuboid(s.x, s.y, s.z),
        _ => ColliderBuilder::capsule_y(s.y * 0.5, s.x),
    };
    let finite_or = |v: f32, d: f32| if v.is_finite() { v.max(0.0) } else { d };
    let groups = InteractionGroups::new(
        Group::from_bits_truncate(1 << (rb.group & 15)),
        Group::from_bits_truncate(u32::from(rb.mask)),
        InteractionTestMode::And,
    );
    let mut collider = shape
        .friction(finite_or(rb.friction, 0.5))
        .restitution(finite_or(rb.restitution, 0.0))
        // Bullet multiplies the two bodies' coefficients.
        .friction_combine_rule(CoefficientCombineRule::Multiply)
        .restitution_combine_rule(CoefficientCombineRule::Multiply)
        .collision_groups(groups);
    if !kinematic {
        collider = collider.mass(rb.mass);
    }
    let handle = engine.insert_body(body);
    engine.colliders.insert_with_parent(collider, handle, &mut engine.bodies);
    handle
}

/// The world indices of a joint's two bodies, or why it cannot be built.
fn joint_ends(
    joint: &Joint,
    placed: &[Option<usize>],
    problem: bool,
) -> Result<(usize, usize), &'static str> {
    let end = |b: Option<usize>| match b {
        None => Err("a body index is −1"),
        Some(b) if b >= placed.len() => Err("a body index is out of range"),
        Some(b) => placed[b].ok_or("one of its bodies was left out"),
    };
    let (a, b) = (end(joint.body_a)?, end(joint.body_b)?);
    if a == b {
        return Err("both ends are the same body");
    }
    if problem {
        // What is left after the checks above: a NaN or infinite value (Model::physics_problems).
        return Err("a value is not a number, or an infinite position, rotation or spring");
    }
    Ok((a, b))
}

/// The joint's frames and axes in the engine (module documentation, "Joints").
fn insert_joint(
    engine: &mut PhysicsWorld,
    bodies: &[SimBody],
    step: f32,
    index: usize,
    joint: &Joint,
    a: usize,
    b: usize,
) -> SimJoint {
    let frame = Transform::new(joint.position, euler(joint.rotation));
    let rest = |i: usize| super::convert::from_pose(engine.bodies[bodies[i].handle].position());
    let frame_a = rest(a).inverse().mul(frame);
    let frame_b = rest(b).inverse().mul(frame);
    let mut g = GenericJoint::new(JointAxesMask::empty());
    // Soft constraints (module documentation, "Soft limits"): one natural period per step,
    // critically damped.
    g.set_softness(SpringCoefficients::new(1.0 / step, 1.0))
        .set_local_frame1(to_pose(frame_a))
        .set_local_frame2(to_pose(frame_b));
    let linear = [JointAxis::LinX, JointAxis::LinY, JointAxis::LinZ];
    let angular = [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ];
    let mut held = [None; 3];
    for i in 0..3 {
        axis(&mut g, linear[i], joint.linear_min[i], joint.linear_max[i], joint.linear_spring[i]);
        held[i] = axis(
            &mut g,
            angular[i],
            joint.angular_min[i],
            joint.angular_max[i],
            joint.angular_spring[i],
        );
    }
    let handle = engine.insert_impulse_joint(bodies[a].handle, bodies[b].handle, g);
    SimJoint { index, handle, a, b, frame_a, frame_b, angular: held }
}

/// One axis: locked when its bounds are both 0, limited when lower ≤ upper, free when lower >
/// upper; a positive spring constant adds a force-based motor pulling to 0 (Bullet's spring,
/// whose equilibrium is where the joint was built). Returns the limits held, if any.
fn axis(
    g: &mut GenericJoint,
    axis: JointAxis,
    lower: f32,
    upper: f32,
    spring: f32,
) -> Option<[f32; 2]> {
    let held = if !(lower.is_finite() && upper.is_finite()) {
        // An infinite bound (the model check allows it) leaves the axis unbounded that way;
        // the engine's limits need numbers, so the axis is free.
        None
    } else if lower == 0.0 && upper == 0.0 {
        g.lock_axes(axis.into());
        return Some([0.0, 0.0]);
    } else if lower <= upper {
        g.set_limits(axis, [lower, upper]);
        Some([lower, upper])
    } else {
        None
    };
    if spring > 0.0 {
        g.set_motor_model(axis, MotorModel::ForceBased);
        g.set_motor(axis, 0.0, 0.0, spring, 0.0);
    }
    held
}

/// The between-passes plan: pass-1 bones a body moves, and those below them no body moves (to be
/// refreshed), in deform order; and the moved bones in deform order.
fn plan(skeleton: &Skeleton, driver: &[Option<usize>]) -> (Vec<PlanStep>, Vec<usize>) {
    let mut moved = vec![false; skeleton.bone_count()];
    let mut plan = Vec::new();
    let mut driven = Vec::new();
    for b in skeleton.deform_order().take(skeleton.pass2_start()) {
        let below = skeleton.parent(b).is_some_and(|p| moved[p]);
        if let Some(body) = driver[b] {
            plan.push(PlanStep::Body { bone: b as u32, body });
            driven.push(b);
            moved[b] = true;
        } else if below {
            plan.push(PlanStep::Refresh { bone: b as u32 });
            moved[b] = true;
        }
    }
    (plan, driven)
}
