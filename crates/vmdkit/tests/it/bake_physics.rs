//! `bake::bake_physics`: the baked motion, written as a VMD and read back, played with physics
//! off gives vmdkit's own play of the original with physics on (`PhysicsPoser`, frame after
//! frame from frame 0), within 1e-4 model units, on a hair chain built in code and on
//! every corpus model with rigid bodies playing three corpus dances (their first 300 frames,
//! cut with `edit::trim`, to keep the test quick in the dev profile).

use crate::common::physics_models::{hair_chain, hair_root_and_tip};
use crate::common::poses::{poses, worst};
use glam::{Quat, Vec3};
use vmdkit::bake::{
    bake_physics, bake_world, bake_world_with_physics, BakeError, BakeSettings, PhysicsBakeOptions,
    PhysicsBakeReport,
};
use vmdkit::edit::{trim, ReduceOptions};
use vmdkit::eval::MotionSampler;

use vmdkit::model::Model;
use vmdkit::physics::{PhysicsPoser, PhysicsSettings};
use vmdkit::skeleton::{Binding, Pose, PoseOptions, Poser, Skeleton};
use vmdkit::Motion;
use vmdkit::{BoneKey, KeyName, LongName};

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
const DANCES: [&str; 3] = [
    "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd",
    "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd",
    "mmdagent__mmdagent-mirror/MMDAgent_Example__Motion__mei_self_introduction__mei_self_introduction.vmd",
];
/// The frames of each dance the corpus check plays (0 through this).
const FRAMES: u32 = 300;
/// The bound: baked play without physics against play with physics, model units.
const BOUND: f32 = 1e-4;

/// Plays `motion` on `model` with physics on, as a player does: the library's sequential
/// [`PhysicsPoser`], every frame from 0 through `last` in order.
fn play_with_physics(model: &Model, motion: &Motion, last: u32) -> Vec<Pose> {
    let skeleton = Skeleton::new(model);
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(&skeleton, &sampler);
    let poser = Poser::new(&skeleton, &sampler, &binding);
    let mut physics = PhysicsPoser::new(poser, model, &PhysicsSettings::default());
    (0..=last)
        .map(|k| {
            let mut pose = Pose::new(&skeleton);
            physics.pose_at(k, &mut pose);
            pose
        })
        .collect()
}

/// Plays `motion` on `skeleton` without physics at frames 0 through `last`.
fn play_without(skeleton: &Skeleton, motion: &Motion, last: u32) -> Vec<Pose> {
    let times: Vec<f64> = (0..=last).map(f64::from).collect();
    poses(skeleton, motion, PoseOptions::default(), &times)
}

/// Bakes, writes the VMD, reads it back and checks it against a separate physics play; gives
/// the report and the motion read back.
fn check_round_trip(model: &Model, motion: &Motion, what: &str) -> (PhysicsBakeReport, Motion) {
    let skeleton = Skeleton::new(model);
    let mut seen = 0;
    let (baked, report) =
        bake_physics(motion, model, &skeleton, &PhysicsBakeOptions::default(), |done, total| {
            assert!(done <= total);
            seen = done;
        })
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(seen, report.frames, "{what}: progress reaches the last frame");
    let read = Motion::parse(&baked.to_bytes()).unwrap();
    let last = (report.frames - 1) as u32;
    let want = play_with_physics(model, motion, last);
    let got = play_without(&skeleton, &read, last);
    let (d, frame, bone) = worst(&want, &got);
    assert!(
        d < BOUND,
        "{what}: {} at frame {frame} is {d} units from its physics pose ({report:?})",
        skeleton.bone_name(bone)
    );
    assert!(report.max_position_error < BOUND, "{what}: {report:?}");
    // Every track that no body drives is kept exactly, in order.
    let baked_names: Vec<&[u8]> =
        report.baked_bones.iter().map(|&b| skeleton.bone_key_name(b).bytes()).collect();
    let kept: Vec<&BoneKey> =
        motion.bones.iter().filter(|k| !baked_names.contains(&k.name.bytes())).collect();
    let out_kept: Vec<&BoneKey> =
        read.bones.iter().filter(|k| !baked_names.contains(&k.name.bytes())).collect();
    assert_eq!(kept, out_kept, "{what}: the other bone tracks are kept");
    assert_eq!(read.morphs, motion.morphs, "{what}: morphs are kept");
    if report.chains_switched_off == 0 {
        assert_eq!(read.properties, motion.properties, "{what}: property keys are kept");
    }
    eprintln!(
        "{what}: {} bodies, {} joints, {} frames, {} steps, {} baked bones; largest joint error \
         {:.3} units; baked play vs physics play {:.2e} units (report {:.2e} units, {:.2e}°); {} IK chains switched off",
        report.physics.bodies,
        report.physics.joints,
        report.frames,
        report.physics.steps,
        report.baked_bones.len(),
        report.physics.max_joint_error,
        d,
        report.max_position_error,
        report.max_rotation_error_degrees,
        report.chains_switched_off
    );
    (report, read)
}

fn key(name: &str, frame: u32, rotation: Quat) -> BoneKey {
    BoneKey { rotation, ..BoneKey::new(KeyName::encode(name).0, frame) }
}

/// The hair chain's head nodding and turning over two seconds.
fn nodding() -> Motion {
    let mut motion = Motion::new(LongName::encode("hair chain").0);
    motion.bones = vec![
        key("頭", 0, Quat::IDENTITY),
        key("頭", 20, Quat::from_rotation_z(0.6)),
        key("頭", 40, Quat::from_rotation_y(-0.8)),
        key("頭", 60, Quat::IDENTITY),
        key("全ての親", 0, Quat::IDENTITY),
    ];
    motion
}

#[test]
fn bake_physics_a_hair_chain_plays_without_physics_as_with_it() {
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let motion = nodding();
    let (report, read) = check_round_trip(&model, &motion, "hair chain");
    let (root, tip) = hair_root_and_tip();
    // The bodies' bones (the tip has no body) are baked, at every frame from 0 through 60.
    assert_eq!(report.baked_bones, (root..tip).collect::<Vec<_>>());
    assert_eq!((report.frames, report.keys), (61, 61 * (tip - root) as u64));
    assert_eq!((report.physics.bodies, report.physics.joints), (6, 5));
    assert!(report.physics.steps > 0);
    // The hair moved: played without the bake, the chain is stiff; with it, its tip swings.
    let stiff = play_without(&skeleton, &motion, 60);
    let swinging = play_without(&skeleton, &read, 60);
    let swing = (0..=60)
        .map(|f| stiff[f].position(tip).distance(swinging[f].position(tip)))
        .fold(0.0f32, f32::max);
    assert!(swing > 0.5, "the tip moved {swing} units from the stiff chain");
}

#[test]
fn bake_physics_is_deterministic_reduces_and_refuses_large_outputs_before_work() {
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let motion = nodding();
    let options = PhysicsBakeOptions::default();
    let a = bake_physics(&motion, &model, &skeleton, &options, |_, _| ()).unwrap();
    let b = bake_physics(&motion, &model, &skeleton, &options, |_, _| ()).unwrap();
    assert_eq!(a.0.to_bytes(), b.0.to_bytes(), "the same inputs give the same bytes");

    let reduce = PhysicsBakeOptions { reduce: Some(ReduceOptions::default()), ..options };
    let (thin, report) = bake_physics(&motion, &model, &skeleton, &reduce, |_, _| ()).unwrap();
    let reduced = report.reduce.expect("a reduce report");
    assert_eq!(reduced.before.bones, report.keys as usize);
    assert!(thin.bones.len() < a.0.bones.len(), "{} keys", thin.bones.len());
    assert!(reduced.errors.position <= ReduceOptions::default().tolerance.position + 1e-6);

    let tiny = PhysicsBakeOptions { max_output_bytes: 1000, ..options };
    let err =
        bake_physics(&motion, &model, &skeleton, &tiny, |_, _| panic!("no work")).unwrap_err();
    assert!(matches!(err, BakeError::TooLarge(_)), "{err:?}");
    let still = Motion::new(LongName::encode("camera").0);
    let err = bake_physics(&still, &model, &skeleton, &options, |_, _| ()).unwrap_err();
    assert_eq!(err, BakeError::NoBoneKeys);
}

#[test]
fn bake_physics_world_bakes_show_what_the_baked_motion_plays() {
    let model = hair_chain();
    let skeleton = Skeleton::new(&model);
    let motion = nodding();
    let physics =
        BakeSettings { physics: Some(PhysicsSettings::default()), ..BakeSettings::default() };
    let sampler = MotionSampler::new(&motion);
    let binding = Binding::new(&skeleton, &sampler);
    let err = bake_world(&skeleton, &sampler, &binding, &physics, |_, _| ()).unwrap_err();
    assert_eq!(err, BakeError::PhysicsNeedsModel);

    let (with, report) =
        bake_world_with_physics(&motion, &model, &skeleton, &physics, |_, _, _| ()).unwrap();
    let report = report.expect("a physics report");
    let (without, none) =
        bake_world_with_physics(&motion, &model, &skeleton, &BakeSettings::default(), |_, _, _| ())
            .unwrap();
    assert!(none.is_none());
    let (baked, _) =
        bake_physics(&motion, &model, &skeleton, &PhysicsBakeOptions::default(), |_, _| ())
            .unwrap();
    let poses = play_without(&skeleton, &baked, 60);
    let (_, tip) = hair_root_and_tip();
    let n = skeleton.bone_count();
    let at = |bake: &vmdkit::bake::WorldBake, f: usize, b: usize| {
        Vec3::from_slice(&bake.positions[(f * n + b) * 3..][..3])
    };
    for (f, pose) in poses.iter().enumerate() {
        assert!(at(&with, f, tip).distance(pose.position(tip)) < BOUND, "frame {f}");
    }
    assert!((0..=60).any(|f| at(&with, f, tip).distance(at(&without, f, tip)) > 0.5));
    assert_eq!(report.frames, 61);
}

#[test]
fn bake_physics_corpus_models_with_rigid_bodies_play_their_baked_dances_as_with_physics() {
    let Some(corpus) = test_corpus::corpus_or_skip("bake_physics_corpus") else {
        return;
    };
    let mut checked = 0;
    let mut with_bodies = Vec::new();
    for entry in corpus.of_kind("pmx").chain(corpus.of_kind("pmd")) {
        let Ok(model) = Model::read_file(&entry.path) else { continue };
        if model.rigid_bodies.is_empty() {
            continue;
        }
        let model_path = entry.local_path.as_str();
        with_bodies.push(model_path.to_string());
        for dance in DANCES {
            let full = Motion::read_file(corpus.dir.join(dance)).unwrap();
            let (motion, _) = trim(&full, 0, FRAMES).unwrap();
            let (report, _) = check_round_trip(&model, &motion, &format!("{model_path} {dance}"));
            assert!(!report.baked_bones.is_empty(), "{model_path}: bones a body moves");
            assert!(report.physics.max_joint_error.is_finite());
            checked += 1;
        }
    }
    // The corpus's two models with rigid bodies are among them.
    for known in [MIKU, MEI] {
        assert!(with_bodies.iter().any(|m| m == known), "{known} not found: {with_bodies:?}");
    }
    eprintln!("{checked} model and dance pairs checked");
}
