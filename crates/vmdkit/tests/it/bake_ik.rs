//! `bake::bake_ik` over corpus dances with leg IK: the baked motion, written and read back,
//! played with IK off (as its property keys say), gives the original's IK pose at every frame.

use crate::common::poses::{poses, worst};
use std::path::Path;
use vmdkit::bake::{bake_ik, IkBakeOptions};
use vmdkit::edit::ReduceOptions;
use vmdkit::model::Model;
use vmdkit::skeleton::{PoseOptions, Skeleton};
use vmdkit::Motion;

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const WAVE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const MIKU_TEST: &str = "MMD-Blender__blender_mmd_tools/samples__vmd__test.vmd";
const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
const MEI_GREETING: &str =
    "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Motion__mei_greeting__mei_greeting.vmd";
const TRACE: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
const BIG: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";

fn corpus(test: &str) -> Option<std::path::PathBuf> {
    test_corpus::corpus_or_skip(test).map(|m| m.dir)
}

/// Bakes `dance` on `model` at its own frame numbers and checks the round trip through bytes.
/// Gives the number of append bones that follow a baked bone: they get no keys of their own
/// (MMD still applies append on playback) and must follow their source's new keys.
fn check_pair(dir: &Path, model: &str, dance: &str, expect_baked: &[&str]) -> usize {
    let model = Model::read_file(dir.join(model)).unwrap();
    let skeleton = Skeleton::new(&model);
    let motion = Motion::read_file(dir.join(dance)).unwrap();
    let (baked, report) =
        bake_ik(&motion, &skeleton, &IkBakeOptions::default(), |_, _| ()).unwrap();
    for name in expect_baked {
        let b = skeleton.bone_index(name).unwrap();
        assert!(report.baked_bones.contains(&b), "{name} not baked: {report:?}");
    }
    assert!(report.max_position_error < 1e-4, "{dance}: {report:?}");
    let appenders = (0..model.bones.len())
        .filter(|&b| model.bones[b].append.as_ref().is_some_and(|a| a.rotation || a.translation))
        .count();
    eprintln!(
        "{dance}: {} bones baked ({}), {} frames, {} append bones in the model; largest \
         difference {:.2e} units, {:.2e}°",
        report.baked_bones.len(),
        report.baked_bones.iter().map(|&b| skeleton.bone_name(b)).collect::<Vec<_>>().join(" "),
        report.frames,
        appenders,
        report.max_position_error,
        report.max_rotation_error_degrees
    );
    let baked = Motion::parse(&baked.to_bytes()).unwrap();

    // Every IK chain is off in every property key, with a key at frame 0.
    assert!(baked.properties.iter().any(|p| p.frame == 0));
    for key in &baked.properties {
        assert!(key.ik.len() >= skeleton.ik_count());
        assert!(key.ik.iter().all(|s| !s.is_enabled()), "frame {}", key.frame);
    }
    // Tracks IK does not move keep their keys and curves exactly.
    let baked_names: Vec<&[u8]> =
        report.baked_bones.iter().map(|&b| skeleton.bone_key_name(b).bytes()).collect();
    let kept = |m: &Motion| -> Vec<vmdkit::BoneKey> {
        m.bones.iter().filter(|k| !baked_names.contains(&k.name.bytes())).copied().collect()
    };
    assert_eq!(kept(&motion), kept(&baked));
    assert_eq!(motion.morphs, baked.morphs);

    // Played as written (the IK solver on, the property keys switching every chain off), and
    // with the solver off altogether, the baked motion poses as the original with IK.
    let last = motion.frame_range().unwrap().1;
    let times: Vec<f64> = (0..=last + 2).map(f64::from).collect();
    let original = poses(&skeleton, &motion, PoseOptions::default(), &times);
    let fk = PoseOptions { solve_ik: false, ..PoseOptions::default() };
    for options in [PoseOptions::default(), fk] {
        let played = poses(&skeleton, &baked, options, &times);
        let (d, frame, bone) = worst(&original, &played);
        assert!(d <= 1e-4, "{dance}: {} off by {d} at frame {frame}", skeleton.bone_name(bone));
    }
    // The IK did something: without it, the original's legs are elsewhere.
    let unbaked = poses(&skeleton, &motion, fk, &times);
    assert!(worst(&original, &unbaked).0 > 0.01);

    let followers: Vec<usize> = (0..model.bones.len())
        .filter(|&b| {
            let a = model.bones[b].append.as_ref();
            a.is_some_and(|a| a.rotation && report.baked_bones.contains(&a.parent))
        })
        .collect();
    assert!(followers.iter().all(|b| !report.baked_bones.contains(b)));
    followers.len()
}

#[test]
fn baked_miku_dances_play_with_ik_off_as_the_originals_with_ik() {
    let Some(dir) = corpus("baked_miku_dances_play_with_ik_off_as_the_originals_with_ik") else {
        return;
    };
    check_pair(&dir, MIKU, WAVE, &["左ひざ", "右足", "左足首"]);
    check_pair(&dir, MIKU, MIKU_TEST, &["左ひざ"]);
}

#[test]
fn baked_pmd_and_trace_models_play_with_ik_off_as_with_ik() {
    let Some(dir) = corpus("baked_pmd_and_trace_models_play_with_ik_off_as_with_ik") else {
        return;
    };
    check_pair(&dir, MEI, MEI_GREETING, &["左ひざ"]);
    // The trace model's D bones (足D, ひざD, 足首D) append from the leg links: they keep no keys
    // and still land where the IK pose puts them.
    let followers = check_pair(&dir, TRACE, BIG, &["左ひざ"]);
    assert!(followers >= 6, "{followers} D bones");
}

#[test]
fn a_resampled_bake_matches_at_the_new_frames_and_reduce_thins_it() {
    let Some(dir) = corpus("a_resampled_bake_matches_at_the_new_frames_and_reduce_thins_it") else {
        return;
    };
    let skeleton = Skeleton::new(&Model::read_file(dir.join(MEI)).unwrap());
    let motion = Motion::read_file(dir.join(MEI_GREETING)).unwrap();
    let options = IkBakeOptions { fps: Some(60.0), ..IkBakeOptions::default() };
    let (baked, report) = bake_ik(&motion, &skeleton, &options, |_, _| ()).unwrap();
    assert!(report.max_position_error < 1e-4, "{report:?}");
    let last = motion.frame_range().unwrap().1;
    let output: Vec<f64> = (0..=2 * last).map(f64::from).collect();
    let source: Vec<f64> = output.iter().map(|k| k / 2.0).collect();
    let original = poses(&skeleton, &motion, PoseOptions::default(), &source);
    let played = poses(&skeleton, &baked, PoseOptions::default(), &output);
    let (d, frame, bone) = worst(&original, &played);
    assert!(d <= 1e-4, "{} off by {d} at output frame {frame}", skeleton.bone_name(bone));

    // Reduced: far fewer baked keys, every track within the reduce tolerance.
    let options = IkBakeOptions { reduce: Some(ReduceOptions::default()), ..Default::default() };
    let (dense, _) = bake_ik(&motion, &skeleton, &IkBakeOptions::default(), |_, _| ()).unwrap();
    let (thin, report) = bake_ik(&motion, &skeleton, &options, |_, _| ()).unwrap();
    let reduced = report.reduce.expect("a reduce report");
    assert!(reduced.after.bones * 2 < reduced.before.bones, "{reduced:?}");
    assert!(thin.bones.len() < dense.bones.len());
    assert!(reduced.errors.within(&ReduceOptions::default().tolerance), "{reduced:?}");
}

#[test]
fn a_motion_without_bone_keys_is_refused() {
    let Some(dir) = corpus("a_motion_without_bone_keys_is_refused") else {
        return;
    };
    let skeleton = Skeleton::new(&Model::read_file(dir.join(MIKU)).unwrap());
    let camera = vmdkit::example::example_motion();
    let camera = Motion { bones: Vec::new(), morphs: Vec::new(), ..camera };
    let err = bake_ik(&camera, &skeleton, &IkBakeOptions::default(), |_, _| ()).unwrap_err();
    assert_eq!(err.to_string(), "the motion has no bone keys; nothing to pose");
}
