//! MMD's camera as a glTF camera node: its eye and orientation at every frame, and on both
//! sides of each cut so that LINEAR interpolation does not blend across it.
//!
//! MMD's camera looks along C·(0, 0, 1) with C·(0, 1, 0) up in left-handed axes
//! ([`CameraSample::view`]); a glTF camera looks down its local −Z with +Y up. The node's
//! rotation is the right-handed frame with those axes after Z is mirrored.

use super::animation::{continuous, unit, AnimationParts};
use super::buffer::{Builder, Usage};
use super::skeleton::position;
use super::{check_frames, GltfError, GltfNote};
use crate::eval::{CameraSample, MotionSampler};
use crate::Motion;
use glam::{Mat3, Quat, Vec3};
use gltf_json as json;
use json::animation::Property;
use json::camera::{Perspective, Type};
use json::validation::Checked;
use json::{Index, Node};

/// A frame's time in seconds, as the animation stores it.
fn seconds(frame: f64) -> f32 {
    (frame / crate::math::FPS) as f32
}

/// The node's translation and rotation for a camera sample.
fn node_transform(sample: &CameraSample, scale: f32) -> (Vec3, Quat) {
    let view = sample.view();
    let forward = position(view.forward, 1.0);
    let up = position(view.up, 1.0);
    let back = -forward;
    let right = up.cross(back);
    let rotation = Quat::from_mat3(&Mat3::from_cols(right, up, back));
    (position(view.eye, scale), rotation)
}

/// Adds the camera node (returned, for the scene) and its channels.
pub(super) fn write(
    b: &mut Builder,
    motion: &Motion,
    scale: f32,
    parts: &mut AnimationParts,
    notes: &mut Vec<GltfNote>,
    max_output_bytes: u64,
) -> Result<Index<Node>, GltfError> {
    let sampler = MotionSampler::new(motion);
    let track = sampler.camera_track();
    if let Some(track) = track {
        let frames = u64::from(track.frames().last().copied().unwrap_or(0)) + 1;
        check_frames(frames)?;
        // Time, translation and rotation: 8 floats a sample (cuts add fewer than that).
        let bytes = frames.saturating_mul(2 * 8 * 4);
        if bytes > max_output_bytes {
            return Err(GltfError::CameraTooLarge { frames, bytes, limit: max_output_bytes });
        }
    }
    // (time in seconds, frame sampled): every frame, and each cut's earlier key again at the
    // last time before the later key's (the next f32 down), so that LINEAR interpolation keeps
    // the step a step at any length of motion.
    let mut times: Vec<(f32, f64)> = Vec::new();
    if let Some(track) = track {
        let keys = track.frames();
        let last = keys.last().copied().unwrap_or(0);
        times.extend((0..=last).map(|f| (seconds(f64::from(f)), f64::from(f))));
        times.extend(
            (0..keys.len())
                .filter(|&i| track.is_cut(i))
                .map(|i| (seconds(f64::from(keys[i + 1])).next_down(), f64::from(keys[i]))),
        );
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let samples: Vec<CameraSample> = match track {
        Some(_) => {
            times.iter().map(|&(_, f)| sampler.sample_camera(f).expect("has a track")).collect()
        }
        None => vec![CameraSample::MMD_DEFAULT],
    };
    let first = samples[0];
    let (lo, hi) = samples
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| (lo.min(s.fov), hi.max(s.fov)));
    if hi > lo {
        notes.push(GltfNote::FixedFieldOfView { degrees: first.fov, keyed: (lo, hi) });
    }
    if samples.iter().any(|s| !s.perspective) {
        notes.push(GltfNote::OrthographicCamera);
    }
    let fov = if first.fov.is_finite() { first.fov.clamp(1.0, 179.0) } else { 30.0 };
    let camera = b.root.push(json::Camera {
        name: Some("MMD camera".to_string()),
        orthographic: None,
        perspective: Some(Perspective {
            aspect_ratio: None,
            yfov: fov.to_radians(),
            zfar: None,
            znear: 0.01,
            extensions: None,
            extras: Default::default(),
        }),
        type_: Checked::Valid(Type::Perspective),
        extensions: None,
        extras: Default::default(),
    });
    let (t0, r0) = node_transform(&first, scale);
    let node = b.root.push(Node {
        name: Some("camera".to_string()),
        camera: Some(camera),
        translation: Some(t0.to_array()),
        rotation: Some(unit(continuous(r0, None))),
        ..Node::default()
    });
    if times.len() > 1 {
        let mut translations = Vec::with_capacity(samples.len());
        let mut rotations: Vec<[f32; 4]> = Vec::with_capacity(samples.len());
        for s in &samples {
            let (t, r) = node_transform(s, scale);
            translations.push(t.to_array());
            let previous = rotations.last().map(|&q| Quat::from_array(q));
            rotations.push(continuous(r, previous).to_array());
        }
        let seconds: Vec<[f32; 1]> = times.iter().map(|&(t, _)| [t]).collect();
        let input = b.floats(&seconds, Usage::Other, true);
        let t = b.floats(&translations, Usage::Other, false);
        parts.add(node, Property::Translation, input, t);
        let r = b.floats(&rotations, Usage::Other, false);
        parts.add(node, Property::Rotation, input, r);
    }
    Ok(node)
}
