//! Which bones the figure draws, and how: MMD shows a model's body, not its helper bones.
//!
//! Rules (docs/render.md):
//! - a bone whose visible flag is off (センター先, toe-IK tips, MMD's hidden helpers) is left
//!   out by `body` and `visible`; its children are still placed, joined to the nearest drawn
//!   ancestor;
//! - `body` draws the standard and semi-standard bones of `vmdkit`'s dictionary (fingers, eyes,
//!   leg IK included) and nothing else;
//! - `visible` adds every other visible bone; `all` draws every bone, hidden ones too;
//! - a *physics chain* (hair, skirt, necktie, breasts) is a bone outside the dictionary that is
//!   no IK bone and whose nearest dictionary ancestor is on the trunk or head (頭, 首, 上半身,
//!   上半身2, 上半身3, 下半身, 腰). PMX rigid bodies are not read, so this is the rule instead of
//!   "driven by a rigid body in physics mode". Such bones are drawn thinner and lighter.

use vmdkit::model::{BoneFlags, Model};
use vmdkit::names::{to_english, EnglishStyle};
use vmdkit::skeleton::Skeleton;

/// Which bones the figure draws (`--bones`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BoneSet {
    /// The standard and semi-standard bones MMD shows (fingers included): the body.
    #[default]
    Body,
    /// Every bone whose visible flag is on: the body, hair, skirt and other extras.
    Visible,
    /// Every bone, hidden helpers too.
    All,
}

impl BoneSet {
    /// `body`, `visible` or `all`.
    pub fn parse(text: &str) -> Option<BoneSet> {
        match text.trim().to_ascii_lowercase().as_str() {
            "body" => Some(BoneSet::Body),
            "visible" => Some(BoneSet::Visible),
            "all" => Some(BoneSet::All),
            _ => None,
        }
    }
}

/// How one bone is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BoneStyle {
    /// Not drawn at all (no line, no dot, no label).
    Hidden,
    /// A body line.
    Body,
    /// A physics chain: a thinner, lighter line.
    Physics,
}

/// Bones whose extras hang like hair and cloth rather than limbs.
const TRUNK: [&str; 7] = ["頭", "首", "上半身", "上半身2", "上半身3", "下半身", "腰"];

/// Each bone's visible flag (true for a bone the model does not list).
pub fn visible_flags(model: &Model, skeleton: &Skeleton) -> Vec<bool> {
    (0..skeleton.bone_count())
        .map(|b| model.bones.get(b).is_none_or(|bone| bone.flags.contains(BoneFlags::VISIBLE)))
        .collect()
}

/// How each bone is drawn under `set`, from its `visible` flag (indices as in `skeleton`).
pub fn bone_styles(skeleton: &Skeleton, visible: &[bool], set: BoneSet) -> Vec<BoneStyle> {
    let n = skeleton.bone_count();
    let standard: Vec<bool> =
        (0..n).map(|b| to_english(skeleton.bone_name(b), EnglishStyle::Mmd).is_some()).collect();
    let mut ik_bone = vec![false; n];
    for k in 0..skeleton.ik_count() {
        ik_bone[skeleton.ik_bone(k)] = true;
    }
    let physics = |b: usize| {
        if standard[b] || ik_bone[b] {
            return false;
        }
        // The nearest dictionary ancestor; the skeleton's parents are acyclic, and the step
        // count bounds the walk anyway.
        let mut p = skeleton.parent(b);
        for _ in 0..n {
            match p {
                Some(a) if standard[a] => return TRUNK.contains(&skeleton.bone_name(a)),
                Some(a) => p = skeleton.parent(a),
                None => return false,
            }
        }
        false
    };
    (0..n)
        .map(|b| match set {
            _ if !visible[b] && set != BoneSet::All => BoneStyle::Hidden,
            BoneSet::Body if !standard[b] => BoneStyle::Hidden,
            _ if physics(b) => BoneStyle::Physics,
            _ => BoneStyle::Body,
        })
        .collect()
}

/// For each drawn bone, the bone its line goes to: the nearest ancestor that is drawn, unless
/// an IK goal or a floor-level root comes first (no line then, as before hidden bones were
/// left out: an IK goal is not part of the limb, and the root is not part of the body).
pub fn drawn_parents(
    skeleton: &Skeleton,
    styles: &[BoneStyle],
    ik_goal: &[bool],
    floor_root: &[bool],
) -> Vec<Option<usize>> {
    let n = skeleton.bone_count();
    (0..n)
        .map(|b| {
            if styles[b] == BoneStyle::Hidden || ik_goal[b] {
                return None;
            }
            let mut p = skeleton.parent(b);
            for _ in 0..n {
                let a = p?;
                if ik_goal[a] || floor_root[a] {
                    return None;
                }
                if styles[a] != BoneStyle::Hidden {
                    return Some(a);
                }
                p = skeleton.parent(a);
            }
            None
        })
        .collect()
}
