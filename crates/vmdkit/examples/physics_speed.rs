//! Time per output frame of the physics simulation: a model's rigid bodies posed with a motion
//! at 30 fps with the default settings, on one thread.
//!
//! `cargo run --release -p vmdkit --example physics_speed -- MODEL MOTION [FRAMES [STEPS_PER_SECOND]]`

use std::time::Instant;
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::physics::{PhysicsPoser, PhysicsSettings};
use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, model, motion, rest @ ..] = args.as_slice() else {
        return Err("usage: physics_speed MODEL MOTION [FRAMES]".into());
    };
    let frames: u32 = rest.first().map(|f| f.parse()).transpose()?.unwrap_or(5400);
    let rate: f32 = rest.get(1).map(|f| f.parse()).transpose()?.unwrap_or(120.0);
    let settings = PhysicsSettings { step: 1.0 / rate, ..PhysicsSettings::default() };
    let model = Model::read_file(model)?;
    let motion = vmdkit::Motion::read_file(motion)?;
    let skeleton = Skeleton::new(&model);
    let sampler = MotionSampler::new(&motion);
    let binding = Binding::new(&skeleton, &sampler);
    let poser = Poser::new(&skeleton, &sampler, &binding);
    let mut physics = PhysicsPoser::new(poser, &model, &settings);
    let mut pose = Pose::new(&skeleton);
    let started = Instant::now();
    for frame in 0..frames {
        physics.pose_at(frame, &mut pose);
    }
    let seconds = started.elapsed().as_secs_f64();
    let stats = physics.world().stats();
    println!(
        "{rate} steps/s, {} bodies, {} joints: {frames} frames ({:.0} s of motion at 30 fps) in {seconds:.3} s, {:.3} ms per frame, {} steps, max joint error {:.4}, max limit excess {:.4} rad",
        stats.bodies,
        stats.joints,
        f64::from(frames) / 30.0,
        seconds * 1000.0 / f64::from(frames),
        stats.steps,
        stats.max_joint_error,
        stats.max_limit_excess
    );
    Ok(())
}
