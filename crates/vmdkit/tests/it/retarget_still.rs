//! A person standing still: identical keypoint frames must retarget to identical keys (dense,
//! so every output frame is checked), on 初音ミク.pmx and on the trace model, whose 上半身 and
//! 下半身 heads differ so that センター's turn joins the trunk fit. docs/retargeting.md ("A
//! person standing still") quotes `cargo test -p vmdkit --test retarget_still -- --nocapture`.

use std::collections::HashMap;
use vmdkit::keypoints::{JointLayout, Keypoints, Smoothing, Units, UpAxis};
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

/// One frame of `kp` repeated.
fn repeated(kp: &Keypoints, frame: usize) -> Keypoints {
    let n = kp.joint_count;
    let range = frame * n..(frame + 1) * n;
    Keypoints {
        frame_count: FRAMES,
        positions: kp.positions[range.clone()].repeat(FRAMES),
        confidence: kp.confidence.as_ref().map(|c| c[range].repeat(FRAMES)),
        ..kp.clone()
    }
}

fn corpus(path: &str) -> Option<std::path::PathBuf> {
    test_corpus::corpus_or_skip("retarget of a still person")?;
    Some(test_corpus::corpus_dir().join(path))
}

/// One frame of the dance played on `skeleton`, as `layout`'s keypoints, repeated.
fn still(motion: &Motion, skeleton: &Skeleton, layout: &JointLayout) -> Keypoints {
    let options = KeypointOptions {
        axes: InputAxes { up: UpAxis::Y, left_handed: false },
        ..KeypointOptions::default()
    };
    let kp = keypoints_from_motion(motion, skeleton, layout, &options).unwrap();
    repeated(&kp, POSED)
}

/// Retargets `kp` (identical frames) with `options`, dense, IK on and off, and returns what
/// moved more than 1e-4 (units, or radians of turn), after printing the largest changes.
fn moved(
    case: &str,
    kp: &Keypoints,
    layout: &JointLayout,
    skeleton: &Skeleton,
    options: &RetargetOptions,
) -> Vec<String> {
    let mut failures = Vec::new();
    for ik in [false, true] {
        let options = RetargetOptions { keys: KeyMode::Dense, ik, ..options.clone() };
        let out = retarget(kp, layout, skeleton, &options).unwrap().motion;
        let (mut drift, mut worst) = (0.0f32, (0.0f32, String::new()));
        let mut first = HashMap::new();
        let mut counts = HashMap::<_, usize>::new();
        for key in &out.bones {
            let bone = key.name.to_string_lossy().to_string();
            *counts.entry(bone.clone()).or_default() += 1;
            let (t, r) = *first.entry(bone.clone()).or_insert((key.translation, key.rotation));
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
        let case = format!("{case} | IK {ik} | {:?}", options.floor);
        println!("{case} | {drift:.2e} | {:.2e} {}", worst.0, worst.1);
        if drift > 1e-4 || worst.0 > 1e-4 {
            failures.push(format!("{case}: センター drifts {drift}, {} by {}", worst.1, worst.0));
        }
        // Dense: every output frame keyed (each 1/30 s through the input's last frame), so a still person
        // is still throughout the motion.
        let frames = (FRAMES - 1) as f64 / options.fps * 30.0;
        assert_eq!(counts.get("センター"), Some(&((frames + 1e-9).floor() as usize + 1)), "{case}");
    }
    failures
}

fn skeleton(path: std::path::PathBuf) -> Skeleton {
    Skeleton::new(&Model::read_file(path).unwrap())
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
    println!("model | layout | IK | floor | センター drift (units) | largest change");
    for (label, model) in [("trace", trace), ("初音ミク", miku)] {
        let skeleton = skeleton(model);
        for name in ["h36m", "blazepose33"] {
            let layout = JointLayout::builtin(name).unwrap();
            let kp = still(&motion, &skeleton, &layout);
            for floor in [FloorMode::Keep, FloorMode::Estimate] {
                let options = RetargetOptions {
                    smoothing: Smoothing::None,
                    floor,
                    units: Some(Units::Metres),
                    ..RetargetOptions::default()
                };
                failures.extend(moved(
                    &format!("{label} | {name}"),
                    &kp,
                    &layout,
                    &skeleton,
                    &options,
                ));
            }
        }
    }
    assert!(failures.is_empty(), "still frames moved:\n{}", failures.join("\n"));
}

/// The case capture met: one frame of real MediaPipe world landmarks repeated, with the default
/// smoothing and floor estimate.
#[test]
fn repeated_mediapipe_landmarks_retarget_to_identical_keys() {
    let (Some(trace), Some(miku)) = (corpus(TRACE), corpus(MIKU)) else { return };
    let Some(path) = test_corpus::pose_file_or_skip(
        "retarget of a still person",
        "sign-language-processing__pose__example.pose",
    ) else {
        return;
    };
    let input = Keypoints::read_file(&path).unwrap();
    let layout = JointLayout::detect(input.names.as_deref(), input.joint_count).unwrap();
    let kp = repeated(&input, input.frame_count / 2);
    let options = RetargetOptions {
        fps: input.fps.unwrap(),
        axes: InputAxes { up: UpAxis::NegY, left_handed: false },
        units: Some(Units::Metres),
        ..RetargetOptions::default()
    };
    let mut failures = Vec::new();
    println!("model | layout | IK | floor | センター drift (units) | largest change");
    for (label, model) in [("trace", trace), ("初音ミク", miku)] {
        failures.extend(moved(
            &format!("{label} | pose"),
            &kp,
            &layout,
            &skeleton(model),
            &options,
        ));
    }
    assert!(failures.is_empty(), "still frames moved:\n{}", failures.join("\n"));
}
