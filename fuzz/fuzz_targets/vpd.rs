//! Reads arbitrary bytes as a VPD pose. A failure must say where; a success writes back as MMD
//! writes a VPD and reads again: the same bones and morphs, values within the six decimals
//! written, and from then on read and write are exact inverses. The pose is then applied to the
//! built-in standard model and evaluated, IK included.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use vmdkit::eval::BoneSample;
use vmdkit::math::normalized_rotation;
use vmdkit::model::{VpdErrorKind, VpdPose};
use vmdkit::skeleton::{Pose, PoseEvaluator, PoseInput, Skeleton};

fn skeleton() -> &'static Skeleton {
    static SKELETON: OnceLock<Skeleton> = OnceLock::new();
    SKELETON.get_or_init(|| Skeleton::new(&vmdkit::example::standard_model()))
}

/// Within what writing six decimals and reading back as f32 can change.
fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-6 * (1.0 + a.abs())
}

fn close_pose(a: &VpdPose, b: &VpdPose) -> bool {
    a.bones.len() == b.bones.len()
        && a.morphs.len() == b.morphs.len()
        && a.bones.iter().zip(&b.bones).all(|(p, q)| {
            let (p, q) = ((p.translation, p.rotation), (q.translation, q.rotation));
            p.0.to_array().iter().zip(q.0.to_array()).all(|(&x, y)| close(x, y))
                && p.1.to_array().iter().zip(q.1.to_array()).all(|(&x, y)| close(x, y))
        })
        && a.morphs.iter().zip(&b.morphs).all(|(p, q)| close(p.1, q.1))
}

/// Names that reach the file unchanged: what the writer neither replaces (characters CP932
/// lacks become `?`) nor leaves to the reader's guess of the encoding (ASCII reads the same
/// in every one).
fn plain(name: &str) -> bool {
    name.is_ascii()
}

fn apply(vpd: &VpdPose) {
    let skeleton = skeleton();
    let mut input = PoseInput::new(skeleton);
    for bone in &vpd.bones {
        if let Some(i) = skeleton.bone_index(&bone.name) {
            let rotation = normalized_rotation(bone.rotation);
            input.bones[i] =
                BoneSample { translation: bone.translation, rotation, ..input.bones[i] };
        }
    }
    for (name, weight) in &vpd.morphs {
        if let Some(i) = skeleton.morph_index(name) {
            input.morphs[i] = *weight;
        }
    }
    let mut pose = Pose::new(skeleton);
    PoseEvaluator::new(skeleton).evaluate(&input, &mut pose);
    // Offsets a pose file plausibly holds must give a finite pose, IK solved.
    let moderate = vpd.bones.iter().all(|b| b.translation.abs().max_element() < 1e4)
        && vpd.morphs.iter().all(|m| m.1.abs() < 1e4);
    if moderate {
        for i in 0..skeleton.bone_count() {
            assert!(pose.position(i).is_finite(), "bone {i} not finite");
            assert!(pose.rotation(i).is_finite(), "bone {i} rotation not finite");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let pose = match VpdPose::parse(data) {
        Ok(pose) => pose,
        Err(err) => {
            assert!(err.line >= 1, "{err}");
            assert!(!err.to_string().is_empty());
            if !matches!(err.kind, VpdErrorKind::NotVpd) {
                // A line past the end would point nowhere (the count includes a last line
                // without a line break).
                let lines = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
                assert!(err.line <= lines, "{err}: only {lines} lines");
            }
            return;
        }
    };
    for bone in &pose.bones {
        assert!(bone.translation.is_finite() && bone.rotation.is_finite());
    }
    let bytes = pose.to_bytes();
    let once = VpdPose::parse(&bytes).unwrap_or_else(|e| panic!("written VPD does not read: {e}"));
    assert!(close_pose(&pose, &once), "VPD round trip moves values\n{pose:?}\n{once:?}");
    for (a, b) in pose.bones.iter().zip(&once.bones) {
        assert!(!plain(&a.name) || a.name == b.name, "{:?} reads back as {:?}", a.name, b.name);
    }
    for (a, b) in pose.morphs.iter().zip(&once.morphs) {
        assert!(!plain(&a.0) || a.0 == b.0, "{:?} reads back as {:?}", a.0, b.0);
    }
    if plain(&pose.model_file) {
        assert_eq!(pose.model_file, once.model_file);
    }
    let twice = VpdPose::parse(&once.to_bytes()).expect("rewritten VPD does not read");
    assert_eq!(twice, once, "VPD read and write are not inverses after one round");
    assert!(twice.to_bytes() == once.to_bytes());
    apply(&pose);
});
