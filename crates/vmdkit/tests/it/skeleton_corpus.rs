//! Posing invariants over the shared corpus's (model, motion) pairs: the rest pose, constant
//! bone lengths, binding reports, IK reaching a goal, IK switched off by property keys, and
//! determinism.

use crate::common::skeleton as skeleton_common;

use glam::{Quat, Vec3};
use skeleton_common::*;
use std::collections::HashSet;
use vmdkit::eval::MotionSampler;
use vmdkit::model::{Model, MorphKind};
use vmdkit::skeleton::{
    Binding, IkVariant, Pose, PoseEvaluator, PoseInput, PoseOptions, Poser, Skeleton,
};
use vmdkit::LongName;
use vmdkit::{IkState, PropertyKey};

fn posed(skeleton: &Skeleton, input: &PoseInput, options: PoseOptions) -> Pose {
    let mut pose = Pose::new(skeleton);
    PoseEvaluator::with_options(skeleton, options).evaluate(input, &mut pose);
    pose
}

const FK: PoseOptions = PoseOptions { ik_variant: IkVariant::Mmd, solve_ik: false };

#[test]
fn skeleton_rest_pose_reproduces_the_model() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_rest_pose_reproduces_the_model")
    else {
        return;
    };
    let pairs = pairs(&manifest);
    assert!(pairs.len() >= 8, "corpus pairs missing: {}", pairs.len());
    for pair in &pairs {
        let model = model(&pair.model);
        let skeleton = Skeleton::new(&model);
        let input = PoseInput::new(&skeleton);
        let close = |a: Vec3, b: Vec3| (a - b).length() <= 1e-5 * (1.0 + b.length());
        let assert_at_rest = |pose: &Pose, b: usize, when: &str| {
            let bone = &model.bones[b];
            assert!(
                close(pose.position(b), bone.position),
                "{} {}{when}: {}",
                short(&pair.model),
                bone.name,
                pose.position(b)
            );
        };
        // Without IK: exactly the model.
        let pose = posed(&skeleton, &input, FK);
        for (b, bone) in model.bones.iter().enumerate() {
            assert_at_rest(&pose, b, "");
            assert!(
                pose.rotation(b).abs_diff_eq(Quat::IDENTITY, 1e-6),
                "{}: {}",
                short(&pair.model),
                bone.name
            );
        }
        // With IK: the same, except where an IK bone's rest position is not its effector's (Mei's
        // 足ＩＫ sits 3.5e-3 from 足首): those chains rightly move at rest too.
        let pose = posed(&skeleton, &input, PoseOptions::default());
        let mut moved = HashSet::new();
        for k in 0..skeleton.ik_count() {
            let (ik, target) = (skeleton.ik_bone(k), skeleton.ik_target(k));
            if !close(model.bones[ik].position, model.bones[target].position) {
                println!(
                    "{}: {} rests {:.1e} from its effector",
                    short(&pair.model),
                    model.bones[ik].name,
                    (model.bones[ik].position - model.bones[target].position).length()
                );
                moved.extend(skeleton.ik_links(k));
            }
        }
        for (b, bone) in model.bones.iter().enumerate() {
            let under_moved =
                std::iter::successors(Some(b), |&x| skeleton.parent(x)).any(|x| moved.contains(&x));
            if !under_moved && bone.append.is_none() {
                assert_at_rest(&pose, b, " with IK");
            }
        }
    }
}

/// Bones whose local offset may be non-zero without a key: append translation, morph offsets.
fn offset_bones(model: &Model) -> HashSet<usize> {
    let mut set: HashSet<usize> = model
        .bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.append.is_some_and(|a| a.translation))
        .map(|(i, _)| i)
        .collect();
    for m in &model.morphs {
        if let MorphKind::Bone(offsets) = &m.kind {
            set.extend(offsets.iter().filter(|o| o.translation != Vec3::ZERO).map(|o| o.bone));
        }
    }
    set
}

#[test]
fn skeleton_bone_lengths_hold_for_untranslated_bones_and_binding_is_reported() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_bone_lengths_hold") else {
        return;
    };
    let mut checked = 0u64;
    for pair in pairs(&manifest) {
        let model = model(&pair.model);
        let skeleton = Skeleton::new(&model);
        let offsets = offset_bones(&model);
        for path in &pair.motions {
            let motion = motion(path);
            let sampler = MotionSampler::new(&motion);
            let binding = Binding::new(&skeleton, &sampler);
            let report = binding.report();
            println!(
                "{} + {}: {} of {} bone tracks bound, {} unbound, {} bones unkeyed; {} IK switches unbound",
                short(&pair.model),
                short(path),
                binding.bone_tracks().len(),
                sampler.bone_count(),
                report.unbound_bone_tracks.len(),
                report.unkeyed_bones.len(),
                report.unbound_ik_tracks.len()
            );
            assert_eq!(
                binding.bone_tracks().len()
                    + report.unbound_bone_tracks.len()
                    + report.shadowed_bone_tracks.len(),
                sampler.bone_count()
            );
            let mut poser = Poser::new(&skeleton, &sampler, &binding);
            let mut pose = Pose::new(&skeleton);
            for t in frames(sampler.last_frame().unwrap_or(0), 60) {
                poser.pose_at(t, &mut pose);
                let input = poser.input();
                for (b, bone) in skeleton.bone_names().iter().enumerate() {
                    let Some(p) = skeleton.parent(b) else {
                        continue;
                    };
                    if offsets.contains(&b) || input.bones[b].translation != Vec3::ZERO {
                        continue;
                    }
                    let rest = skeleton.rest_offset(b).length();
                    let now = (pose.position(b) - pose.position(p)).length();
                    assert!(
                        (now - rest).abs() <= 2e-5 * (1.0 + rest + pose.position(b).length()),
                        "{} {bone} at {t}: {now} vs {rest}",
                        short(path)
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn skeleton_mei_and_trace_motions_bind_their_models() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_mei_and_trace_motions_bind") else {
        return;
    };
    // Mei's motions were made for Mei: every bone track binds.
    let mei = Skeleton::new(&model(&manifest.dir.join(MEI)));
    let pairs = pairs(&manifest);
    // The files at the mirror's current commit (no commit prefix) go with this mei.pmd; older
    // versions of some motions drove a Mei with hair and skirt bones.
    let (mut current, mut older) =
        (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
    for path in &pairs[0].motions {
        let sampler = MotionSampler::new(&motion(path));
        let binding = Binding::new(&mei, &sampler);
        let names = binding.report().unbound_bone_tracks.iter().map(|n| n.to_string_lossy());
        if short(path).starts_with("MMDAgent_Example__") {
            current.extend(names)
        } else {
            older.extend(names)
        }
    }
    println!(
        "Mei's motions: tracks naming no bone of mei.pmd: current {current:?}, older {older:?}"
    );
    // Only IK tips: mei.pmd names its right one 左足ＩＫ先02 (sic).
    assert!(current.iter().all(|n| n.ends_with("ＩＫ先")), "{current:?}");
    // The pose-estimation motion drives the semi-standard skeleton, and switches its IK.
    let trace = Skeleton::new(&model(&manifest.dir.join(TRACE)));
    let wayne = pairs[1]
        .motions
        .iter()
        .find(|p| short(p).starts_with("test_json_3d"))
        .expect("the 3d-pose-baseline motion");
    let sampler = MotionSampler::new(&motion(wayne));
    let binding = Binding::new(&trace, &sampler);
    let report = binding.report();
    println!("trace + 3d-pose-baseline: {} bone tracks, all bound", binding.bone_tracks().len());
    assert!(
        report.unbound_bone_tracks.is_empty() && binding.bone_tracks().len() >= 10,
        "{report:?}"
    );
    assert_eq!(binding.ik_tracks().len(), 4);
    assert!(report.unbound_ik_tracks.is_empty() && report.unswitched_iks.is_empty());
}

/// For each model with a standard leg: move 左足ＩＫ a little from rest and the ankle follows.
#[test]
fn skeleton_reachable_ik_goal_is_reached() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_reachable_ik_goal_is_reached")
    else {
        return;
    };
    for path in [MEI, TRACE, MIKU, BONE_TREE] {
        let model = model(&manifest.dir.join(path));
        let skeleton = Skeleton::new(&model);
        let (ik, ankle, knee) =
            (bone(&model, "左足ＩＫ"), bone(&model, "左足首"), bone(&model, "左ひざ"));
        let rest_knee = model.bones[knee].position;
        for variant in [IkVariant::Mmd, IkVariant::Plain] {
            for offset in
                [Vec3::new(0.3, 1.5, 0.2), Vec3::new(0.0, 3.0, -2.0), Vec3::new(-0.5, 2.0, -1.0)]
            {
                let mut input = PoseInput::new(&skeleton);
                input.bones[ik].translation = offset;
                let pose =
                    posed(&skeleton, &input, PoseOptions { ik_variant: variant, solve_ik: true });
                let goal = model.bones[ik].position + offset;
                let miss = (pose.position(ankle) - goal).length();
                println!(
                    "{} {variant:?} {offset}: ankle misses the goal by {miss:.2e}",
                    short(&manifest.dir.join(path))
                );
                // CCD stops short by up to ~1e-3 (§10.1: links whose directions agree to
                // |cross|² < 1e-8 are skipped, about 1e-4 rad over a 10-unit leg).
                assert!(miss < 3e-3, "{path} {variant:?} {offset}: {miss}");
                // The knee bends forwards (models face −Z).
                assert!(
                    pose.position(knee).z < rest_knee.z,
                    "{path} {variant:?}: knee {}",
                    pose.position(knee)
                );
                // The right leg is untouched.
                let right = bone(&model, "右足首");
                assert!((pose.position(right) - model.bones[right].position).length() < 1e-5);
            }
        }
    }
}

/// A small lift of a nearly straight leg is reachable but converges slowly with CCD: Mei's
/// authored 40 iterations (at 0.4 rad per step) stop short, 200 reach it. This is the solver's
/// nature (§10.1 runs `loop_count` iterations), not a missed goal.
#[test]
fn skeleton_ik_near_a_straight_leg_needs_more_iterations() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_ik_near_a_straight_leg") else {
        return;
    };
    let mut model = model(&manifest.dir.join(MEI));
    let (ik, ankle) = (bone(&model, "左足ＩＫ"), bone(&model, "左足首"));
    let offset = Vec3::new(0.0, 0.8, -0.4);
    let goal = model.bones[ik].position + offset;
    let mut misses = Vec::new();
    for loops in [40, 200] {
        model.bones[ik].ik.as_mut().unwrap().loop_count = loops;
        let skeleton = Skeleton::new(&model);
        let mut input = PoseInput::new(&skeleton);
        input.bones[ik].translation = offset;
        let pose = posed(&skeleton, &input, PoseOptions::default());
        misses.push((pose.position(ankle) - goal).length());
    }
    println!(
        "Mei, 左足ＩＫ lifted 0.8: ankle misses by {:.2e} with 40 iterations, {:.2e} with 200",
        misses[0], misses[1]
    );
    assert!(misses[0] > 1e-2 && misses[1] < 3e-3, "{misses:?}");
}

/// Property keys that switch every IK off give exactly the forward-kinematics pose.
#[test]
fn skeleton_ik_switched_off_by_property_keys_leaves_the_fk_pose() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_ik_switched_off") else {
        return;
    };
    let mut compared = 0;
    for pair in pairs(&manifest) {
        let mut ik_moved = false;
        let model = model(&pair.model);
        let skeleton = Skeleton::new(&model);
        if skeleton.ik_count() == 0 {
            continue;
        }
        let off: Vec<IkState> = (0..skeleton.ik_count())
            .map(|k| IkState {
                name: LongName::encode(skeleton.bone_name(skeleton.ik_bone(k))).0,
                enabled_byte: 0,
            })
            .collect();
        for path in pair.motions.iter().take(3) {
            let mut motion = motion(path);
            motion.properties = vec![PropertyKey { frame: 0, visible_byte: 1, ik: off.clone() }];
            let sampler = MotionSampler::new(&motion);
            let binding = Binding::new(&skeleton, &sampler);
            assert!(binding.report().unswitched_iks.is_empty(), "{}", short(&pair.model));
            let mut switched = Poser::new(&skeleton, &sampler, &binding);
            let mut fk = Poser::with_options(&skeleton, &sampler, &binding, FK);
            let mut on = Poser::new(&skeleton, &sampler, &binding);
            let (mut a, mut b) = (Pose::new(&skeleton), Pose::new(&skeleton));
            for t in frames(sampler.last_frame().unwrap_or(0), 40) {
                switched.pose_at(t, &mut a);
                fk.pose_at(t, &mut b);
                assert_eq!(a.positions(), b.positions(), "{} at {t}", short(path));
                assert_eq!(a.rotations(), b.rotations(), "{} at {t}", short(path));
                // Sanity: the same motion with the switches on does run IK somewhere.
                let mut input = on.sample(t).clone();
                input.ik_enabled.fill(true);
                let solved = posed(&skeleton, &input, PoseOptions::default());
                ik_moved |= solved.positions() != b.positions();
                compared += 1;
            }
        }
        assert!(ik_moved, "{}: IK never moved a bone", short(&pair.model));
    }
    assert!(compared > 200, "{compared}");
}

/// Posing frames in any order gives the same poses: nothing carries over between frames.
#[test]
fn skeleton_poses_do_not_depend_on_playback_order() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_poses_do_not_depend_on_order")
    else {
        return;
    };
    for (model_path, motion_path) in [(TRACE, None), (MIKU, Some(MIKU_TEST)), (MEI, None)] {
        let model = model(&manifest.dir.join(model_path));
        let motion = match motion_path {
            Some(p) => motion(&manifest.dir.join(p)),
            None => {
                let pair = pairs(&manifest)
                    .into_iter()
                    .find(|p| p.model == manifest.dir.join(model_path))
                    .unwrap();
                motion(&pair.motions[0])
            }
        };
        let skeleton = Skeleton::new(&model);
        let sampler = MotionSampler::new(&motion);
        let binding = Binding::new(&skeleton, &sampler);
        let times = frames(sampler.last_frame().unwrap_or(0), 50);
        let mut poser = Poser::new(&skeleton, &sampler, &binding);
        let mut pose = Pose::new(&skeleton);
        let forward: Vec<Vec<Vec3>> = times
            .iter()
            .map(|&t| {
                poser.pose_at(t, &mut pose);
                pose.positions().to_vec()
            })
            .collect();
        // Backwards, with a fresh poser per frame and the same one reused.
        for (i, &t) in times.iter().enumerate().rev() {
            poser.pose_at(t, &mut pose);
            assert_eq!(pose.positions(), forward[i].as_slice(), "{model_path} at {t}");
            let mut fresh = Pose::new(&skeleton);
            Poser::new(&skeleton, &sampler, &binding).pose_at(t, &mut fresh);
            assert_eq!(fresh.positions(), forward[i].as_slice(), "{model_path} at {t}");
        }
    }
}
