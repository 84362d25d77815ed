//! The limbs in closed form, and the hands and feet fitted to their points: steps 3 and 4.

use super::{Observed, Solver};
use crate::math::{frame_rotation, shortest_arc};
use crate::retarget::lm::{self, Goal, Prior, Term};
use crate::retarget::rig::Limb;
use crate::roles::Role;
use glam::{DQuat, DVec3};

/// The least a knee bends back from its rest pose, radians: MMD's knee limit (0.5°).
const KNEE_MIN_BEND: f64 = 0.5 * std::f64::consts::PI / 180.0;

/// How far past its rest pose a knee may bend forward before it is set back (a degree): the
/// noise of a straight leg is let through, a clear overextension is not.
const KNEE_OVEREXTENDED: f64 = std::f64::consts::PI / 180.0;

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

/// Below this bend (sin of the angle), a limb's bend plane is blended toward the previous
/// frame's: 15°.
const PLANE_CONFIDENT: f64 = 0.2588;

impl Solver<'_> {
    /// Each limb, then its hand or foot: a hand whose palm is given takes it.
    pub(super) fn limbs(&mut self, obs: &Observed, prior: &[DQuat], palms: [Option<DQuat>; 2]) {
        let rig = self.rig;
        for s in 0..2 {
            let arm = rig.arms[s];
            // Arm then leg: the joints from the upper bone's head down, the points of the hand
            // or foot, and the way the middle joint bends.
            let limbs = [(arm, ARMS[s], DVec3::NEG_Z), (rig.legs[s], LEGS[s], DVec3::Z)];
            for (limb, (joints, ends), bend) in limbs {
                let [a, b, c] = joints.map(|r| obs[r as usize]);
                self.limb(limb, a, b, c, bend, prior);
                match palms[s].filter(|_| limb.end == arm.end) {
                    Some(palm) => self.state.world[limb.end] = palm,
                    None => self.end(limb.end, &ends, c, obs, prior),
                }
            }
        }
    }

    /// Each 肩 pointed at its shoulder point.
    pub(super) fn aim_clavicles(&mut self, obs: &Observed) {
        let rig = self.rig;
        for (arm, shoulder) in rig.arms.into_iter().zip([Role::LeftShoulder, Role::RightShoulder]) {
            if let Some(c) = arm.clavicle {
                self.point_at(c, arm.upper, obs[shoulder as usize]);
            }
        }
    }

    /// The closed-form limb of the module documentation: `start`, `middle` and `end` are the
    /// observed joints at the upper bone's head, the lower bone's head and the end bone's head.
    /// `bend` is the direction the lower segment moves at rest when the joint flexes (forward
    /// for elbows, backward for knees).
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
            lm::Convergence::USUAL,
        );
    }
}

fn smoothstep(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}
