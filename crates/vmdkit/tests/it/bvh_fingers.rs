//! BVH exported from MMD models names its joints with the models' bone names: the fingers
//! (`左人指１/２/３`, `左親指０/１/２`, the tips `…先` or the last joint's End Site) map onto the
//! hand roles, and a dance's fingers survive the round trip. A BVH is written in code by vmdkit's
//! own exporter from wavefile_v2's busy fingers played on 初音ミク.pmx (no 親指０; its index tip
//! is 人差指先) and on the trace model (semi-standard, with 親指０), read back, retargeted onto the
//! same model and played: every finger segment follows the BVH's in the palm's frame.
//! Figures: `cargo test -p vmdkit --test it bvh_fingers:: -- --nocapture`.

use crate::common::skeleton::{MIKU, TRACE, WAVEFILE};
use glam::{DMat3, DVec3, Vec3};
use vmdkit::bvh::{detect_layout, from_motion, to_keypoints, BvhExportOptions, FkOptions};
use vmdkit::eval::MotionSampler;
use vmdkit::keypoints::{JointLayout, Smoothing, Units};
use vmdkit::model::Model;
use vmdkit::retarget::{
    keypoints_from_motion, retarget, FloorMode, KeyMode, KeypointOptions, RetargetOptions,
};
use vmdkit::roles::{Finger, Role, Side};
use vmdkit::skeleton::{Skeleton, METRES_PER_UNIT};
use vmdkit::Motion;

/// The stretch of wavefile_v2 played: its fingers curl and open from frame ~180 on.
const FROM: u32 = 180;
const TO: u32 = 330;

/// The joint each hand point is read from, as the module above says: the bone whose head is
/// the point, the tip bone or else the last bone's End Site, no CMC without 親指０.
fn expected_joint(model: &Model, side: &str, finger: Finger, k: usize) -> Option<String> {
    let has = |n: &str| model.bones.iter().any(|b| b.name == format!("{side}{n}"));
    let stems: [&[&str]; 4] = match finger {
        Finger::Thumb => [&["親指０"], &["親指１"], &["親指２"], &["親指先"]],
        Finger::Index => [&["人指１"], &["人指２"], &["人指３"], &["人指先", "人差指先"]],
        Finger::Middle => [&["中指１"], &["中指２"], &["中指３"], &["中指先"]],
        Finger::Ring => [&["薬指１"], &["薬指２"], &["薬指３"], &["薬指先"]],
        Finger::Pinky => [&["小指１"], &["小指２"], &["小指３"], &["小指先"]],
    };
    if let Some(stem) = stems[k].iter().find(|s| has(s)) {
        return Some(format!("{side}{stem}"));
    }
    // A tip without a tip bone: the last bone's End Site.
    (k == 3).then(|| format!("{side}{}_End", stems[2][0]))
}

/// Per frame, each finger segment's direction in the palm's frame (x from the wrist to the
/// middle finger's base, z the palm's normal), for one side.
fn in_palm(frame: &[Vec3], layout: &JointLayout, side: Side) -> Vec<DVec3> {
    let at = |r: Role| frame[layout.joint_of(r).unwrap()].as_dvec3();
    let hand = Role::hand_points(side);
    let (wrist, index, middle, pinky) = (at(hand[0]), at(hand[5]), at(hand[9]), at(hand[17]));
    let x = (middle - wrist).normalize();
    let z = (index - pinky).cross(x);
    let z = (z - x * z.dot(x)).normalize();
    let palm = DMat3::from_cols(x, z.cross(x), z).transpose();
    let mut out = Vec::new();
    for finger in Finger::ALL {
        let points: Vec<DVec3> = (Role::finger_points(side, finger).into_iter())
            .filter_map(|r| layout.joint_of(r).map(|i| frame[i].as_dvec3()))
            .collect();
        out.extend(points.windows(2).map(|w| palm * (w[1] - w[0]).normalize()));
    }
    out
}

#[test]
fn mmd_named_finger_joints_map_onto_the_hand_and_round_trip() {
    if test_corpus::corpus_or_skip("bvh_fingers").is_none() {
        return;
    }
    let dir = test_corpus::corpus_dir();
    let dance = Motion::read_file(dir.join(WAVEFILE)).unwrap();
    let (cut, _) = vmdkit::edit::trim(&dance, FROM, TO).unwrap();
    let cut = vmdkit::edit::shift(&cut, -(FROM as i64)).unwrap();
    for (label, path) in [("初音ミク", MIKU), ("trace", TRACE)] {
        let model = Model::read_file(dir.join(path)).unwrap();
        let bvh =
            from_motion(&model, &MotionSampler::new(&cut), &BvhExportOptions::default()).unwrap();
        let layout = detect_layout(&bvh).unwrap();
        assert_eq!(layout.name, "mmd", "{label}");
        assert_eq!(layout.hand_sides(), Side::BOTH.to_vec(), "{label}");
        // The mapping: each hand point on the joint the module names.
        for (side, word) in [(Side::Left, "左"), (Side::Right, "右")] {
            let wrist = layout.joint_of(Role::hand_points(side)[0]).unwrap();
            assert_eq!(layout.joints[wrist].name, format!("{word}手首"));
            for finger in Finger::ALL {
                for (k, role) in Role::finger_points(side, finger).into_iter().enumerate() {
                    let got = layout.joint_of(role).map(|i| layout.joints[i].name.clone());
                    assert_eq!(got, expected_joint(&model, word, finger, k), "{label} {role}");
                }
            }
        }
        let has_thumb0 = model.bones.iter().any(|b| b.name == "左親指０");
        assert_eq!(layout.joint_of(Role::LeftThumbCmc).is_some(), has_thumb0, "{label}");

        // The round trip: BVH → keypoints → retarget onto the same model → played back.
        let kp = to_keypoints(&bvh, &layout, FkOptions::default()).unwrap();
        let units = Units::MetresPer(METRES_PER_UNIT);
        let options = RetargetOptions {
            fps: bvh.fps(),
            smoothing: Smoothing::None,
            floor: FloorMode::Keep,
            keys: KeyMode::Dense,
            units: Some(units),
            ..RetargetOptions::default()
        };
        let skeleton = Skeleton::new(&model);
        let out = retarget(&kp, &layout, &skeleton, &options).unwrap();
        let fingers = out.report.fingers.clone().expect("the hands are solved");
        assert_eq!(fingers.solved_frames, [kp.frame_count; 2], "{label}");
        let read = KeypointOptions { units, ..KeypointOptions::default() };
        let played = keypoints_from_motion(&out.motion, &skeleton, &layout, &read).unwrap();
        let (mut sum, mut n, mut max, mut bend) = (0.0, 0usize, 0.0f64, 0.0f64);
        for f in 0..kp.frame_count.min(played.frame_count) {
            for side in Side::BOTH {
                let (a, b) =
                    (in_palm(kp.frame(f), &layout, side), in_palm(played.frame(f), &layout, side));
                for (x, y) in a.iter().zip(&b) {
                    let e = x.angle_between(*y).to_degrees();
                    (sum, n, max) = (sum + e, n + 1, max.max(e));
                }
                // The index finger's curl at its PIP in the input.
                let at = |r: Role| kp.frame(f)[layout.joint_of(r).unwrap()].as_dvec3();
                let [mcp, pip, dip, _] = Role::finger_points(side, Finger::Index).map(at);
                bend = bend.max((pip - mcp).angle_between(dip - pip).to_degrees());
            }
        }
        let mean = sum / n as f64;
        println!(
            "{label}: {} joints, {} hand roles; finger segments in the palm {mean:.3}° mean, \
             {max:.3}° max over {} frames (index PIP curls up to {bend:.0}°); the report: \
             {:.3}° / {:.3}°, joints {:.4} / {:.4}",
            bvh.joints.len(),
            layout
                .joints
                .iter()
                .filter(|j| j.role.is_some_and(|r| r.hand_part().is_some()))
                .count(),
            kp.frame_count,
            fingers.direction_mean_degrees,
            fingers.direction_max_degrees,
            fingers.joint_error_mean,
            fingers.joint_error_max
        );
        assert!(bend > 30.0, "{label}: the clip curls the fingers ({bend:.1}°)");
        assert!(mean < 0.5 && max < 3.0, "{label}: {mean:.3}° mean, {max:.3}° max");
    }
}
