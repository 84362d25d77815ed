//! Which bones move which: the bones whose keys change a given set of bones' poses (their
//! parents, the bones they append from, the IK bones that turn them, and so on up). A track
//! of such a bone is part of the body fit, never a copy: copied on top of the solved bones it
//! would move the body twice.

use crate::model::Model;

/// Per bone of `model`, whether its keys move any of `seeds` (which count themselves: a
/// seed's own rotation matters) — through parents, append sources and IK chains, to a fixed
/// point.
pub(super) fn drivers(model: &Model, seeds: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let n = model.bones.len();
    let mut marked = vec![false; n];
    let mut work: Vec<usize> = seeds.into_iter().filter(|&b| b < n).collect();
    // The IK bones that turn each bone, found once.
    let mut turned_by: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, bone) in model.bones.iter().enumerate() {
        for link in bone.ik.iter().flat_map(|ik| &ik.links) {
            if link.bone < n {
                turned_by[link.bone].push(k);
            }
        }
    }
    while let Some(b) = work.pop() {
        if std::mem::replace(&mut marked[b], true) {
            continue;
        }
        let bone = &model.bones[b];
        work.extend(bone.parent.filter(|&p| p < n));
        work.extend(bone.append.map(|a| a.parent).filter(|&p| p < n));
        work.extend(turned_by[b].iter().copied());
    }
    marked
}

/// The seeds that move a bone's head: its parent (its own rotation turns it about its head,
/// which stays put).
pub(super) fn head_seed(model: &Model, bone: usize) -> Option<usize> {
    model.bones.get(bone)?.parent
}
