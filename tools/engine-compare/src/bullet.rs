//! vmdkit's simulation loop (crates/vmdkit/src/physics/step.rs and build.rs) with Bullet as the
//! engine, so that a comparison differs in the engine and nothing else: the same pass-1 pose
//! drives the kinematic bodies, moved each fixed step from the previous pose's transform to this
//! one's; the same bodies, joints, modes, settling and cuts; the same bones moved between the
//! passes; the same figures measured.
//!
//! What this wrapper cannot make the same: the crate builds every joint with Bullet's
//! `disableCollisionsBetweenLinkedBodies` (vmdkit lets joined bodies collide, as MMD does; the
//! models here mask them apart anyway), and Bullet computes a capsule's inertia from its
//! bounding box where rapier integrates the shape.

use crate::engine::{Engine, Figures};
use glam::{EulerRot, Quat, Vec3};
use mmd_anim_physics_bullet::{
    BulletError, BulletWorld, RigidBodyDesc, RigidBodyHandle, RigidBodyShape,
    SixDofSpringJointDesc, Transform as BtTransform,
};
use vmdkit::model::{Model, RigidMode, RigidShape};
use vmdkit::physics::{PhysicsNote, PhysicsSettings, PhysicsWorld};
use vmdkit::skeleton::{PhysicsBone, Pose, PoseEvaluator, PoseInput, Skeleton};

/// As vmdkit: a pose never asks for more than a second of simulation.
const MAX_SECONDS_PER_POSE: f64 = 1.0;
/// As vmdkit: 1/30 s is four steps of 1/120 s even when the division lands a hair below 4.
const STEP_SLACK: f64 = 1e-6;

/// A rigid transform: `x ↦ r · x + t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tf {
    pub t: Vec3,
    pub r: Quat,
}

impl Tf {
    pub const IDENTITY: Tf = Tf { t: Vec3::ZERO, r: Quat::IDENTITY };

    pub fn mul(self, o: Tf) -> Tf {
        Tf { t: self.t + self.r * o.t, r: (self.r * o.r).normalize() }
    }

    pub fn inverse(self) -> Tf {
        let r = self.r.conjugate();
        Tf { t: r * -self.t, r }
    }

    pub fn point(self, p: Vec3) -> Vec3 {
        self.t + self.r * p
    }

    pub fn lerp(self, o: Tf, s: f32) -> Tf {
        Tf { t: self.t.lerp(o.t, s), r: self.r.slerp(o.r, s) }
    }

    fn to_bt(self) -> BtTransform {
        BtTransform { position: self.t.to_array(), rotation_xyzw: self.r.to_array() }
    }

    fn from_bt(b: BtTransform) -> Tf {
        Tf { t: Vec3::from_array(b.position), r: Quat::from_array(b.rotation_xyzw) }
    }
}

/// MMD's Euler angles (Y, then X, then Z) as a rotation.
pub fn mmd_euler(angles: Vec3) -> Quat {
    Quat::from_euler(EulerRot::YXZ, angles.y, angles.x, angles.z)
}

/// The angles the crate's descriptors take for rotation `q`: it builds rotations with Bullet's
/// `setEulerZYX(z, y, x)`, i.e. `Rz · Ry · Rx`, not MMD's `Ry · Rx · Rz`, so MMD's angles are
/// converted rather than passed through (and the result is checked after the body is made).
fn bullet_euler(q: Quat) -> [f32; 3] {
    let (z, y, x) = q.to_euler(EulerRot::ZYX);
    [x, y, z]
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Drive {
    Whole,
    Rotation,
}

struct Body {
    handle: RigidBodyHandle,
    bone: Option<usize>,
    kinematic: bool,
    drive: Option<Drive>,
    offset: Tf,
}

struct SimJoint {
    index: usize,
    a: usize,
    b: usize,
    frame_a: Tf,
    frame_b: Tf,
    angular: [Option<[f32; 2]>; 3],
}

#[derive(Clone, Copy)]
enum PlanStep {
    Body { bone: u32, body: usize },
    Refresh { bone: u32 },
}

/// One model's bodies and joints in a Bullet world, posed as vmdkit's `PhysicsWorld` poses.
pub struct BulletSim {
    world: BulletWorld,
    settings: PhysicsSettings,
    bodies: Vec<Body>,
    joints: Vec<SimJoint>,
    plan: Vec<PlanStep>,
    root: Option<usize>,
    last_root: Option<Vec3>,
    started: bool,
    accumulator: f64,
    targets: Vec<Tf>,
    previous: Vec<Tf>,
    scratch: Vec<PhysicsBone>,
    figures: Figures,
    /// Per joint with a simulated body, after the last pose: (model index, error, excess).
    readings: Vec<(usize, f32, f32)>,
    /// vmdkit's mode 2 convention: the body is put back at its bone's position after every step
    /// (keeping its velocity). Off: the body swings free and only lends its rotation.
    put_back: bool,
}

/// The bodies and joints vmdkit leaves out of its world, by index, as its notes say: the same
/// ones are left out here, so that only the engine differs.
fn left_out(
    model: &Model,
    skeleton: &Skeleton,
    settings: &PhysicsSettings,
) -> (Vec<usize>, Vec<usize>) {
    let (mut bodies, mut joints) = (Vec::new(), Vec::new());
    for note in PhysicsWorld::new(model, skeleton, settings).notes() {
        match *note {
            PhysicsNote::BodyLeftOut { body, .. } => bodies.push(body),
            PhysicsNote::JointLeftOut { joint, .. } => joints.push(joint),
            _ => {}
        }
    }
    (bodies, joints)
}

impl BulletSim {
    /// Builds the world; fails only when Bullet refuses a descriptor.
    pub fn new(
        model: &Model,
        skeleton: &Skeleton,
        settings: &PhysicsSettings,
        put_back: bool,
    ) -> Result<BulletSim, BulletError> {
        let mut world = BulletWorld::new()?;
        world.set_gravity(settings.gravity.to_array())?;
        let mut pass2 = vec![false; skeleton.bone_count()];
        for b in skeleton.deform_order().skip(skeleton.pass2_start()) {
            pass2[b] = true;
        }
        let mut bodies: Vec<Body> = Vec::new();
        let mut placed = vec![None; model.rigid_bodies.len()];
        let mut driver: Vec<Option<usize>> = vec![None; skeleton.bone_count()];
        let mut rests = Vec::new();
        let (bodies_out, joints_out) = left_out(model, skeleton, settings);
        for (i, rb) in model.rigid_bodies.iter().enumerate() {
            if bodies_out.contains(&i) {
                continue;
            }
            let bone = rb.bone.filter(|&b| b < skeleton.bone_count());
            let kinematic = !(rb.mode.is_simulated() && rb.mass.is_finite() && rb.mass > 0.0);
            let rest = Tf { t: rb.position, r: mmd_euler(rb.rotation) };
            let offset = match bone {
                Some(b) => Tf { t: rb.position - skeleton.rest_position(b), r: rest.r },
                None => rest,
            };
            let mut drive = None;
            if let (false, Some(b)) = (kinematic, bone) {
                if !pass2[b] && driver[b].is_none() {
                    driver[b] = Some(bodies.len());
                    drive = Some(match rb.mode {
                        RigidMode::PhysicsWithBonePosition => Drive::Rotation,
                        _ => Drive::Whole,
                    });
                }
            }
            let s = rb.size;
            let shape = match rb.shape {
                RigidShape::Sphere => RigidBodyShape::Sphere { radius: s.x },
                RigidShape::Box => RigidBodyShape::Box { half_extents: s.to_array() },
                _ => RigidBodyShape::Capsule { radius: s.x, height: s.y },
            };
            let finite_or = |v: f32, d: f32| if v.is_finite() { v } else { d };
            let handle = world.add_rigidbody(RigidBodyDesc {
                shape,
                position: rb.position.to_array(),
                rotation_euler: bullet_euler(rest.r),
                // Mass 0 makes the crate's body kinematic.
                mass: if kinematic { 0.0 } else { rb.mass },
                linear_damping: finite_or(rb.linear_damping, 0.0).min(1.0),
                angular_damping: finite_or(rb.angular_damping, 0.0).min(1.0),
                friction: finite_or(rb.friction, 0.5),
                restitution: finite_or(rb.restitution, 0.0),
                collision_group: u16::from(rb.group & 15),
                collision_mask: rb.mask,
            })?;
            let made = Tf::from_bt(world.rigidbody_transform(handle)?);
            assert!(
                made.t.abs_diff_eq(rest.t, 1e-4) && made.r.dot(rest.r).abs() > 1.0 - 1e-6,
                "body {i}: Bullet placed it at {made:?}, MMD's convention says {rest:?}"
            );
            placed[i] = Some(bodies.len());
            rests.push(made);
            bodies.push(Body { handle, bone, kinematic, drive, offset });
        }
        let mut joints = Vec::new();
        for (index, joint) in model.joints.iter().enumerate() {
            let end = |b: Option<usize>| b.and_then(|b| placed.get(b).copied().flatten());
            let (Some(a), Some(b)) = (end(joint.body_a), end(joint.body_b)) else { continue };
            if joints_out.contains(&index) {
                continue;
            }
            let frame = Tf { t: joint.position, r: mmd_euler(joint.rotation) };
            world.add_6dof_spring_joint(SixDofSpringJointDesc {
                rigidbody_a: bodies[a].handle,
                rigidbody_b: bodies[b].handle,
                position: joint.position.to_array(),
                rotation_euler: bullet_euler(frame.r),
                translation_lower_limit: joint.linear_min.to_array(),
                translation_upper_limit: joint.linear_max.to_array(),
                rotation_lower_limit: joint.angular_min.to_array(),
                rotation_upper_limit: joint.angular_max.to_array(),
                spring_translation_factor: joint.linear_spring.to_array(),
                spring_rotation_factor: joint.angular_spring.to_array(),
            })?;
            let held = |i: usize| {
                let (lo, hi) = (joint.angular_min[i], joint.angular_max[i]);
                (lo <= hi).then_some([lo, hi])
            };
            joints.push(SimJoint {
                index,
                a,
                b,
                frame_a: rests[a].inverse().mul(frame),
                frame_b: rests[b].inverse().mul(frame),
                angular: [held(0), held(1), held(2)],
            });
        }
        let plan = plan(skeleton, &driver);
        let root = ["全ての親", "センター"]
            .iter()
            .find_map(|name| skeleton.bone_index(name))
            .or((skeleton.bone_count() > 0).then_some(0));
        let n = bodies.len();
        let mode2 = bodies.iter().filter(|b| b.drive == Some(Drive::Rotation)).count();
        if std::env::var_os("ENGINE_COMPARE_VERBOSE").is_some() {
            eprintln!("{}: {n} bodies, {} joints, {mode2} in mode 2", model.name, joints.len());
        }
        Ok(BulletSim {
            world,
            settings: *settings,
            bodies,
            joints,
            plan,
            root,
            last_root: None,
            started: false,
            accumulator: 0.0,
            targets: vec![Tf::IDENTITY; n],
            previous: vec![Tf::IDENTITY; n],
            scratch: Vec::new(),
            figures: Figures::default(),
            readings: Vec::new(),
            put_back,
        })
    }

    fn world_of(&self, k: usize) -> Tf {
        Tf::from_bt(self.world.rigidbody_transform(self.bodies[k].handle).expect("body"))
    }

    fn set(&mut self, k: usize, tf: Tf) {
        self.world.set_rigidbody_transform(self.bodies[k].handle, tf.to_bt()).expect("body");
    }

    fn restart(&mut self) {
        for k in 0..self.bodies.len() {
            self.set(k, self.targets[k]);
        }
        // Zero every velocity and forget old contacts.
        self.world.settle_to_current().expect("settle");
        let seconds = f64::from(self.settings.settle_seconds.max(0.0)).min(60.0);
        let steps = (seconds / f64::from(self.settings.step)).round() as u64;
        for _ in 0..steps {
            self.substep(1.0);
        }
        self.previous.copy_from_slice(&self.targets);
        self.accumulator = 0.0;
        self.started = true;
    }

    fn advance(&mut self, dt: f32) {
        if dt.is_finite() && dt > 0.0 {
            self.accumulator = (self.accumulator + f64::from(dt)).min(MAX_SECONDS_PER_POSE);
        }
        let step = f64::from(self.settings.step);
        let n = (self.accumulator / step + STEP_SLACK).floor() as u64;
        if n == 0 {
            return;
        }
        self.accumulator = (self.accumulator - n as f64 * step).max(0.0);
        for i in 1..=n {
            self.substep(i as f32 / n as f32);
        }
        self.previous.copy_from_slice(&self.targets);
    }

    fn substep(&mut self, s: f32) {
        for k in 0..self.bodies.len() {
            if self.bodies[k].kinematic {
                self.set(k, self.previous[k].lerp(self.targets[k], s));
            }
        }
        // One step of exactly `step`: with no substepping Bullet's motion states hold the
        // body's transform after the step, not the one-step-late interpolation it reports in
        // fixed-substep mode.
        let step = self.settings.step;
        self.world.step_with_fixed_substep(step, 0, step).expect("step");
        for k in 0..self.bodies.len() {
            let body = &self.bodies[k];
            if body.drive == Some(Drive::Rotation) && self.put_back {
                let offset = body.offset;
                let rotation = self.world_of(k).r;
                let bone_at = self.targets[k].point(-offset.t);
                let centre = bone_at + rotation * offset.r.conjugate() * offset.t;
                self.set(k, Tf { t: centre, r: rotation });
            }
        }
    }

    fn move_bones(&mut self, evaluator: &PoseEvaluator, pose: &mut Pose) {
        self.scratch.clear();
        for i in 0..self.plan.len() {
            let step = match self.plan[i] {
                PlanStep::Refresh { bone } => PhysicsBone::Refresh { bone },
                PlanStep::Body { bone, body } => {
                    let b = self.world_of(body).mul(self.bodies[body].offset.inverse());
                    match self.bodies[body].drive {
                        Some(Drive::Rotation) => PhysicsBone::Rotation { bone, rotation: b.r },
                        _ => PhysicsBone::World { bone, position: b.t, rotation: b.r },
                    }
                }
            };
            self.scratch.push(step);
        }
        evaluator.apply_physics(&self.scratch, pose);
        for i in 0..self.plan.len() {
            let PlanStep::Body { bone, body } = self.plan[i] else { continue };
            if self.bodies[body].drive == Some(Drive::Rotation) && self.put_back {
                let b = bone as usize;
                let centre = Tf { t: pose.position(b), r: pose.rotation(b) }
                    .point(self.bodies[body].offset.t);
                let r = self.world_of(body).r;
                self.set(body, Tf { t: centre, r });
            }
        }
    }

    /// vmdkit's measure: anchor distance, and how far the relative rotation's Euler XYZ angles
    /// (Bullet's own) are past the held axes' limits; joints between two kinematic bodies left
    /// out, as vmdkit leaves them out.
    fn measure(&mut self) {
        let (mut error, mut excess) = (0f32, 0f32);
        self.readings.clear();
        for j in &self.joints {
            let a = self.world_of(j.a).mul(j.frame_a);
            let b = self.world_of(j.b).mul(j.frame_b);
            let rel = a.r.conjugate() * b.r;
            let (x, y, z) = rel.normalize().to_euler(glam::EulerRot::XYZ);
            let mut ex = 0f32;
            for (held, angle) in j.angular.iter().zip([x, y, z]) {
                let Some([lo, hi]) = *held else { continue };
                ex = ex.max(angle - hi).max(lo - angle);
            }
            let kinematic = self.bodies[j.a].kinematic && self.bodies[j.b].kinematic;
            if !kinematic {
                error = error.max(a.t.distance(b.t));
                excess = excess.max(ex);
                self.readings.push((j.index, a.t.distance(b.t), ex));
            }
        }
        self.figures.max_joint_error = if error.is_nan() || self.figures.max_joint_error.is_nan() {
            f32::NAN
        } else {
            self.figures.max_joint_error.max(error)
        };
        self.figures.max_limit_excess = self.figures.max_limit_excess.max(excess);
    }
}

impl Engine for BulletSim {
    fn pose(&mut self, evaluator: &PoseEvaluator, input: &PoseInput, dt: f32, pose: &mut Pose) {
        evaluator.evaluate_before_physics(input, pose);
        for (target, body) in self.targets.iter_mut().zip(&self.bodies) {
            *target = match body.bone {
                Some(b) => Tf { t: pose.position(b), r: pose.rotation(b) }.mul(body.offset),
                None => body.offset,
            };
        }
        let root = self.root.map(|r| pose.position(r));
        let cut = match (self.last_root, root, self.settings.reset_distance) {
            (Some(a), Some(b), Some(d)) => !(a.distance(b) <= d),
            _ => false,
        };
        if !self.started || cut {
            self.restart();
        } else {
            self.advance(dt);
        }
        self.last_root = root;
        self.measure();
        self.move_bones(evaluator, pose);
        evaluator.evaluate_after_physics(input, pose);
    }

    fn figures(&self) -> Figures {
        self.figures
    }

    fn joints_now(&self) -> Vec<(usize, f32, f32)> {
        self.readings.clone()
    }
}

/// vmdkit's between-passes plan: pass-1 bones a body moves and the pass-1 bones below them.
fn plan(skeleton: &Skeleton, driver: &[Option<usize>]) -> Vec<PlanStep> {
    let mut moved = vec![false; skeleton.bone_count()];
    let mut plan = Vec::new();
    for b in skeleton.deform_order().take(skeleton.pass2_start()) {
        let below = skeleton.parent(b).is_some_and(|p| moved[p]);
        if let Some(body) = driver[b] {
            plan.push(PlanStep::Body { bone: b as u32, body });
            moved[b] = true;
        } else if below {
            plan.push(PlanStep::Refresh { bone: b as u32 });
            moved[b] = true;
        }
    }
    plan
}
