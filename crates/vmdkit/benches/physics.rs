//! Physics baking speed: the bar is a 3-minute dance baked at 30 fps with the default
//! steps, on one core, in under 9 s (20× real time).
//!
//! `taskset -c 0 cargo bench -p vmdkit --bench physics` (taskset pins it to one core; the
//! simulation is single-threaded either way).
//!
//! * `physics_bake/miku_3min`: [`bake_physics`] of サンプルモーション2.vmd cut to its first
//!   3 minutes (frames 0–5399) on 初音ミク.pmx, the corpus model with the most rigid bodies
//!   (45 bodies, 27 joints): every frame posed, the world stepped (1/120 s, 4 steps a frame,
//!   1 s of settling first), and every physics bone keyed. One iteration is the whole bake.
//! * `physics_bake/mei_3min`: the same dance on mei.pmd (31 bodies, 20 joints), a PMD.

#[path = "../tests/it/common/skeleton.rs"]
mod skeleton_common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use skeleton_common::{MEI, MIKU, SAMPLE2};
use std::time::Duration;
use vmdkit::bake::{bake_physics, PhysicsBakeOptions};
use vmdkit::model::Model;
use vmdkit::skeleton::Skeleton;
use vmdkit::Motion;

/// 3 minutes at 30 fps: frames 0 to 5399.
const LAST_FRAME: u32 = 3 * 60 * 30 - 1;

fn physics(c: &mut Criterion) {
    let Some(manifest) = test_corpus::corpus_or_skip("physics bench") else {
        return;
    };
    let dance = Motion::read_file(manifest.dir.join(SAMPLE2)).unwrap();
    let (dance, _) = vmdkit::edit::trim(&dance, 0, LAST_FRAME).unwrap();
    let options = PhysicsBakeOptions::default();
    let mut group = c.benchmark_group("physics_bake");
    group.sample_size(10).measurement_time(Duration::from_secs(40));
    group.throughput(Throughput::Elements(u64::from(LAST_FRAME) + 1));
    for (label, path) in [("miku_3min", MIKU), ("mei_3min", MEI)] {
        let model = Model::read_file(manifest.dir.join(path)).unwrap();
        let skeleton = Skeleton::new(&model);
        let (_, report) = bake_physics(&dance, &model, &skeleton, &options, |_, _| {}).unwrap();
        eprintln!(
            "{label}: {} bodies, {} joints, {} frames, {} steps, {} bones baked, largest joint \
             error {:.3}",
            model.rigid_bodies.len(),
            model.joints.len(),
            report.frames,
            report.physics.steps,
            report.baked_bones.len(),
            report.physics.max_joint_error
        );
        group.bench_function(label, |b| {
            b.iter(|| bake_physics(&dance, &model, &skeleton, &options, |_, _| {}).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, physics);
criterion_main!(benches);
