//! Finger bones the source keys and the target lacks, folded into the next bone of their
//! finger: a dance keyed on a model with the semi-standard 親指０ keeps its thumb on a model
//! without it (初音ミク.pmx), 親指１ turning by 親指０'s rotation composed with its own.
//!
//! MMD bones have no rest orientation, so a bone's world rotation is its parent's times its
//! local key: on the source the thumb's 親指１ turns by `W_hand · q0 · q1`, and the target's
//! 親指１, a child of the hand, does the same with the one key `q0 · q1`. That key is then in
//! the source's frame like any other finger key, so copying or re-expressing it
//! (`fingers.rs`: `D_hand · q0 q1 · D_1⁻¹`, the plan's parent of the target's 親指１ being the
//! hand) expresses it in the target's. What the fold loses: 親指１'s head, which 親指０ swings
//! on the source, stays where the target's model puts it (segment directions are kept, not
//! the joint's place), and a translation key of 親指０ (fingers are not moved so).
//!
//! The folded track is keyed on every frame either track keys, each the product of the two
//! tracks as played there, with 親指１'s curves (親指０'s where only it keys). Between keys the
//! player slerps the products, which is not the product of the slerps when both turn at once:
//! where the two part by more than [`FOLD_TOLERANCE_DEGREES`] on some frame, that frame is
//! keyed too (with a linear rotation curve on both sides of it), until none does.

use super::fingers::HandPlan;
use crate::curve::Curve;
use crate::eval::MotionSampler;
use crate::format::{BoneInterpolation, BoneKey, Motion};
use crate::model::Model;
use crate::text::KeyName;
use glam::DQuat;
use std::collections::BTreeMap;

/// The folded track departs from the product of the source's tracks by at most this on any
/// whole frame, degrees.
pub(super) const FOLD_TOLERANCE_DEGREES: f64 = 0.2;

/// Rounds of keying the worst frame of each segment still out of tolerance, at most.
const MAX_ROUNDS: usize = 24;

/// The source motion with its folds made.
pub(super) struct Folded {
    /// The source's keys, those of each bone folded into kept (the report's tracks) and those
    /// of each bone they fold into replaced by the folded track.
    pub motion: Motion,
    /// The names of the bones folded, as keys spell them, with the bone each folds into.
    pub folded: Vec<(KeyName, KeyName)>,
}

/// `source` with every fold of `plans` made for the source keys it holds.
pub(super) fn fold(source: &Motion, model: &Model, plans: &[HandPlan]) -> Folded {
    let mut out = Folded { motion: source.clone(), folded: Vec::new() };
    let folds: Vec<_> = plans.iter().flat_map(|p| &p.folds).collect();
    if folds.is_empty() {
        return out;
    }
    let sampler = MotionSampler::new(source);
    for fold in folds {
        let name = |b: usize| model.bones[b].name_cp932;
        let keyed: Vec<KeyName> = fold
            .folded
            .iter()
            .map(|&b| name(b))
            .filter(|n| sampler.bone_track(n.bytes()).is_some())
            .collect();
        if keyed.is_empty() {
            continue;
        }
        let into = name(fold.into);
        let chain: Vec<KeyName> = keyed.iter().copied().chain([into]).collect();
        let keys = folded_track(source, &sampler, &chain);
        out.motion.bones.retain(|k| k.name.bytes() != into.bytes());
        out.motion.bones.extend(keys);
        out.folded.extend(keyed.iter().map(|&n| (n, into)));
    }
    out
}

/// The product of `chain`'s tracks (parent first, the last the bone folded into) as played,
/// keyed as the module says.
fn folded_track(source: &Motion, sampler: &MotionSampler, chain: &[KeyName]) -> Vec<BoneKey> {
    let tracks: Vec<_> = chain.iter().map(|n| sampler.bone_track(n.bytes())).collect();
    let into = *chain.last().expect("a fold has a bone to fold into");
    let truth = |t: f64| -> (DQuat, glam::Vec3) {
        let mut q = DQuat::IDENTITY;
        for track in tracks.iter().flatten() {
            q *= track.sample(t).rotation.as_dquat();
        }
        let own = tracks.last().copied().flatten();
        (q.normalize(), own.map_or(glam::Vec3::ZERO, |track| track.sample(t).translation))
    };
    // The keys' own curves: the folded-into bone's key of a frame first, else the nearest
    // ancestor's.
    let mut curves: BTreeMap<u32, BoneInterpolation> = BTreeMap::new();
    for name in chain {
        for k in source.bones.iter().filter(|k| k.name.bytes() == name.bytes()) {
            curves.insert(k.frame, k.interpolation);
        }
    }
    let mut keys: BTreeMap<u32, BoneKey> = BTreeMap::new();
    for (&frame, &interpolation) in &curves {
        keys.insert(frame, key_at(into, frame, interpolation, &truth));
    }
    for _ in 0..MAX_ROUNDS {
        let mut motion = Motion::new(source.header.model_name);
        motion.bones = keys.values().copied().collect();
        let played = MotionSampler::new(&motion);
        let Some(track) = played.bone_track(into.bytes()) else { break };
        let frames: Vec<u32> = keys.keys().copied().collect();
        let mut added = false;
        for w in frames.windows(2) {
            let worst = (w[0] + 1..w[1])
                .map(|f| {
                    let (want, _) = truth(f64::from(f));
                    let got = track.sample(f64::from(f)).rotation.as_dquat();
                    (f, want.angle_between(got).to_degrees())
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            let Some((f, _)) = worst.filter(|w| w.1 > FOLD_TOLERANCE_DEGREES) else { continue };
            let linear = |k: &BoneKey| with_linear_rotation(k.interpolation);
            let at = key_at(into, f, linear(&keys[&w[1]]), &truth);
            keys.insert(f, at);
            let next = keys.get_mut(&w[1]).expect("a key of the segment");
            next.interpolation = with_linear_rotation(next.interpolation);
            added = true;
        }
        if !added {
            break;
        }
    }
    keys.into_values().collect()
}

/// The folded key at `frame`.
fn key_at(
    name: KeyName,
    frame: u32,
    interpolation: BoneInterpolation,
    truth: &impl Fn(f64) -> (DQuat, glam::Vec3),
) -> BoneKey {
    let (rotation, translation) = truth(f64::from(frame));
    let mut key = BoneKey::new(name, frame);
    key.rotation = rotation.as_quat();
    key.translation = translation;
    key.interpolation = interpolation;
    key
}

/// `block` with its rotation curve made linear, its translation curves and physics kept.
fn with_linear_rotation(block: BoneInterpolation) -> BoneInterpolation {
    let [x, y, z, _] = block.curves();
    BoneInterpolation::canonical([x, y, z, Curve::LINEAR], block.physics())
}
