//! [`Skeleton`]: what evaluation needs from a [`Model`], precomputed once: rest offsets, the
//! deform order of both passes (`order.rs`), append sources, fixed axes (`bones.rs`), IK chains
//! (`ik.rs`) and bone-morph tables (`morph.rs`).

use super::bones::SkelBone;
use super::ik::IkChain;
use super::morph::MorphTable;
use super::notes::SkeletonNote;
use super::order::{self, DeformOrder, Group};
use crate::model::Model;
use crate::text::KeyName;
use glam::Vec3;

/// A model's skeleton, ready to pose. Built once; immutable and shareable between threads.
#[derive(Clone, Debug)]
pub struct Skeleton {
    pub(crate) bones: Vec<SkelBone>,
    names: Vec<String>,
    pub(crate) key_names: Vec<KeyName>,
    pub(crate) morph_names: Vec<String>,
    pub(crate) morph_keys: Vec<KeyName>,
    /// Deform order: pass 1, then pass 2 from `pass2_start`.
    pub(crate) order: Vec<u32>,
    pub(crate) pass2_start: usize,
    /// Consecutive runs of `order` with equal (pass, layer).
    pub(crate) groups: Vec<Group>,
    pub(crate) iks: Vec<IkChain>,
    pub(crate) morphs: MorphTable,
    notes: Vec<SkeletonNote>,
}

impl Skeleton {
    /// Precomputes everything evaluation needs from `model`. Never fails: damaged hierarchies
    /// are repaired as the [module documentation](crate::skeleton) says, and listed in
    /// [`Skeleton::notes`].
    pub fn new(model: &Model) -> Skeleton {
        let mut notes = Vec::new();
        let parents = order::acyclic_parents(model, &mut notes);
        let mut bones = SkelBone::all(model, &parents, &mut notes);
        let deform = DeformOrder::new(model, &parents);
        let mut iks = ik_chains(model, &parents, &mut bones, &mut notes);
        let groups = deform.groups(&bones);
        // Each group deforms whole before its IK bones solve, so a chain refreshes the bones up
        // to its group's end.
        for group in &groups {
            for &k in &group.iks {
                let refresh =
                    iks[k as usize].refresh_list(&bones, &deform.order, group.end as usize);
                iks[k as usize].refresh = refresh;
            }
        }
        Skeleton {
            names: model.bones.iter().map(|b| b.name.clone()).collect(),
            key_names: model.bones.iter().map(|b| b.name_cp932).collect(),
            morph_names: model.morphs.iter().map(|m| m.name.clone()).collect(),
            morph_keys: model.morphs.iter().map(|m| m.name_cp932).collect(),
            morphs: MorphTable::new(model),
            bones,
            order: deform.order,
            pass2_start: deform.pass2_start,
            groups,
            iks,
            notes,
        }
    }

    /// The number of bones, as in the model.
    pub fn bone_count(&self) -> usize {
        self.bones.len()
    }

    /// The bone's name as the model stores it.
    pub fn bone_name(&self, bone: usize) -> &str {
        &self.names[bone]
    }

    /// Every bone's name as the model stores it, by bone index.
    pub fn bone_names(&self) -> &[String] {
        &self.names
    }

    /// The first bone (in model order) whose name is exactly `name`, as the model stores it
    /// ([`Skeleton::bone_name`]): whole, case and width as written, no normalisation.
    ///
    /// This is a lookup for people and other languages. It is not how motions find bones:
    /// [`Binding`](super::Binding) compares raw CP932 bytes, cut at a VMD key's 15 bytes (20 for
    /// IK switches), so a long model name binds through its cut form, which this does not
    /// accept. A linear scan: cache the index when posing many frames.
    pub fn bone_index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The bone's name as a VMD key carries it: CP932, cut at 15 bytes ([`Model::bone_for_key`]).
    pub fn bone_key_name(&self, bone: usize) -> &KeyName {
        &self.key_names[bone]
    }

    /// The parent used for evaluation: the model's, except where a cycle was cut.
    pub fn parent(&self, bone: usize) -> Option<usize> {
        self.bones[bone].parent.map(|p| p as usize)
    }

    /// The rest position, model space (MMD's left-handed axes).
    pub fn rest_position(&self, bone: usize) -> Vec3 {
        self.bones[bone].rest
    }

    /// The local translation at rest: the bone's position minus its parent's.
    pub fn rest_offset(&self, bone: usize) -> Vec3 {
        self.bones[bone].rest_offset
    }

    /// Every bone in the order it deforms: pass 1, then pass 2 from [`Skeleton::pass2_start`].
    pub fn deform_order(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.order.iter().map(|&b| b as usize)
    }

    /// Where pass 2 (after physics) starts in [`Skeleton::deform_order`].
    pub fn pass2_start(&self) -> usize {
        self.pass2_start
    }

    /// The number of IK chains (one per IK bone).
    pub fn ik_count(&self) -> usize {
        self.iks.len()
    }

    /// The bone that solves chain `k` (its position is the goal).
    pub fn ik_bone(&self, k: usize) -> usize {
        self.iks[k].ik_bone as usize
    }

    /// The end effector of chain `k` (the PMX "IK target").
    pub fn ik_target(&self, k: usize) -> usize {
        self.iks[k].target as usize
    }

    /// The links of chain `k`, effector side first.
    pub fn ik_links(&self, k: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.iks[k].links.iter().map(|l| l.bone as usize)
    }

    /// Whether some IK chain rotates `bone`.
    pub fn is_ik_link(&self, bone: usize) -> bool {
        self.bones[bone].ik_link
    }

    /// The number of bone-moving morphs (bone and group morphs, as [`Model::morphs`]).
    pub fn morph_count(&self) -> usize {
        self.morph_names.len()
    }

    /// The morph's name as the model stores it.
    pub fn morph_name(&self, morph: usize) -> &str {
        &self.morph_names[morph]
    }

    /// The first bone or group morph whose name is exactly `name`, as
    /// [`Skeleton::morph_name`] gives it; like [`Skeleton::bone_index`], no 15-byte CP932 cut
    /// (that is [`Binding`](super::Binding)'s matching of motion tracks).
    pub fn morph_index(&self, name: &str) -> Option<usize> {
        self.morph_names.iter().position(|n| n == name)
    }

    /// What was repaired or left out while building.
    pub fn notes(&self) -> &[SkeletonNote] {
        &self.notes
    }
}

/// One chain per IK bone, in model order, marking each chain's bone and its links in `bones`.
fn ik_chains(
    model: &Model,
    parents: &[Option<u32>],
    bones: &mut [SkelBone],
    notes: &mut Vec<SkeletonNote>,
) -> Vec<IkChain> {
    let mut iks = Vec::new();
    for (i, b) in model.bones.iter().enumerate() {
        let Some(ik) = &b.ik else { continue };
        let chain = IkChain::new(i, ik, parents, notes);
        for link in &chain.links {
            bones[link.bone as usize].ik_link = true;
        }
        bones[i].ik = Some(iks.len() as u32);
        iks.push(chain);
    }
    iks
}
