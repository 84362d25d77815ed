//! Sampling speed beside mmd-anim-runtime 0.5.3, in one run: every bone track of the largest
//! corpus dance at every frame, single thread, reported as bone samples per second.
//!
//! `cargo bench -p vmdkit --bench sampling`
//!
//! * `vmdkit/random_access`: `MotionSampler::sample_bones`, a binary search per track per call.
//! * `vmdkit/playhead`: `sample_bones_with` and a `Playhead`, the sequential-playback path.
//! * `mmd-anim-runtime/sample_into`: `AnimationClip::sample_into` on a clip built with the
//!   peer's row-based decoder (`build_mmd_registered_pair_clip`) on a model of unconnected root
//!   bones, the same setup as `tests/it/eval_oracle.rs`. It has no cursor, so this is also its
//!   sequential path.
//!
//! Each is measured twice: `on_cpu` counts only the time the sampling thread ran (Linux
//! `/proc/thread-self/schedstat`; wall time elsewhere), which keeps the comparison fair on a
//! loaded machine where the thread is descheduled for long stretches; `wall` is criterion's
//! usual clock. Criterion measures each function in its own window of seconds, so on a loaded
//! machine the wall-clock ratio also depends on how the load shifted between windows; a last
//! summary on stderr therefore alternates the three passes and keeps each one's fastest wall
//! time, so that all three see the same conditions.

use criterion::measurement::WallTime;
use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput,
};
use mmd_anim_format::{build_mmd_registered_pair_clip, import_vmd_motion};
use mmd_anim_runtime::{AnimationClip, BoneIndex, BoneInit, ClipSample, ModelArena};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use vmdkit::eval::{BoneSample, MotionSampler};
use vmdkit::Motion;

fn peer_clip(bytes: &[u8]) -> AnimationClip {
    let import = import_vmd_motion(bytes).unwrap();
    let mut ids: HashMap<Vec<u8>, BoneIndex> = HashMap::new();
    for k in &import.bone_keyframes {
        let next = BoneIndex(ids.len() as u32);
        ids.entry(k.bone_name_normalized.clone()).or_insert(next);
    }
    let bones = (0..ids.len().max(1)).map(|_| BoneInit::new(None, Default::default())).collect();
    let model = ModelArena::new(bones).unwrap();
    build_mmd_registered_pair_clip(&model, &import, &ids, &HashMap::new(), &HashMap::new(), 0)
        .unwrap()
}

/// Nanoseconds this thread has run, if the kernel says.
fn on_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// One full pass: every bone at every frame.
type Pass<'a> = Box<dyn FnMut() -> f32 + 'a>;

fn passes<'a>(
    sampler: &'a MotionSampler,
    clip: &'a AnimationClip,
    last: u32,
) -> Vec<(&'static str, Pass<'a>)> {
    let tracks = sampler.bone_count();
    let mut out = vec![BoneSample::default(); tracks];
    let mut out2 = out.clone();
    let mut peer_out = ClipSample::default();
    vec![
        (
            "vmdkit/random_access",
            Box::new(move || {
                let mut sum = 0.0;
                for f in 0..=last {
                    sampler.sample_bones(f, &mut out);
                    sum += out[0].translation.x + out[tracks - 1].rotation.w;
                }
                sum
            }),
        ),
        (
            "vmdkit/playhead",
            Box::new(move || {
                let mut playhead = sampler.playhead();
                let mut sum = 0.0;
                for f in 0..=last {
                    sampler.sample_bones_with(&mut playhead, f, &mut out2);
                    sum += out2[0].translation.x + out2[tracks - 1].rotation.w;
                }
                sum
            }),
        ),
        (
            "mmd-anim-runtime/sample_into",
            Box::new(move || {
                let mut sum = 0.0;
                for f in 0..=last {
                    clip.sample_into(f as f32, &mut peer_out);
                    let s = peer_out.bone_samples();
                    sum += s[0].position.x + s[tracks - 1].rotation.w;
                }
                sum
            }),
        ),
    ]
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>, samples: u64) {
    group.throughput(Throughput::Elements(samples));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8));
}

fn sampling(c: &mut Criterion) {
    let Some(manifest) = test_corpus::corpus_or_skip("sampling bench") else {
        return;
    };
    let entry = manifest.largest("vmd");
    let bytes = entry.bytes();
    let motion = Motion::parse(&bytes).unwrap();
    let sampler = MotionSampler::new(&motion);
    let clip = peer_clip(&bytes);
    let last = sampler.last_frame().unwrap();
    assert_eq!(clip.bone_track_count(), sampler.bone_count());
    let samples = sampler.bone_count() as u64 * (u64::from(last) + 1);
    eprintln!(
        "{}: {} bone tracks × {} frames = {samples} bone samples per iteration; on_cpu clock: {}",
        entry.local_path,
        sampler.bone_count(),
        last + 1,
        if on_cpu_ns().is_some() {
            "/proc/thread-self/schedstat"
        } else {
            "unavailable, wall time"
        }
    );

    let mut group = c.benchmark_group("sample_every_bone_every_frame/on_cpu");
    configure(&mut group, samples);
    for (name, mut pass) in passes(&sampler, &clip, last) {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let (wall, cpu) = (Instant::now(), on_cpu_ns());
                for _ in 0..iters {
                    black_box(pass());
                }
                match (cpu, on_cpu_ns()) {
                    (Some(a), Some(b)) => Duration::from_nanos(b - a),
                    _ => wall.elapsed(),
                }
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("sample_every_bone_every_frame/wall");
    configure(&mut group, samples);
    for (name, mut pass) in passes(&sampler, &clip, last) {
        group.bench_function(name, |b| b.iter(|| black_box(pass())));
    }
    group.finish();

    let mut passes = passes(&sampler, &clip, last);
    let mut best = vec![Duration::MAX; passes.len()];
    for _ in 0..15 {
        for ((_, pass), best) in passes.iter_mut().zip(&mut best) {
            let start = Instant::now();
            black_box(pass());
            *best = (*best).min(start.elapsed());
        }
    }
    let peer = best[passes.len() - 1].as_secs_f64();
    for ((name, _), best) in passes.iter().zip(&best) {
        let s = best.as_secs_f64();
        eprintln!(
            "interleaved wall, best of 15: {name}: {:.2} ms, {:.1} M samples/s, {:.2}x the peer",
            s * 1e3,
            samples as f64 / s / 1e6,
            peer / s
        );
    }
}

criterion_group!(benches, sampling);
criterion_main!(benches);
