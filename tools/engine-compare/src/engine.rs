//! The one interface both engines are driven through: a pose with physics and the worst joint
//! figures so far.

use crate::bullet::BulletSim;
use vmdkit::model::Model;
use vmdkit::physics::{PhysicsSettings, PhysicsWorld};
use vmdkit::skeleton::{Pose, PoseEvaluator, PoseInput, Skeleton};

/// The worst figures seen so far, measured the same way for both engines (vmdkit's measure).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// The largest distance between a joint's two anchors after a pose, model units.
    pub max_joint_error: f32,
    /// The largest angle by which a held rotation axis went past its limit, radians.
    pub max_limit_excess: f32,
}

/// A physics engine posing one model.
pub trait Engine {
    /// Pass 1, `dt` seconds of simulation, the bodies' bones, pass 2.
    fn pose(&mut self, evaluator: &PoseEvaluator, input: &PoseInput, dt: f32, pose: &mut Pose);
    /// The worst figures so far.
    fn figures(&self) -> Figures;
    /// Per joint with a simulated body, after the last pose: (model index, anchor distance,
    /// limit excess in radians).
    fn joints_now(&self) -> Vec<(usize, f32, f32)>;
}

impl Engine for PhysicsWorld {
    fn pose(&mut self, evaluator: &PoseEvaluator, input: &PoseInput, dt: f32, pose: &mut Pose) {
        PhysicsWorld::pose(self, evaluator, input, dt, pose);
    }

    fn figures(&self) -> Figures {
        let s = self.stats();
        Figures { max_joint_error: s.max_joint_error, max_limit_excess: s.max_limit_excess }
    }

    fn joints_now(&self) -> Vec<(usize, f32, f32)> {
        self.joint_readings()
            .filter(|r| !r.kinematic)
            .map(|r| (r.joint, r.error, r.limit_excess))
            .collect()
    }
}

/// The two candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// vmdkit's own simulation (rapier3d).
    Rapier,
    /// The same loop on Bullet 3.25 (the `bullet` module).
    Bullet,
    /// Bullet, with mode 2 bodies left where Bullet puts them (not vmdkit's convention).
    BulletFreeMode2,
}

impl Kind {
    pub const BOTH: [Kind; 2] = [Kind::Rapier, Kind::Bullet];
    /// The two, and Bullet without vmdkit's mode 2 put-back (to tell its part).
    pub const ALL: [Kind; 3] = [Kind::Rapier, Kind::Bullet, Kind::BulletFreeMode2];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Rapier => "rapier3d",
            Kind::Bullet => "Bullet",
            Kind::BulletFreeMode2 => "Bullet, mode 2 bodies not put back",
        }
    }

    /// A world for `model` on this engine.
    pub fn make(
        self,
        model: &Model,
        skeleton: &Skeleton,
        settings: &PhysicsSettings,
    ) -> Box<dyn Engine> {
        match self {
            Kind::Rapier => Box::new(PhysicsWorld::new(model, skeleton, settings)),
            Kind::Bullet | Kind::BulletFreeMode2 => Box::new(
                BulletSim::new(model, skeleton, settings, self == Kind::Bullet)
                    .expect("Bullet refused the model"),
            ),
        }
    }
}

/// Every bone's position and rotation bits of `pose`, hashed (FNV-1a), for determinism checks.
pub fn pose_hash(pose: &Pose) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: f32| {
        for b in x.to_bits().to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for p in pose.positions() {
        p.to_array().into_iter().for_each(&mut eat);
    }
    for q in pose.rotations() {
        q.to_array().into_iter().for_each(&mut eat);
    }
    h
}
