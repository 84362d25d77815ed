//! [`Rig`]: the bones the retargeting keys on a target skeleton, and where every keypoint
//! [`Role`] sits on it ("anchors").
//!
//! The solver works on a reduced chain of the keyed bones: each keyed bone's parent is its
//! nearest keyed ancestor, and the bones in between (腰, 腕捩, 肩C, 腰キャンセル…) stay at rest.
//! That is exact whenever those bones have no keys of their own, which is true of everything
//! the retargeting writes: their append sources are unkeyed bones, so they stay at rest too.
//!
//! Anchors come from the target's own bones, never from constants: a joint is a bone head
//! (ひざ for a knee) or a point fixed in a bone's frame, placed from the model's proportions
//! where the model has no bone for it (a heel, an ear). A point is rigid with the nearest keyed
//! bone above it, which is what lets a solved pose reproduce the points exactly.

use crate::keypoints::Role;
use crate::skeleton::Skeleton;
use glam::DVec3;

/// One keyed rotation bone of the reduced chain.
#[derive(Clone, Debug)]
pub(crate) struct RigBone {
    /// Index in the skeleton.
    pub skel: usize,
    /// Nearest keyed ancestor, as a rig index; `None` under the root translation.
    pub parent: Option<usize>,
    /// Rest head position, model space.
    pub rest: DVec3,
    /// A rotation append from another rig bone (rig index, ratio, local): its key is what is
    /// left after the append the model adds.
    pub append: Option<(usize, f32, bool)>,
}

/// A point rigid with a rig bone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Anchor {
    /// Rig index of the bone it moves with.
    pub bone: usize,
    /// Rest position, model space.
    pub rest: DVec3,
}

/// Where a posed skeleton has an anchor, for making keypoints from a motion: with the full
/// evaluator, so from the bones themselves, not from the reduced chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Source {
    /// A bone's head (skeleton index).
    Head(usize),
    /// The mean of two bones' heads.
    Mean(usize, usize),
    /// A point fixed in a bone's frame (skeleton index), at this rest position.
    Offset(usize, DVec3),
}

/// One side's limb of three segments: shoulder (optional) → arm → elbow → wrist, or
/// leg → knee → ankle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limb {
    /// 肩 (arms only, when the model has it).
    pub clavicle: Option<usize>,
    /// 腕 or 足.
    pub upper: usize,
    /// ひじ or ひざ.
    pub lower: usize,
    /// 手首 or 足首.
    pub end: usize,
}

/// The keyed bones of a target skeleton and its anchors.
#[derive(Clone, Debug)]
pub(crate) struct Rig {
    pub bones: Vec<RigBone>,
    /// `ancestors[b]`: bit `a` set when rig bone `a` is `b` or above it.
    pub ancestors: Vec<u64>,
    /// `child_toward[a · n + b]`: the child of `a` that is `b` or above it.
    child_toward: Vec<Option<usize>>,
    pub anchors: Vec<Option<Anchor>>,
    /// Per role, how to read its anchor off a posed skeleton.
    pub sources: Vec<Option<Source>>,
    /// センター, the root of the reduced chain.
    pub root: usize,
    pub lower_body: usize,
    pub upper_body: usize,
    pub upper_body2: Option<usize>,
    pub neck: Option<usize>,
    pub head: Option<usize>,
    /// Left, right.
    pub arms: [Limb; 2],
    /// Left, right.
    pub legs: [Limb; 2],
    /// Skeleton indices of センター and グルーブ (when present).
    pub centre: usize,
    pub groove: Option<usize>,
    /// Skeleton indices of 左/右 足ＩＫ and つま先ＩＫ, when present.
    pub leg_ik: [Option<usize>; 2],
    pub toe_ik: [Option<usize>; 2],
    /// The model's height to the top of the head, units: the scale of synthetic anchors.
    pub height: f64,
    /// Per arm, 手捩 (skeleton index) and its fixed axis, when the model has one between ひじ
    /// and 手首: the forearm's twist goes there, as animators put it, not into the wrist.
    pub forearm_twist: [Option<(usize, DVec3)>; 2],
}

/// A bone the retargeting needs and the target lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MissingBones(pub Vec<&'static str>);

const SIDES: [&str; 2] = ["左", "右"];

impl Rig {
    /// The rig of `skeleton`; the bones every body needs must exist.
    pub fn new(skeleton: &Skeleton) -> Result<Rig, MissingBones> {
        let find = |name: &str| skeleton.bone_index(name);
        let mut missing = Vec::new();
        let mut need = |name: &'static str| {
            let found = find(name);
            if found.is_none() {
                missing.push(name);
            }
            found.unwrap_or(0)
        };
        let centre = need("センター");
        let lower = need("下半身");
        let upper = need("上半身");
        let mut sided = [[0usize; 7]; 2];
        const LIMB_BONES: [[&str; 7]; 2] = [
            ["左腕", "左ひじ", "左手首", "左足", "左ひざ", "左足首", "左肩"],
            ["右腕", "右ひじ", "右手首", "右足", "右ひざ", "右足首", "右肩"],
        ];
        for (s, names) in LIMB_BONES.iter().enumerate() {
            for (k, name) in names.iter().take(6).enumerate() {
                sided[s][k] = need(name);
            }
        }
        if !missing.is_empty() {
            return Err(MissingBones(missing));
        }
        let upper2 = find("上半身2");
        let neck = find("首");
        let head = find("頭");
        let clavicles = [find("左肩"), find("右肩")];

        // Keyed bones, parents before children. センター is keyed too: its rotation is what
        // carries 上半身 and 下半身 together where their heads differ (a turn of センター or 腰
        // in a motion made elsewhere); the torso fit keeps it at rest unless it is needed.
        let mut keyed: Vec<usize> = vec![centre, lower, upper];
        keyed.extend(upper2);
        keyed.extend(neck);
        keyed.extend(head);
        for s in 0..2 {
            keyed.extend(clavicles[s]);
            keyed.extend(&sided[s][..6]);
        }
        add_append_followers(skeleton, &mut keyed);
        // Parents before children, which placing pivots relies on.
        let depth = |mut b: usize| {
            let mut d = 0;
            while let Some(p) = skeleton.parent(b) {
                b = p;
                d += 1;
                if d > skeleton.bone_count() {
                    break;
                }
            }
            d
        };
        keyed.sort_by_key(|&b| depth(b));
        let mut rig_of = vec![None; skeleton.bone_count()];
        for (r, &b) in keyed.iter().enumerate() {
            rig_of[b] = Some(r);
        }
        let mut bones = Vec::with_capacity(keyed.len());
        for &b in &keyed {
            let parent = keyed_ancestor(skeleton, &rig_of, skeleton.parent(b));
            let append = skeleton.bones[b]
                .append
                .as_ref()
                .filter(|a| a.rotation)
                .and_then(|a| Some((rig_of[a.source as usize]?, a.ratio, a.local)));
            bones.push(RigBone {
                skel: b,
                parent,
                rest: skeleton.rest_position(b).as_dvec3(),
                append,
            });
        }
        let ancestors = ancestor_masks(&bones);
        let n = bones.len();
        let child_toward = (0..n * n)
            .map(|i| {
                let (a, b) = (i / n, i % n);
                (0..n).find(|&c| bones[c].parent == Some(a) && ancestors[b] & (1 << c) != 0)
            })
            .collect();
        let r = |b: usize| rig_of[b].expect("keyed");
        let limb = |s: usize, arm: bool| {
            let k = if arm { 0 } else { 3 };
            Limb {
                clavicle: if arm { clavicles[s].map(r) } else { None },
                upper: r(sided[s][k]),
                lower: r(sided[s][k + 1]),
                end: r(sided[s][k + 2]),
            }
        };
        let mut rig = Rig {
            root: r(centre),
            lower_body: r(lower),
            upper_body: r(upper),
            upper_body2: upper2.map(r),
            neck: neck.map(r),
            head: head.map(r),
            arms: [limb(0, true), limb(1, true)],
            legs: [limb(0, false), limb(1, false)],
            centre,
            groove: find("グルーブ"),
            leg_ik: [find("左足ＩＫ"), find("右足ＩＫ")],
            toe_ik: [find("左つま先ＩＫ"), find("右つま先ＩＫ")],
            height: 0.0,
            forearm_twist: [None, None],
            anchors: vec![None; Role::ALL.len()],
            sources: vec![None; Role::ALL.len()],
            ancestors,
            child_toward,
            bones,
        };
        rig.height = rig.model_height(skeleton);
        for (s, side) in SIDES.iter().enumerate() {
            let (elbow, wrist) =
                (rig.bones[rig.arms[s].lower].skel, rig.bones[rig.arms[s].end].skel);
            rig.forearm_twist[s] = skeleton.bone_index(&format!("{side}手捩")).and_then(|t| {
                let axis = skeleton.bones[t].fixed_axis.filter(|a| a.length() > 0.5)?;
                // Only the plain chain ひじ → 手捩 → 手首, with no append of its own.
                let between =
                    skeleton.parent(t) == Some(elbow) && skeleton.parent(wrist) == Some(t);
                (between && skeleton.bones[t].append.is_none()).then(|| (t, axis.as_dvec3()))
            });
        }
        rig.place_anchors(skeleton, &rig_of);
        rig.sources = (Role::ALL.iter())
            .map(|&role| Some(rig.source(skeleton, &rig_of, role, rig.anchor(role)?)))
            .collect();
        Ok(rig)
    }

    /// Rig bones that follow a trunk bone through an append (上半身3): solved with the trunk.
    pub fn trunk_followers(&self) -> impl Iterator<Item = usize> + '_ {
        let trunk =
            [Some(self.root), Some(self.lower_body), Some(self.upper_body), self.upper_body2];
        (0..self.bones.len()).filter(move |&b| {
            self.bones[b].append.is_some() && trunk.contains(&self.bones[b].parent)
        })
    }

    /// Whether 上半身 and 下半身 have different rest heads (by more than 1e-4 units).
    pub fn trunk_heads_differ(&self) -> bool {
        self.rest(self.upper_body).distance(self.rest(self.lower_body)) > 1e-4
    }

    /// The rig bone's rest head.
    pub fn rest(&self, bone: usize) -> DVec3 {
        self.bones[bone].rest
    }

    /// The child of `a` on the way down to `b` (a strict descendant of `a`).
    pub fn child_toward(&self, a: usize, b: usize) -> Option<usize> {
        self.child_toward[a * self.bones.len() + b]
    }

    /// Whether rig bone `a` is `b` or one of its ancestors.
    pub fn is_ancestor(&self, a: usize, b: usize) -> bool {
        self.ancestors[b] & (1 << a) != 0
    }

    /// The anchor of `role`.
    pub fn anchor(&self, role: Role) -> Option<Anchor> {
        self.anchors[role as usize]
    }

    /// Top of the head above the lowest foot bone: 頭 plus a head's height, or the neck base
    /// scaled when there is no head bone.
    fn model_height(&self, skeleton: &Skeleton) -> f64 {
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

    fn source(
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

    fn place_anchors(&mut self, skeleton: &Skeleton, rig_of: &[Option<usize>]) {
        let head_of = |name: &str| -> Option<(DVec3, usize)> {
            let b = skeleton.bone_index(name)?;
            let attached = keyed_ancestor(skeleton, rig_of, skeleton.parent(b))?;
            Some((skeleton.rest_position(b).as_dvec3(), attached))
        };
        let rest = |r: usize| self.bones[r].rest;
        let h = self.height;
        let mut set = |role: Role, anchor: Option<(DVec3, usize)>| {
            self.anchors[role as usize] = anchor.map(|(rest, bone)| Anchor { bone, rest });
        };
        use Role::*;
        let hips = [self.legs[0].upper, self.legs[1].upper].map(|b| self.bones[b].rest);
        set(Pelvis, Some(((hips[0] + hips[1]) / 2.0, self.lower_body)));
        let neck_base = self.neck.map_or(rest(self.upper_body) + DVec3::Y * 0.3 * h, rest);
        let upper = self.upper_body;
        match self.upper_body2 {
            Some(u2) => {
                set(Spine, Some((rest(u2), upper)));
                set(Chest, Some((rest(u2).lerp(neck_base, 0.5), u2)));
            }
            None => {
                set(Spine, Some((rest(upper).lerp(neck_base, 0.4), upper)));
                set(Chest, Some((rest(upper).lerp(neck_base, 0.7), upper)));
            }
        }
        let chest = self.upper_body2.unwrap_or(upper);
        set(
            Thorax,
            Some((neck_base, self.neck.map_or(chest, |n| self.bones[n].parent.unwrap_or(chest)))),
        );
        for (s, side) in SIDES.iter().enumerate() {
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
            let arm = self.arms[s];
            set(collar, arm.clavicle.map(|c| (rest(c), self.bones[c].parent.unwrap_or(chest))));
            set(shoulder, Some((rest(arm.upper), self.bones[arm.upper].parent.unwrap_or(chest))));
            set(elbow, Some((rest(arm.lower), arm.upper)));
            set(wrist, Some((rest(arm.end), arm.lower)));
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
            set(hand, finger("中指１", palm));
            set(index, finger("人指１", palm + front * 0.012 * h));
            set(pinky, finger("小指１", palm - front * 0.012 * h));
            set(thumb, finger("親指１", w + along * 0.02 * h + front * 0.02 * h));
        }
        for (s, side) in SIDES.iter().enumerate() {
            let [hip, knee, ankle, heel, toe, big, small] = if s == 0 {
                [LeftHip, LeftKnee, LeftAnkle, LeftHeel, LeftToe, LeftBigToe, LeftSmallToe]
            } else {
                [RightHip, RightKnee, RightAnkle, RightHeel, RightToe, RightBigToe, RightSmallToe]
            };
            let leg = self.legs[s];
            set(
                hip,
                Some((rest(leg.upper), self.bones[leg.upper].parent.unwrap_or(self.lower_body))),
            );
            set(knee, Some((rest(leg.lower), leg.upper)));
            set(ankle, Some((rest(leg.end), leg.lower)));
            let a = rest(leg.end);
            let toe_tip = head_of(&format!("{side}つま先"))
                .filter(|(_, b)| *b == leg.end)
                .map_or(DVec3::new(a.x, 0.0, a.z - 0.11 * h), |(p, _)| p);
            // Inward is toward the body's midline: −X for the left foot (+X side).
            let inward = if a.x >= 0.0 { DVec3::NEG_X } else { DVec3::X };
            let length = (a.z - toe_tip.z).abs().max(0.05 * h);
            set(toe, Some((toe_tip, leg.end)));
            set(heel, Some((DVec3::new(a.x, toe_tip.y, a.z + 0.35 * length), leg.end)));
            set(big, Some((toe_tip + inward * 0.018 * h, leg.end)));
            set(small, Some((toe_tip - inward * 0.025 * h + DVec3::Z * 0.02 * h, leg.end)));
        }
        if let Some(head) = self.head {
            let base = rest(head);
            let r = 0.06 * h;
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
            for (role, p) in points {
                set(role, Some((p, head)));
            }
        }
    }
}

/// The nearest keyed bone at or above `bone`, as a rig index.
fn keyed_ancestor(
    skeleton: &Skeleton,
    rig_of: &[Option<usize>],
    mut bone: Option<usize>,
) -> Option<usize> {
    let mut steps = 0;
    while let Some(b) = bone {
        if let Some(r) = rig_of[b] {
            return Some(r);
        }
        bone = skeleton.parent(b);
        steps += 1;
        if steps > skeleton.bone_count() {
            return None;
        }
    }
    None
}

/// Adds to `keyed` the unkeyed bones between keyed ones that follow a keyed bone's rotation
/// through an append (上半身3 takes 0.4 of 上半身2 in semi-standard models): they do not stay
/// at rest, so the solver must see them, and their keys cancel the append.
fn add_append_followers(skeleton: &Skeleton, keyed: &mut Vec<usize>) {
    loop {
        let mut added = false;
        for i in 0..keyed.len() {
            let mut b = skeleton.parent(keyed[i]);
            let mut steps = 0;
            while let Some(p) = b {
                if keyed.contains(&p) || steps > skeleton.bone_count() {
                    break;
                }
                let follows = (skeleton.bones[p].append.as_ref())
                    .is_some_and(|a| a.rotation && keyed.contains(&(a.source as usize)));
                if follows {
                    keyed.push(p);
                    added = true;
                    break;
                }
                b = skeleton.parent(p);
                steps += 1;
            }
        }
        if !added || keyed.len() > 60 {
            return;
        }
    }
}

/// Each bone's ancestors as a bit set. The chain of keyed ancestors is acyclic because the
/// skeleton's parents are, but not necessarily in the order the bones were listed.
fn ancestor_masks(bones: &[RigBone]) -> Vec<u64> {
    (0..bones.len())
        .map(|i| {
            let mut mask = 1u64 << i;
            let mut b = bones[i].parent;
            while let Some(p) = b {
                if mask & (1 << p) != 0 {
                    break;
                }
                mask |= 1 << p;
                b = bones[p].parent;
            }
            mask
        })
        .collect()
}
