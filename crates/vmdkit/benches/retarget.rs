//! The whole retargeting pipeline on a 10-minute clip, single thread, as frames per second.
//!
//! `cargo bench -p vmdkit --bench retarget`
//!
//! Input: 18,000 frames (10 minutes at 30 fps) of the 17 h36m joints, in metres, Y up. They
//! are made once, outside the timed region: `vmdkit::example::exercise_motion` (five minutes of
//! every major bone swinging while センター sways, crouches and turns past 180°, then five of
//! held poses that break naive constructions: arms up, straight, crossed, a deep squat) is
//! played on `vmdkit::example::standard_model()` by `keypoints_from_motion`, and every coordinate then gets
//! a deterministic ±1 cm of noise (a 64-bit LCG), so that smoothing and thinning have real work.
//!
//! * `retarget_10min/default`: `retarget` with the default options (conditioning with normal
//!   smoothing, scale, solve, floor and contacts, keys thinned by `edit::reduce` with one
//!   thread, report measured by playback) and the input's rate and units.
//! * `retarget_10min/fitted`: the same with `ReduceMethod::Fitted`, the thinning the default
//!   used before `ReduceMethod::Fast`, for comparison.
//! * `retarget_10min/dense`: the same with `KeyMode::Dense`: no thinning, and the report plays
//!   back one motion instead of two.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use glam::Vec3;
use std::time::Duration;
use vmdkit::edit::ReduceMethod;
use vmdkit::example::{exercise_motion, standard_model};
use vmdkit::keypoints::{JointLayout, Keypoints, Units};
use vmdkit::retarget::{
    keypoints_from_motion, retarget, InputAxes, KeyMode, KeypointOptions, RetargetOptions,
};
use vmdkit::skeleton::Skeleton;

/// 10 minutes at 30 fps.
const FRAMES: u32 = 18_000;

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
    let layout = JointLayout::builtin("h36m").unwrap();
    let kp_options = KeypointOptions {
        fps: 30.0,
        axes: InputAxes::default(),
        units: Units::Metres,
        ..KeypointOptions::default()
    };
    let mut kp =
        keypoints_from_motion(&exercise_motion(FRAMES - 1), &skeleton, &layout, &kp_options)
            .unwrap();
    assert_eq!(kp.frame_count, FRAMES as usize);
    assert_eq!(kp.joint_count, 17);
    add_noise(&mut kp, 0.01);

    let default = RetargetOptions { fps: 30.0, units: Some(Units::Metres), ..Default::default() };
    let fitted = RetargetOptions { reduce_method: ReduceMethod::Fitted, ..default.clone() };
    let dense = RetargetOptions { keys: KeyMode::Dense, ..default.clone() };
    let runs = [("default", &default), ("fitted", &fitted), ("dense", &dense)];
    for (label, options) in runs {
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
    for (label, options) in runs {
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
