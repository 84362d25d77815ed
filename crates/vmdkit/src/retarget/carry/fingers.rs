//! Fingers carried from one model to another: local rotations copied where both models'
//! finger bones rest along the same directions, else re-expressed so that each finger segment
//! keeps its direction relative to the hand.
//!
//! MMD keys a bone's local rotation in model axes, so the same key turns a finger that rests
//! along another direction (a T-pose hand against an A-pose one, fingers spread otherwise) to
//! another place. Each finger bone gets a rest frame on each model — x along the bone (head to
//! the next joint), z toward the palm's normal — and `D = A_target · A_source⁻¹` turns one into
//! the other. A key `q` of bone k, whose parent on the source is p (the previous finger bone,
//! or the hand), becomes `D_p · q · D_k⁻¹`: then, relative to the hand's frame, every segment
//! points where the source's does, whatever the rest directions. Multiplying by fixed
//! rotations on either side maps the shortest arc between two keys onto the shortest arc
//! between their images, so the keys' curves stay exact.

use super::report::FINGER_AXES_TOLERANCE_DEGREES;
use crate::format::BoneKey;
use crate::model::{Model, Tail};
use glam::{DMat3, DQuat, DVec3, Vec3};

/// The finger bones of one hand, by stem, base to end, five fingers.
pub(super) const FINGERS: [&[&str]; 5] = [
    &["親指０", "親指１", "親指２"],
    &["人指１", "人指２", "人指３"],
    &["中指１", "中指２", "中指３"],
    &["薬指１", "薬指２", "薬指３"],
    &["小指１", "小指２", "小指３"],
];

/// `左`, `右`.
pub(super) const SIDES: [&str; 2] = ["左", "右"];

/// Where a finger segment ends on one model.
#[derive(Clone, Copy, Debug)]
pub(super) enum End {
    /// Another bone's head.
    Bone(usize),
    /// A point fixed in the bone's frame, as an offset from its head at rest.
    Offset(Vec3),
}

/// One finger bone both models have.
#[derive(Clone, Debug)]
pub(super) struct FingerBone {
    /// Bone indices on the source and the target.
    pub source: usize,
    pub target: usize,
    /// Where its segment ends on each model, when it can be told.
    pub ends: (Option<End>, Option<End>),
    /// `D` of the bone's parent on the source (the previous finger bone, or the hand).
    pub d_parent: DQuat,
    /// `D` of the bone itself.
    pub d: DQuat,
}

/// One hand's plan.
#[derive(Clone, Debug)]
pub(super) struct HandPlan {
    /// 0 left, 1 right.
    pub side: usize,
    /// 手首 on the source and the target, and where the hand's segment ends (中指１) on each.
    pub hand: (usize, usize),
    pub hand_end: (usize, usize),
    pub bones: Vec<FingerBone>,
    /// Finger bones of the source the target lacks, folded into the next bone of their finger.
    pub folds: Vec<Fold>,
    /// Largest rest disagreement, degrees.
    pub disagreement: f64,
}

/// Source finger bones the target lacks (親指０ on a model without it) that sit between the
/// hand (or a finger bone both have) and a finger bone both have: their rotations are folded
/// into that bone's (`fold.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Fold {
    /// The source's bones folded, parent first; each the parent of the next.
    pub folded: Vec<usize>,
    /// The source's bone they fold into, the last folded bone's child; the target has it.
    pub into: usize,
}

impl HandPlan {
    /// Whether the rest directions agree within the tolerance.
    pub fn agree(&self) -> bool {
        self.disagreement <= FINGER_AXES_TOLERANCE_DEGREES
    }

    /// The plan's bone of this target index.
    pub fn bone(&self, target: usize) -> Option<&FingerBone> {
        self.bones.iter().find(|b| b.target == target)
    }
}

/// A model's bones of one hand: 手首 and each finger's chain (the bones it has).
struct Hand {
    wrist: usize,
    chains: Vec<Vec<(usize, &'static str)>>,
    /// The palm's normal at rest, the reference of every rest frame's z.
    normal: DVec3,
}

fn hand(model: &Model, side: usize) -> Option<Hand> {
    let find =
        |stem: &str| model.bones.iter().position(|b| b.name == format!("{}{stem}", SIDES[side]));
    let wrist = find("手首")?;
    let chains: Vec<Vec<(usize, &'static str)>> = FINGERS
        .iter()
        .map(|f| f.iter().filter_map(|&stem| Some((find(stem)?, stem))).collect())
        .collect();
    let head = |b: usize| model.bones[b].position.as_dvec3();
    let base = |f: usize| chains[f].iter().find(|(_, s)| s.ends_with('１')).map(|&(b, _)| head(b));
    let middle = base(2).or(base(1))?;
    let across = base(1).zip(base(4).or(base(3))).map(|(i, p)| i - p);
    let normal = across.map_or(DVec3::Y, |a| a.cross(middle - head(wrist)));
    let normal = if normal.length_squared() > 1e-12 { normal.normalize() } else { DVec3::Y };
    Some(Hand { wrist, chains, normal })
}

/// Where bone `chain[i]`'s segment ends: the next bone of the chain, else its tail, else a
/// child.
fn end_of(model: &Model, chain: &[(usize, &str)], i: usize) -> Option<End> {
    if let Some(&(next, _)) = chain.get(i + 1) {
        return Some(End::Bone(next));
    }
    let b = chain[i].0;
    match model.bones[b].tail {
        Tail::Bone(Some(t)) if t < model.bones.len() && t != b => return Some(End::Bone(t)),
        Tail::Offset(v) if v.length_squared() > 1e-12 => return Some(End::Offset(v)),
        _ => {}
    }
    model.bones.iter().position(|c| c.parent == Some(b)).map(End::Bone)
}

/// The rest direction of `bone`'s segment.
fn rest_direction(model: &Model, bone: usize, end: Option<End>) -> Option<DVec3> {
    let head = model.bones[bone].position;
    let v = match end? {
        End::Bone(e) => model.bones[e].position - head,
        End::Offset(v) => v,
    };
    (v.length_squared() > 1e-12).then(|| v.as_dvec3().normalize())
}

/// The frame with x along `x` and z toward `reference`.
fn frame(x: DVec3, reference: DVec3) -> DQuat {
    let z = reference - x * reference.dot(x);
    let z = if z.length_squared() > 1e-12 { z.normalize() } else { x.any_orthonormal_vector() };
    DQuat::from_mat3(&DMat3::from_cols(x, z.cross(x), z)).normalize()
}

/// The angle between two unit vectors, degrees.
fn angle(a: DVec3, b: DVec3) -> f64 {
    a.dot(b).clamp(-1.0, 1.0).acos().to_degrees()
}

/// The plan for each hand both models have.
pub(super) fn plan(source: &Model, target: &Model) -> Vec<HandPlan> {
    (0..2).filter_map(|side| plan_hand(source, target, side)).collect()
}

fn plan_hand(source: &Model, target: &Model, side: usize) -> Option<HandPlan> {
    let (s, t) = (hand(source, side)?, hand(target, side)?);
    let hand_end = |h: &Hand| h.chains[2].first().or(h.chains[1].first()).map(|c| c.0);
    let (se, te) = (hand_end(&s)?, hand_end(&t)?);
    let hand_frame = |m: &Model, h: &Hand, e: usize| {
        let x = (m.bones[e].position - m.bones[h.wrist].position).as_dvec3();
        frame(x.normalize_or(DVec3::X), h.normal)
    };
    let d_hand = hand_frame(target, &t, te) * hand_frame(source, &s, se).inverse();
    let mut disagreement = angle(
        (source.bones[se].position - source.bones[s.wrist].position)
            .as_dvec3()
            .normalize_or(DVec3::X),
        (target.bones[te].position - target.bones[t.wrist].position)
            .as_dvec3()
            .normalize_or(DVec3::X),
    );
    let (mut bones, mut folds) = (Vec::new(), Vec::new());
    for (sc, tc) in s.chains.iter().zip(&t.chains) {
        let mut d_parent = d_hand;
        // Source bones of this finger missing on the target since the last one both have.
        let mut missing: Vec<usize> = Vec::new();
        for (i, &(sb, stem)) in sc.iter().enumerate() {
            let Some(j) = tc.iter().position(|&(_, ts)| ts == stem) else {
                missing.push(sb);
                continue;
            };
            let tb = tc[j].0;
            // Folding composes local rotations, which is right only along a parent chain.
            let chained = missing.windows(2).all(|w| source.bones[w[1]].parent == Some(w[0]))
                && missing.last().is_some_and(|&m| source.bones[sb].parent == Some(m));
            if chained {
                folds.push(Fold { folded: std::mem::take(&mut missing), into: sb });
            }
            missing.clear();
            let ends = (end_of(source, sc, i), end_of(target, tc, j));
            let dirs = (rest_direction(source, sb, ends.0), rest_direction(target, tb, ends.1));
            let d = match dirs {
                (Some(a), Some(b)) => {
                    disagreement = disagreement.max(angle(a, b));
                    frame(b, t.normal) * frame(a, s.normal).inverse()
                }
                _ => d_parent,
            };
            if let (Some((sx, sz)), Some((tx, tz))) =
                (source.bones[sb].local_axes, target.bones[tb].local_axes)
            {
                let unit = |v: Vec3| v.as_dvec3().normalize_or(DVec3::X);
                disagreement =
                    disagreement.max(angle(unit(sx), unit(tx))).max(angle(unit(sz), unit(tz)));
            }
            bones.push(FingerBone { source: sb, target: tb, ends, d_parent, d: d.normalize() });
            d_parent = d;
        }
    }
    Some(HandPlan {
        side,
        hand: (s.wrist, t.wrist),
        hand_end: (se, te),
        bones,
        folds,
        disagreement,
    })
}

/// `key` re-expressed for the target: rotation `D_p · q · D_k⁻¹`, translation turned by `D_p`
/// and scaled by `size`.
pub(super) fn reexpress(bone: &FingerBone, key: &BoneKey, size: f64) -> BoneKey {
    let mut out = *key;
    let q = key.rotation.as_dquat();
    out.rotation = (bone.d_parent * q * bone.d.inverse()).as_quat();
    out.translation = (bone.d_parent * key.translation.as_dvec3() * size).as_vec3();
    out
}

/// The world direction of a segment from `bone`'s head to `end` in a posed skeleton.
pub(super) fn posed_direction(pose: &crate::skeleton::Pose, bone: usize, end: End) -> DVec3 {
    let head = pose.position(bone);
    let tip = match end {
        End::Bone(e) => pose.position(e),
        End::Offset(v) => head + pose.rotation(bone) * v,
    };
    (tip - head).as_dvec3().normalize_or(DVec3::ZERO)
}

/// The angle between two directions, degrees; `None` when either is degenerate.
pub(super) fn direction_error(a: DVec3, b: DVec3) -> Option<f64> {
    (a != DVec3::ZERO && b != DVec3::ZERO).then(|| angle(a, b))
}
