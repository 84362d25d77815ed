//! Where every keypoint [`Role`] sits on a target skeleton ([`KeyedRig::place_anchors`]), and how to
//! read it off a posed skeleton ([`Source`]).
//!
//! A joint is a bone head where the model has the bone (ひざ for a knee, 人指１ for the base of
//! the index finger, つま先 for the tip of the foot), else a point fixed in a bone's frame,
//! placed from the model's own proportions (its height): a heel behind the ankle at the toe's
//! height, ears beside the head. The solver only needs each point rigid with one keyed bone;
//! the retargeting's inverse reads the same points off any pose, so the two agree exactly.

use super::rig::{keyed_ancestor, Anchor, KeyedRig, Source, SIDES};
use crate::roles::Role;
use crate::skeleton::Skeleton;
use glam::DVec3;

/// A bone's rest head and the rig bone it moves with.
type Placed = Option<(DVec3, usize)>;

impl KeyedRig {
    /// Top of the head above the lowest foot bone: 頭 plus a head's height, or the neck base
    /// scaled when there is no head bone.
    pub(super) fn model_height(&self, skeleton: &Skeleton) -> f64 {
        let top = match self.head {
            Some(h) => self.rest(h).y,
            None => self.rest(self.upper_body).y * 1.6,
        };
        let floor = self.rest(self.legs[0].end).y.min(self.rest(self.legs[1].end).y);
        let floor = ["左つま先", "右つま先"]
            .iter()
            .filter_map(|n| skeleton.bone_index(n))
            .map(|b| skeleton.rest_position(b).y as f64)
            .fold(floor, f64::min)
            .min(0.0);
        // 頭's head is at the skull base, about 0.87 of a standing height.
        ((top - floor) / 0.87).max(1e-3)
    }

    /// How the retargeting's inverse reads `role` off a posed skeleton: the bone head the
    /// anchor is, the hips' mean for the pelvis, or the point in its bone's frame.
    pub(super) fn source(
        &self,
        skeleton: &Skeleton,
        rig_of: &[Option<usize>],
        role: Role,
        anchor: Anchor,
    ) -> Source {
        if role == Role::Pelvis {
            return Source::Mean(
                self.bones[self.legs[0].upper].skel,
                self.bones[self.legs[1].upper].skel,
            );
        }
        let head = (0..skeleton.bone_count()).find(|&b| {
            skeleton.rest_position(b).as_dvec3() == anchor.rest
                && keyed_ancestor(skeleton, rig_of, skeleton.parent(b)) == Some(anchor.bone)
        });
        match head {
            Some(b) => Source::Head(b),
            None => Source::Offset(self.bones[anchor.bone].skel, anchor.rest),
        }
    }

    /// Every role's anchor.
    pub(super) fn place_anchors(&mut self, skeleton: &Skeleton, rig_of: &[Option<usize>]) {
        let head_of = |name: &str| -> Placed {
            let b = skeleton.bone_index(name)?;
            let attached = keyed_ancestor(skeleton, rig_of, skeleton.parent(b))?;
            Some((skeleton.rest_position(b).as_dvec3(), attached))
        };
        let mut placed: Vec<(Role, Placed)> = Vec::with_capacity(Role::ALL.len());
        self.place_trunk(&mut placed);
        for s in 0..2 {
            self.place_arm(s, &head_of, &mut placed);
            self.place_leg(s, &head_of, &mut placed);
        }
        self.place_head(&head_of, &mut placed);
        for (role, anchor) in placed {
            self.anchors[role as usize] = anchor.map(|(rest, bone)| Anchor { bone, rest });
        }
    }

    /// The neck base, or where it would be without a 首.
    fn neck_base(&self) -> DVec3 {
        self.neck
            .map_or(self.rest(self.upper_body) + DVec3::Y * 0.3 * self.height, |n| self.rest(n))
    }

    /// The rig bone carrying the chest: 上半身2 where there is one.
    fn chest(&self) -> usize {
        self.upper_body2.unwrap_or(self.upper_body)
    }

    fn place_trunk(&self, out: &mut Vec<(Role, Placed)>) {
        use Role::*;
        let rest = |r: usize| self.rest(r);
        let hips = [self.legs[0].upper, self.legs[1].upper].map(rest);
        out.push((Pelvis, Some(((hips[0] + hips[1]) / 2.0, self.lower_body))));
        let neck_base = self.neck_base();
        let upper = self.upper_body;
        match self.upper_body2 {
            Some(u2) => {
                out.push((Spine, Some((rest(u2), upper))));
                out.push((Chest, Some((rest(u2).lerp(neck_base, 0.5), u2))));
            }
            None => {
                out.push((Spine, Some((rest(upper).lerp(neck_base, 0.4), upper))));
                out.push((Chest, Some((rest(upper).lerp(neck_base, 0.7), upper))));
            }
        }
        let chest = self.chest();
        let carrier = self.neck.map_or(chest, |n| self.bones[n].parent.unwrap_or(chest));
        out.push((Thorax, Some((neck_base, carrier))));
    }

    fn place_arm(
        &self,
        s: usize,
        head_of: &impl Fn(&str) -> Placed,
        out: &mut Vec<(Role, Placed)>,
    ) {
        use Role::*;
        let [collar, shoulder, elbow, wrist, hand, index, pinky, thumb] = if s == 0 {
            [
                LeftCollar,
                LeftShoulder,
                LeftElbow,
                LeftWrist,
                LeftHand,
                LeftIndex,
                LeftPinky,
                LeftThumb,
            ]
        } else {
            [
                RightCollar,
                RightShoulder,
                RightElbow,
                RightWrist,
                RightHand,
                RightIndex,
                RightPinky,
                RightThumb,
            ]
        };
        let (arm, h, chest, side) = (self.arms[s], self.height, self.chest(), SIDES[s]);
        let rest = |r: usize| self.rest(r);
        let carrier = |b: usize| self.bones[b].parent.unwrap_or(chest);
        out.push((collar, arm.clavicle.map(|c| (rest(c), carrier(c)))));
        out.push((shoulder, Some((rest(arm.upper), carrier(arm.upper)))));
        out.push((elbow, Some((rest(arm.lower), arm.upper))));
        out.push((wrist, Some((rest(arm.end), arm.lower))));
        // Hand points: the finger bases where the model has them, else the palm placed along
        // the forearm, fingers fanned toward the front.
        let w = rest(arm.end);
        let along = (w - rest(arm.lower)).normalize_or(DVec3::NEG_Y);
        let mut front = along.cross(DVec3::Y).normalize_or(DVec3::NEG_Z);
        if front.z > 0.0 {
            front = -front;
        }
        let finger = |name: &str, fallback: DVec3| {
            let p = head_of(&format!("{side}{name}"))
                .filter(|(_, b)| *b == arm.end)
                .map_or(fallback, |(p, _)| p);
            Some((p, arm.end))
        };
        let palm = w + along * 0.045 * h;
        out.push((hand, finger("中指１", palm)));
        out.push((index, finger("人指１", palm + front * 0.012 * h)));
        out.push((pinky, finger("小指１", palm - front * 0.012 * h)));
        out.push((thumb, finger("親指１", w + along * 0.02 * h + front * 0.02 * h)));
    }

    fn place_leg(
        &self,
        s: usize,
        head_of: &impl Fn(&str) -> Placed,
        out: &mut Vec<(Role, Placed)>,
    ) {
        use Role::*;
        let [hip, knee, ankle, heel, toe, big, small] = if s == 0 {
            [LeftHip, LeftKnee, LeftAnkle, LeftHeel, LeftToe, LeftBigToe, LeftSmallToe]
        } else {
            [RightHip, RightKnee, RightAnkle, RightHeel, RightToe, RightBigToe, RightSmallToe]
        };
        let (leg, h) = (self.legs[s], self.height);
        let rest = |r: usize| self.rest(r);
        let carrier = self.bones[leg.upper].parent.unwrap_or(self.lower_body);
        out.push((hip, Some((rest(leg.upper), carrier))));
        out.push((knee, Some((rest(leg.lower), leg.upper))));
        out.push((ankle, Some((rest(leg.end), leg.lower))));
        // The foot: つま先 where the model has it, else a toe in front of the ankle on the
        // floor; the heel behind the ankle at the toe's height; toes to either side.
        let a = rest(leg.end);
        let toe_tip = head_of(&format!("{}つま先", SIDES[s]))
            .filter(|(_, b)| *b == leg.end)
            .map_or(DVec3::new(a.x, 0.0, a.z - 0.11 * h), |(p, _)| p);
        // Inward is toward the body's midline: −X for the left foot (+X side).
        let inward = if a.x >= 0.0 { DVec3::NEG_X } else { DVec3::X };
        let length = (a.z - toe_tip.z).abs().max(0.05 * h);
        out.push((toe, Some((toe_tip, leg.end))));
        out.push((heel, Some((DVec3::new(a.x, toe_tip.y, a.z + 0.35 * length), leg.end))));
        out.push((big, Some((toe_tip + inward * 0.018 * h, leg.end))));
        out.push((small, Some((toe_tip - inward * 0.025 * h + DVec3::Z * 0.02 * h, leg.end))));
    }

    fn place_head(&self, head_of: &impl Fn(&str) -> Placed, out: &mut Vec<(Role, Placed)>) {
        use Role::*;
        let Some(head) = self.head else { return };
        let base = self.rest(head);
        let r = 0.06 * self.height;
        let eye = |name: &str, x: f64| {
            head_of(name)
                .filter(|(_, b)| *b == head)
                .map_or(base + DVec3::new(x * r, 0.9 * r, -0.85 * r), |(p, _)| p)
        };
        let points = [
            (HeadCentre, base + DVec3::new(0.0, 0.8 * r, 0.0)),
            (HeadTop, base + DVec3::new(0.0, 2.0 * r, 0.0)),
            (Nose, base + DVec3::new(0.0, 0.55 * r, -1.05 * r)),
            (LeftEye, eye("左目", 0.35)),
            (RightEye, eye("右目", -0.35)),
            (LeftEar, base + DVec3::new(0.95 * r, 0.7 * r, 0.0)),
            (RightEar, base + DVec3::new(-0.95 * r, 0.7 * r, 0.0)),
            (MouthLeft, base + DVec3::new(0.3 * r, 0.2 * r, -0.9 * r)),
            (MouthRight, base + DVec3::new(-0.3 * r, 0.2 * r, -0.9 * r)),
        ];
        out.extend(points.into_iter().map(|(role, p)| (role, Some((p, head)))));
    }
}
