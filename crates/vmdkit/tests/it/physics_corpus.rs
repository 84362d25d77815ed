//! The physics simulation on every corpus model that has rigid bodies, with three corpus
//! dances: no NaN, joints held together and within their limits (plus the softness), and at
//! rest every body settles with its hair hanging.

use crate::common::skeleton::{motion, short, SAMPLE2, WAVEFILE};
use std::path::PathBuf;
use std::time::Instant;
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::physics::{PhysicsPoser, PhysicsSettings, PhysicsWorld};
use vmdkit::skeleton::{Binding, Pose, PoseEvaluator, PoseInput, Poser, Skeleton};

/// The third dance: a captured motion for a standard-bone Miku, 1636 frames of many keys.
const CAPTURED: &str = "wayne931121__3d-pose-baseline-vmd/test_json_3d_20251014_001234_idx01__animasa_miku_born_20251014_004602_depthなし_h0.0_z0.0_d1_s1_p0.5_r3.0_reduce.vmd";

/// Frames of each dance simulated (10 s at 30 fps).
const FRAMES: u32 = 300;

/// The largest distance between a joint's two anchors while dancing, model units (8 cm each).
/// Measured (see the report this test prints): up to 1.3 on 初音ミク, where skirt and hair
/// bodies are pushed by the kinematic legs, arms and body (a contact with a body that follows
/// its bone always wins over a joint), nothing on Mei. A body that explodes or tears off goes
/// tens of units and more: 2 keeps that out with room for the contacts.
const JOINT_ERROR_BOUND: f32 = 2.0;

/// The same over the 90% best frames (the 90th percentile of each frame's worst joint):
/// measured up to 0.79.
const TYPICAL_JOINT_ERROR: f32 = 1.0;

/// The largest angle by which a joint passes its limit while dancing, radians: the engine's
/// soft limits (module documentation) plus the pushes above; measured up to 1.09 on 初音ミク
/// (its necktie and skirt against the body and legs), 0.09 on Mei.
const LIMIT_SOFTNESS: f32 = 1.5;

/// The same over the 90% best frames: measured up to 0.84.
const TYPICAL_EXCESS: f32 = 1.0;

/// At rest: the largest speed of a simulated body after the rest pose is held 3 s (after the
/// default second of settling), model units per second (0.5 is 4 cm/s).
const REST_SPEED: f32 = 0.5;

/// The `q` quantile of `values` (sorted in place).
fn percentile(values: &mut [f32], q: f64) -> f32 {
    values.sort_by(f32::total_cmp);
    values.get(((values.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0)
}

/// Every corpus model with rigid bodies, read.
fn physics_models(manifest: &test_corpus::Manifest) -> Vec<(PathBuf, Model)> {
    let mut found = Vec::new();
    for kind in ["pmx", "pmd"] {
        for entry in manifest.of_kind(kind) {
            let Ok(m) = Model::read_file(&entry.path) else { continue };
            if !m.rigid_bodies.is_empty() {
                found.push((entry.path.clone(), m));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Chains of driven bones: (root, tip) for each driven bone whose parent no body drives, to
/// its deepest driven descendant along the first driven child, when the chain has 3 bones or
/// more (hair, skirts, tails; not breasts).
fn chains(skeleton: &Skeleton, driven: &[usize]) -> Vec<(usize, usize)> {
    let is_driven = |b: usize| driven.contains(&b);
    let child = |b: usize| driven.iter().copied().find(|&c| skeleton.parent(c) == Some(b));
    let mut out = Vec::new();
    for &root in driven {
        if skeleton.parent(root).is_some_and(is_driven) {
            continue;
        }
        let (mut tip, mut length) = (root, 1);
        while let Some(c) = child(tip) {
            tip = c;
            length += 1;
        }
        if length >= 3 {
            out.push((root, tip));
        }
    }
    out
}

#[test]
fn physics_corpus_models_dance_without_breaking_and_settle_at_rest() {
    let Some(manifest) = test_corpus::corpus_or_skip(
        "physics_corpus_models_dance_without_breaking_and_settle_at_rest",
    ) else {
        return;
    };
    let models = physics_models(&manifest);
    assert!(!models.is_empty(), "no corpus model has rigid bodies");
    let dances = [WAVEFILE, SAMPLE2, CAPTURED].map(|d| manifest.dir.join(d));
    for (path, model) in &models {
        let skeleton = Skeleton::new(model);
        let name = short(path);
        let settings = PhysicsSettings::default();
        for dance in &dances {
            let motion = motion(dance);
            let sampler = MotionSampler::new(&motion);
            let binding = Binding::new(&skeleton, &sampler);
            let poser = Poser::new(&skeleton, &sampler, &binding);
            let mut physics = PhysicsPoser::new(poser, model, &settings);
            let mut pose = Pose::new(&skeleton);
            let (mut errors, mut excesses) = (Vec::new(), Vec::new());
            let started = Instant::now();
            let dance = short(dance);
            for frame in 0..FRAMES {
                physics.pose_at(frame, &mut pose);
                assert!(
                    pose.world_matrices().iter().all(|m| m.is_finite()),
                    "{name} / {dance}: NaN at frame {frame}"
                );
                let (error, excess) = physics.world().last_joint_figures();
                errors.push(error);
                excesses.push(excess);
            }
            let per_frame = started.elapsed().as_secs_f64() * 1000.0 / f64::from(FRAMES);
            let stats = physics.world().stats();
            let (error, typical_error) = (stats.max_joint_error, percentile(&mut errors, 0.9));
            let (excess, typical_excess) = (stats.max_limit_excess, percentile(&mut excesses, 0.9));
            println!(
                "{name} / {dance}: {} bodies, {} joints, {} steps; joint error max {error:.4} (90th percentile of frames {typical_error:.4}), limit excess max {excess:.4} rad (90th percentile {typical_excess:.4}); {per_frame:.2} ms per frame (dev build, settling included)",
                stats.bodies, stats.joints, stats.steps
            );
            assert!(error <= JOINT_ERROR_BOUND, "{name} / {dance}: joint error {error}");
            assert!(typical_error <= TYPICAL_JOINT_ERROR, "{name} / {dance}: {typical_error}");
            assert!(excess <= LIMIT_SOFTNESS, "{name} / {dance}: limit excess {excess}");
            assert!(typical_excess <= TYPICAL_EXCESS, "{name} / {dance}: {typical_excess}");
            // Going back to frame 0 starts afresh (one more reset, with its settling steps).
            physics.pose_at(0, &mut pose);
            let again = physics.world().stats();
            assert_eq!((again.resets, again.steps), (stats.resets + 1, stats.steps + 120));
        }
        // At rest: the rest pose held 3 s after the default settling.
        let evaluator = PoseEvaluator::new(&skeleton);
        let input = PoseInput::new(&skeleton);
        let mut world = PhysicsWorld::new(model, &skeleton, &settings);
        let mut pose = Pose::new(&skeleton);
        world.pose(&evaluator, &input, 0.0, &mut pose);
        for _ in 0..90 {
            world.pose(&evaluator, &input, 1.0 / 30.0, &mut pose);
        }
        let speed = world.max_speed();
        let chains = chains(&skeleton, world.driven_bones());
        println!(
            "{name} at rest: fastest body {speed:.4} units/s, {} chains of 3 or more bodies, notes: {:?}",
            chains.len(),
            world.notes().iter().map(|n| n.to_string()).collect::<Vec<_>>()
        );
        assert!(speed < REST_SPEED, "{name}: still moving at rest, {speed} units/s");
        for (root, tip) in chains {
            let (r, t) = (pose.position(root), pose.position(tip));
            assert!(
                t.y < r.y,
                "{name}: chain {} → {} does not hang: root {r}, tip {t}",
                skeleton.bone_name(root),
                skeleton.bone_name(tip)
            );
        }
    }
}
