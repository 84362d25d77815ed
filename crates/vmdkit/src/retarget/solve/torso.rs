//! The trunk, and the neck and head: the fits of steps 1 and 2, and the terms they fit.

use super::{Observed, Solver};
use crate::retarget::lm::{self, Goal, Prior, Shoulders, Term};
use crate::retarget::rig::{Anchor, KeyedRig};
use crate::roles::Role;
use glam::{DQuat, DVec3};

/// The weight of the spine and chest points relative to the pelvis and hips, in the trunk fit
/// both as points and as directions from the pelvis: estimators place them least reliably, and
/// they only bend the trunk. The neck base's point weighs as little; its direction from the
/// pelvis, which is the trunk's lean, counts fully.
pub(super) const SPINE_WEIGHT: f64 = 0.3;

/// The weight of the head's points as positions in the head fit, relative to their directions
/// from the neck base: as for the trunk, the directions count most.
const HEAD_POINT_WEIGHT: f64 = 0.3;

/// The head's points, in the order their terms are added.
const HEAD: [Role; 9] = {
    use Role::*;
    [HeadCentre, HeadTop, Nose, LeftEye, RightEye, LeftEar, RightEar, MouthLeft, MouthRight]
};

/// The weight of face points relative to the top of the head in the head fit.
const FACE_WEIGHT: f64 = 0.5;

/// The weight of the shoulders' distance terms in the trunk fit.
pub(super) const SHOULDER_WEIGHT: f64 = 0.3;

/// Without a neck base, the weight of the head's points (relative to their confidence) in the
/// trunk fit, which takes its direction from the shoulders' midpoint: they place the neck base
/// on the input's own skeleton, and on one of other proportions the directions to them count
/// more than where they are.
const CENTRE_HEAD_WEIGHT: f64 = 0.5;

/// Without a neck base, the weight of the trunk's direction (shoulders' midpoint to pelvis)
/// and the hip line's in the trunk fit, relative to a point's: they are what a body of other
/// proportions should match, and the head's nine directions would otherwise outweigh them.
const CENTRE_DIRECTION_WEIGHT: f64 = 3.0;

/// The prior weight holding the fit through the shoulders' midpoint near the points' own fit
/// (units per radian): far below what the direction terms weigh, so it moves what they
/// determine, and enough to keep what they barely touch.
const CENTRE_HOLD: f64 = 0.3;

/// Where the second fit through the shoulders' midpoint stops: once a step lowers the cost by
/// less than this share of it. It corrects the first by a little, held near it, so it has to
/// be nearly converged for the correction to be the whole one (with both fits at the solver's
/// usual 1e-4 the yoga photo's shoulder line on the trace model ended 1.1° off, at this 0.07°).
const CENTRE_STOP: f64 = 1e-6;

/// The points' own fit, the first through the shoulders' midpoint: damped the same in every
/// direction ([`lm::Damping::Isotropic`]), because what its points leave free is 上半身
/// turning against 首 (the head's points hold the neck's far end, the shoulders' distances the
/// chest only loosely), and Marquardt's scaling crawls along that. On the Holistic benchmark
/// clip (BENCHMARKS.md) the two fits take a quarter fewer trial steps, with the same residual.
/// Only this fit: the others' unknowns each have terms of their own, and damped alike the
/// body25 trunk fit of the corpus round trip stopped 0.034 units off (the bound is 0.02).
///
/// It stops at the solver's usual share ([`lm::STOP_DECREASE`]), not at [`CENTRE_STOP`]:
/// after its first step it crawls along that free direction for a few thousandths of its cost,
/// and where it stops is only the reference the second fit is held near, whose own terms
/// settle the trunk's lean. Stopped at 1e-6 it took twice the trial steps on the benchmark
/// clip for a direction error 0.003° lower, and the photos of docs/capture.md moved by 0.01°
/// at most. On a video it goes on from its own last result, so what one frame leaves the
/// next one takes up.
const POINTS_FIT: lm::Convergence =
    lm::Convergence { stop: lm::STOP_DECREASE, damping: lm::Damping::Isotropic };

/// The second fit through the shoulders' midpoint, held near the first.
const CENTRE_FIT: lm::Convergence =
    lm::Convergence { stop: CENTRE_STOP, damping: lm::Damping::Marquardt };

impl Solver<'_> {
    /// The shoulders' midpoint as the trunk's top, where both are seen.
    pub(super) fn shoulder_centre(&self, obs: &Observed) -> Option<Centre> {
        let rig = self.rig;
        let sides = [Role::LeftShoulder, Role::RightShoulder].map(|r| obs[r as usize]);
        if sides.iter().any(|o| o.1 <= 0.0) {
            return None;
        }
        let side = |s: usize| {
            let arm = rig.arms[s];
            let upper = rig.rest(arm.upper);
            // Without a 肩 the 腕 head is rigid with its parent: a reach of nothing.
            let pivot = arm.clavicle.unwrap_or(arm.upper);
            let bone = rig.bones[pivot].parent?;
            let rest = rig.rest(pivot);
            Some((Anchor { bone, rest }, (upper - rest).length(), upper))
        };
        let [(l, l_reach, l_rest), (r, r_reach, r_rest)] = [side(0)?, side(1)?];
        Some(Centre {
            shoulders: Shoulders {
                pivots: [l, r],
                aims: [sides[0].0, sides[1].0],
                reach: [l_reach, r_reach],
            },
            at: (sides[0].0 + sides[1].0) / 2.0,
            weight: sides[0].1.min(sides[1].1),
            rest: (l_rest + r_rest) / 2.0,
        })
    }

    /// The torso without a neck base, through the shoulders' midpoint, in two fits. First the
    /// points' own fit ([`Solver::torso`] without the midpoint) in a history of its own, so
    /// that it goes on from frame to frame as it would alone ([`POINTS_FIT`]: stopped later,
    /// damped alike in every direction); then, from its result and held near it, the fit
    /// with the midpoint's direction terms. Direction terms on a body of other proportions
    /// would otherwise take up a degree of freedom that only weak priors toward the previous
    /// frame hold (上半身's twist under 上半身2), which then walks frame by frame over a
    /// still person; from the previous frame the fit
    /// could also end in a twisted valley after a fast turn. On the input's own skeleton the
    /// first fit is exact and the second leaves it so.
    pub(super) fn torso_through_centre(&mut self, obs: &Observed, centre: Centre) {
        std::mem::swap(&mut self.state, &mut self.points);
        let mut toward = std::mem::take(&mut self.toward);
        toward.clone_from(&self.state.world);
        self.torso(obs, &toward, true, None, POINTS_FIT);
        std::mem::swap(&mut self.state, &mut self.points);
        let group = self.torso_group(true);
        self.state.translation = self.points.translation;
        for &b in &group {
            self.state.world[b] = self.points.world[b];
        }
        self.carry_children(&group);
        toward.clone_from(&self.points.world);
        self.torso(obs, &toward, true, Some(centre), CENTRE_FIT);
        self.toward = toward;
    }

    /// The bones the torso fit turns. センター is not one of them: where 上半身 and 下半身
    /// share a head its turn is exactly redundant with theirs, and where they do not it only
    /// shears the trunk by their heads' offset, which noise and other proportions took up
    /// (VMD-Lifting's posfile turned it by 113° at the median on the trace model, 上半身 and
    /// 下半身 turning it back) while keypoints say nothing of it.
    pub(super) fn torso_group(&self, with_head: bool) -> Vec<usize> {
        let rig = self.rig;
        let mut group = vec![rig.lower_body, rig.upper_body];
        group.extend(rig.upper_body2);
        group.extend(rig.trunk_followers());
        if with_head {
            group.extend(rig.neck);
            group.extend(rig.head);
        }
        group
    }

    /// Fits the trunk (and the neck and head, when `with_head`) to [`torso_terms`].
    /// `centre`: the shoulders' midpoint as the trunk's top, for inputs without a neck base;
    /// its fit is held toward `prior` as a reference of its own ([`Prior::held`]), the others
    /// toward it as the previous frame.
    /// `convergence`: [`lm::solve`]'s.
    pub(super) fn torso(
        &mut self,
        obs: &Observed,
        prior: &[DQuat],
        with_head: bool,
        centre: Option<Centre>,
        convergence: lm::Convergence,
    ) {
        let rig = self.rig;
        let group = self.torso_group(with_head);
        let terms = torso_terms(rig, obs, &group, with_head, centre);
        let w = self.prior_weight;
        let priors: Vec<Prior> = (group.iter())
            .map(|&b| match centre {
                Some(_) => Prior { toward: prior[b], weight: CENTRE_HOLD, held: true },
                None => Prior::previous(prior[b], w),
            })
            .collect();
        lm::solve(rig, &mut self.state, &group, true, &terms, &priors, convergence);
        // Bones the group did not move follow their parents until solved.
        self.carry_children(&group);
    }

    /// Fits the neck and head, the trunk having been fitted without them.
    pub(super) fn head(&mut self, obs: &Observed, prior: &[DQuat]) {
        let rig = self.rig;
        let group: Vec<usize> = rig.neck.into_iter().chain(rig.head).collect();
        if group.is_empty() {
            return;
        }
        let mut terms = Vec::new();
        use Role::*;
        // Along the input's own directions from its neck base, at the model's distances, as
        // the trunk is: a head of other proportions then turns as the input's does instead of
        // sharing out the differences. The top of the head, which estimators place best and
        // which shows the head's lean, counts most.
        self.state.place(rig);
        let thorax = obs[Thorax as usize];
        let base = rig.anchor(Thorax).filter(|_| thorax.1 > 0.0);
        for role in HEAD {
            let (target, weight) = obs[role as usize];
            let Some(anchor) = rig.anchor(role).filter(|_| weight > 0.0) else { continue };
            // Relative to the input's neck base, as the limbs are to their first joints.
            let target = match base {
                Some(b) => target - thorax.0 + self.state.point(rig, b),
                None => target,
            };
            let weight = if role == HeadTop { weight } else { weight * FACE_WEIGHT };
            terms.push(Term { anchor, target, weight: weight * HEAD_POINT_WEIGHT, goal: Goal::At });
            // As for the trunk, the direction from the neck base counts most.
            if let Some(term) = along(rig, obs, Thorax, role, weight) {
                terms.push(term);
            }
        }
        if terms.is_empty() {
            return;
        }
        let priors: Vec<Prior> =
            group.iter().map(|&b| Prior::previous(prior[b], self.prior_weight)).collect();
        // From the previous frame's head, not from the neck the trunk fit carried along with
        // the chest: nearer the answer, so the fit takes fewer steps.
        if self.solved {
            for &b in &group {
                self.state.world[b] = prior[b];
            }
        }
        lm::solve(rig, &mut self.state, &group, false, &terms, &priors, lm::Convergence::USUAL);
    }
}

/// The shoulders' midpoint as the trunk's top: the model's where the clavicles will put it,
/// the input's, its weight, and the model's at rest.
#[derive(Clone, Copy, Debug)]
pub(super) struct Centre {
    shoulders: Shoulders,
    at: DVec3,
    weight: f64,
    rest: DVec3,
}

/// A direction term: `to`'s anchor should lie from `from`'s in the input's direction between
/// them, weighted by `weight` times the smaller confidence.
fn along(rig: &KeyedRig, obs: &Observed, from: Role, to: Role, weight: f64) -> Option<Term> {
    let (a, b) = (rig.anchor(from)?, rig.anchor(to)?);
    let ((pa, wa), (pb, wb)) = (obs[from as usize], obs[to as usize]);
    if wa <= 0.0 || wb <= 0.0 {
        return None;
    }
    let target = (pb - pa).try_normalize()?;
    let length = (b.rest - a.rest).length();
    Some(Term {
        anchor: b,
        target,
        weight: weight * wa.min(wb),
        goal: Goal::Along { from: a, length },
    })
}

/// The torso fit's terms for the bones of `group` ([`Solver::torso_group`]): the trunk's points
/// (and the head's, when `with_head`), each shoulder's distance from its 肩 head, and the
/// trunk's directions from the pelvis; with `centre`, the directions from the shoulders'
/// midpoint too. Terms on bones outside `group` are left out.
pub(super) fn torso_terms(
    rig: &KeyedRig,
    obs: &Observed,
    group: &[usize],
    with_head: bool,
    centre: Option<Centre>,
) -> Vec<Term> {
    let mut terms = Vec::with_capacity(16);
    use Role::*;
    let torso = [Pelvis, LeftHip, RightHip, Spine, Chest, Thorax, LeftCollar, RightCollar];
    for role in torso.into_iter().chain(HEAD.into_iter().filter(|_| with_head)) {
        let (target, weight) = obs[role as usize];
        // The direction terms below carry the trunk's shape; its points only place it, and
        // so do the head's where the shoulders' midpoint gives the trunk's top.
        let head = HEAD.contains(&role) && centre.is_some();
        let seen = weight;
        let weight = if matches!(role, Spine | Chest | Thorax) {
            weight * SPINE_WEIGHT
        } else if head {
            weight * CENTRE_HEAD_WEIGHT
        } else {
            weight
        };
        if let (true, Some(c), Some(anchor)) = (head, &centre, rig.anchor(role)) {
            let face = if role == HeadTop { 1.0 } else { FACE_WEIGHT };
            if let Some(term) = from_centre(c, anchor, target, face * seen * c.weight.min(seen)) {
                if group.contains(&anchor.bone) {
                    terms.push(term);
                }
            }
        }
        if let (Some(anchor), true) = (rig.anchor(role), weight > 0.0) {
            if group.contains(&anchor.bone) {
                terms.push(Term { anchor, target, weight, goal: Goal::At });
            }
        }
    }
    // With the trunk's direction given by the shoulders' midpoint, they can also settle
    // its roll at full weight.
    let shoulder_weight = if centre.is_some() { 1.0 } else { SHOULDER_WEIGHT };
    for (s, shoulder) in [LeftShoulder, RightShoulder].into_iter().enumerate() {
        let (target, weight) = obs[shoulder as usize];
        let arm = rig.arms[s];
        let (Some(anchor), true) = (rig.anchor(shoulder), weight > 0.0) else { continue };
        match arm.clavicle {
            Some(c) => {
                let length = (rig.rest(arm.upper) - rig.rest(c)).length();
                let Some(chest) = rig.bones[c].parent else { continue };
                let pivot = Anchor { bone: chest, rest: rig.rest(c) };
                if group.contains(&chest) {
                    // Enough to settle the trunk's roll, which nothing else fixes in most
                    // layouts; not so much that noisy shoulders tilt its lean.
                    terms.push(Term {
                        anchor: pivot,
                        target,
                        weight: weight * shoulder_weight,
                        goal: Goal::Reach(length),
                    });
                }
            }
            None if group.contains(&anchor.bone) => {
                terms.push(Term { anchor, target, weight, goal: Goal::At })
            }
            None => {}
        }
    }
    // The trunk's lean and bend as directions from the pelvis: on a trunk of other
    // proportions the points cannot all be reached, and then the directions are what
    // should match (on the same skeleton both are met exactly).
    for to in [Spine, Chest, Thorax] {
        let weight = if to == Thorax { 1.0 } else { SPINE_WEIGHT };
        if let Some(term) = along(rig, obs, Pelvis, to, weight) {
            if group.contains(&term.anchor.bone) {
                terms.push(term);
            }
        }
    }
    // Where the trunk's direction comes from the shoulders' midpoint, the hip line's is
    // held as directly: a pelvis of other proportions would trade it for the trunk's.
    if centre.is_some() {
        if let Some(term) = along(rig, obs, RightHip, LeftHip, CENTRE_DIRECTION_WEIGHT) {
            if group.contains(&term.anchor.bone) {
                terms.push(term);
            }
        }
    }
    // The trunk's direction, as the direction from the shoulders' midpoint to the pelvis.
    let (at, weight) = obs[Pelvis as usize];
    if let (Some(c), Some(anchor), true) = (&centre, rig.anchor(Pelvis), weight > 0.0) {
        let weight = CENTRE_DIRECTION_WEIGHT * weight.min(c.weight);
        if let Some(term) = from_centre(c, anchor, at, weight) {
            terms.push(term);
        }
    }
    terms
}

/// A direction term from the shoulders' midpoint to `anchor`, the input's from its own to
/// `at`.
fn from_centre(centre: &Centre, anchor: Anchor, at: DVec3, weight: f64) -> Option<Term> {
    let target = (at - centre.at).try_normalize()?;
    let length = (anchor.rest - centre.rest).length();
    let goal = Goal::AlongFromShoulders { from: centre.shoulders, length };
    (weight > 0.0).then_some(Term { anchor, target, weight, goal })
}
