//! The problem one fit solves: the pose being solved ([`State`]), what its terms ask of points
//! ([`Term`], [`Goal`]), the priors that hold what the terms leave free ([`Prior`]), and the
//! weighted squared residual they add up to.

use super::dense::outer;
use super::MAX_BONES;
use crate::math::rotation_vector;
use crate::retarget::rig::{Anchor, KeyedRig};
use glam::{DMat3, DQuat, DVec3};

/// The pose being solved: root translation, every rig bone's world rotation, and the pivots
/// (bone heads) they place.
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub translation: DVec3,
    pub world: Vec<DQuat>,
    pub pivot: Vec<DVec3>,
}

impl State {
    pub fn rest(rig: &KeyedRig) -> State {
        State {
            translation: DVec3::ZERO,
            world: vec![DQuat::IDENTITY; rig.bones.len()],
            pivot: rig.bones.iter().map(|b| b.rest).collect(),
        }
    }

    /// Pivots from the translation and the world rotations, parents first.
    pub fn place(&mut self, rig: &KeyedRig) {
        self.place_only(rig, u64::MAX);
    }

    /// Pivots of the bones in the bit set `bones` (which holds the parent of each of them
    /// whose pivot has to change too), the others' left as they are.
    pub(super) fn place_only(&mut self, rig: &KeyedRig, bones: u64) {
        for (i, b) in rig.bones.iter().enumerate() {
            if bones & (1 << i) == 0 {
                continue;
            }
            self.pivot[i] = match b.parent {
                Some(p) => self.pivot[p] + self.world[p] * (b.rest - rig.bones[p].rest),
                None => b.rest + self.translation,
            };
        }
    }

    /// Where an anchor is in this pose (pivots must be placed).
    pub fn point(&self, rig: &KeyedRig, a: Anchor) -> DVec3 {
        self.pivot[a.bone] + self.world[a.bone] * (a.rest - rig.bones[a.bone].rest)
    }
}

/// What a term asks of a point.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Goal {
    /// Be at the target.
    At,
    /// Be at this distance from the target (a child bone's head whose own rotation will point
    /// it at the target, so only the distance is the group's business).
    Reach(f64),
    /// Lie from `from` in the direction `target` (a unit vector), at whatever distance the
    /// skeleton has: a segment's direction, free of the input's lengths. The residual is the
    /// difference of unit vectors times `length`, so it weighs like a position error there.
    Along { from: Anchor, length: f64 },
    /// As `Along`, from the model's shoulders' midpoint once each 肩 points at its shoulder
    /// point ([`Shoulders`]) rather than from a point rigid with one bone.
    AlongFromShoulders { from: Shoulders, length: f64 },
}

/// The model's shoulders' midpoint where the clavicles will put it: each 腕 head lies from its
/// 肩 head (`pivots`, rigid with the chest) toward the input's shoulder point (`aims`) at the
/// 肩's length (`reach`), as the solver then points each 肩. Fitting the trunk through it, not
/// through the 腕 heads at the clavicles' last turn, leaves nothing to iterate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Shoulders {
    pub pivots: [Anchor; 2],
    pub aims: [DVec3; 2],
    pub reach: [f64; 2],
}

impl Shoulders {
    /// The midpoint in this pose (pivots must be placed).
    pub fn point(&self, rig: &KeyedRig, state: &State) -> DVec3 {
        (0..2).map(|s| self.shoulder(rig, state, s).0).sum::<DVec3>() / 2.0
    }

    /// Side `s`'s 腕 head and its derivative by its 肩 head's position.
    pub(super) fn shoulder(&self, rig: &KeyedRig, state: &State, s: usize) -> (DVec3, DMat3) {
        let p = state.point(rig, self.pivots[s]);
        let v = self.aims[s] - p;
        let len = v.length().max(1e-12);
        let u = v / len;
        // d(p + L·v/|v|)/dp = I − L·(I − u uᵀ)/|v|.
        let d = DMat3::IDENTITY - (DMat3::IDENTITY - outer(u, u)) * (self.reach[s] / len);
        (p + u * self.reach[s], d)
    }
}

/// One weighted observation of a group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Term {
    pub anchor: Anchor,
    pub target: DVec3,
    pub weight: f64,
    pub goal: Goal,
}

/// A group bone's prior: the rotation it is pulled toward and how hard (units per radian).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prior {
    pub toward: DQuat,
    pub weight: f64,
    /// Whether `toward` is a reference of its own (the points' own fit that a fit through the
    /// shoulders' midpoint corrects) rather than the previous
    /// frame's pose. Such a prior keeps its weight in the second pass, so that degrees of
    /// freedom the points leave free settle on it there. Weakened like the others, it would let
    /// them stop wherever the first pass's pull toward the previous frame left them, and on
    /// identical frames each frame would then move them a little further toward it.
    pub held: bool,
}

impl Prior {
    /// A prior toward the previous frame's rotation.
    pub fn previous(toward: DQuat, weight: f64) -> Prior {
        Prior { toward, weight, held: false }
    }
}

/// A term's residual: a vector for `At` and `Along`, a scalar (in `.1`) for `Reach`.
#[cfg(test)]
pub(crate) fn residual(state: &State, rig: &KeyedRig, t: &Term) -> (DVec3, f64) {
    let midpoint = match t.goal {
        Goal::AlongFromShoulders { from, .. } => from.point(rig, state),
        _ => DVec3::ZERO,
    };
    residual_with(state, rig, t, midpoint)
}

/// [`residual`], given the shoulders' midpoint when the term is measured from it.
fn residual_with(state: &State, rig: &KeyedRig, t: &Term, midpoint: DVec3) -> (DVec3, f64) {
    let x = state.point(rig, t.anchor);
    match t.goal {
        Goal::At => (x - t.target, 0.0),
        Goal::Reach(length) => {
            let d = x - t.target;
            (d, d.length() - length)
        }
        Goal::Along { from, length } => {
            (along_residual(x - state.point(rig, from), t.target, length), 0.0)
        }
        Goal::AlongFromShoulders { length, .. } => {
            (along_residual(x - midpoint, t.target, length), 0.0)
        }
    }
}

/// A direction term's residual for the segment `v` it measures.
pub(super) fn along_residual(v: DVec3, target: DVec3, length: f64) -> DVec3 {
    (v.normalize_or_zero() - target) * length
}

pub(super) fn terms_cost(rig: &KeyedRig, state: &State, terms: &[Term]) -> f64 {
    // The shoulders' midpoint, made once for all the terms measured from it.
    let mut midpoint: Option<(Shoulders, DVec3)> = None;
    terms
        .iter()
        .map(|t| {
            let mid = match t.goal {
                Goal::AlongFromShoulders { from, .. } => match midpoint {
                    Some((s, p)) if s == from => p,
                    _ => midpoint.insert((from, from.point(rig, state))).1,
                },
                _ => DVec3::ZERO,
            };
            let (d, r) = residual_with(state, rig, t, mid);
            let e = match t.goal {
                Goal::At | Goal::Along { .. } | Goal::AlongFromShoulders { .. } => {
                    d.length_squared()
                }
                Goal::Reach(_) => r * r,
            };
            t.weight * t.weight * e
        })
        .sum()
}

/// The weighted squared residual of the terms and priors; each group bone's prior error (the
/// rotation vector from its prior's rotation) goes to `errors`.
pub(super) fn cost_of(
    rig: &KeyedRig,
    state: &State,
    group: &[usize],
    terms: &[Term],
    prior: &[(DQuat, f64)],
    errors: &mut [DVec3; MAX_BONES],
) -> f64 {
    let priors: f64 = (group.iter().zip(prior).zip(errors.iter_mut()))
        .map(|((&b, &(q, w)), e)| {
            *e = rotation_vector(state.world[b] * q.inverse());
            w * w * e.length_squared()
        })
        .sum();
    terms_cost(rig, state, terms) + priors
}
