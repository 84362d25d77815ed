//! [`Skeleton`]: what evaluation needs from a [`Model`], precomputed once: rest offsets, the
//! deform order of both passes, append sources, fixed axes, IK chains and bone-morph tables.
//!
//! **Order** (reference §9.2 "Deform order", §10.3). Bones are stable-sorted by (deform layer,
//! index); pass 1 holds the bones without flag 0x1000, pass 2 ("after physics") the rest. Two
//! repairs make the order well defined for every model, as MT and BM do for PMD (§9.3) and
//! mmd-anim-runtime does for PMX:
//!
//! * a bone never deforms before its parent: its effective layer is raised to its parent's, a
//!   child of an after-physics bone moves to pass 2 with it, and within a layer a parent listed
//!   after its child is pulled in front of it;
//! * a parent cycle (possible in damaged files) is cut: the bone that closes it is treated as a
//!   root, and [`Skeleton::notes`] says so.
//!
//! With that, every bone's parent is final when the bone is computed, so a pose depends only on
//! its input, never on an earlier frame.

use super::ik::IkChain;
use super::morph::MorphTable;
use crate::model::Model;
use crate::text::KeyName;
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
    /// Index into [`Skeleton::iks`] of the chain this bone solves.
    pub ik: Option<u32>,
    /// Whether some IK moves this bone (it then has an IK rotation).
    pub ik_link: bool,
}

/// A run of the deform order with one (pass, layer): its bones deform, then its IK bones solve
/// (in order), as MMD's frame transform does it per layer (mmd-anim-runtime's reading).
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// One past the group's last position in the order (it starts where the previous ends).
    pub end: u32,
    /// IK chains whose IK bone is in the group, in deform order.
    pub iks: Vec<u32>,
}

/// Something [`Skeleton::new`] had to repair or leave out.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SkeletonNote {
    /// The parent of `bone` closed a parent cycle; the bone is treated as a root.
    ParentCycle { bone: usize },
    /// An append whose source is the bone itself was ignored.
    SelfAppend { bone: usize },
    /// An IK link that is the IK bone or its own effector was skipped.
    IkLinkSkipped { ik_bone: usize, link: usize },
}

impl std::fmt::Display for SkeletonNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkeletonNote::ParentCycle { bone } => {
                write!(f, "bone {bone}: its parent closes a cycle; treated as a root")
            }
            SkeletonNote::SelfAppend { bone } => {
                write!(f, "bone {bone}: appends from itself; ignored")
            }
            SkeletonNote::IkLinkSkipped { ik_bone, link } => {
                write!(f, "IK bone {ik_bone}: link {link} is the IK bone or its effector; skipped")
            }
        }
    }
}

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
    /// are repaired as the module documentation says, and listed in [`Skeleton::notes`].
    pub fn new(model: &Model) -> Skeleton {
        let mut notes = Vec::new();
        let parents = acyclic_parents(model, &mut notes);
        let mut bones: Vec<SkelBone> = model
            .bones
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let parent = parents[i];
                let parent_rest = parent.map_or(Vec3::ZERO, |p| model.bones[p as usize].position);
                let append = b.append.filter(|a| a.rotation || a.translation).and_then(|a| {
                    if a.parent == i {
                        notes.push(SkeletonNote::SelfAppend { bone: i });
                        return None;
                    }
                    Some(AppendRef {
                        source: a.parent as u32,
                        ratio: a.ratio,
                        rotation: a.rotation,
                        translation: a.translation,
                        local: a.local,
                    })
                });
                SkelBone {
                    parent,
                    rest: b.position,
                    rest_offset: b.position - parent_rest,
                    append,
                    fixed_axis: b.fixed_axis.map(|a| a.try_normalize().unwrap_or(Vec3::ZERO)),
                    ik: None,
                    ik_link: false,
                }
            })
            .collect();

        let (order, pass2_start, keys) = deform_order(model, &parents);
        let mut iks = Vec::new();
        for (i, b) in model.bones.iter().enumerate() {
            let Some(ik) = &b.ik else { continue };
            let chain = IkChain::new(i, ik, &parents, &mut notes);
            for link in &chain.links {
                bones[link.bone as usize].ik_link = true;
            }
            bones[i].ik = Some(iks.len() as u32);
            iks.push(chain);
        }

        // Groups of equal (pass, layer): each deforms whole, then its IK bones solve in order.
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
        for group in &groups {
            for &k in &group.iks {
                let refresh = iks[k as usize].refresh_list(&bones, &order, group.end as usize);
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
            order,
            pass2_start,
            groups,
            iks,
            notes,
        }
    }

    pub fn bone_count(&self) -> usize {
        self.bones.len()
    }

    /// The bone's name as the model stores it.
    pub fn bone_name(&self, bone: usize) -> &str {
        &self.names[bone]
    }

    pub fn bone_names(&self) -> &[String] {
        &self.names
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

    pub fn morph_name(&self, morph: usize) -> &str {
        &self.morph_names[morph]
    }

    /// What was repaired or left out while building.
    pub fn notes(&self) -> &[SkeletonNote] {
        &self.notes
    }
}

/// Parents with every cycle cut: walking up from each bone, the first parent link that returns
/// to a bone already on the walk is dropped.
fn acyclic_parents(model: &Model, notes: &mut Vec<SkeletonNote>) -> Vec<Option<u32>> {
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

/// The deform order of both passes, with the repairs of the module documentation, and each
/// bone's effective (pass, layer).
fn deform_order(model: &Model, parents: &[Option<u32>]) -> (Vec<u32>, usize, Vec<(bool, i64)>) {
    let n = model.bones.len();
    // Effective layer and phase: never below the parent's. Parents first, by walking each
    // bone's ancestry (acyclic now) with memoisation.
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
    let mut sorted: Vec<u32> = (0..n as u32).collect();
    sorted.sort_by_key(|&b| (after[b as usize], layer[b as usize], b));

    // Pull any parent listed after its child in front of it (post-order walk from each bone in
    // sorted order). Parents share the child's pass and layer or precede it, so passes stay
    // contiguous.
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut chain = Vec::new();
    for &b in &sorted {
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
    let pass2_start = order.iter().position(|&b| after[b as usize]).unwrap_or(n);
    (order, pass2_start, after.into_iter().zip(layer).collect())
}
