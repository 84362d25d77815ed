//! One frame: observed keypoints (MMD axes and units) → every rig bone's world rotation and
//! the root translation.
//!
//! In order, each step fixing the pivots the next one hangs from:
//! 1. Torso (`torso.rs`, fitted by `lm/`): the translation, 下半身, 上半身 and 上半身2
//!    together, from the points rigid with them (hips, spine, chest, neck base, collars) and
//!    the distance from each 肩 to its shoulder point, which is what fixes the trunk's roll
//!    when the shoulders move.
//! 2. Neck and head together (`torso.rs`), from the face and head points.
//! 3. Each limb in closed form (`limbs.rs`): the upper bone points at the middle joint and
//!    turns so that the middle joint bends in its own plane (elbows forward, knees backward, as
//!    at rest); the lower bone points at the end joint; a bend the wrong way straightens the
//!    limb instead. Nearly straight limbs keep the previous frame's roll, as the bend plane is
//!    then noise.
//! 4. Hands and feet (`limbs.rs`, fitted by `lm/` again, one bone each) from finger, toe and
//!    heel points; a hand whose palm the fingers' solve gives ([`Solver::frame`]'s `palms`)
//!    takes it.
//!
//! Every rotation is a world rotation; local ones come from them at the end
//! (`retarget/mod.rs`).

mod limbs;
mod torso;

#[cfg(test)]
mod tests;

use super::lm::{self, State};
use super::rig::KeyedRig;
use crate::math::{frame_rotation, shortest_arc};
use crate::roles::Role;
use glam::{DQuat, DVec3};

/// The observed position and weight of every role in one frame (weight 0: missing).
pub(crate) type Observed = [(DVec3, f64); Role::ALL.len()];

/// Continuity between frames and the solver's settings.
pub(crate) struct Solver<'r> {
    pub rig: &'r KeyedRig,
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

/// How often the first frame is solved at most, each time from the last result (see
/// [`Solver::frame`]).
const FIRST_FRAME_SOLVES: usize = 16;

impl<'r> Solver<'r> {
    pub fn new(rig: &'r KeyedRig) -> Solver<'r> {
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
    /// `palms` (left, right): where the fingers' solve found a hand, its palm, 手首's world
    /// rotation, taken instead of fitting the hand to its points.
    pub fn frame(&mut self, obs: &Observed, palms: [Option<DQuat>; 2]) {
        let first = !self.solved;
        self.solve_frame(obs, palms);
        // The first frame's priors pull toward the rest pose, which nothing observed chose: it
        // is solved again from its own result, as identical frames after it would be, until it
        // no longer moves, so that a person standing still is still from the first frame on.
        if !first {
            return;
        }
        for _ in 1..FIRST_FRAME_SOLVES {
            let (translation, world) = (self.state.translation, self.state.world.clone());
            self.solve_frame(obs, palms);
            let moved = (self.state.world.iter().zip(&world))
                .map(|(a, b)| a.angle_between(*b))
                .fold((self.state.translation - translation).length(), f64::max);
            if moved < 1e-9 {
                break;
            }
        }
    }

    fn solve_frame(&mut self, obs: &Observed, palms: [Option<DQuat>; 2]) {
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
                self.torso(obs, &prior, with_head, None, lm::Convergence::USUAL);
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
        self.limbs(obs, &prior, palms);
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
}
