//! glTF export speed: a 3-minute dance (5,400 frames at 30 fps) with a full corpus model,
//! mesh and morph targets included, single thread.
//!
//! `cargo bench -p vmdkit --bench gltf`
//!
//! The dance is wavefile_v2.vmd (2,810 frames) merged with itself shifted by 2,590 frames, so
//! that every track is keyed over frames 0–5,399. `export/<model>` is `gltf::to_glb` from the
//! parsed model, mesh and motion to the GLB's bytes in memory (posing every frame with IK,
//! local transforms, morph weights, mesh, JSON); `read_and_export/<model>` adds parsing the
//! model (skeleton and mesh) and the motion from their bytes.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use vmdkit::gltf::{to_glb, GltfInput, GltfOptions};
use vmdkit::model::{Mesh, Model};
use vmdkit::Motion;

const DANCE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const MODELS: [(&str, &str); 2] = [
    ("miku", "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx"),
    ("mei", "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd"),
];

fn three_minutes(vmd: &[u8]) -> Motion {
    let dance = Motion::parse(vmd).unwrap();
    let again = vmdkit::edit::shift(&dance, 2590).unwrap();
    let (motion, _) = vmdkit::edit::merge(&[dance, again]);
    motion
}

fn export(c: &mut Criterion) {
    let Some(manifest) = test_corpus::corpus_or_skip("gltf bench") else {
        return;
    };
    let vmd = std::fs::read(manifest.dir.join(DANCE)).unwrap();
    let motion = three_minutes(&vmd);
    let frames = vmdkit::eval::MotionSampler::new(&motion).last_frame().unwrap() + 1;
    let mut group = c.benchmark_group("gltf");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    for (label, path) in MODELS {
        let bytes = std::fs::read(manifest.dir.join(path)).unwrap();
        let model = Model::parse(&bytes).unwrap();
        let mesh = Mesh::parse(&bytes).unwrap();
        let options = GltfOptions::default();
        let input =
            GltfInput { model: &model, mesh: Some(&mesh), motion: Some(&motion), camera: None };
        let size = to_glb(&input, &options).unwrap().glb.len();
        eprintln!(
            "{label}: {} vertices, {} faces, {} materials, {} vertex morphs, {} bones; {frames} \
             frames; GLB {:.1} MB",
            mesh.positions.len(),
            mesh.indices.len() / 3,
            mesh.materials.len(),
            mesh.vertex_morphs.len(),
            model.bones.len(),
            size as f64 / 1e6
        );
        group.bench_function(format!("export/{label}"), |b| {
            b.iter(|| to_glb(&input, &options).unwrap().glb.len())
        });
        let dance = motion.to_bytes();
        group.bench_function(format!("read_and_export/{label}"), |b| {
            b.iter(|| {
                let model = Model::parse(&bytes).unwrap();
                let mesh = Mesh::parse(&bytes).unwrap();
                let motion = Motion::parse(&dance).unwrap();
                let input = GltfInput {
                    model: &model,
                    mesh: Some(&mesh),
                    motion: Some(&motion),
                    camera: None,
                };
                to_glb(&input, &options).unwrap().glb.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, export);
criterion_main!(benches);
