//! Per-bone data as evaluation reads it every frame: [`SkelBone`] and its [`AppendRef`]. A leaf
//! of the module: the rule files (append, IK) and the build (order, rig) all read it, and it
//! reads none of them.

use super::notes::SkeletonNote;
use crate::model::{Append, Model};
use glam::Vec3;

/// Append (付与) as evaluation uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AppendRef {
    pub source: u32,
    pub ratio: f32,
    pub rotation: bool,
    pub translation: bool,
    pub local: bool,
}

impl AppendRef {
    /// `append` of bone `bone`, or None when it moves nothing or names the bone itself (noted).
    fn new(bone: usize, append: &Append, notes: &mut Vec<SkeletonNote>) -> Option<AppendRef> {
        if !(append.rotation || append.translation) {
            return None;
        }
        if append.parent == bone {
            notes.push(SkeletonNote::SelfAppend { bone });
            return None;
        }
        Some(AppendRef {
            source: append.parent as u32,
            ratio: append.ratio,
            rotation: append.rotation,
            translation: append.translation,
            local: append.local,
        })
    }
}

/// One bone, reduced to what evaluation reads every frame.
#[derive(Clone, Debug)]
pub(crate) struct SkelBone {
    pub parent: Option<u32>,
    /// Rest position, model space.
    pub rest: Vec3,
    /// `rest − parent.rest`: the local translation at rest (bones have no rest rotation).
    pub rest_offset: Vec3,
    pub append: Option<AppendRef>,
    /// Unit axis, or `Some(ZERO)` for a degenerate one (the bone cannot rotate by key).
    pub fixed_axis: Option<Vec3>,
    /// Index into the skeleton's IK chains of the chain this bone solves.
    pub ik: Option<u32>,
    /// Whether some IK moves this bone (it then has an IK rotation).
    pub ik_link: bool,
}

impl SkelBone {
    /// Every bone of `model` under the repaired `parents`, without IK (the chains fill that in).
    pub(crate) fn all(
        model: &Model,
        parents: &[Option<u32>],
        notes: &mut Vec<SkeletonNote>,
    ) -> Vec<SkelBone> {
        let rest = |p: Option<u32>| p.map_or(Vec3::ZERO, |p| model.bones[p as usize].position);
        (model.bones.iter().zip(parents).enumerate())
            .map(|(i, (b, &parent))| SkelBone {
                parent,
                rest: b.position,
                rest_offset: b.position - rest(parent),
                append: b.append.as_ref().and_then(|a| AppendRef::new(i, a, notes)),
                fixed_axis: b.fixed_axis.map(|a| a.try_normalize().unwrap_or(Vec3::ZERO)),
                ik: None,
                ik_link: false,
            })
            .collect()
    }
}
