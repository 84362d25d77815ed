//! The solver the pose bakes share: keys whose forward pose reproduces target poses.
//!
//! [`bake_ik`](super::bake_ik) and [`bake_physics`](super::bake_physics) both play a motion with
//! something the output will not have (IK, a physics world) and write, for the bones that
//! something moves, keys that give the same pose without it. They differ only in how the target
//! pose of a frame is made; this file holds everything else: which name a baked bone's keys get,
//! the rounds that solve the keys, and the difference measured.
//!
//! **How.** Per output frame the target pose is made; then the baked bones' keys are solved so
//! that the forward pose of the new keys gives each of them the local transform (in its parent's
//! frame) of the target: rotation key ← M⁻¹·L·L′⁻¹·M · key, where L is the target local
//! rotation, L′ the one the current keys give and M the bone morphs' rotation; translation key ←
//! key + (target − current offset). One round is exact unless an append source was itself
//! corrected; rounds repeat, at most [`MAX_ROUNDS`], until every bone is within 1e-5 units of
//! its target. The largest difference left, over all bones, is given per frame: it is measured
//! on the keys as written.

use crate::curve::Curve;
use crate::eval::{property_key, BoneSample, MotionSampler};
use crate::format::{BoneInterpolation, BoneKey, IkState, Motion, PropertyKey, Section};
use crate::limit::{DenseOutput, DenseSize};
use crate::math::quat_angle;
use crate::skeleton::{Binding, Pose, PoseEvaluator, PoseInput, Skeleton};
use crate::text::{KeyName, LongName};
use glam::{Quat, Vec3};

/// Solving rounds per frame at most (see the module documentation).
pub const MAX_ROUNDS: usize = 4;
/// Model units: a frame whose bones are all this close to their targets is done.
const CONVERGED: f32 = 1e-5;

/// The first and last frame of the tracks that move a skeleton: bones, morphs and IK switches.
pub(super) fn pose_span(sampler: &MotionSampler) -> (u32, u32) {
    let frames = (sampler.bone_tracks().iter().map(|t| t.frames()))
        .chain(sampler.morph_tracks().iter().map(|t| t.frames()))
        .chain(sampler.ik_tracks().iter().map(|t| t.track().frames()));
    frames.fold((u32::MAX, 0), |(lo, hi), f| (lo.min(f[0]), hi.max(f[f.len() - 1])))
}

/// The size of a pose bake: `count` dense bone keys over `frames` output frames from `first` to
/// `last` at `fps`, written beside `base_bytes` of other records.
pub(super) fn keys_size(
    (first, last): (u32, u32),
    fps: f64,
    frames: u64,
    count: u64,
    base_bytes: u64,
) -> DenseSize {
    let record = Section::Bone.record_size().unwrap_or(0) as u64;
    DenseSize {
        output: DenseOutput::Keys,
        first,
        last,
        fps,
        frames,
        count,
        bytes: count.saturating_mul(record).saturating_add(base_bytes),
    }
}

/// The bytes of `motion`'s VMD records, every section.
pub(super) fn records_bytes(motion: &Motion) -> u64 {
    Section::ALL.iter().fold(0u64, |sum, &s| {
        sum.saturating_add((motion.count(s) * s.record_size().unwrap_or(0)) as u64)
    })
}

/// The name bone `b`'s keys get: its track's, or the model's name cut to a key; `None` when
/// that name drives an earlier bone.
pub(super) fn track_name(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    binding: &Binding,
    b: usize,
) -> Option<KeyName> {
    if let Some(&(track, _)) = binding.bones.iter().find(|&&(_, bone)| bone as usize == b) {
        return Some(*sampler.bone_tracks()[track as usize].name());
    }
    let name = *skeleton.bone_key_name(b);
    let first =
        (0..skeleton.bone_count()).find(|&i| skeleton.bone_key_name(i).bytes() == name.bytes());
    (first == Some(b)).then_some(name)
}

/// Splits `bones` into those with a key name (with it) and those no key can address.
pub(super) fn named_tracks(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    binding: &Binding,
    bones: &[usize],
) -> (Vec<(usize, KeyName)>, Vec<usize>) {
    let (mut tracks, mut unkeyable) = (Vec::new(), Vec::new());
    for &b in bones {
        match track_name(skeleton, sampler, binding, b) {
            Some(name) => tracks.push((b, name)),
            None => unkeyable.push(b),
        }
    }
    (tracks, unkeyable)
}

/// The baked bones' keys at every output frame `lo..=hi`, grouped by bone.
///
/// `target(k, pose, input)` makes output frame `k`'s target pose and sets `input` to the keys it
/// was played from (where the solving starts); `fk` plays the new keys. `done(frames done,
/// (position error, rotation error in degrees))` after each frame.
pub(super) fn solve_frames(
    skeleton: &Skeleton,
    fk: &PoseEvaluator,
    (lo, hi): (u32, u32),
    tracks: &[(usize, KeyName)],
    mut target_of: impl FnMut(u32, &mut Pose, &mut PoseInput),
    mut done: impl FnMut(u64, (f32, f64)),
) -> Vec<BoneKey> {
    // Nothing to solve: no frame needs posing (and a far frame number would make that long).
    if tracks.is_empty() {
        return Vec::new();
    }
    let frames = (hi - lo) as usize + 1;
    let mut per_bone: Vec<Vec<BoneKey>> =
        tracks.iter().map(|_| Vec::with_capacity(frames)).collect();
    let (mut target, mut pose) = (Pose::new(skeleton), Pose::new(skeleton));
    let mut input = PoseInput::new(skeleton);
    for (i, k) in (lo..=hi).enumerate() {
        target_of(k, &mut target, &mut input);
        let mut errors = (f32::INFINITY, f64::INFINITY);
        for round in 0..MAX_ROUNDS {
            fk.evaluate(&input, &mut pose);
            errors = difference(&pose, &target);
            if errors.0 <= CONVERGED || round + 1 == MAX_ROUNDS {
                break;
            }
            for &(b, _) in tracks {
                correct(skeleton, &pose, &target, b, &mut input.bones[b]);
            }
        }
        for ((b, name), keys) in tracks.iter().zip(&mut per_bone) {
            let s = &input.bones[*b];
            // The short way from the previous key, so that playback between frames does not spin.
            let rotation = match keys.last() {
                Some(prev) if prev.rotation.dot(s.rotation) < 0.0 => -s.rotation,
                _ => s.rotation,
            };
            keys.push(BoneKey {
                name: *name,
                frame: k,
                translation: s.translation,
                rotation,
                interpolation: BoneInterpolation::canonical([Curve::LINEAR; 4], s.physics),
            });
        }
        done(i as u64 + 1, errors);
    }
    per_bone.into_iter().flatten().collect()
}

/// Bone `b`'s local rotation and offset from rest in `pose`, from its and its parent's
/// model-space transforms (what the pose shows, whatever the order of evaluation was).
fn local(skeleton: &Skeleton, pose: &Pose, b: usize) -> (Quat, Vec3) {
    let (rotation, position) = (pose.rotation(b), pose.position(b));
    let rest = skeleton.rest_offset(b);
    match skeleton.parent(b) {
        Some(p) => {
            let inverse = pose.rotation(p).inverse();
            (inverse * rotation, inverse * (position - pose.position(p)) - rest)
        }
        None => (rotation, position - rest),
    }
}

/// Moves bone `b`'s key so that its local transform in the forward pose `pose` becomes the one
/// in `target`.
fn correct(skeleton: &Skeleton, pose: &Pose, target: &Pose, b: usize, key: &mut BoneSample) {
    let (want, want_offset) = local(skeleton, target, b);
    let (have, have_offset) = local(skeleton, pose, b);
    let morph = pose.morph_rotation(b);
    key.rotation = (morph.inverse() * want * have.inverse() * morph * key.rotation).normalize();
    key.translation += want_offset - have_offset;
}

/// The largest position distance and rotation angle (degrees) between two poses' bones.
pub(super) fn difference(a: &Pose, b: &Pose) -> (f32, f64) {
    let position =
        (a.positions().iter().zip(b.positions())).map(|(p, q)| p.distance(*q)).fold(0.0, f32::max);
    let rotation = (a.rotations().iter().zip(b.rotations()))
        .map(|(p, q)| quat_angle(*p, *q).to_degrees())
        .fold(0.0, f64::max);
    (position, rotation)
}

/// Lists the IK chains `chains` of `skeleton` as off in every key of `properties`, adding a key
/// at frame 0 when none is there; gives the number of chains. Other chains keep their states.
pub(super) fn switch_ik_off(
    properties: &mut Vec<PropertyKey>,
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    binding: &Binding,
    chains: &[usize],
) -> usize {
    if chains.is_empty() {
        return 0;
    }
    let names: Vec<LongName> = (chains.iter().copied())
        .map(|k| match binding.iks.iter().find(|&&(_, chain)| chain as usize == k) {
            Some(&(track, _)) => *sampler.ik_tracks()[track as usize].name(),
            None => LongName::encode(skeleton.bone_name(skeleton.ik_bone(k))).0,
        })
        .collect();
    if !properties.iter().any(|p| p.frame == 0) {
        properties.insert(0, property_key(sampler, 0, 0.0));
    }
    for key in properties.iter_mut() {
        for name in &names {
            match key.ik.iter_mut().find(|s| s.name.bytes() == name.bytes()) {
                Some(state) => state.enabled_byte = 0,
                None => key.ik.push(IkState { name: *name, enabled_byte: 0 }),
            }
        }
    }
    names.len()
}
