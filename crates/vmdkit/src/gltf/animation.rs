//! The motion as one animation of the bones' local transforms (and the mesh's morph weights),
//! with the channel and sampler helpers the camera shares.

use super::buffer::{to_bytes, Builder, Usage};
use super::mesh::{target_weights, WrittenMesh};
use super::skeleton::{position, rotation, WrittenSkeleton};
use super::{GltfError, GltfNote, GltfOptions, FPS};
use crate::bake::world_bake_size;
use crate::eval::MotionSampler;
use crate::skeleton::{Binding, Pose, Poser, Skeleton};
use crate::Motion;
use glam::Quat;
use gltf_json as json;
use json::accessor::{ComponentType, Type};
use json::animation::{Channel, Interpolation, Property, Sampler, Target};
use json::scene::UnitQuaternion;
use json::validation::Checked;
use json::{Accessor, Index, Node};

/// The animation's channels and samplers as they are added (bones, morphs, camera).
#[derive(Default)]
pub(super) struct AnimationParts {
    channels: Vec<Channel>,
    samplers: Vec<Sampler>,
}

impl AnimationParts {
    pub fn add(
        &mut self,
        node: Index<Node>,
        path: Property,
        input: Index<Accessor>,
        output: Index<Accessor>,
    ) {
        let sampler = Index::new(self.samplers.len() as u32);
        self.samplers.push(Sampler {
            input,
            interpolation: Checked::Valid(Interpolation::Linear),
            output,
            extensions: None,
            extras: Default::default(),
        });
        self.channels.push(Channel {
            sampler,
            target: Target {
                node,
                path: Checked::Valid(path),
                extensions: None,
                extras: Default::default(),
            },
            extensions: None,
            extras: Default::default(),
        });
    }

    /// Adds the animation, if anything is animated.
    pub fn finish(self, b: &mut Builder) {
        if self.channels.is_empty() {
            return;
        }
        b.root.push(json::Animation {
            name: Some("motion".to_string()),
            channels: self.channels,
            samplers: self.samplers,
            extensions: None,
            extras: Default::default(),
        });
    }
}

/// A time accessor for samples at `frames` (MMD frames, 1/30 s), with its min and max.
pub(super) fn times(b: &mut Builder, frames: &[f64]) -> Index<Accessor> {
    let t: Vec<[f32; 1]> = frames.iter().map(|&f| [(f / crate::math::FPS) as f32]).collect();
    b.floats(&t, Usage::Other, true)
}

/// `q` normalised and turned to the side of `previous`, so that LINEAR (slerp) goes the short
/// way between samples.
pub(super) fn continuous(q: Quat, previous: Option<Quat>) -> Quat {
    let q = if q.is_finite() && q.length_squared() > 0.0 { q.normalize() } else { Quat::IDENTITY };
    match previous {
        Some(p) if p.dot(q) < 0.0 => -q,
        _ => q,
    }
}

/// Samples every bone (and the mesh's morph weights) at every frame into one animation; says
/// which morph tracks move nothing.
pub(super) fn animate(
    b: &mut Builder,
    skeleton: &Skeleton,
    motion: &Motion,
    written: &WrittenSkeleton,
    mesh: Option<&WrittenMesh>,
    options: &GltfOptions,
    parts: &mut AnimationParts,
) -> Result<Option<GltfNote>, GltfError> {
    let sampler = MotionSampler::new(motion);
    let mut size = world_bake_size(skeleton, &sampler, FPS)
        .map_err(|e| GltfError::BadOption(e.to_string()))?;
    let targets = mesh.map_or(0, |m| m.morphs.target_count());
    size.bytes = size.bytes.saturating_add(size.frames.saturating_mul(targets as u64 * 4));
    super::check_frames(size.frames)?;
    let frames = size.within(options.max_output_bytes)?.frames as usize;

    let binding = Binding::new(skeleton, &sampler);
    let bound = mesh.map(|m| m.morphs.bind(&sampler)).unwrap_or_default();
    // Morph tracks neither the skeleton (bone and group morphs) nor the mesh (vertex and
    // group morphs) has: they move nothing in the file.
    let mut note = None;
    if mesh.is_some() {
        let unused: Vec<String> = sampler
            .morph_tracks()
            .iter()
            .zip(&bound)
            .filter(|(track, driven)| {
                driven.is_empty() && binding.report().unbound_morph_tracks.contains(track.name())
            })
            .map(|(track, _)| track.name().to_string_lossy())
            .collect();
        if !unused.is_empty() {
            note = Some(GltfNote::UnboundMorphTracks { names: unused });
        }
    }
    let mut poser = Poser::with_options(skeleton, &sampler, &binding, options.pose);
    let mut pose = Pose::new(skeleton);
    let bones = skeleton.bone_count();
    let scale = options.scale as f32;
    let mut translations = vec![[0f32; 3]; bones * frames];
    let mut rotations = vec![[0f32; 4]; bones * frames];
    let mut weights = vec![0f32; targets * frames];
    let mut morph_input = vec![0f32; sampler.morph_count()];
    let frame_times: Vec<f64> = (0..frames).map(|f| f as f64 * crate::math::FPS / FPS).collect();
    for (f, &t) in frame_times.iter().enumerate() {
        poser.pose_at(t, &mut pose);
        for bone in 0..bones {
            let (p, q) = (pose.position(bone), pose.rotation(bone));
            let (local_p, local_q) = match skeleton.parent(bone) {
                Some(parent) => {
                    let inverse = pose.rotation(parent).inverse();
                    (inverse * (p - pose.position(parent)), inverse * q)
                }
                None => (p, q),
            };
            let at = bone * frames + f;
            translations[at] = position(local_p, scale).to_array();
            let previous = (f > 0).then(|| Quat::from_array(rotations[at - 1]));
            rotations[at] = continuous(rotation(local_q), previous).to_array();
        }
        if targets > 0 {
            sampler.sample_morphs(t, &mut morph_input);
            target_weights(&bound, &morph_input, &mut weights[f * targets..][..targets]);
        }
    }

    let input = times(b, &frame_times);
    let t_view = b.view(&to_bytes(&translations), Usage::Other);
    let r_view = b.view(&to_bytes(&rotations), Usage::Other);
    for bone in 0..bones {
        let node = written.joints[bone];
        let t = b.accessor(
            Some(t_view),
            bone * frames * 12,
            frames,
            ComponentType::F32,
            Type::Vec3,
            None,
        );
        parts.add(node, Property::Translation, input, t);
        let r = b.accessor(
            Some(r_view),
            bone * frames * 16,
            frames,
            ComponentType::F32,
            Type::Vec4,
            None,
        );
        parts.add(node, Property::Rotation, input, r);
    }
    if let Some(mesh) = mesh.filter(|_| targets > 0) {
        let view = b.view(&to_bytes(&weights), Usage::Other);
        let w = b.accessor(Some(view), 0, weights.len(), ComponentType::F32, Type::Scalar, None);
        parts.add(mesh.node, Property::MorphTargetWeights, input, w);
    }
    Ok(note)
}

/// The node rotation of a unit quaternion.
pub(super) fn unit(q: Quat) -> UnitQuaternion {
    UnitQuaternion(q.to_array())
}
