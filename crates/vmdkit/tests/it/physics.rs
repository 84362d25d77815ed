//! The physics simulation against closed forms on small models built in code (a pendulum, an
//! angular spring, a limit, a hair chain), its determinism, and the split posing it relies on.
//! Corpus models with dances are in `physics_corpus.rs`.

use crate::common::physics_models::*;
use glam::{Quat, Vec3};
use std::f32::consts::PI;
use vmdkit::model::{Model, RigidMode};
use vmdkit::physics::{PhysicsSettings, PhysicsWorld};
use vmdkit::skeleton::{Pose, PoseEvaluator, PoseInput, Skeleton};

/// MMD's gravity, model units per s².
const G: f32 = 98.0;

/// One step per pose, so that every step is sampled.
const STEP: f32 = 1.0 / 120.0;

/// No settling: the known-answer models start moving at the first pose.
fn unsettled() -> PhysicsSettings {
    PhysicsSettings { settle_seconds: 0.0, ..PhysicsSettings::default() }
}

/// Runs `model` for `seconds` with `rotation` keyed on [`MOVING_BONE`] (which places the bodies
/// at the start and is then overridden by them), one step per pose; calls `sample` with the
/// time and every pose.
fn run(
    model: &Model,
    settings: &PhysicsSettings,
    rotation: Quat,
    seconds: f32,
    mut sample: impl FnMut(f32, &Pose, &PhysicsWorld),
) -> PhysicsWorld {
    let skeleton = Skeleton::new(model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let mut input = PoseInput::new(&skeleton);
    input.bones[MOVING_BONE].rotation = rotation;
    let mut world = PhysicsWorld::new(model, &skeleton, settings);
    let mut pose = Pose::new(&skeleton);
    let steps = (seconds / STEP).round() as usize;
    for i in 0..=steps {
        world.pose(&evaluator, &input, if i == 0 { 0.0 } else { STEP }, &mut pose);
        sample(i as f32 * STEP, &pose, &world);
    }
    world
}

/// The signed angle of a rotation about one model axis (0 X, 1 Y, 2 Z), for rotations about
/// that axis alone.
fn angle_about(q: Quat, axis: usize) -> f32 {
    let q = if q.w < 0.0 { -q } else { q };
    2.0 * [q.x, q.y, q.z][axis].clamp(-1.0, 1.0).asin()
}

/// Times at which `angles` (time, angle) crosses zero upwards, interpolated linearly.
fn upward_crossings(angles: &[(f32, f32)]) -> Vec<f32> {
    angles
        .windows(2)
        .filter(|w| w[0].1 < 0.0 && w[1].1 >= 0.0)
        .map(|w| w[0].0 + (w[1].0 - w[0].0) * (-w[0].1) / (w[1].1 - w[0].1))
        .collect()
}

/// The mean period between the first and the last upward crossing.
fn period(angles: &[(f32, f32)]) -> f32 {
    let c = upward_crossings(angles);
    assert!(c.len() >= 3, "too few oscillations: {c:?}");
    (c[c.len() - 1] - c[0]) / (c.len() - 1) as f32
}

#[test]
fn physics_pendulum_swings_at_the_physical_pendulum_period() {
    // L is the distance from the pivot to the bob's centre of mass; the bob is a sphere, so the
    // expected period is the physical pendulum's 2π √(I_pivot / (m g L)), I_pivot = 2/5 m r² +
    // m L². The point-mass 2π √(L/g) is 0.2% shorter here; both are printed.
    let theta0 = 0.05;
    let mut angles = Vec::new();
    run(
        &pendulum(RigidMode::Physics),
        &unsettled(),
        Quat::from_rotation_x(theta0),
        8.0,
        |t, pose, _| {
            angles.push((t, angle_about(pose.rotation(MOVING_BONE), 0)));
        },
    );
    let measured = period(&angles);
    let l = PENDULUM_LENGTH;
    let physical = 2.0 * PI * (pendulum_inertia_about_pivot() / (G * l)).sqrt();
    let point = 2.0 * PI * (l / G).sqrt();
    let amplitude = angles.iter().map(|a| a.1.abs()).fold(0.0, f32::max);
    println!(
        "pendulum: period {measured:.4} s, physical {physical:.4} s ({:+.2}%), point mass {point:.4} s, amplitude {amplitude:.4} rad",
        (measured / physical - 1.0) * 100.0
    );
    assert!((measured / physical - 1.0).abs() < 0.02, "period {measured} vs {physical}");
    // No damping: the swing keeps (nearly) its amplitude.
    assert!((amplitude - theta0).abs() < 0.2 * theta0, "amplitude {amplitude}");
}

#[test]
fn physics_pendulum_in_mode_2_swings_the_same() {
    // Mode 2 takes only the rotation from the body; the bone sits at the pivot, so the swing is
    // the same as mode 1's.
    let theta0 = 0.05;
    let mut angles = Vec::new();
    run(
        &pendulum(RigidMode::PhysicsWithBonePosition),
        &unsettled(),
        Quat::from_rotation_x(theta0),
        6.0,
        |t, pose, _| {
            angles.push((t, angle_about(pose.rotation(MOVING_BONE), 0)));
            assert!(pose.position(MOVING_BONE).abs_diff_eq(PENDULUM_PIVOT, 1e-4));
        },
    );
    let physical = 2.0 * PI * (pendulum_inertia_about_pivot() / (G * PENDULUM_LENGTH)).sqrt();
    let measured = period(&angles);
    println!("pendulum, mode 2: period {measured:.4} s, physical {physical:.4} s");
    assert!((measured / physical - 1.0).abs() < 0.02, "period {measured} vs {physical}");
}

#[test]
fn physics_angular_spring_oscillates_at_root_k_over_i_and_decays_with_its_damping() {
    let theta0 = 0.2;
    let mut angles = Vec::new();
    run(&angular_spring(), &unsettled(), Quat::from_rotation_y(theta0), 10.0, |t, pose, _| {
        angles.push((t, angle_about(pose.rotation(MOVING_BONE), 1)));
    });
    let omega = (SPRING_K / spring_inertia()).sqrt();
    // Bullet's damping d keeps (1 − d)^t of the angular velocity: the viscous coefficient is
    // c = −ln(1 − d), the envelope exp(−c t / 2) and the damped frequency √(ω² − c²/4).
    let c = -(1.0 - SPRING_DAMPING).ln();
    let expected_period = 2.0 * PI / (omega * omega - c * c / 4.0).sqrt();
    let measured = period(&angles);
    // Peaks: the largest |angle| in each half period after the start.
    let half = expected_period / 2.0;
    let peak = |from: f32| {
        angles
            .iter()
            .filter(|a| a.0 >= from && a.0 < from + half)
            .map(|a| a.1.abs())
            .fold(0.0, f32::max)
    };
    let (t0, t1) = (0.0, 4.0 * expected_period);
    let measured_decay = (peak(t1) / peak(t0)).ln() / (t1 - t0);
    let expected_decay = -c / 2.0;
    println!(
        "angular spring: period {measured:.4} s, expected {expected_period:.4} s ({:+.2}%); envelope rate {measured_decay:.4}/s, expected {expected_decay:.4}/s",
        (measured / expected_period - 1.0) * 100.0
    );
    assert!(
        (measured / expected_period - 1.0).abs() < 0.05,
        "period {measured} vs {expected_period}"
    );
    // The engine's implicit spring adds a little damping of its own (the module documentation
    // says so): the decay rate is the file's within 25%.
    assert!(
        (measured_decay / expected_decay - 1.0).abs() < 0.25,
        "decay rate {measured_decay} vs {expected_decay}"
    );
}

/// How far a limit may give under a steady load (gravity on the limit model's arm), radians.
const LIMIT_SOFTNESS: f32 = 0.02;

#[test]
fn physics_limit_holds_within_its_softness() {
    let mut last = 0.0;
    let world = run(&limit(), &PhysicsSettings::default(), Quat::IDENTITY, 4.0, |_, pose, _| {
        last = angle_about(pose.rotation(MOVING_BONE), 0).abs();
    });
    let stats = world.stats();
    println!(
        "limit ±{LIMIT_ANGLE} rad: final angle {last:.5} rad, largest excess {:.5} rad, joint error {:.5}",
        stats.max_limit_excess, stats.max_joint_error
    );
    // Gravity pulls the arm onto the limit: it must get there and not go past it further than
    // the softness.
    assert!(last > LIMIT_ANGLE - 0.02, "the arm did not reach its limit: {last}");
    assert!(stats.max_limit_excess <= LIMIT_SOFTNESS, "excess {}", stats.max_limit_excess);
    assert!(last <= LIMIT_ANGLE + LIMIT_SOFTNESS);
}

/// The hair chain with its head turning back and forth, `frames` poses at 30 fps.
fn hair_run(frames: usize) -> (Vec<Pose>, PhysicsWorld) {
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let mut input = PoseInput::new(&skeleton);
    let mut world = PhysicsWorld::new(&model, &skeleton, &PhysicsSettings::default());
    let mut poses = Vec::new();
    for f in 0..frames {
        let t = f as f32 / 30.0;
        input.bones[1].rotation = Quat::from_rotation_y(1.2 * (2.0 * t).sin());
        input.bones[1].translation = Vec3::new(3.0 * (3.0 * t).sin(), 0.0, 0.0);
        let mut pose = Pose::new(&skeleton);
        world.pose(&evaluator, &input, 1.0 / 30.0, &mut pose);
        poses.push(pose);
    }
    (poses, world)
}

#[test]
fn physics_is_deterministic_to_the_bit() {
    let (a, wa) = hair_run(150);
    let (b, wb) = hair_run(150);
    for (f, (pa, pb)) in a.iter().zip(&b).enumerate() {
        for bone in 0..pa.len() {
            let bits = |p: &Pose| {
                (
                    p.position(bone).to_array().map(f32::to_bits),
                    p.rotation(bone).to_array().map(f32::to_bits),
                )
            };
            assert_eq!(bits(pa), bits(pb), "frame {f} bone {bone}");
        }
    }
    assert_eq!(wa.stats(), wb.stats());
    // And the head's motion moved the hair (the check compares something that changes).
    let (root, tip) = hair_root_and_tip();
    let moved = a
        .iter()
        .map(|p| p.position(tip) - p.position(root))
        .fold(0.0f32, |m, d| m.max((d - (a[0].position(tip) - a[0].position(root))).length()));
    assert!(moved > 0.5, "hair tip barely moved: {moved}");
}

#[test]
fn physics_hair_chain_hangs_and_settles() {
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let input = PoseInput::new(&skeleton);
    // The default start: placed at the 45° rest pose, one second of settling, then 3 s held.
    let mut world = PhysicsWorld::new(&model, &skeleton, &PhysicsSettings::default());
    let mut pose = Pose::new(&skeleton);
    let (root, tip) = hair_root_and_tip();
    let start = hair_points()[HAIR_LINKS];
    world.pose(&evaluator, &input, 0.0, &mut pose);
    let mut speed = f32::INFINITY;
    for _ in 0..90 {
        world.pose(&evaluator, &input, 1.0 / 30.0, &mut pose);
        speed = world.max_speed();
    }
    let (tip_at, root_at) = (pose.position(tip), pose.position(root));
    let stats = world.stats();
    println!(
        "hair chain after 3 s: tip {tip_at} (from {start}), root {root_at}, fastest body {speed:.4} units/s, joint error {:.4}, limit excess {:.4} rad",
        stats.max_joint_error, stats.max_limit_excess
    );
    assert!(speed < 0.5, "still moving: {speed} units/s");
    assert!(
        tip_at.y < root_at.y - 0.5 * HAIR_SEGMENT * HAIR_LINKS as f32,
        "tip {tip_at} root {root_at}"
    );
    // Hanging: the tip swung in under the root from 45° out.
    assert!((tip_at.x - root_at.x) < 0.6 * (start.x - root_at.x), "tip {tip_at} start {start}");
    assert!(stats.max_joint_error < 0.05, "joint error {}", stats.max_joint_error);
}

#[test]
fn physics_settling_starts_the_chain_at_rest_and_a_jump_resets_it() {
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let mut input = PoseInput::new(&skeleton);
    let mut world = PhysicsWorld::new(
        &model,
        &skeleton,
        &PhysicsSettings { settle_seconds: 4.0, ..PhysicsSettings::default() },
    );
    let mut pose = Pose::new(&skeleton);
    world.pose(&evaluator, &input, 0.0, &mut pose);
    assert!(world.max_speed() < 0.5, "settled chain moving at {}", world.max_speed());
    assert_eq!(world.stats().steps, 480);
    world.pose(&evaluator, &input, 1.0 / 30.0, &mut pose);
    assert_eq!(world.stats().steps, 484, "four steps of 1/120 s per frame at 30 fps");
    assert_eq!(world.stats().resets, 1);
    // A 50-unit jump of the root is a cut: the chain is teleported and settled, not flung.
    input.bones[0].translation = Vec3::new(50.0, 0.0, 0.0);
    world.pose(&evaluator, &input, 1.0 / 30.0, &mut pose);
    assert_eq!(world.stats().resets, 2);
    assert!(world.max_speed() < 0.5, "after the cut: {}", world.max_speed());
    let (root, tip) = hair_root_and_tip();
    assert!((pose.position(tip).x - 50.0).abs() < 12.0 && pose.position(root).x > 49.0);
}

#[test]
fn physics_split_posing_equals_evaluate_without_bodies() {
    // Pass 1, nothing from physics, pass 2 is exactly `evaluate`: they share the code.
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let mut input = PoseInput::new(&skeleton);
    for (b, key) in input.bones.iter_mut().enumerate() {
        key.rotation = Quat::from_rotation_z(0.1 * b as f32) * Quat::from_rotation_x(0.05);
    }
    let (mut whole, mut split) = (Pose::new(&skeleton), Pose::new(&skeleton));
    evaluator.evaluate(&input, &mut whole);
    evaluator.evaluate_before_physics(&input, &mut split);
    evaluator.apply_physics(&[], &mut split);
    evaluator.evaluate_after_physics(&input, &mut split);
    assert_eq!(whole.world_matrices(), split.world_matrices());
}

#[test]
fn physics_damaged_bodies_are_left_out_or_follow_their_bones_with_a_note() {
    use vmdkit::physics::PhysicsNote;
    let mut model = hair_chain();
    model.rigid_bodies[1].size.x = f32::NAN; // the first hair link: left out, with its joints
    model.rigid_bodies[2].mass = -1.0; // follows its bone instead
    model.rigid_bodies[3].bone = Some(999); // moves nothing
    model.rigid_bodies[4].group = 16; // left out
    model.joints[2].angular_spring.x = f32::NAN; // left out (its bodies are sound)
    let skeleton = Skeleton::new(&model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let mut world = PhysicsWorld::new(&model, &skeleton, &PhysicsSettings::default());
    let notes = world.notes().to_vec();
    for n in &notes {
        println!("{n}");
    }
    assert!(notes.contains(&PhysicsNote::BodyLeftOut {
        body: 1,
        reason: "size not finite or not positive"
    }));
    assert!(notes.iter().any(|n| matches!(n, PhysicsNote::BodyMadeKinematic { body: 2, .. })));
    assert!(notes.iter().any(|n| matches!(n, PhysicsNote::BodyDrivesNothing { body: 3, .. })));
    assert!(notes.iter().any(|n| matches!(n, PhysicsNote::BodyLeftOut { body: 4, .. })));
    assert!(notes.iter().any(|n| matches!(n, PhysicsNote::JointLeftOut { joint: 2, reason } if reason.contains("not a number"))));
    for joint in 0..5 {
        assert!(
            notes
                .iter()
                .any(|n| matches!(n, PhysicsNote::JointLeftOut { joint: j, .. } if *j == joint)),
            "joint {joint}"
        );
    }
    let stats = world.stats();
    assert_eq!((stats.bodies, stats.joints), (4, 0));
    let mut input = PoseInput::new(&skeleton);
    let mut pose = Pose::new(&skeleton);
    for f in 0..60 {
        input.bones[1].rotation = Quat::from_rotation_y(f as f32 * 0.05);
        world.pose(&evaluator, &input, 1.0 / 30.0, &mut pose);
        assert!(pose.world_matrices().iter().all(|m| m.is_finite()), "frame {f}");
    }
    // A huge or NaN dt is cut or ignored, never a hang or a NaN.
    world.pose(&evaluator, &input, 1e9, &mut pose);
    world.pose(&evaluator, &input, f32::NAN, &mut pose);
    assert!(pose.world_matrices().iter().all(|m| m.is_finite()));
    assert!(world.stats().steps < 200 + 60 * 4 + 130);
}
