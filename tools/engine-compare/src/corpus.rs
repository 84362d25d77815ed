//! The corpus models with rigid bodies playing a dance, and standing at rest, on either engine:
//! NaN and explosions, joint errors, settling, time per frame, determinism.

use crate::engine::{pose_hash, Kind};
use std::path::Path;
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::physics::PhysicsSettings;
use vmdkit::skeleton::{Binding, Pose, PoseEvaluator, PoseInput, Poser, Skeleton};
use vmdkit::Motion;

/// A bone further than this many times the model's height (its bones' rest extent in Y) from
/// where the motion alone puts it counts as an explosion: long hair swung to the other side
/// may legitimately be a height away, a body flung off is much further.
pub const EXPLODED: f32 = 2.0;
/// Settled: no driven bone moves faster than this, model units per second.
pub const SETTLED_SPEED: f32 = 1.0;
/// How long the rest run lasts, seconds.
pub const REST_SECONDS: f32 = 10.0;

/// What one dance run measured.
#[derive(Clone, Debug)]
pub struct DanceRun {
    pub frames: usize,
    pub nan_frames: usize,
    /// The largest distance of a bone from its place without physics, model units.
    pub max_deviation: f32,
    /// The bone and frame of it.
    pub worst: (String, usize),
    pub max_joint_error: f32,
    /// CPU seconds of this thread per 30-fps frame (the engine's pose call: both passes and
    /// the steps), so that other processes on the machine do not count.
    pub seconds_per_frame: f64,
    pub hashes: Vec<u64>,
    /// The model's height, model units.
    pub height: f32,
}

/// `motion` played frame by frame (dt 1/30 s) on `model` with `kind`.
pub fn dance(kind: Kind, model: &Model, motion: &Motion) -> DanceRun {
    let skeleton = Skeleton::new(model);
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::new(&skeleton, &sampler, &binding);
    let evaluator = PoseEvaluator::with_options(&skeleton, poser.options());
    let mut world = kind.make(model, &skeleton, &PhysicsSettings::default());
    let (mut pose, mut plain) = (Pose::new(&skeleton), Pose::new(&skeleton));
    let last = sampler.last_frame().unwrap_or(0) as usize;
    let mut run = DanceRun {
        frames: last + 1,
        nan_frames: 0,
        max_deviation: 0.0,
        worst: (String::new(), 0),
        max_joint_error: 0.0,
        seconds_per_frame: 0.0,
        hashes: Vec::with_capacity(last + 1),
        height: height(&skeleton),
    };
    let mut busy = 0.0f64;
    for f in 0..=last {
        let input = poser.sample(f as f64);
        let dt = if f == 0 { 0.0 } else { 1.0 / 30.0 };
        let started = thread_cpu_seconds();
        world.pose(&evaluator, input, dt, &mut pose);
        busy += thread_cpu_seconds() - started;
        evaluator.evaluate(input, &mut plain);
        let finite = pose.positions().iter().all(|p| p.is_finite())
            && pose.rotations().iter().all(|q| q.is_finite());
        run.nan_frames += usize::from(!finite);
        for (b, (p, q)) in pose.positions().iter().zip(plain.positions()).enumerate() {
            let d = p.distance(*q);
            if d > run.max_deviation || (d.is_nan() && !run.max_deviation.is_nan()) {
                run.max_deviation = d;
                run.worst = (skeleton.bone_name(b).to_string(), f);
            }
        }
        run.hashes.push(pose_hash(&pose));
    }
    run.max_joint_error = world.figures().max_joint_error;
    run.seconds_per_frame = busy / run.frames as f64;
    run
}

/// The model standing in its rest pose with no settling, `REST_SECONDS` at 30 fps: the time
/// after which no bone moves faster than `SETTLED_SPEED` (None: still moving at the end), the
/// speed in the last frame and the bone that had it.
pub fn settling(kind: Kind, model: &Model) -> (Option<f32>, f32, String) {
    let skeleton = Skeleton::new(model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let input = PoseInput::new(&skeleton);
    let settings = PhysicsSettings { settle_seconds: 0.0, ..PhysicsSettings::default() };
    let mut world = kind.make(model, &skeleton, &settings);
    let mut pose = Pose::new(&skeleton);
    let frames = (REST_SECONDS * 30.0) as usize;
    let mut before: Vec<_> = Vec::new();
    let mut last_moving = None;
    let mut speed = 0.0;
    let mut fastest = 0;
    for f in 0..=frames {
        world.pose(&evaluator, &input, if f == 0 { 0.0 } else { 1.0 / 30.0 }, &mut pose);
        let now = pose.positions().to_vec();
        if !before.is_empty() {
            speed = 0.0;
            for (b, (p, q)) in now.iter().zip(&before).enumerate() {
                let s = p.distance(*q) * 30.0;
                if s > speed || s.is_nan() {
                    speed = s;
                    fastest = b;
                }
            }
            if !(speed <= SETTLED_SPEED) {
                last_moving = Some(f);
            }
        }
        before = now;
    }
    let settled = match last_moving {
        Some(f) if f == frames => None,
        Some(f) => Some(f as f32 / 30.0),
        None => Some(0.0),
    };
    (settled, speed, skeleton.bone_name(fastest).to_string())
}

/// Joints whose two bodies' groups and masks let them collide (Bullet's crate turns collision
/// between joined bodies off, vmdkit leaves it on, so these are where the engines' worlds
/// differ), of all joints.
pub fn joined_colliding(model: &Model) -> usize {
    let meets = |a: usize, b: usize| {
        let (a, b) = (&model.rigid_bodies[a], &model.rigid_bodies[b]);
        (a.mask & (1 << (b.group & 15)) != 0) && (b.mask & (1 << (a.group & 15)) != 0)
    };
    model
        .joints
        .iter()
        .filter(|j| match (j.body_a, j.body_b) {
            (Some(a), Some(b)) => a != b && a.max(b) < model.rigid_bodies.len() && meets(a, b),
            _ => false,
        })
        .count()
}

/// This thread's CPU time so far, seconds.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write to; the clock id is a constant Linux knows.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    assert!(ok, "no thread CPU clock");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The rest extent of the bones in Y.
fn height(skeleton: &Skeleton) -> f32 {
    let ys = (0..skeleton.bone_count()).map(|b| skeleton.rest_position(b).y);
    let (lo, hi) = ys.fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), y| (l.min(y), h.max(y)));
    (hi - lo).max(0.0)
}

/// A model and the dance from the corpus folder.
pub fn load(dir: &Path, model: &str, dance: &str) -> (Model, Motion) {
    let m = Model::read_file(dir.join(model)).unwrap_or_else(|e| panic!("{model}: {e}"));
    let d = Motion::read_file(dir.join(dance)).unwrap_or_else(|e| panic!("{dance}: {e}"));
    (m, d)
}

/// `motion` played on `model` with `kind` for at most `frames` frames: per model joint, the
/// largest anchor distance and limit excess (radians) seen, 0 for joints not simulated.
pub fn joint_worsts(kind: Kind, model: &Model, motion: &Motion, frames: usize) -> Vec<(f32, f32)> {
    let skeleton = Skeleton::new(model);
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::new(&skeleton, &sampler, &binding);
    let evaluator = PoseEvaluator::with_options(&skeleton, poser.options());
    let mut world = kind.make(model, &skeleton, &PhysicsSettings::default());
    let mut pose = Pose::new(&skeleton);
    let last = (sampler.last_frame().unwrap_or(0) as usize).min(frames.saturating_sub(1));
    let mut worst = vec![(0f32, 0f32); model.joints.len()];
    for f in 0..=last {
        let input = poser.sample(f as f64);
        world.pose(&evaluator, input, if f == 0 { 0.0 } else { 1.0 / 30.0 }, &mut pose);
        for (j, error, excess) in world.joints_now() {
            worst[j].0 = worst[j].0.max(error);
            worst[j].1 = worst[j].1.max(excess);
        }
    }
    worst
}
