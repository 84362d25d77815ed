//! The whole retargeting pipeline on a 10-minute clip, single thread, as frames per second.
//!
//! `cargo bench -p vmdkit --bench retarget`
//!
//! Input: 18,000 frames (10 minutes at 30 fps) of the 17 h36m joints, in metres, Y up. They
//! are made once, outside the timed region: a synthetic dance (every major bone oscillating,
//! センター swaying, crouching and turning past 180°) is played on
//! `vmdkit::example::standard_model()` by `keypoints_from_motion`, and every coordinate then gets
//! a deterministic ±1 cm of noise (a 64-bit LCG), so that smoothing and thinning have real work.
//!
//! * `retarget_10min/default`: `retarget` with the default options (conditioning with normal
//!   smoothing, scale, solve, floor and contacts, keys thinned by `edit::reduce` with one
//!   thread, report measured by playback) and the input's rate and units.
//! * `retarget_10min/dense`: the same with `KeyMode::Dense`: no thinning, and the report plays
//!   back one motion instead of two.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use glam::{Quat, Vec3};
use std::time::Duration;
use vmdkit::example::standard_model;
use vmdkit::keypoints::{Keypoints, Layout, Units};
use vmdkit::retarget::{
    keypoints_from_motion, retarget, InputAxes, KeyMode, KeypointOptions, RetargetOptions,
};
use vmdkit::skeleton::Skeleton;
use vmdkit::{BoneKey, KeyName, LongName, Motion};

/// 10 minutes at 30 fps.
const FRAMES: u32 = 18_000;

/// Frames 0..`frames`: every major bone oscillating at its own rates and phases, knees and
/// elbows bending only the way they can, センター swaying, crouching and turning.
fn dance(frames: u32) -> Motion {
    let mut m = Motion::new(LongName::encode("bench").0);
    let bones: [(&str, [f32; 3]); 18] = [
        ("下半身", [0.3, 0.5, 0.2]),
        ("上半身", [0.4, 0.6, 0.3]),
        ("上半身2", [0.2, 0.3, 0.2]),
        ("首", [0.3, 0.4, 0.2]),
        ("頭", [0.4, 0.5, 0.3]),
        ("左肩", [0.1, 0.1, 0.2]),
        ("右肩", [0.1, 0.2, 0.1]),
        ("左腕", [0.8, 0.6, 0.9]),
        ("右腕", [0.7, 0.9, 0.8]),
        ("左ひじ", [0.3, 1.2, 0.3]),
        ("右ひじ", [0.2, 1.1, 0.4]),
        ("左手首", [0.5, 0.4, 0.5]),
        ("右手首", [0.4, 0.5, 0.4]),
        ("左足", [0.9, 0.3, 0.3]),
        ("右足", [0.8, 0.3, 0.4]),
        ("左ひざ", [1.0, 0.0, 0.0]),
        ("右ひざ", [1.1, 0.0, 0.0]),
        ("左足首", [0.4, 0.3, 0.2]),
    ];
    m.bones.reserve(frames as usize * (bones.len() + 1));
    for f in 0..frames {
        let t = f as f32 / 30.0;
        for (i, (name, amp)) in bones.iter().enumerate() {
            let phase = i as f32 * 0.7;
            let mut e = Vec3::new(
                amp[0] * (1.3 * t + phase).sin(),
                amp[1] * (0.9 * t + 2.0 * phase).sin(),
                amp[2] * (1.7 * t + 0.5 * phase).cos(),
            );
            if name.contains("ひざ") {
                e = Vec3::new(-(0.2 + amp[0] * (1.0 + (1.1 * t + phase).sin())), 0.0, 0.0);
            }
            if name.contains("ひじ") {
                e.y = (e.y.abs() + 0.05) * if name.starts_with('左') { 1.0 } else { -1.0 };
            }
            let mut key = BoneKey::new(KeyName::encode(name).0, f);
            key.rotation = Quat::from_euler(glam::EulerRot::YXZ, e.y, e.x, e.z);
            m.bones.push(key);
        }
        let mut centre = BoneKey::new(KeyName::encode("センター").0, f);
        centre.translation =
            Vec3::new(2.0 * (0.5 * t).sin(), -1.5 * (0.8 * t).sin().abs(), 3.0 * (0.13 * t).sin());
        // Turns back and forth, past 180° each way.
        centre.rotation = Quat::from_rotation_y(4.0 * (0.2 * t).sin());
        m.bones.push(centre);
    }
    m
}

/// ±`amplitude` of uniform noise on every coordinate, from a fixed-seed 64-bit LCG.
fn add_noise(kp: &mut Keypoints, amplitude: f32) {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        // The top 24 bits as [0, 1).
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    for p in &mut kp.positions {
        if p.is_finite() {
            *p += amplitude * (Vec3::new(next(), next(), next()) * 2.0 - Vec3::ONE);
        }
    }
}

fn retargeting(c: &mut Criterion) {
    let skeleton = Skeleton::new(&standard_model());
    let layout = Layout::builtin("h36m").unwrap();
    let kp_options =
        KeypointOptions { fps: 30.0, axes: InputAxes::default(), units: Units::Metres };
    let mut kp = keypoints_from_motion(&dance(FRAMES), &skeleton, &layout, &kp_options).unwrap();
    assert_eq!(kp.frame_count, FRAMES as usize);
    assert_eq!(kp.joint_count, 17);
    add_noise(&mut kp, 0.01);

    let default = RetargetOptions { fps: 30.0, units: Some(Units::Metres), ..Default::default() };
    let dense = RetargetOptions { keys: KeyMode::Dense, ..default.clone() };
    for (label, options) in [("default", &default), ("dense", &dense)] {
        let out = retarget(&kp, &layout, &skeleton, options).unwrap();
        let r = &out.report;
        eprintln!(
            "{label}: {} frames, {} of {} keys, scale {:.3}, mean residual {:.4}, thinning error \
             {:?}, contact frames {}",
            r.frames,
            r.keys,
            r.dense_keys,
            r.scale,
            r.mean_residual,
            r.thinning_error,
            r.contact_frames
        );
    }

    let mut group = c.benchmark_group("retarget_10min");
    group.throughput(Throughput::Elements(u64::from(FRAMES)));
    // One pipeline run per sample: a default run takes seconds on this machine.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(15));
    for (label, options) in [("default", &default), ("dense", &dense)] {
        group.bench_function(label, |b| {
            b.iter(|| {
                let out = retarget(black_box(&kp), &layout, &skeleton, options).unwrap();
                black_box(out.report.keys)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, retargeting);
criterion_main!(benches);
