//! Round trips: motions on a skeleton → keypoints of each layout → retarget → played back.

use super::*;
use crate::example::standard_model;
use crate::keypoints::{Smoothing, Units, UpAxis};

fn round_trip(layout: &str, motion: &Motion, ik: bool) -> RetargetReport {
    let skeleton = Skeleton::new(&standard_model());
    let layout = JointLayout::builtin(layout).unwrap();
    let kp_options = KeypointOptions {
        fps: 30.0,
        axes: InputAxes { up: UpAxis::Y, left_handed: false },
        units: Units::Metres,
        ..KeypointOptions::default()
    };
    let kp = keypoints_from_motion(motion, &skeleton, &layout, &kp_options).unwrap();
    let options = RetargetOptions {
        fps: 30.0,
        smoothing: Smoothing::None,
        floor: FloorMode::Keep,
        keys: KeyMode::Dense,
        ik,
        units: Some(Units::Metres),
        ..RetargetOptions::default()
    };
    retarget(&kp, &layout, &skeleton, &options).unwrap().report
}

#[test]
fn progress_counts_the_frames_then_thinning_and_measuring() {
    let skeleton = Skeleton::new(&standard_model());
    let layout = JointLayout::builtin("h36m").unwrap();
    let motion = crate::example::exercise_motion(150);
    let kp =
        keypoints_from_motion(&motion, &skeleton, &layout, &KeypointOptions::default()).unwrap();
    let options = RetargetOptions::default();
    let calls = std::sync::Mutex::new(Vec::new());
    let out = retarget_with_progress(&kp, &layout, &skeleton, &options, &|done, total| {
        calls.lock().unwrap().push((done, total));
    })
    .unwrap();
    let calls = calls.into_inner().unwrap();
    let total = kp.frame_count + 2;
    let mut expected: Vec<_> = (1..=kp.frame_count)
        .filter(|n| n % PROGRESS_FRAMES == 0 || *n == kp.frame_count)
        .map(|n| (n, total))
        .collect();
    expected.extend([(total - 1, total), (total, total)]);
    assert_eq!(calls, expected);
    assert_eq!(out.motion, retarget(&kp, &layout, &skeleton, &options).unwrap().motion);

    // Playing a motion counts its output frames.
    let calls = std::sync::Mutex::new(Vec::new());
    let options = KeypointOptions::default();
    let again =
        keypoints_from_motion_with_progress(&motion, &skeleton, &layout, &options, &|d, t| {
            calls.lock().unwrap().push((d, t));
        })
        .unwrap();
    assert_eq!(again.positions, kp.positions);
    let calls = calls.into_inner().unwrap();
    let frames = kp.frame_count;
    let expected: Vec<_> = (1..=frames)
        .filter(|n| n % PROGRESS_FRAMES == 0 || *n == frames)
        .map(|n| (n, frames))
        .collect();
    assert_eq!(calls, expected);
}

#[test]
fn h36m_round_trip_on_the_same_skeleton_is_exact() {
    let report = round_trip("h36m", &crate::example::exercise_motion(150), false);
    for r in &report.residuals {
        eprintln!("{:>12} rms {:.5} max {:.5}", r.joint, r.rms, r.max);
    }
    for d in &report.directions {
        eprintln!(
            "{:>14}-{:<14} mean {:.4}° max {:.4}°",
            d.from, d.to, d.mean_degrees, d.max_degrees
        );
    }
    eprintln!("scale {} ", report.scale);
    assert!((report.scale - 1.0 / 0.08).abs() < 1e-3, "{}", report.scale);
    let worst = report.residuals.iter().map(|r| r.max).fold(0.0, f64::max);
    assert!(worst < 0.02, "{worst}");
}

#[test]
fn a_mirrored_input_is_noticed_and_mirrored_back() {
    let skeleton = Skeleton::new(&standard_model());
    let layout = JointLayout::builtin("h36m").unwrap();
    let motion = crate::example::exercise_motion(120);
    let axes = InputAxes { up: UpAxis::Y, left_handed: false };
    let kp_options =
        KeypointOptions { fps: 30.0, axes, units: Units::Metres, ..KeypointOptions::default() };
    let kp = keypoints_from_motion(&motion, &skeleton, &layout, &kp_options).unwrap();
    let options = |left_handed: bool| RetargetOptions {
        smoothing: Smoothing::None,
        floor: FloorMode::Keep,
        keys: KeyMode::Dense,
        axes: InputAxes { up: UpAxis::Y, left_handed },
        ..RetargetOptions::default()
    };
    let right = retarget(&kp, &layout, &skeleton, &options(false)).unwrap().report;
    assert!(!right.handedness.corrected, "{:?}", right.handedness);
    assert!(right.handedness.frames > 100 && right.handedness.mirrored == 0);
    // Read with the wrong handedness, then mirrored back: the same motion.
    let wrong = retarget(&kp, &layout, &skeleton, &options(true)).unwrap();
    assert!(wrong.report.handedness.corrected, "{:?}", wrong.report.handedness);
    let worst = wrong.report.residuals.iter().map(|r| r.max).fold(0.0, f64::max);
    assert!(worst < 0.02, "{worst}");
    let back = keypoints_from_motion(&wrong.motion, &skeleton, &layout, &kp_options).unwrap();
    let err = (back.positions.iter().zip(&kp.positions))
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0f32, f32::max);
    assert!(err < 0.02 * 0.08, "{err} m");
}

#[test]
fn an_input_read_upside_down_is_turned_upright() {
    let skeleton = Skeleton::new(&standard_model());
    let layout = JointLayout::builtin("blazepose33").unwrap();
    let motion = crate::example::exercise_motion(90);
    let kp_options = KeypointOptions {
        fps: 30.0,
        axes: InputAxes::default(),
        units: Units::Metres,
        ..KeypointOptions::default()
    };
    let kp = keypoints_from_motion(&motion, &skeleton, &layout, &kp_options).unwrap();
    let options = |up| RetargetOptions {
        smoothing: Smoothing::None,
        floor: FloorMode::Keep,
        keys: KeyMode::Dense,
        axes: InputAxes { up, left_handed: false },
        ..RetargetOptions::default()
    };
    let right = retarget(&kp, &layout, &skeleton, &options(UpAxis::Y)).unwrap().report;
    assert!(!right.handedness.turned_upright && right.handedness.upside_down == 0);
    let wrong = retarget(&kp, &layout, &skeleton, &options(UpAxis::NegY)).unwrap();
    let h = wrong.report.handedness;
    assert!(h.turned_upright && !h.corrected, "{h:?}");
    let back = keypoints_from_motion(&wrong.motion, &skeleton, &layout, &kp_options).unwrap();
    let err = (back.positions.iter().zip(&kp.positions))
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0f32, f32::max);
    assert!(err < 0.02 * 0.08, "{err} m");
}

/// Hostile keypoints: every joint at one point, huge and tiny coordinates, NaN frames, joints
/// that jump: the retargeting returns a motion with finite keys or a clean error, never a
/// panic or a NaN in the file.
#[test]
fn hostile_keypoints_give_finite_keys_or_an_error() {
    let skeleton = Skeleton::new(&standard_model());
    let layout = JointLayout::builtin("h36m").unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for case in 0..24 {
        let frames = 1 + case % 7 * 5;
        let mut kp = Keypoints::missing(frames, 17);
        let scale = [0.0, 1e-9, 1.0, 1e3, 1e30][case % 5];
        for p in &mut kp.positions {
            let v = glam::Vec3::new(next() as f32, next() as f32, next() as f32);
            *p = match case % 4 {
                0 => glam::Vec3::splat(0.5),
                1 => v * scale as f32,
                2 if next() < 0.5 => glam::Vec3::NAN,
                _ => (v - 0.5) * scale as f32,
            };
        }
        for floor in [FloorMode::Keep, FloorMode::Estimate] {
            let options = RetargetOptions { floor, ..RetargetOptions::default() };
            if let Ok(out) = retarget(&kp, &layout, &skeleton, &options) {
                for key in &out.motion.bones {
                    assert!(key.translation.is_finite() && key.rotation.is_finite(), "case {case}");
                }
            }
        }
    }
}

/// Thinned, the dense keys are never written as records: their values go straight to the
/// thinning and to the sampler the report plays. Both must be what the records would give:
/// the thinned keys are exactly `edit::reduce` of the dense motion, and the dense tracks play
/// exactly as the records' tracks do, at key frames and between them.
#[test]
fn thinned_keys_are_the_dense_keys_reduced() {
    let skeleton = Skeleton::new(&standard_model());
    let layout = JointLayout::builtin("holistic").unwrap();
    let motion = crate::example::exercise_motion(150);
    let kp =
        keypoints_from_motion(&motion, &skeleton, &layout, &KeypointOptions::default()).unwrap();
    let thinned = RetargetOptions::default();
    let KeyMode::Thinned(tolerance) = thinned.keys else { panic!("thinned by default") };
    let dense = RetargetOptions { keys: KeyMode::Dense, ..thinned.clone() };
    let out = retarget(&kp, &layout, &skeleton, &thinned).unwrap();
    let all = retarget(&kp, &layout, &skeleton, &dense).unwrap();
    assert_eq!(out.report.dense_keys, all.motion.bones.len());
    assert!(out.motion.bones.len() * 2 < all.motion.bones.len(), "{}", out.motion.bones.len());
    let options =
        crate::edit::ReduceOptions { tolerance, method: thinned.reduce_method, threads: 1 };
    let (reduced, _) = crate::edit::reduce(&all.motion, &options);
    assert_eq!(out.motion.bones, reduced.bones);

    let records = crate::eval::MotionSampler::new(&all.motion);
    for track in records.bone_tracks() {
        let last = *track.frames().last().unwrap();
        let r = crate::edit::reduce::bone_reference_at(
            track,
            *track.name(),
            0,
            (0..=last).map(f64::from),
        );
        let values =
            crate::eval::BoneTrack::dense(r.name, 0, &r.translation, &r.rotation, &r.physics);
        for t in (0..=4 * last).map(|q| f64::from(q) / 4.0) {
            assert_eq!(values.sample(t), track.sample(t), "{} at {t}", track.name());
        }
    }
}
