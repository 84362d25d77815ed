//! Fingers round trip: corpus dances that key the fingers (wavefile_v2 keys 人指/親指 from frame
//! ~180 on), played on 初音ミク.pmx (no 親指０) and on the trace model (semi-standard, with
//! 親指０ and 手捩), read off as hand keypoints, retargeted, and played back: every finger joint
//! within 0.02 units of the input's and every finger segment within 0.5° (both in the palm's
//! frame, as `FingerReport` measures them). And a body with one hand never seen: that 手首 is
//! the body's own fit, the other the palm. Run with `--nocapture` for the figures.

use crate::common::skeleton::{MIKU, TRACE, WAVEFILE};
use vmdkit::keypoints::{JointLayout, LayoutJoint, Smoothing, Units, UpAxis};
use vmdkit::model::Model;
use vmdkit::retarget::fingers::{FingerReport, FingerRig};
use vmdkit::retarget::{
    keypoints_from_motion, retarget, FloorMode, InputAxes, KeyMode, KeypointOptions,
    RetargetOptions,
};
use vmdkit::roles::{Role, Side};
use vmdkit::skeleton::Skeleton;
use vmdkit::Motion;

/// The stretch of wavefile_v2 played: ten seconds of busy fingers.
const FROM: u32 = 180;
const TO: u32 = 480;

/// The bars of the issue.
const MAX_JOINT: f64 = 0.02;
const MAX_DEGREES: f64 = 0.5;

fn hand_roles() -> Vec<LayoutJoint> {
    Side::BOTH
        .iter()
        .flat_map(|&s| Role::hand_points(s))
        .map(|r| LayoutJoint { name: r.name().to_string(), role: Some(r) })
        .collect()
}

/// Both hands alone, as `mediapipe_hands` lists them.
fn hands_layout() -> JointLayout {
    JointLayout { name: "hands".into(), joints: hand_roles(), synthetic: Vec::new(), face: None }
}

/// A body (BlazePose's 33) and both hands, as `holistic` without its face.
fn body_and_hands_layout() -> JointLayout {
    let mut layout = JointLayout::builtin("blazepose33").unwrap();
    layout.name = "body+hands".into();
    layout.joints.extend(hand_roles());
    layout
}

fn load() -> Option<(Motion, Vec<(&'static str, Skeleton)>)> {
    test_corpus::corpus_or_skip("retarget_fingers")?;
    let dir = test_corpus::corpus_dir();
    let motion = Motion::read_file(dir.join(WAVEFILE)).unwrap();
    let (cut, _) = vmdkit::edit::trim(&motion, FROM, TO).unwrap();
    let cut = vmdkit::edit::shift(&cut, -(FROM as i64)).unwrap();
    let skeletons = [("miku", MIKU), ("trace", TRACE)]
        .map(|(name, path)| (name, Skeleton::new(&Model::read_file(dir.join(path)).unwrap())));
    Some((cut, skeletons.into()))
}

/// The keypoint options of the round trips: 30 fps, metres, Y up.
fn keypoint_options() -> KeypointOptions {
    KeypointOptions {
        fps: 30.0,
        axes: InputAxes { up: UpAxis::Y, left_handed: false },
        units: Units::Metres,
        ..KeypointOptions::default()
    }
}

/// The retargeting options of the round trips: exact input, dense keys, no IK.
fn retarget_options() -> RetargetOptions {
    RetargetOptions {
        fps: 30.0,
        smoothing: Smoothing::None,
        floor: FloorMode::Keep,
        keys: KeyMode::Dense,
        ik: false,
        units: Some(Units::Metres),
        ..RetargetOptions::default()
    }
}

fn round_trip(motion: &Motion, skeleton: &Skeleton, layout: &JointLayout) -> FingerReport {
    let kp = keypoints_from_motion(motion, skeleton, layout, &keypoint_options()).unwrap();
    let out = retarget(&kp, layout, skeleton, &retarget_options()).unwrap();
    let report = out.report;
    let fingers = report.fingers.clone().expect("hands solved");
    let body = report.body;
    println!(
        "{:11} body {body:5} | solved L/R {:?} held {:?} | joint mean {:.5} max {:.5} | direction mean {:.4}° max {:.4}° | clamps {}",
        layout.name,
        fingers.solved_frames,
        fingers.held_frames,
        fingers.joint_error_mean,
        fingers.joint_error_max,
        fingers.direction_mean_degrees,
        fingers.direction_max_degrees,
        fingers.clamps
    );
    fingers
}

#[test]
fn the_rigs_find_every_finger() {
    let Some((_, skeletons)) = load() else { return };
    for (name, skeleton) in &skeletons {
        let rig = FingerRig::new(skeleton);
        for side in Side::BOTH {
            // Miku: 親指１/２ and three bones a finger; trace: 親指０ too.
            let expected = if *name == "miku" { 14 } else { 15 };
            assert_eq!(rig.bone_count(side), expected, "{name} {side:?}");
            // 左人差指先 (Miku) and 左人指先 (trace) are both found as the index tip.
            let tip = rig.rest(Role::finger_points(side, vmdkit::roles::Finger::Index)[3]);
            assert!(tip.is_some());
        }
    }
}

#[test]
fn wavefile_fingers_round_trip() {
    let Some((motion, skeletons)) = load() else { return };
    let frames = (TO - FROM + 1) as usize;
    for (name, skeleton) in &skeletons {
        println!("{name}:");
        let builtin = ["mediapipe_hands", "holistic", "coco_wholebody", "smplx"]
            .map(|n| JointLayout::builtin(n).unwrap());
        for layout in [hands_layout(), body_and_hands_layout()].into_iter().chain(builtin) {
            let f = round_trip(&motion, skeleton, &layout);
            assert_eq!(f.solved_frames, [frames, frames], "{name} {}", layout.name);
            assert!(f.joint_error_max <= MAX_JOINT, "{name} {}: {f:?}", layout.name);
            assert!(f.direction_max_degrees <= MAX_DEGREES, "{name} {}: {f:?}", layout.name);
        }
    }
}

/// 手首's model-space rotation on `side` at every frame of `motion`.
fn wrist_track(skeleton: &Skeleton, motion: &Motion, side: Side, frames: usize) -> Vec<glam::Quat> {
    use vmdkit::eval::MotionSampler;
    use vmdkit::skeleton::{Binding, Pose, Poser};
    let name = if side == Side::Left { "左手首" } else { "右手首" };
    let wrist = skeleton.bone_index(name).unwrap();
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::new(skeleton, &sampler, &binding);
    let mut pose = Pose::new(skeleton);
    (0..frames)
        .map(|f| {
            poser.pose_at(f as f64, &mut pose);
            pose.rotation(wrist)
        })
        .collect()
}

/// Body and hands where the left hand is never seen (its 21 points missing in every frame),
/// the body's own hand points (BlazePose's pinky, index and thumb) still seen: the right
/// 手首 takes the palm its fingers give, and the left one, with no palm, is fitted to the
/// body's hand points as a body alone has it. Played back, each stays on the dance's own.
#[test]
fn a_hand_never_seen_leaves_its_wrist_to_the_body() {
    let Some((motion, skeletons)) = load() else { return };
    let (_, skeleton) = &skeletons[0];
    let frames = (TO - FROM + 1) as usize;
    let layout = body_and_hands_layout();
    let mut kp = keypoints_from_motion(&motion, skeleton, &layout, &keypoint_options()).unwrap();
    let left: Vec<usize> = (layout.joints.iter().enumerate())
        .filter(|(_, j)| j.role.and_then(Role::hand_part).is_some_and(|(s, _)| s == Side::Left))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(left.len(), 21);
    for f in 0..frames {
        for &j in &left {
            kp.positions[f * kp.joint_count + j] = glam::Vec3::NAN;
        }
    }
    let out = retarget(&kp, &layout, skeleton, &retarget_options()).unwrap();
    let fingers = out.report.fingers.expect("the right hand solved");
    assert_eq!(fingers.solved_frames, [0, frames]);
    let worst = |side: Side| {
        let want = wrist_track(skeleton, &motion, side, frames);
        let got = wrist_track(skeleton, &out.motion, side, frames);
        (want.iter().zip(&got))
            .map(|(a, b)| f64::from(a.angle_between(*b)).to_degrees())
            .fold(0.0, f64::max)
    };
    let (left, right) = (worst(Side::Left), worst(Side::Right));
    println!(
        "手首 off the dance's: left (the body's fit) {left:.5}°, right (the palm) {right:.5}°"
    );
    assert!(right < 0.5, "{right:.3}°");
    assert!(left < 2.0, "{left:.3}°");
}
