//! One frame: observed keypoints (MMD axes and units) → every rig bone's world rotation and
//! the root translation.
//!
//! In order, each step fixing the pivots the next one hangs from:
//! 1. Torso (`lm.rs`): the translation, 下半身, 上半身 and 上半身2 together, from the points
//!    rigid with them (hips, spine, chest, neck base, collars) and the distance from each 肩 to
//!    its shoulder point, which is what fixes the trunk's roll when the shoulders move.
//! 2. Neck and head together, from the face and head points.
//! 3. Each limb in closed form: the upper bone points at the middle joint and turns so that the
//!    middle joint bends in its own plane (elbows forward, knees backward, as at rest); the
//!    lower bone points at the end joint; a bend the wrong way straightens the limb instead.
//!    Nearly straight limbs keep the previous frame's roll, as the bend plane is then noise.
//! 4. Hands and feet (`lm.rs` again, one bone each) from finger, toe and heel points.
//!
//! Every rotation is a world rotation; local ones come from them at the end (`mod.rs`).

use super::lm::{self, Goal, Prior, Shoulders, State, Term};
use super::rig::{Anchor, Limb, Rig};
use crate::roles::Role;
use glam::{DQuat, DVec3};

/// The observed position and weight of every role in one frame (weight 0: missing).
pub(crate) type Observed = [(DVec3, f64); Role::ALL.len()];

/// Continuity between frames and the solver's settings.
pub(crate) struct Solver<'r> {
    pub rig: &'r Rig,
    /// The previous frame's world rotations, the prior of free degrees of freedom (rest
    /// before the first frame).
    previous: Vec<DQuat>,
    /// Whether a frame has been solved, so that `previous` holds one.
    solved: bool,
    /// Prior weight, in units of position (units per radian).
    pub prior_weight: f64,
    pub state: State,
    /// The points' own torso fit, frame after frame, where the torso is fitted through the
    /// shoulders' midpoint ([`Solver::torso_through_centre`]).
    points: State,
    /// The rotations a torso fit is pulled toward, kept so that nothing is allocated per frame.
    toward: Vec<DQuat>,
    /// Whether the motion will play with leg IK, which cannot hold an overextended knee.
    pub leg_ik: bool,
}

/// The least a knee bends back from its rest pose, radians: MMD's knee limit (0.5°).
const KNEE_MIN_BEND: f64 = 0.5 * std::f64::consts::PI / 180.0;

/// How far past its rest pose a knee may bend forward before it is set back (a degree): the
/// noise of a straight leg is let through, a clear overextension is not.
const KNEE_OVEREXTENDED: f64 = std::f64::consts::PI / 180.0;

/// The weight of spine and chest points relative to the pelvis, hips and neck base: estimators
/// place them least reliably, and they only bend the trunk.
const SPINE_WEIGHT: f64 = 0.3;

/// The weight of face points relative to the top of the head in the head fit.
const FACE_WEIGHT: f64 = 0.5;

/// The weight of the shoulders' distance terms in the trunk fit.
const SHOULDER_WEIGHT: f64 = 0.3;

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

/// Where the two fits through the shoulders' midpoint stop: once a step lowers the cost by
/// less than this share of it. The second corrects the first by a little, held near it, so
/// both have to be nearly converged for the correction to be the whole one (at the solver's
/// usual 1e-4 the yoga photo's shoulder line on the trace model ends 1.1° off, at this 0.07°).
const CENTRE_STOP: f64 = 1e-6;

/// Per side (left, right): the arm's joints (shoulder, elbow, wrist) and hand points.
const ARMS: [([Role; 3], [Role; 4]); 2] = {
    use Role::*;
    [
        ([LeftShoulder, LeftElbow, LeftWrist], [LeftHand, LeftIndex, LeftPinky, LeftThumb]),
        ([RightShoulder, RightElbow, RightWrist], [RightHand, RightIndex, RightPinky, RightThumb]),
    ]
};

/// Per side: the leg's joints (hip, knee, ankle) and foot points.
const LEGS: [([Role; 3], [Role; 4]); 2] = {
    use Role::*;
    [
        ([LeftHip, LeftKnee, LeftAnkle], [LeftToe, LeftHeel, LeftBigToe, LeftSmallToe]),
        ([RightHip, RightKnee, RightAnkle], [RightToe, RightHeel, RightBigToe, RightSmallToe]),
    ]
};

/// How often the first frame is solved at most, each time from the last result (see
/// [`Solver::frame`]).
const FIRST_FRAME_SOLVES: usize = 16;

/// Below this bend (sin of the angle), a limb's bend plane is blended toward the previous
/// frame's: 15°.
const PLANE_CONFIDENT: f64 = 0.2588;

impl<'r> Solver<'r> {
    pub fn new(rig: &'r Rig) -> Solver<'r> {
        Solver {
            rig,
            previous: vec![DQuat::IDENTITY; rig.bones.len()],
            solved: false,
            prior_weight: 1e-2,
            state: State::rest(rig),
            points: State::rest(rig),
            toward: Vec::with_capacity(rig.bones.len()),
            leg_ik: false,
        }
    }

    /// Solves one frame into [`Solver::state`].
    pub fn frame(&mut self, obs: &Observed) {
        let first = !self.solved;
        self.solve_frame(obs);
        // The first frame's priors pull toward the rest pose, which nothing observed chose: it
        // is solved again from its own result, as identical frames after it would be, until it
        // no longer moves, so that a person standing still is still from the first frame on.
        if !first {
            return;
        }
        for _ in 1..FIRST_FRAME_SOLVES {
            let (translation, world) = (self.state.translation, self.state.world.clone());
            self.solve_frame(obs);
            let moved = (self.state.world.iter().zip(&world))
                .map(|(a, b)| a.angle_between(*b))
                .fold((self.state.translation - translation).length(), f64::max);
            if moved < 1e-9 {
                break;
            }
        }
    }

    fn solve_frame(&mut self, obs: &Observed) {
        let rig = self.rig;
        // The previous frame's rotations are read while this one is solved; the buffer then
        // takes this frame's, so nothing is allocated per frame.
        let mut prior = std::mem::take(&mut self.previous);
        if !self.solved {
            self.initial_torso(obs);
            self.points.clone_from(&self.state);
        }
        // Without a neck base the trunk's top is only fixed through the head: one fit for both,
        // its direction taken from the shoulders' midpoint where both are seen.
        let with_head = obs[Role::Thorax as usize].1 <= 0.0;
        let centre = if with_head { self.shoulder_centre(obs) } else { None };
        match centre {
            Some(centre) => self.torso_through_centre(obs, centre),
            None => {
                self.torso(obs, &prior, with_head, None, lm::STOP_DECREASE);
                if with_head {
                    // The points' own fit goes on from here when the shoulders come back.
                    self.points.clone_from(&self.state);
                }
            }
        }
        self.aim_clavicles(obs);
        if !with_head {
            self.head(obs, &prior);
        }
        for s in 0..2 {
            let arm = rig.arms[s];
            // Arm then leg: the joints from the upper bone's head down, the points of the hand
            // or foot, and the way the middle joint bends.
            let limbs = [(arm, ARMS[s], DVec3::NEG_Z), (rig.legs[s], LEGS[s], DVec3::Z)];
            for (limb, (joints, ends), bend) in limbs {
                let [a, b, c] = joints.map(|r| obs[r as usize]);
                self.limb(limb, a, b, c, bend, &prior);
                self.end(limb.end, &ends, c, obs, &prior);
            }
        }
        self.state.place(rig);
        prior.copy_from_slice(&self.state.world);
        self.previous = prior;
        self.solved = true;
    }

    /// A starting point far from nothing: the translation that puts the pelvis (or the hips'
    /// mean) in place and the trunk facing the way the hips and shoulders do.
    fn initial_torso(&mut self, obs: &Observed) {
        let rig = self.rig;
        let get = |r: Role| Some(obs[r as usize]).filter(|o| o.1 > 0.0).map(|o| o.0);
        let pelvis =
            get(Role::Pelvis).or_else(|| Some((get(Role::LeftHip)? + get(Role::RightHip)?) / 2.0));
        let hips = get(Role::LeftHip).zip(get(Role::RightHip));
        let shoulders = get(Role::LeftShoulder).zip(get(Role::RightShoulder));
        let top = get(Role::Thorax).or(shoulders.map(|(l, r)| (l + r) / 2.0));
        let anchor = |r: Role| rig.anchor(r).map(|a| a.rest);
        let rest_pelvis = anchor(Role::Pelvis).unwrap_or(rig.rest(rig.lower_body));
        let side = hips.or(shoulders);
        let rest_side = match (hips, anchor(Role::LeftHip), anchor(Role::RightHip)) {
            (Some(_), Some(l), Some(r)) => l - r,
            _ => DVec3::X,
        };
        let rest_up = anchor(Role::Thorax).map_or(DVec3::Y, |t| t - rest_pelvis);
        let rotation = match (side, pelvis.zip(top)) {
            (Some((l, r)), Some((p, t))) => frame_rotation(rest_side, rest_up, l - r, t - p),
            (Some((l, r)), None) => shortest_arc(rest_side, l - r),
            _ => DQuat::IDENTITY,
        };
        for w in &mut self.state.world {
            *w = rotation;
        }
        self.state.world[rig.root] = DQuat::IDENTITY;
        if let Some(p) = pelvis {
            let pivot = rig.rest(rig.lower_body);
            self.state.translation = p - (pivot + rotation * (rest_pelvis - pivot));
        }
        self.state.place(rig);
    }

    /// Each 肩 pointed at its shoulder point.
    fn aim_clavicles(&mut self, obs: &Observed) {
        let rig = self.rig;
        for (arm, shoulder) in rig.arms.into_iter().zip([Role::LeftShoulder, Role::RightShoulder]) {
            if let Some(c) = arm.clavicle {
                self.point_at(c, arm.upper, obs[shoulder as usize]);
            }
        }
    }

    /// The shoulders' midpoint as the trunk's top, where both are seen.
    fn shoulder_centre(&self, obs: &Observed) -> Option<Centre> {
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

    /// A direction term from the shoulders' midpoint to `anchor`, the input's from its own to
    /// `at`.
    fn from_centre(centre: &Centre, anchor: Anchor, at: DVec3, weight: f64) -> Option<Term> {
        let target = (at - centre.at).try_normalize()?;
        let length = (anchor.rest - centre.rest).length();
        let goal = Goal::AlongFromShoulders { from: centre.shoulders, length };
        (weight > 0.0).then_some(Term { anchor, target, weight, goal })
    }

    /// The torso without a neck base, through the shoulders' midpoint, in two fits. First the
    /// points' own fit ([`Solver::torso`] without the midpoint) in a history of its own, so
    /// that it goes on from frame to frame as it would alone (stopped later, at
    /// [`CENTRE_STOP`]); then, from its result and held near it, the fit
    /// with the midpoint's direction terms. Direction terms on a body of other proportions
    /// would otherwise take up a degree of freedom that only weak priors toward the previous
    /// frame hold (上半身's twist under 上半身2), which then walks frame by frame over a
    /// still person; from the previous frame the fit
    /// could also end in a twisted valley after a fast turn. On the input's own skeleton the
    /// first fit is exact and the second leaves it so.
    fn torso_through_centre(&mut self, obs: &Observed, centre: Centre) {
        std::mem::swap(&mut self.state, &mut self.points);
        let mut toward = std::mem::take(&mut self.toward);
        toward.clone_from(&self.state.world);
        self.torso(obs, &toward, true, None, CENTRE_STOP);
        std::mem::swap(&mut self.state, &mut self.points);
        let group = self.torso_group(true);
        self.state.translation = self.points.translation;
        for &b in &group {
            self.state.world[b] = self.points.world[b];
        }
        self.carry_children(&group);
        toward.clone_from(&self.points.world);
        self.torso(obs, &toward, true, Some(centre), CENTRE_STOP);
        self.toward = toward;
    }

    /// The bones the torso fit turns. センター is not one of them: where 上半身 and 下半身
    /// share a head its turn is exactly redundant with theirs, and where they do not it only
    /// shears the trunk by their heads' offset, which noise and other proportions took up
    /// (VMD-Lifting's posfile turned it by 113° at the median on the trace model, 上半身 and
    /// 下半身 turning it back) while keypoints say nothing of it.
    fn torso_group(&self, with_head: bool) -> Vec<usize> {
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

    /// `centre`: the shoulders' midpoint as the trunk's top, for inputs without a neck base;
    /// its fit is held toward `prior` as a reference of its own ([`Prior::held`]), the others
    /// toward it as the previous frame.
    /// `stop`: [`lm::solve`]'s.
    fn torso(
        &mut self,
        obs: &Observed,
        prior: &[DQuat],
        with_head: bool,
        centre: Option<Centre>,
        stop: f64,
    ) {
        let rig = self.rig;
        let group = self.torso_group(with_head);
        let mut terms = Vec::with_capacity(16);
        use Role::*;
        const HEAD: [Role; 9] = [
            HeadCentre, HeadTop, Nose, LeftEye, RightEye, LeftEar, RightEar, MouthLeft, MouthRight,
        ];
        let torso = [Pelvis, LeftHip, RightHip, Spine, Chest, Thorax, LeftCollar, RightCollar];
        for role in torso.into_iter().chain(HEAD.into_iter().filter(|_| with_head)) {
            let (target, weight) = obs[role as usize];
            // The direction terms below carry the trunk's shape; its points only place it, and
            // so do the head's where the shoulders' midpoint gives the trunk's top.
            let head = HEAD.contains(&role) && centre.is_some();
            let seen = weight;
            let weight = if matches!(role, Spine | Chest | Thorax) {
                weight * 0.3
            } else if head {
                weight * CENTRE_HEAD_WEIGHT
            } else {
                weight
            };
            if let (true, Some(c), Some(anchor)) = (head, &centre, rig.anchor(role)) {
                let face = if role == HeadTop { 1.0 } else { FACE_WEIGHT };
                if let Some(term) =
                    Self::from_centre(c, anchor, target, face * seen * c.weight.min(seen))
                {
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
                    let pivot = super::rig::Anchor { bone: chest, rest: rig.rest(c) };
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
            if let Some(term) = Self::from_centre(c, anchor, at, weight) {
                terms.push(term);
            }
        }
        let w = self.prior_weight;
        let priors: Vec<Prior> = (group.iter())
            .map(|&b| match centre {
                Some(_) => Prior { toward: prior[b], weight: CENTRE_HOLD, held: true },
                None => Prior::previous(prior[b], w),
            })
            .collect();
        lm::solve(rig, &mut self.state, &group, true, &terms, &priors, stop);
        // Bones the group did not move follow their parents until solved.
        self.carry_children(&group);
    }

    fn head(&mut self, obs: &Observed, prior: &[DQuat]) {
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
        for role in
            [HeadCentre, HeadTop, Nose, LeftEye, RightEye, LeftEar, RightEar, MouthLeft, MouthRight]
        {
            let (target, weight) = obs[role as usize];
            let Some(anchor) = rig.anchor(role).filter(|_| weight > 0.0) else { continue };
            // Relative to the input's neck base, as the limbs are to their first joints.
            let target = match base {
                Some(b) => target - thorax.0 + self.state.point(rig, b),
                None => target,
            };
            let weight = if role == HeadTop { weight } else { weight * FACE_WEIGHT };
            terms.push(Term { anchor, target, weight: weight * 0.3, goal: Goal::At });
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
        lm::solve(rig, &mut self.state, &group, false, &terms, &priors, lm::STOP_DECREASE);
    }

    /// World rotations of bones that follow a solved group: their parents'.
    fn carry_children(&mut self, group: &[usize]) {
        let rig = self.rig;
        for (b, bone) in rig.bones.iter().enumerate() {
            if group.contains(&b) {
                continue;
            }
            if let Some(p) = bone.parent {
                if group.contains(&p) {
                    self.state.world[b] = self.state.world[p];
                }
            }
        }
        self.state.place(rig);
    }

    /// Turns `bone` by the shortest arc that points it at the observed position of its child
    /// `child`'s head.
    fn point_at(&mut self, bone: usize, child: usize, target: (DVec3, f64)) {
        let rig = self.rig;
        let parent = rig.bones[bone].parent.map_or(DQuat::IDENTITY, |p| self.state.world[p]);
        if target.1 <= 0.0 {
            self.state.world[bone] = parent;
        } else {
            self.state.place(rig);
            let rest_dir = rig.rest(child) - rig.rest(bone);
            let from = parent * rest_dir;
            let to = target.0 - self.state.pivot[bone];
            self.state.world[bone] = shortest_arc(from, to) * parent;
        }
        self.state.world[child] = self.state.world[bone];
        self.state.place(rig);
    }

    /// Keeps a bone's previous local rotation under its parent's current one (the rest pose on
    /// the first frame): what an unseen bone does.
    fn hold(&mut self, bone: usize, prior: &[DQuat]) {
        let parent = self.rig.bones[bone].parent;
        let now = parent.map_or(DQuat::IDENTITY, |p| self.state.world[p]);
        self.state.world[bone] = match (self.solved, parent) {
            (true, Some(p)) => now * (prior[p].inverse() * prior[bone]),
            (true, None) => prior[bone],
            (false, _) => now,
        };
        self.state.place(self.rig);
    }

    /// The closed-form limb of the module documentation: `start`, `middle` and `end` are the
    /// observed joints at the upper bone's head, the lower bone's head and the end bone's head. `bend` is the direction the lower
    /// segment moves at rest when the joint flexes (forward for elbows, backward for knees).
    fn limb(
        &mut self,
        limb: Limb,
        start: (DVec3, f64),
        middle: (DVec3, f64),
        end: (DVec3, f64),
        bend: DVec3,
        prior: &[DQuat],
    ) {
        let rig = self.rig;
        self.state.place(rig);
        let parent = rig.bones[limb.upper].parent.map_or(DQuat::IDENTITY, |p| self.state.world[p]);
        let (pu, pl, pe) = (rig.rest(limb.upper), rig.rest(limb.lower), rig.rest(limb.end));
        let upper0 = (pl - pu).normalize_or(DVec3::NEG_Y);
        let lower0 = (pe - pl).normalize_or(upper0);
        // The rest hinge axis: from the rest bend where the limb is bent, else from `bend`.
        let bent0 = upper0.cross(lower0);
        let hinge0 = if bent0.length() > PLANE_CONFIDENT {
            bent0.normalize()
        } else {
            upper0.cross(bend - upper0 * bend.dot(upper0)).normalize_or(DVec3::X)
        };
        if middle.1 <= 0.0 {
            // Nothing seen: the limb keeps its last pose relative to the body.
            for b in [limb.upper, limb.lower, limb.end] {
                self.hold(b, prior);
            }
            return;
        }
        // The input's own segment direction where it has the joint the segment starts from:
        // on a target of other proportions the model's joint is elsewhere, and pointing from
        // it at the input's next joint would tilt the bone by the difference.
        let from = if start.1 > 0.0 { start.0 } else { self.state.pivot[limb.upper] };
        let d1 = (middle.0 - from).normalize_or(parent * upper0);
        let swing = shortest_arc(parent * upper0, d1) * parent;
        // The hinge the previous frame had, carried to this frame's upper direction.
        let predicted = {
            let previous = if self.solved { prior[limb.upper] } else { swing };
            let h = previous * hinge0;
            (h - d1 * h.dot(d1)).normalize_or(swing * hinge0)
        };
        let mut d2 = if end.1 > 0.0 { (end.0 - middle.0).normalize_or(d1) } else { d1 };
        if end.1 <= 0.0 {
            d2 = swing * lower0;
        }
        let cross = d1.cross(d2);
        let sin = cross.length();
        // A clear bend fixes the upper bone's roll: the joint bends in its plane, the way it
        // can. A slight one is as likely noise on a straight limb: the roll stays as it was, and
        // a slight bend against the hinge is kept as the small overextension it is.
        let hinge = if sin < 1e-9 {
            predicted
        } else {
            let measured = cross / sin;
            let confidence = smoothstep(sin / PLANE_CONFIDENT);
            let measured = if measured.dot(predicted) < 0.0 && confidence < 1.0 {
                -measured
            } else {
                measured
            };
            // With no previous frame there is no roll to keep: the first frame takes the
            // measured plane, which is what the blend would reach over identical frames (a
            // blend toward the rest pose's would turn the limb a little more every frame).
            let w = if self.solved { confidence } else { 1.0 };
            (predicted * (1.0 - w) + measured * w).normalize_or(predicted)
        };
        let upper = frame_rotation(upper0, hinge0, d1, hinge);
        self.state.world[limb.upper] = upper;
        let mut lower = shortest_arc(upper * lower0, d2) * upper;
        if bend == DVec3::Z && self.leg_ik {
            // With leg IK a knee must not bend forward of its rest pose: MMD's leg IK limits
            // it to bending back by at least 0.5° (§9.3), and a knee keyed past that swings the
            // leg the moment IK touches it (a unit and more on a raised leg). An input that
            // clearly overextends it gets the straightest knee the limit allows.
            let local = upper.inverse() * d2;
            let flat = |v: DVec3| v - hinge0 * v.dot(hinge0);
            let (from, to) = (flat(lower0), flat(local));
            let angle = from.cross(to).dot(hinge0).atan2(from.dot(to));
            if angle < -KNEE_OVEREXTENDED {
                lower = upper * DQuat::from_axis_angle(hinge0, KNEE_MIN_BEND);
            }
        }
        self.state.world[limb.lower] = lower;
        self.state.world[limb.end] = lower;
        self.state.place(rig);
    }

    /// A hand or foot from the points rigid with it; without any, it follows its parent.
    /// `joint` is the observed head of the bone (the wrist, the ankle): the points are fitted
    /// relative to it, so that where the model's joint sits elsewhere (other proportions, a
    /// limb that could not reach) the hand or foot still turns as the input's does.
    fn end(
        &mut self,
        bone: usize,
        roles: &[Role],
        joint: (DVec3, f64),
        obs: &Observed,
        prior: &[DQuat],
    ) {
        let rig = self.rig;
        let mut terms = Vec::new();
        self.state.place(rig);
        let shift = if joint.1 > 0.0 { self.state.pivot[bone] - joint.0 } else { DVec3::ZERO };
        for &role in roles {
            let (target, weight) = obs[role as usize];
            let target = target + shift;
            if let (Some(anchor), true) = (rig.anchor(role), weight > 0.0) {
                if anchor.bone == bone {
                    terms.push(Term { anchor, target, weight, goal: Goal::At });
                }
            }
        }
        if terms.is_empty() {
            self.hold(bone, prior);
            return;
        }
        let group = [bone];
        lm::solve(
            rig,
            &mut self.state,
            &group,
            false,
            &terms,
            &[Prior::previous(prior[bone], self.prior_weight)],
            lm::STOP_DECREASE,
        );
    }
}

/// The shoulders' midpoint as the trunk's top: the model's where the clavicles will put it,
/// the input's, its weight, and the model's at rest.
#[derive(Clone, Copy, Debug)]
struct Centre {
    shoulders: Shoulders,
    at: DVec3,
    weight: f64,
    rest: DVec3,
}

/// A direction term: `to`'s anchor should lie from `from`'s in the input's direction between
/// them, weighted by `weight` times the smaller confidence.
fn along(rig: &Rig, obs: &Observed, from: Role, to: Role, weight: f64) -> Option<Term> {
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

fn smoothstep(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

/// The shortest rotation taking direction `from` to direction `to`.
pub(crate) fn shortest_arc(from: DVec3, to: DVec3) -> DQuat {
    match (from.try_normalize(), to.try_normalize()) {
        (Some(a), Some(b)) => DQuat::from_rotation_arc(a, b),
        _ => DQuat::IDENTITY,
    }
}

/// The rotation taking `a0` to `a1` exactly and `b0` as close to `b1` as that allows.
pub(crate) fn frame_rotation(a0: DVec3, b0: DVec3, a1: DVec3, b1: DVec3) -> DQuat {
    let basis = |a: DVec3, b: DVec3| {
        let x = a.normalize_or(DVec3::X);
        let z = x.cross(b).normalize_or(x.any_orthonormal_vector());
        let y = z.cross(x);
        glam::DMat3::from_cols(x, y, z)
    };
    let r = basis(a1, b1) * basis(a0, b0).transpose();
    DQuat::from_mat3(&r).normalize()
}
