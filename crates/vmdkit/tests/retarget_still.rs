//! A person standing still: identical keypoint frames must retarget to identical keys, on
//! models whose 上半身 and 下半身 share a head (初音ミク) and on ones where they do not (the
//! trace model, where センター's turn joins the trunk fit).

use vmdkit::keypoints::{Keypoints, Layout, Smoothing, Units, UpAxis};
use vmdkit::model::Model;
use vmdkit::retarget::{
    keypoints_from_motion, retarget, FloorMode, InputAxes, KeyMode, KeypointOptions,
    RetargetOptions,
};
use vmdkit::skeleton::Skeleton;
use vmdkit::Motion;

const TRACE: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const DANCE: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";
/// The posed frame taken from the dance, and how often it is repeated.
const POSED: usize = 45;
const FRAMES: usize = 20;

fn corpus(path: &str) -> Option<std::path::PathBuf> {
    test_corpus::corpus_or_skip("retarget of a still person")?;
    Some(test_corpus::corpus_dir().join(path))
}

/// One frame of the dance played on `skeleton`, as `layout`'s keypoints, repeated.
fn still(motion: &Motion, skeleton: &Skeleton, layout: &Layout) -> Keypoints {
    let options = KeypointOptions {
        axes: InputAxes { up: UpAxis::Y, left_handed: false },
        ..KeypointOptions::default()
    };
    let kp = keypoints_from_motion(motion, skeleton, layout, &options).unwrap();
    let n = kp.joint_count;
    let frame = &kp.positions[POSED * n..(POSED + 1) * n];
    Keypoints {
        frame_count: FRAMES,
        positions: frame.repeat(FRAMES),
        confidence: kp.confidence.as_ref().map(|c| c[POSED * n..(POSED + 1) * n].repeat(FRAMES)),
        ..kp
    }
}

#[test]
fn identical_frames_retarget_to_identical_keys() {
    let (Some(trace), Some(miku), Some(dance)) = (corpus(TRACE), corpus(MIKU), corpus(DANCE))
    else {
        return;
    };
    let mut motion = Motion::read_file(dance).unwrap();
    motion.bones.retain(|k| k.frame <= 60);
    motion.morphs.clear();
    motion.cameras.clear();
    let mut failures = Vec::new();
    println!("model | layout | IK | floor | センター drift (units) | worst rotation change");
    for (label, model) in [("trace", trace), ("初音ミク", miku)] {
        let skeleton = Skeleton::new(&Model::read_file(&model).unwrap());
        for name in ["h36m", "blazepose33"] {
            let layout = Layout::builtin(name).unwrap();
            let kp = still(&motion, &skeleton, &layout);
            for (ik, floor) in [
                (false, FloorMode::Keep),
                (true, FloorMode::Keep),
                (true, FloorMode::Estimate),
                (false, FloorMode::Estimate),
            ] {
                let options = RetargetOptions {
                    smoothing: Smoothing::None,
                    keys: KeyMode::Dense,
                    floor,
                    ik,
                    units: Some(Units::Metres),
                    ..RetargetOptions::default()
                };
                let out = retarget(&kp, &layout, &skeleton, &options).unwrap().motion;
                let (mut drift, mut worst) = (0.0f32, (0.0f32, String::new()));
                let mut first = std::collections::HashMap::new();
                let mut counts = std::collections::HashMap::<_, usize>::new();
                for key in &out.bones {
                    let bone = key.name.to_string_lossy().to_string();
                    *counts.entry(bone.clone()).or_default() += 1;
                    let (t, r) =
                        *first.entry(bone.clone()).or_insert((key.translation, key.rotation));
                    let moved = (key.translation - t).length();
                    // The chord between the quaternions, which for small angles is half the angle
                    // between them: acos of a dot product near 1 loses f32's digits.
                    let sign = key.rotation.dot(r).signum();
                    let turned = (key.rotation - r * sign).length() * 2.0;
                    if bone == "センター" {
                        drift = drift.max(moved);
                    }
                    if moved.max(turned) > worst.0 {
                        worst = (moved.max(turned), format!("{bone} at frame {}", key.frame));
                    }
                }
                println!(
                    "{label} | {name} | {ik} | {floor:?} | {drift:.2e} | {:.2e} ({})",
                    worst.0, worst.1
                );
                if drift > 1e-4 || worst.0 > 1e-4 {
                    let case = format!("{label} {name} IK {ik} {floor:?}");
                    failures.push(format!(
                        "{case}: センター drifts {drift}, {} by {}",
                        worst.1, worst.0
                    ));
                }
                // Dense: every bone keyed on every frame, so a still person is still throughout.
                assert_eq!(counts.get("センター"), Some(&FRAMES), "{label} {name}");
            }
        }
    }
    assert!(failures.is_empty(), "still frames moved:\n{}", failures.join("\n"));
}
