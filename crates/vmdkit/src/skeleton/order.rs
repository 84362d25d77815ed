//! The deform order (reference §9.2 "Deform order", §10.3), worked out once per model.
//!
//! Bones are stable-sorted by (deform layer, index); pass 1 holds the bones without flag 0x1000,
//! pass 2 ("after physics") the rest. Two repairs make the order well defined for every model,
//! as MT and BM do for PMD (§9.3) and mmd-anim-runtime does for PMX:
//!
//! * a bone never deforms before its parent: its effective layer is raised to its parent's, a
//!   child of an after-physics bone moves to pass 2 with it, and within a layer a parent listed
//!   after its child is pulled in front of it;
//! * a parent cycle (possible in damaged files) is cut: the bone that closes it is treated as a
//!   root, and [`Skeleton::notes`](super::Skeleton::notes) says so.
//!
//! With that, every bone's parent is final when the bone is computed, so a pose depends only on
//! its input, never on an earlier frame.

use super::bones::SkelBone;
use super::notes::SkeletonNote;
use crate::model::Model;

/// A run of the deform order with one (pass, layer): its bones deform, then its IK bones solve
/// (in order), as MMD's frame transform does it per layer (mmd-anim-runtime's reading).
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// One past the group's last position in the order (it starts where the previous ends).
    pub end: u32,
    /// IK chains whose IK bone is in the group, in deform order.
    pub iks: Vec<u32>,
}

/// Both passes' deform order, and each bone's effective (after physics, layer).
pub(crate) struct DeformOrder {
    /// Bone indices, pass 1 then pass 2.
    pub order: Vec<u32>,
    /// Where pass 2 starts in `order`.
    pub pass2_start: usize,
    /// Per bone: the (pass, layer) it deforms in, after the repairs.
    keys: Vec<(bool, i64)>,
}

impl DeformOrder {
    /// The order of `model`'s bones under the acyclic `parents`, repaired as the module says.
    pub(crate) fn new(model: &Model, parents: &[Option<u32>]) -> DeformOrder {
        let (layer, after) = effective_layers(model, parents);
        let n = model.bones.len();
        let mut sorted: Vec<u32> = (0..n as u32).collect();
        sorted.sort_by_key(|&b| (after[b as usize], layer[b as usize], b));
        let order = parents_first(&sorted, parents);
        let pass2_start = order.iter().position(|&b| after[b as usize]).unwrap_or(n);
        DeformOrder { order, pass2_start, keys: after.into_iter().zip(layer).collect() }
    }

    /// The runs of equal (pass, layer), each with the IK chains its bones solve.
    pub(crate) fn groups(&self, bones: &[SkelBone]) -> Vec<Group> {
        let (order, keys) = (&self.order, &self.keys);
        let mut groups: Vec<Group> = Vec::new();
        for (p, &b) in order.iter().enumerate() {
            if p == 0 || keys[b as usize] != keys[order[p - 1] as usize] {
                groups.push(Group { end: p as u32, iks: Vec::new() });
            }
            let group = groups.last_mut().expect("pushed above");
            group.end = p as u32 + 1;
            if let Some(k) = bones[b as usize].ik {
                group.iks.push(k);
            }
        }
        groups
    }
}

/// Parents with every cycle cut: walking up from each bone, the first parent link that returns
/// to a bone already on the walk is dropped.
pub(crate) fn acyclic_parents(model: &Model, notes: &mut Vec<SkeletonNote>) -> Vec<Option<u32>> {
    let n = model.bones.len();
    let mut parents: Vec<Option<u32>> =
        model.bones.iter().map(|b| b.parent.map(|p| p as u32)).collect();
    // 0 unvisited, 1 on the current walk, 2 known to reach a root.
    let mut state = vec![0u8; n];
    let mut walk = Vec::new();
    for start in 0..n {
        let mut b = start;
        walk.clear();
        loop {
            if state[b] == 2 {
                break;
            }
            if state[b] == 1 {
                // `b` is on the walk, so the last bone walked (whose parent is `b`) closes
                // the cycle.
                let closer = *walk.last().expect("a revisit needs a walk");
                parents[closer] = None;
                notes.push(SkeletonNote::ParentCycle { bone: closer });
                break;
            }
            state[b] = 1;
            walk.push(b);
            match parents[b] {
                Some(p) => b = p as usize,
                None => break,
            }
        }
        for &w in &walk {
            state[w] = 2;
        }
    }
    parents
}

/// Each bone's effective layer and phase: never below its parent's. Parents first, by walking
/// each bone's ancestry (acyclic now) with memoisation.
fn effective_layers(model: &Model, parents: &[Option<u32>]) -> (Vec<i64>, Vec<bool>) {
    let n = model.bones.len();
    let mut layer = vec![i64::MIN; n];
    let mut after = vec![false; n];
    let mut done = vec![false; n];
    let mut stack = Vec::new();
    for start in 0..n {
        let mut b = start;
        while !done[b] {
            stack.push(b);
            match parents[b] {
                Some(p) if !done[p as usize] => b = p as usize,
                _ => break,
            }
        }
        while let Some(b) = stack.pop() {
            let own = (i64::from(model.bones[b].deform_layer), model.bones[b].after_physics);
            (layer[b], after[b]) = match parents[b] {
                Some(p) => (own.0.max(layer[p as usize]), own.1 || after[p as usize]),
                None => own,
            };
            done[b] = true;
        }
    }
    (layer, after)
}

/// `sorted` with any parent listed after its child pulled in front of it (post-order walk from
/// each bone in sorted order). Parents share the child's pass and layer or precede it, so
/// passes stay contiguous.
fn parents_first(sorted: &[u32], parents: &[Option<u32>]) -> Vec<u32> {
    let n = sorted.len();
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut chain = Vec::new();
    for &b in sorted {
        let mut c = b;
        chain.clear();
        while !placed[c as usize] {
            chain.push(c);
            match parents[c as usize] {
                Some(p) => c = p,
                None => break,
            }
        }
        for &c in chain.iter().rev() {
            placed[c as usize] = true;
            order.push(c);
        }
    }
    order
}
