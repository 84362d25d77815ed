//! The whole performer: a 10-minute MediaPipe Holistic clip (543 points a frame: the body's 33,
//! two hands of 21, the face mesh's 468) retargeted to a thinned VMD, single thread, as frames
//! per second.
//!
//! `cargo bench -p vmdkit --bench retarget_holistic`
//!
//! Input, made once outside the timed region:
//! * the body and both hands: the corpus dance wavefile_v2 (2,811 frames, which keys the
//!   fingers) played on the corpus 初音ミク.pmx by `keypoints_from_motion` in the `holistic`
//!   layout, in metres, Y up;
//! * the face: the 195 frames of MediaPipe's face mesh of the shared video with a face
//!   (`pose/handface/…test_video.mp4.face.json`), scaled to a 15 cm wide face and put on the
//!   body's nose, looped;
//! * both repeated to 18,000 frames (10 minutes at 30 fps), then ±1 cm of noise from a
//!   fixed-seed LCG on the body's points and ±1 mm on the hands' and the face's.
//!
//! * `holistic_10min/default`: `retarget` with the default options and the model's morphs.
//! * `holistic_10min/body_only`: the same clip's 33 body points alone (`blazepose33`), the
//!   figure the whole performer is compared with.
//!
//! Skipped, with a message, when the shared corpus is missing.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use glam::Vec3;
use std::time::Duration;
use vmdkit::keypoints::{JointLayout, Keypoints, Units};
use vmdkit::retarget::{keypoints_from_motion, retarget, KeypointOptions, RetargetOptions};
use vmdkit::skeleton::Skeleton;

/// 10 minutes at 30 fps.
const FRAMES: usize = 18_000;
const MODEL: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const DANCE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const VIDEO_FACE: &str = "handface/google-ai-edge__mediapipe-samples__examples__gesture_recognizer__android__app__src__androidTest__assets__test_video.mp4.face.json";
/// The body's points in the `holistic` layout; the hands follow, then the face.
const BODY: usize = 33;
const HANDS: usize = 42;
const FACE: usize = 468;

/// A fixed-seed 64-bit LCG's next value in [-1, 1).
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f32 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    fn vec(&mut self, amplitude: f32) -> Vec3 {
        amplitude * Vec3::new(self.next(), self.next(), self.next())
    }
}

/// The video's face meshes, 468 points each, in metres, Y up, centred on the nose tip (point
/// 1), scaled so the face (points 234 to 454) is 15 cm wide. Frames without a face are skipped.
fn video_faces() -> Option<Vec<Vec<Vec3>>> {
    let path = test_corpus::pose_file_or_skip("bench: holistic", VIDEO_FACE)?;
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read face JSON")).unwrap();
    let (w, h) = (doc["width"].as_f64().unwrap() as f32, doc["height"].as_f64().unwrap() as f32);
    let mut faces = Vec::new();
    for frame in doc["frames"].as_array().unwrap() {
        let Some(points) = frame.as_array().and_then(|f| f.first()) else { continue };
        let points = points["landmarks"].as_array().unwrap();
        // MediaPipe's image axes (x right, y down, z away, all on the width's scale) to Y up,
        // right-handed: y and z negated.
        let px: Vec<Vec3> = (points.iter().take(FACE))
            .map(|p| {
                let c = |i: usize| p[i].as_f64().unwrap() as f32;
                Vec3::new(c(0) * w, -c(1) * h, -c(2) * w)
            })
            .collect();
        let scale = 0.15 / px[234].distance(px[454]);
        faces.push(px.iter().map(|p| (*p - px[1]) * scale).collect());
    }
    Some(faces)
}

/// The clip: see the module documentation.
fn holistic_clip(skeleton: &Skeleton, layout: &JointLayout) -> Option<Keypoints> {
    let manifest = test_corpus::corpus_or_skip("bench: holistic")?;
    let dance = manifest.entries.iter().find(|e| e.local_path == DANCE).expect("dance");
    let motion = vmdkit::Motion::read_file(&dance.path).expect("read dance");
    let options = KeypointOptions { fps: 30.0, units: Units::Metres, ..KeypointOptions::default() };
    let once = keypoints_from_motion(&motion, skeleton, layout, &options).expect("keypoints");
    assert_eq!(once.joint_count, BODY + HANDS + FACE);
    let faces = video_faces()?;
    let joints = once.joint_count;
    let mut kp = Keypoints::missing(FRAMES, joints);
    kp.fps = Some(30.0);
    kp.units = Some(Units::Metres);
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
    for f in 0..FRAMES {
        let source = &once.positions[(f % once.frame_count) * joints..][..joints];
        let out = &mut kp.positions[f * joints..][..joints];
        out[..BODY + HANDS].copy_from_slice(&source[..BODY + HANDS]);
        for (j, p) in out.iter_mut().enumerate().take(BODY + HANDS) {
            *p += noise.vec(if j < BODY { 0.01 } else { 0.001 });
        }
        let nose = source[0];
        for (p, q) in out[BODY + HANDS..].iter_mut().zip(&faces[f % faces.len()]) {
            *p = nose + *q + noise.vec(0.001);
        }
    }
    kp.names = Some(layout.joints.iter().map(|j| j.name.clone()).collect());
    Some(kp)
}

/// The clip's body points alone, in the `blazepose33` layout.
fn body_only(kp: &Keypoints) -> Keypoints {
    let mut body = Keypoints::missing(kp.frame_count, BODY);
    body.fps = kp.fps;
    body.units = kp.units;
    body.positions =
        (kp.positions.chunks(kp.joint_count)).flat_map(|f| f[..BODY].to_vec()).collect();
    body
}

fn holistic(c: &mut Criterion) {
    let Some(model_path) = test_corpus::corpus_or_skip("bench: holistic")
        .map(|m| m.entries.iter().find(|e| e.local_path == MODEL).expect("model").path.clone())
    else {
        return;
    };
    let model = vmdkit::model::Model::read_file(&model_path).expect("read model");
    let skeleton = Skeleton::new(&model);
    let layout = JointLayout::builtin("holistic").unwrap();
    let Some(kp) = holistic_clip(&skeleton, &layout) else { return };
    let body = body_only(&kp);
    let body_layout = JointLayout::builtin("blazepose33").unwrap();
    let mut options =
        RetargetOptions { fps: 30.0, units: Some(Units::Metres), ..Default::default() };
    options.face.model_morphs = Some(vmdkit::retarget::face::model_morphs(&model));
    let runs = [("default", &kp, &layout), ("body_only", &body, &body_layout)];
    for (label, kp, layout) in runs {
        let out = retarget(kp, layout, &skeleton, &options).unwrap();
        let r = &out.report;
        eprintln!(
            "{label}: {} frames, {} of {} keys ({} bone, {} morph), mean residual {:.4}",
            r.frames,
            r.keys,
            r.dense_keys,
            out.motion.bones.len(),
            out.motion.morphs.len(),
            r.mean_residual,
        );
    }

    let mut group = c.benchmark_group("holistic_10min");
    group.throughput(Throughput::Elements(FRAMES as u64));
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(20));
    for (label, kp, layout) in runs {
        group.bench_function(label, |b| {
            b.iter(|| {
                let out = retarget(black_box(kp), layout, &skeleton, &options).unwrap();
                black_box(out.report.keys)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, holistic);
criterion_main!(benches);
