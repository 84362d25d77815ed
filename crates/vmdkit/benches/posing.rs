//! Posing speed beside mmd-anim-runtime 0.5.3, in one run, single thread.
//!
//! `cargo bench -p vmdkit --bench posing`
//!
//! * `pose_one_frame/<model>/...`: one full pose (sample every track, morphs, every bone in
//!   deform order, append, IK) at frames spread over the dance, one per iteration:
//!   vmdkit's `Poser::pose_at` against the peer's `evaluate_clip_frame`. The peer's IK keeps
//!   history between calls; both the plain call and the call after `reset_ik_history()` (the
//!   deterministic mode the oracle test uses) are measured.
//! * `bake_dance/<model>`: every frame of the dance, in order (vmdkit's `Poser` steps its track
//!   cursors; the peer searches each track), the way a world-space bake runs.
//!
//! Models: 初音ミク.pmx (mmd_tools sample, standard skeleton, 122 bones, 7 IK chains with hair
//! and necktie) and trace_check_base_model.pmx (semi-standard skeleton, 123 bones, 28 appends,
//! 4 IK). Dance: wavefile_v2.vmd (2810 frames, 140 bone tracks, made for 初音ミク).

#[path = "../tests/it/common/skeleton.rs"]
mod skeleton_common;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use skeleton_common::{peer_pipeline, MIKU, TRACE, WAVEFILE};
use std::time::Duration;
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Binding, Pose, PoseEvaluator, Poser, Skeleton};
use vmdkit::Motion;

const DANCE: &str = WAVEFILE;
const MODELS: [(&str, &str); 2] = [("miku", MIKU), ("semi_standard", TRACE)];

fn posing(c: &mut Criterion) {
    let Some(manifest) = test_corpus::corpus_or_skip("posing bench") else {
        return;
    };
    let vmd = std::fs::read(manifest.dir.join(DANCE)).unwrap();
    let motion = Motion::parse(&vmd).unwrap();
    let sampler = MotionSampler::new(&motion);
    let last = sampler.last_frame().unwrap();
    // Frames spread over the dance, visited in a scrambled order so that neither side benefits
    // from the previous call.
    let frames: Vec<f32> =
        (0..257u32).map(|i| ((i * 617) % (last + 1)) as f32 + 0.5 * (i % 2) as f32).collect();

    for (label, path) in MODELS {
        let pmx = std::fs::read(manifest.dir.join(path)).unwrap();
        let model = Model::parse(&pmx).unwrap();
        let skeleton = Skeleton::new(&model);
        let binding = Binding::new(&skeleton, &sampler);
        let (mut rt, clip, _) = peer_pipeline(&pmx, &vmd);
        eprintln!(
            "{label}: {} bones, {} IK chains, {} of {} bone tracks bound; {} frames",
            skeleton.bone_count(),
            skeleton.ik_count(),
            binding.bone_tracks().len(),
            sampler.bone_count(),
            last + 1
        );

        let mut group = c.benchmark_group(format!("pose_one_frame/{label}"));
        group.throughput(Throughput::Elements(1));
        group
            .sample_size(30)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4));
        let mut poser = Poser::new(&skeleton, &sampler, &binding);
        let mut pose = Pose::new(&skeleton);
        let mut k = 0;
        group.bench_function("vmdkit/pose_at", |b| {
            b.iter(|| {
                k = (k + 1) % frames.len();
                poser.pose_at(frames[k], &mut pose);
                black_box(pose.position(1))
            })
        });
        // The evaluation alone, on one fixed input (no sampling).
        let input = poser.sample(frames[100]).clone();
        let evaluator = PoseEvaluator::new(&skeleton);
        group.bench_function("vmdkit/evaluate_only", |b| {
            b.iter(|| {
                evaluator.evaluate(black_box(&input), &mut pose);
                black_box(pose.position(1))
            })
        });
        group.bench_function("mmd-anim-runtime/evaluate_clip_frame", |b| {
            b.iter(|| {
                k = (k + 1) % frames.len();
                rt.evaluate_clip_frame(&clip, frames[k]);
                black_box(rt.world_matrices()[1].w_axis)
            })
        });
        group.bench_function("mmd-anim-runtime/reset_ik_history+evaluate_clip_frame", |b| {
            b.iter(|| {
                k = (k + 1) % frames.len();
                rt.reset_ik_history();
                rt.evaluate_clip_frame(&clip, frames[k]);
                black_box(rt.world_matrices()[1].w_axis)
            })
        });
        group.finish();

        let mut group = c.benchmark_group("bake_dance");
        group.throughput(Throughput::Elements(u64::from(last) + 1));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(10));
        group.bench_function(BenchmarkId::new("vmdkit/pose_at", label), |b| {
            b.iter(|| {
                let mut poser = Poser::new(&skeleton, &sampler, &binding);
                let mut sum = 0.0f32;
                for f in 0..=last {
                    poser.pose_at(f, &mut pose);
                    sum += pose.position(1).y;
                }
                black_box(sum)
            })
        });
        group.bench_function(
            BenchmarkId::new("mmd-anim-runtime/evaluate_clip_frame", label),
            |b| {
                b.iter(|| {
                    rt.reset_ik_history();
                    let mut sum = 0.0f32;
                    for f in 0..=last {
                        rt.evaluate_clip_frame(&clip, f as f32);
                        sum += rt.world_matrices()[1].w_axis.y;
                    }
                    black_box(sum)
                })
            },
        );
        group.finish();
    }
}

criterion_group!(benches, posing);
criterion_main!(benches);
