//! Morphs that move bones (reference §10.3 step 2): applied before any bone deforms.
//!
//! A group morph drives each member bone morph at `ratio × weight`; a bone morph's effective
//! weight is its own track's plus every group's share (BM, SB and mmd-anim-runtime all add).
//! Each bone morph then adds `weight × translation` to the bone's local offset and rotates it
//! by `slerp(identity, rotation, weight)`; several morphs on one bone compose in model order.
//! Weights are not clamped, as MMD leaves them (negative and >1 weights extrapolate).

use super::append::scale_rotation;
use crate::model::{Model, MorphKind};
use glam::{Quat, Vec3};

#[derive(Clone, Copy, Debug)]
struct Offset {
    bone: u32,
    translation: Vec3,
    rotation: Quat,
}

/// Where one morph's entries sit: `offsets[start..end]` for a bone morph, `members[start..end]`
/// for a group morph.
#[derive(Clone, Copy, Debug)]
struct Span {
    group: bool,
    start: u32,
    end: u32,
}

impl Span {
    /// Appends `items` to `list`, returning where they landed.
    fn push<T>(group: bool, list: &mut Vec<T>, items: impl Iterator<Item = T>) -> Span {
        let start = list.len() as u32;
        list.extend(items);
        Span { group, start, end: list.len() as u32 }
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Bone and group morphs in flat arrays: `spans[m]` says where morph m's entries are.
#[derive(Clone, Debug, Default)]
pub(crate) struct MorphTable {
    offsets: Vec<Offset>,
    members: Vec<(u32, f32)>,
    spans: Vec<Span>,
}

impl MorphTable {
    /// The bone and group morphs of `model`, entries naming a bone or morph it lacks left out.
    pub(crate) fn new(model: &Model) -> MorphTable {
        let mut table = MorphTable::default();
        for morph in &model.morphs {
            let span = match &morph.kind {
                MorphKind::Bone(offsets) => Span::push(
                    false,
                    &mut table.offsets,
                    offsets.iter().filter(|o| o.bone < model.bones.len()).map(|o| Offset {
                        bone: o.bone as u32,
                        translation: o.translation,
                        rotation: crate::math::normalized_rotation(o.rotation),
                    }),
                ),
                MorphKind::Group(members) => Span::push(
                    true,
                    &mut table.members,
                    (members.iter().filter(|g| g.morph < model.morphs.len()))
                        .map(|g| (g.morph as u32, g.ratio)),
                ),
            };
            table.spans.push(span);
        }
        table
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Folds group weights into their members, in place: `weights[m]` becomes bone morph m's
    /// effective weight (group entries are left as they were and ignored afterwards).
    pub(crate) fn expand_groups(&self, weights: &mut [f32]) {
        for (m, span) in self.spans.iter().enumerate() {
            let w = weights[m];
            if !span.group || w == 0.0 {
                continue;
            }
            for &(member, ratio) in &self.members[span.range()] {
                // Members are bone morphs (the model reader drops nested groups).
                if !self.spans[member as usize].group {
                    weights[member as usize] += w * ratio;
                }
            }
        }
    }

    /// Adds every bone morph at its effective weight to the bones' local offsets and rotations
    /// (`rotations` hold the morph rotation alone, composed in model order).
    pub(crate) fn apply(&self, weights: &[f32], translations: &mut [Vec3], rotations: &mut [Quat]) {
        for (m, span) in self.spans.iter().enumerate() {
            let w = weights[m];
            if span.group || w == 0.0 || !w.is_finite() {
                continue;
            }
            for o in &self.offsets[span.range()] {
                let b = o.bone as usize;
                translations[b] += o.translation * w;
                if o.rotation != Quat::IDENTITY {
                    rotations[b] = (rotations[b] * scale_rotation(o.rotation, w)).normalize();
                }
            }
        }
    }
}
