//! [`KeyedRig`]: the bones the retargeting keys on a target skeleton, and where every keypoint
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

use super::fingers::FingerRig;
use crate::roles::Role;
use crate::skeleton::Skeleton;
use glam::DVec3;

/// One keyed rotation bone of the reduced chain.
#[derive(Clone, Debug)]
pub(crate) struct KeyedBone {
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
pub(crate) struct KeyedRig {
    pub bones: Vec<KeyedBone>,
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
    /// The finger bones, solved apart from the body (`fingers/`): the hand points are read off a
    /// pose through it, as the body's are through `sources`.
    pub fingers: FingerRig,
}

/// A bone the retargeting needs and the target lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MissingBones(pub Vec<&'static str>);

pub(super) const SIDES: [&str; 2] = ["左", "右"];

/// Rig bones at most: the ancestor sets are 64-bit masks.
const MAX_RIG_BONES: usize = 64;

/// The bones every body needs, by skeleton index: センター, 下半身, 上半身, and per side (left,
/// right) 腕, ひじ, 手首, 足, ひざ, 足首.
struct Required {
    centre: usize,
    lower: usize,
    upper: usize,
    sided: [[usize; 6]; 2],
}

impl Required {
    fn find(skeleton: &Skeleton) -> Result<Required, MissingBones> {
        let mut missing = Vec::new();
        let mut need = |name: &'static str| {
            let found = skeleton.bone_index(name);
            if found.is_none() {
                missing.push(name);
            }
            found.unwrap_or(0)
        };
        const LIMB_BONES: [[&str; 6]; 2] = [
            ["左腕", "左ひじ", "左手首", "左足", "左ひざ", "左足首"],
            ["右腕", "右ひじ", "右手首", "右足", "右ひざ", "右足首"],
        ];
        let (centre, lower, upper) = (need("センター"), need("下半身"), need("上半身"));
        let sided = LIMB_BONES.map(|names| names.map(&mut need));
        if missing.is_empty() {
            Ok(Required { centre, lower, upper, sided })
        } else {
            Err(MissingBones(missing))
        }
    }
}

impl KeyedRig {
    /// The rig of `skeleton`; the bones every body needs must exist.
    pub fn new(skeleton: &Skeleton) -> Result<KeyedRig, MissingBones> {
        let required = Required::find(skeleton)?;
        let find = |name: &str| skeleton.bone_index(name);
        let (upper2, neck, head) = (find("上半身2"), find("首"), find("頭"));
        let clavicles = [find("左肩"), find("右肩")];

        // センター is keyed too, for its translation; the torso fit leaves its turn at rest
        // (`solve/torso.rs`, `torso_group`).
        let mut keyed: Vec<usize> = vec![required.centre, required.lower, required.upper];
        keyed.extend(upper2.into_iter().chain(neck).chain(head));
        for (clavicle, limbs) in clavicles.iter().zip(&required.sided) {
            keyed.extend(clavicle);
            keyed.extend(limbs);
        }
        add_append_followers(skeleton, &mut keyed);
        // Parents before children, which placing pivots relies on.
        keyed.sort_by_key(|&b| depth(skeleton, b));
        let mut rig_of = vec![None; skeleton.bone_count()];
        for (r, &b) in keyed.iter().enumerate() {
            rig_of[b] = Some(r);
        }
        let bones = rig_bones(skeleton, &keyed, &rig_of);
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
            let (k, sided) = (if arm { 0 } else { 3 }, required.sided[s]);
            Limb {
                clavicle: if arm { clavicles[s].map(r) } else { None },
                upper: r(sided[k]),
                lower: r(sided[k + 1]),
                end: r(sided[k + 2]),
            }
        };
        let mut rig = KeyedRig {
            root: r(required.centre),
            lower_body: r(required.lower),
            upper_body: r(required.upper),
            upper_body2: upper2.map(r),
            neck: neck.map(r),
            head: head.map(r),
            arms: [limb(0, true), limb(1, true)],
            legs: [limb(0, false), limb(1, false)],
            centre: required.centre,
            groove: find("グルーブ"),
            leg_ik: [find("左足ＩＫ"), find("右足ＩＫ")],
            toe_ik: [find("左つま先ＩＫ"), find("右つま先ＩＫ")],
            height: 0.0,
            forearm_twist: [None, None],
            fingers: FingerRig::new(skeleton),
            anchors: vec![None; Role::ALL.len()],
            sources: vec![None; Role::ALL.len()],
            ancestors,
            child_toward,
            bones,
        };
        rig.height = rig.model_height(skeleton);
        rig.forearm_twist = [0, 1].map(|s| rig.forearm_twist_bone(skeleton, s));
        rig.place_anchors(skeleton, &rig_of);
        rig.sources = (Role::ALL.iter())
            .map(|&role| Some(rig.source(skeleton, &rig_of, role, rig.anchor(role)?)))
            .collect();
        Ok(rig)
    }

    /// 手捩 of arm `s` and its fixed axis, when it sits plainly between ひじ and 手首 (no
    /// append of its own).
    fn forearm_twist_bone(&self, skeleton: &Skeleton, s: usize) -> Option<(usize, DVec3)> {
        let (elbow, wrist) =
            (self.bones[self.arms[s].lower].skel, self.bones[self.arms[s].end].skel);
        let t = skeleton.bone_index(&format!("{}手捩", SIDES[s]))?;
        let axis = skeleton.bones[t].fixed_axis.filter(|a| a.length() > 0.5)?;
        let between = skeleton.parent(t) == Some(elbow) && skeleton.parent(wrist) == Some(t);
        (between && skeleton.bones[t].append.is_none()).then(|| (t, axis.as_dvec3()))
    }

    /// Rig bones that follow a trunk bone through an append (上半身3): solved with the trunk.
    pub fn trunk_followers(&self) -> impl Iterator<Item = usize> + '_ {
        let trunk =
            [Some(self.root), Some(self.lower_body), Some(self.upper_body), self.upper_body2];
        (0..self.bones.len()).filter(move |&b| {
            self.bones[b].append.is_some() && trunk.contains(&self.bones[b].parent)
        })
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
}

/// The nearest keyed bone at or above `bone`, as a rig index.
pub(super) fn keyed_ancestor(
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
                if follows && keyed.len() < MAX_RIG_BONES {
                    keyed.push(p);
                    added = true;
                    break;
                }
                b = skeleton.parent(p);
                steps += 1;
            }
        }
        if !added {
            return;
        }
    }
}

/// A bone's number of ancestors (cut at the bone count: the skeleton's parents are acyclic).
fn depth(skeleton: &Skeleton, mut bone: usize) -> usize {
    let mut d = 0;
    while let Some(p) = skeleton.parent(bone) {
        bone = p;
        d += 1;
        if d > skeleton.bone_count() {
            break;
        }
    }
    d
}

/// The rig bones of `keyed` (skeleton indices, parents first): each one's nearest keyed
/// ancestor, rest head, and rotation append from another keyed bone.
fn rig_bones(skeleton: &Skeleton, keyed: &[usize], rig_of: &[Option<usize>]) -> Vec<KeyedBone> {
    keyed
        .iter()
        .map(|&b| KeyedBone {
            skel: b,
            parent: keyed_ancestor(skeleton, rig_of, skeleton.parent(b)),
            rest: skeleton.rest_position(b).as_dvec3(),
            append: (skeleton.bones[b].append.as_ref())
                .filter(|a| a.rotation)
                .and_then(|a| Some((rig_of[a.source as usize]?, a.ratio, a.local))),
        })
        .collect()
}

/// Each bone's ancestors as a bit set. The chain of keyed ancestors is acyclic because the
/// skeleton's parents are, but not necessarily in the order the bones were listed.
fn ancestor_masks(bones: &[KeyedBone]) -> Vec<u64> {
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
