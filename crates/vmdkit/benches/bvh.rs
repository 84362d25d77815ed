//! BVH: parsing a large file (bar: 100 MB/s or more), and VMD → BVH export, single thread.
//!
//! `cargo bench -p vmdkit --bench bvh`
//!
//! The input is made once, outside the timed region: `vmdkit::example::exercise_motion` over
//! 10 minutes (18,000 frames at 30 fps: every major bone swinging, センター swaying and
//! turning) played on `vmdkit::example::standard_model()` and written by `bvh::from_motion` at
//! 60 fps, so the file holds real-looking values of every magnitude (six decimals, signs,
//! three- and six-channel joints, End Sites), as motion capture does.
//!
//! * `bvh/parse`: `Bvh::parse` of that file's bytes, in bytes per second.
//! * `bvh/export_10min`: `bvh::from_motion` of the 10-minute motion at 30 fps (two posing
//!   passes: which joints translate, then the values) and `Bvh::write_to` into memory.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use std::time::Duration;
use vmdkit::bvh::{from_motion, Bvh, BvhExportOptions};
use vmdkit::eval::MotionSampler;
use vmdkit::example::{exercise_motion, standard_model};

const FRAMES: u32 = 18_000;

fn bvh(c: &mut Criterion) {
    let model = standard_model();
    let motion = exercise_motion(FRAMES);
    let sampler = MotionSampler::new(&motion);
    let options = BvhExportOptions { fps: 60.0, ..BvhExportOptions::default() };
    let file = from_motion(&model, &sampler, &options).unwrap();
    let mut bytes = Vec::new();
    file.write_to(&mut bytes).unwrap();
    // What is timed must be a complete, correct read.
    let parsed = Bvh::parse(&bytes).unwrap();
    assert_eq!(parsed.frame_count, file.frame_count);
    assert_eq!(parsed.motion.len(), file.motion.len());
    eprintln!(
        "bvh: {} bytes, {} joints, {} channels, {} frames",
        bytes.len(),
        parsed.joints.len(),
        parsed.channel_count,
        parsed.frame_count
    );

    let mut group = c.benchmark_group("bvh");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("parse", |b| b.iter(|| Bvh::parse(black_box(&bytes)).unwrap()));
    group.throughput(Throughput::Elements(u64::from(FRAMES) + 1));
    group.bench_function("export_10min", |b| {
        b.iter(|| {
            let out = from_motion(&model, &sampler, &BvhExportOptions::default()).unwrap();
            let mut text = Vec::with_capacity(bytes.len());
            out.write_to(&mut text).unwrap();
            text
        })
    });
    group.finish();
}

criterion_group!(benches, bvh);
criterion_main!(benches);
