//! One pose with physics: pass 1, the bodies' targets, the fixed steps (or a restart), the
//! bones the bodies move, pass 2; and the figures measured on the way.

use super::build::{Drive, PlanStep, SimJoint};
use super::convert::{from_pose, from_vector, to_pose, to_vector, Transform};
use super::{JointReading, PhysicsWorld};
use crate::skeleton::{PhysicsBone, Pose, PoseEvaluator, PoseInput};
use glam::{EulerRot, Quat, Vec3};
use rapier3d::prelude::RigidBodyHandle;

/// The most simulated time one pose may ask for, in seconds: a longer `dt` (a caller's error,
/// or a pause) is cut to this, so that no input makes a pose take unbounded time.
const MAX_SECONDS_PER_POSE: f64 = 1.0;

/// Rounding slack when dividing a frame's time into steps: 1/30 s is 4 steps of 1/120 s even
/// when the division lands a hair below 4.
const STEP_SLACK: f64 = 1e-6;

impl PhysicsWorld {
    /// [`PhysicsWorld::pose`]'s work.
    pub(super) fn run(
        &mut self,
        evaluator: &PoseEvaluator,
        input: &PoseInput,
        dt: f32,
        pose: &mut Pose,
    ) {
        evaluator.evaluate_before_physics(input, pose);
        self.targets_from(pose);
        let root = self.root.map(|r| pose.position(r));
        let cut = match (self.last_root, root, self.settings.reset_distance) {
            // A NaN root (a damaged key) counts as a cut too: the bodies restart from the pose.
            (Some(a), Some(b), Some(d)) => a.distance(b) > d || a.distance(b).is_nan(),
            _ => false,
        };
        if !self.started || cut {
            self.restart();
        } else {
            self.advance(dt);
        }
        self.last_root = root;
        self.stats.frames += 1;
        self.measure();
        self.move_bones(evaluator, pose);
        evaluator.evaluate_after_physics(input, pose);
    }

    /// Every body's transform as its bone's pass-1 pose places it (a body without a bone: its
    /// rest transform).
    fn targets_from(&mut self, pose: &Pose) {
        for (target, body) in self.targets.iter_mut().zip(&self.bodies) {
            *target = match body.bone {
                Some(b) => Transform::new(pose.position(b), pose.rotation(b)).mul(body.offset),
                None => body.offset,
            };
        }
    }

    /// Every body at its target, at rest, then `settle_seconds` of steps with the pose held.
    fn restart(&mut self) {
        for (body, target) in self.bodies.iter().zip(&self.targets) {
            let rb = &mut self.engine.bodies[body.handle];
            rb.set_position(to_pose(*target), false);
            rb.set_linvel(to_vector(Vec3::ZERO), false);
            rb.set_angvel(to_vector(Vec3::ZERO), false);
            if body.kinematic {
                rb.set_next_kinematic_position(to_pose(*target));
            }
        }
        let seconds = f64::from(self.settings.settle_seconds.max(0.0)).min(60.0);
        let steps = (seconds / f64::from(self.settings.step)).round() as u64;
        for _ in 0..steps {
            self.substep(1.0);
        }
        self.previous.copy_from_slice(&self.targets);
        self.accumulator = 0.0;
        self.started = true;
        self.stats.resets += 1;
    }

    /// As many fixed steps as `dt` and the time left over from before make, the kinematic
    /// bodies moving from the previous targets to these over them.
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

    /// One engine step with the kinematic bodies at `t` of the way from their previous targets
    /// to the current ones.
    fn substep(&mut self, t: f32) {
        for (k, body) in self.bodies.iter().enumerate() {
            if body.kinematic {
                let at = self.previous[k].lerp(self.targets[k], t);
                self.engine.bodies[body.handle].set_next_kinematic_position(to_pose(at));
            }
        }
        self.engine.step();
        self.stats.steps += 1;
    }

    /// Moves the bones the bodies drive (and the pass-1 bones below them). The bodies stay where
    /// the engine put them, mode 2 ones too (module documentation, "Modes").
    fn move_bones(&mut self, evaluator: &PoseEvaluator, pose: &mut Pose) {
        self.scratch.clear();
        for step in &self.plan {
            self.scratch.push(match *step {
                PlanStep::Refresh { bone } => PhysicsBone::Refresh { bone },
                PlanStep::Body { bone, body } => {
                    let sim = &self.bodies[body];
                    let world = self.world_of(sim.handle);
                    let bone_world = world.mul(sim.offset.inverse());
                    match sim.drive {
                        Some(Drive::Rotation) => {
                            PhysicsBone::Rotation { bone, rotation: bone_world.rotation }
                        }
                        _ => PhysicsBone::World {
                            bone,
                            position: bone_world.translation,
                            rotation: bone_world.rotation,
                        },
                    }
                }
            });
        }
        evaluator.apply_physics(&self.scratch, pose);
    }

    /// A body's world transform now.
    pub(super) fn world_of(&self, handle: RigidBodyHandle) -> Transform {
        from_pose(self.engine.bodies[handle].position())
    }

    /// The joints' errors and limit excesses now, into the stats. Joints between two bodies
    /// that follow their bones are not counted: nothing simulated holds them, the animation
    /// alone moves their ends.
    fn measure(&mut self) {
        let (mut error, mut excess) = (0f32, 0f32);
        let mut nan = false;
        for joint in &self.joints {
            let r = self.reading(joint);
            if r.kinematic {
                continue;
            }
            nan |= r.error.is_nan() || r.limit_excess.is_nan();
            error = error.max(r.error);
            excess = excess.max(r.limit_excess);
        }
        if nan {
            (error, excess) = (f32::NAN, f32::NAN);
        }
        self.last_joint_error = error;
        self.last_limit_excess = excess;
        let worse = |seen: f32, now: f32| {
            if now.is_nan() || seen.is_nan() {
                f32::NAN
            } else {
                seen.max(now)
            }
        };
        self.stats.max_joint_error = worse(self.stats.max_joint_error, error);
        self.stats.max_limit_excess = worse(self.stats.max_limit_excess, excess);
    }

    /// One joint's figures now.
    pub(super) fn reading(&self, joint: &SimJoint) -> JointReading {
        let a = self.world_of(self.bodies[joint.a].handle).mul(joint.frame_a);
        let b = self.world_of(self.bodies[joint.b].handle).mul(joint.frame_b);
        let relative = a.rotation.conjugate() * b.rotation;
        let excess = limit_excess(&joint.angular, relative);
        JointReading {
            joint: joint.index,
            error: a.translation.distance(b.translation),
            limit_excess: excess,
            kinematic: self.bodies[joint.a].kinematic && self.bodies[joint.b].kinematic,
        }
    }

    /// The largest linear speed of a simulated body now, model units per second.
    pub(super) fn fastest(&self) -> f32 {
        self.bodies
            .iter()
            .filter(|b| !b.kinematic)
            .map(|b| from_vector(self.engine.bodies[b.handle].linvel()).length())
            .fold(0.0, f32::max)
    }
}

/// How far, in radians, the relative rotation `relative` of a joint's frame B in its frame A is
/// past the limits `held` (per axis, `None`: free), NaN when `relative` is not finite. The
/// angles are Bullet's: `relative = Rx(x) · Ry(y) · Rz(z)` (its 6-DOF constraint's Euler XYZ),
/// so that a limit means what it means in MMD even when several axes turn at once.
pub(super) fn limit_excess(held: &[Option<[f32; 2]>; 3], relative: Quat) -> f32 {
    if !relative.is_finite() {
        return f32::NAN;
    }
    let (x, y, z) = relative.normalize().to_euler(EulerRot::XYZ);
    let mut excess = 0f32;
    for (held, angle) in held.iter().zip([x, y, z]) {
        let Some([lower, upper]) = *held else { continue };
        excess = excess.max(angle - upper).max(lower - angle);
    }
    excess
}
