//! Posing: [`PoseInput`] (what a motion says at one time, per bone) → [`Pose`] (every bone in
//! model space), by [`PoseEvaluator`]; [`Poser`](super::Poser) samples a motion through a
//! [`Binding`](super::Binding) first.
//!
//! Per frame (reference §10.3):
//!
//! 1. Keyed rotations are projected onto fixed axes; bone and group morphs add their offsets
//!    and rotations (local rotation = morph · keyed, §9.2 "Local transform").
//! 2. Each (pass, layer) group in deform order: every bone's local transform (rest offset +
//!    keyed offset + morph offset + append offset; IK · keyed · append rotation) and world
//!    transform (`parent.world · local`), then the group's enabled IK bones solve in order.
//!    Pass 2 holds the after-physics bones (0x1000). [`PoseEvaluator::evaluate`] runs no
//!    physics: bones that rigid bodies would drive follow their keys (or rest) like any other
//!    bone. The simulation ([`crate::physics`]) runs the passes one at a time instead
//!    ([`PoseEvaluator::evaluate_before_physics`], [`PoseEvaluator::apply_physics`],
//!    [`PoseEvaluator::evaluate_after_physics`]), with the same code.
//! 3. World matrices: `translate(position) · rotate(rotation)`.
//!
//! Nothing carries over between frames: each evaluation starts from the input alone (IK
//! rotations from the identity, every bone from rest until it deforms), so any frame can be
//! posed in any order, on any thread, with the same result.

use super::append::{self, project_to_axis, Sources};
use super::ik::{self, ChainState, IkVariant};
use super::subset::BoneSubset;
use super::Skeleton;
use crate::eval::BoneSample;
use glam::{Mat4, Quat, Vec3};
use std::ops::Range;

/// Everything that drives one pose: the model's bones, morphs and IK switches, as keyed.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseInput {
    /// Per model bone: offset from rest and local rotation (unit), in the parent's frame.
    pub bones: Vec<BoneSample>,
    /// Per bone-moving morph ([`Skeleton::morph_name`]): its weight.
    pub morphs: Vec<f32>,
    /// Per IK chain ([`Skeleton::ik_bone`]): whether it solves.
    pub ik_enabled: Vec<bool>,
}

impl PoseInput {
    /// The rest pose: no offsets, no rotations, no morphs, every IK on.
    pub fn new(skeleton: &Skeleton) -> PoseInput {
        PoseInput {
            bones: vec![BoneSample::default(); skeleton.bone_count()],
            morphs: vec![0.0; skeleton.morph_count()],
            ik_enabled: vec![true; skeleton.ik_count()],
        }
    }
}

/// Evaluation choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PoseOptions {
    /// Which CCD step to take.
    pub ik_variant: IkVariant,
    /// Solve IK at all (false: the forward-kinematics pose of the keys).
    pub solve_ik: bool,
}

impl Default for PoseOptions {
    fn default() -> Self {
        PoseOptions { ik_variant: IkVariant::Mmd, solve_ik: true }
    }
}

/// Every bone of a skeleton in model space, plus the working state that produced it. Made once
/// by [`Pose::new`] and refilled by each evaluation without allocating.
#[derive(Clone, Debug, Default)]
pub struct Pose {
    position: Vec<Vec3>,
    rotation: Vec<Quat>,
    matrix: Vec<Mat4>,
    /// Keyed + morph offset, and the local rotation morph · keyed (projected), before append.
    keyed_offset: Vec<Vec3>,
    keyed_rotation: Vec<Quat>,
    /// After the bone's own append, before IK: what chained appends read.
    full_offset: Vec<Vec3>,
    full_rotation: Vec<Quat>,
    ik_rotation: Vec<Quat>,
    morph_rotation: Vec<Quat>,
    morph_weights: Vec<f32>,
}

impl Pose {
    /// Buffers for `skeleton`, at rest.
    pub fn new(skeleton: &Skeleton) -> Pose {
        let n = skeleton.bone_count();
        Pose {
            position: skeleton.bones.iter().map(|b| b.rest).collect(),
            rotation: vec![Quat::IDENTITY; n],
            matrix: skeleton.bones.iter().map(|b| Mat4::from_translation(b.rest)).collect(),
            keyed_offset: vec![Vec3::ZERO; n],
            keyed_rotation: vec![Quat::IDENTITY; n],
            full_offset: vec![Vec3::ZERO; n],
            full_rotation: vec![Quat::IDENTITY; n],
            ik_rotation: vec![Quat::IDENTITY; n],
            morph_rotation: vec![Quat::IDENTITY; n],
            morph_weights: vec![0.0; skeleton.morph_count()],
        }
    }

    /// The number of bones.
    pub fn len(&self) -> usize {
        self.position.len()
    }

    /// Whether the skeleton has no bones.
    pub fn is_empty(&self) -> bool {
        self.position.is_empty()
    }

    /// Every bone's model-space position (MMD's left-handed axes), by bone index.
    pub fn positions(&self) -> &[Vec3] {
        &self.position
    }

    /// Every bone's model-space rotation: from its rest orientation (bones have none of their
    /// own, so this is also its orientation in model space), by bone index.
    pub fn rotations(&self) -> &[Quat] {
        &self.rotation
    }

    /// Every bone's world matrix, `translate(position) · rotate(rotation)`.
    pub fn world_matrices(&self) -> &[Mat4] {
        &self.matrix
    }

    /// One bone's model-space position ([`Pose::positions`]).
    pub fn position(&self, bone: usize) -> Vec3 {
        self.position[bone]
    }

    /// One bone's model-space rotation ([`Pose::rotations`]).
    pub fn rotation(&self, bone: usize) -> Quat {
        self.rotation[bone]
    }

    /// One bone's world matrix ([`Pose::world_matrices`]).
    pub fn world_matrix(&self, bone: usize) -> Mat4 {
        self.matrix[bone]
    }

    /// The skinning matrix, `world · translate(−rest position)`: maps the bind pose to this one.
    pub fn skinning_matrix(&self, skeleton: &Skeleton, bone: usize) -> Mat4 {
        self.matrix[bone] * Mat4::from_translation(-skeleton.bones[bone].rest)
    }

    /// The bone's final local rotation (IK · keyed · append) in its parent's frame.
    pub fn local_rotation(&self, bone: usize) -> Quat {
        self.ik_rotation[bone] * self.full_rotation[bone]
    }

    /// The rotation IK added to the bone (identity for bones no chain moved).
    pub fn ik_rotation(&self, bone: usize) -> Quat {
        self.ik_rotation[bone]
    }

    /// The rotation bone and group morphs gave the bone (before its key: morph · keyed).
    pub(crate) fn morph_rotation(&self, bone: usize) -> Quat {
        self.morph_rotation[bone]
    }
}

impl Pose {
    /// Step 3 of the module documentation: the world matrices from positions and rotations.
    fn fill_matrices(&mut self) {
        for ((m, &r), &p) in self.matrix.iter_mut().zip(&self.rotation).zip(&self.position) {
            *m = Mat4::from_rotation_translation(r, p);
        }
    }

    /// Step 1 of the module documentation, then the state every frame starts from: every bone
    /// at rest until it deforms, no IK rotation (so that nothing carries over between frames).
    fn start_from(&mut self, skeleton: &Skeleton, input: &PoseInput) {
        for (b, (def, key)) in skeleton.bones.iter().zip(&input.bones).enumerate() {
            self.keyed_offset[b] = key.translation;
            self.keyed_rotation[b] = match def.fixed_axis {
                Some(axis) => project_to_axis(key.rotation, axis),
                None => key.rotation,
            };
        }
        if !skeleton.morphs.is_empty() {
            self.apply_morphs(skeleton, &input.morphs);
        }
        self.full_offset.copy_from_slice(&self.keyed_offset);
        self.full_rotation.copy_from_slice(&self.keyed_rotation);
        self.ik_rotation.fill(Quat::IDENTITY);
        self.rotation.fill(Quat::IDENTITY);
        for (p, def) in self.position.iter_mut().zip(&skeleton.bones) {
            *p = def.rest;
        }
    }

    /// Adds the bone and group morphs at `weights` to the keyed offsets and rotations, as
    /// morph · keyed.
    fn apply_morphs(&mut self, skeleton: &Skeleton, weights: &[f32]) {
        self.morph_weights.copy_from_slice(weights);
        skeleton.morphs.expand_groups(&mut self.morph_weights);
        self.morph_rotation.fill(Quat::IDENTITY);
        skeleton.morphs.apply(
            &self.morph_weights,
            &mut self.keyed_offset,
            &mut self.morph_rotation,
        );
        for (keyed, morph) in self.keyed_rotation.iter_mut().zip(&self.morph_rotation) {
            if *morph != Quat::IDENTITY {
                *keyed = *morph * *keyed;
            }
        }
    }
}

/// The skeleton and a pose being evaluated: one bone's update, for the pass loop and the solver.
struct Work<'a> {
    skeleton: &'a Skeleton,
    pose: &'a mut Pose,
}

impl ChainState for Work<'_> {
    #[inline]
    fn world_position(&self, bone: u32) -> Vec3 {
        self.pose.position[bone as usize]
    }

    #[inline]
    fn world_rotation(&self, bone: u32) -> Quat {
        self.pose.rotation[bone as usize]
    }

    #[inline]
    fn pre_ik_rotation(&self, bone: u32) -> Quat {
        self.pose.full_rotation[bone as usize]
    }

    #[inline]
    fn ik_rotation_mut(&mut self, bone: u32) -> &mut Quat {
        &mut self.pose.ik_rotation[bone as usize]
    }

    #[inline]
    fn update(&mut self, bone: u32) {
        let b = bone as usize;
        let def = &self.skeleton.bones[b];
        let p = &mut *self.pose;
        let mut rotation = p.keyed_rotation[b];
        let mut offset = p.keyed_offset[b];
        if let Some(a) = &def.append {
            let source = &self.skeleton.bones[a.source as usize];
            let sources = Sources {
                full_rotation: &p.full_rotation,
                full_offset: &p.full_offset,
                ik_rotation: &p.ik_rotation,
                world_rotation: &p.rotation,
                world_position: &p.position,
            };
            append::apply(a, source.ik_link, source.rest, &sources, &mut rotation, &mut offset);
            p.full_rotation[b] = rotation;
            p.full_offset[b] = offset;
        }
        if def.ik_link {
            rotation = p.ik_rotation[b] * rotation;
        }
        let local = def.rest_offset + offset;
        match def.parent {
            Some(parent) => {
                let (pr, pp) = (p.rotation[parent as usize], p.position[parent as usize]);
                p.rotation[b] = pr * rotation;
                p.position[b] = pp + pr * local;
            }
            None => {
                p.rotation[b] = rotation;
                p.position[b] = local;
            }
        }
    }
}

/// Poses a skeleton from [`PoseInput`]s. Stateless: many threads may share one.
#[derive(Clone, Copy, Debug)]
pub struct PoseEvaluator<'s> {
    skeleton: &'s Skeleton,
    options: PoseOptions,
}

impl<'s> PoseEvaluator<'s> {
    /// An evaluator for `skeleton` with the default [`PoseOptions`].
    pub fn new(skeleton: &'s Skeleton) -> Self {
        Self::with_options(skeleton, PoseOptions::default())
    }

    /// An evaluator for `skeleton` with `options`.
    pub fn with_options(skeleton: &'s Skeleton, options: PoseOptions) -> Self {
        PoseEvaluator { skeleton, options }
    }

    /// The skeleton it poses.
    pub fn skeleton(&self) -> &'s Skeleton {
        self.skeleton
    }

    /// The choices it evaluates with.
    pub fn options(&self) -> PoseOptions {
        self.options
    }

    /// Evaluates `input` into `pose`, without allocating.
    ///
    /// # Panics
    /// If `input` or `pose` were made for a skeleton of another size.
    pub fn evaluate(&self, input: &PoseInput, pose: &mut Pose) {
        self.start(input, pose);
        self.deform(input, pose, 0..self.skeleton.groups.len());
        pose.fill_matrices();
    }

    /// Like [`PoseEvaluator::evaluate`], for the bones of `subset` alone: they get exactly the
    /// positions, rotations and world matrices a full evaluation gives them; every other bone
    /// is left as the frame's start left it (at rest) or as a skipped update left it, and must
    /// not be read.
    ///
    /// # Panics
    /// If `input`, `pose` or `subset` were made for a skeleton of another size.
    pub(crate) fn evaluate_subset(&self, input: &PoseInput, pose: &mut Pose, subset: &BoneSubset) {
        assert_eq!(subset.wanted.len(), self.skeleton.bone_count(), "a subset of this skeleton");
        self.start(input, pose);
        let skeleton = self.skeleton;
        let solve = self.options.solve_ik;
        let variant = self.options.ik_variant;
        let mut work = Work { skeleton, pose };
        let mut start = 0;
        for group in &subset.groups {
            for &b in &subset.order[start..group.end as usize] {
                work.update(b);
            }
            start = group.end as usize;
            if solve {
                for (k, chain) in &group.iks {
                    if input.ik_enabled[*k as usize] {
                        ik::solve(chain, &skeleton.bones, variant, &mut work);
                    }
                }
            }
        }
        for &b in &subset.order {
            let b = b as usize;
            pose.matrix[b] = Mat4::from_rotation_translation(pose.rotation[b], pose.position[b]);
        }
    }

    /// Pass 1 of [`PoseEvaluator::evaluate`]: every bone before [`Skeleton::pass2_start`], with
    /// its IK, into `pose` (world matrices are not filled yet). Physics then places the bones its
    /// bodies drive ([`PoseEvaluator::apply_physics`]), and
    /// [`PoseEvaluator::evaluate_after_physics`] finishes the pose.
    ///
    /// # Panics
    /// If `input` or `pose` were made for a skeleton of another size.
    pub fn evaluate_before_physics(&self, input: &PoseInput, pose: &mut Pose) {
        self.start(input, pose);
        self.deform(input, pose, 0..self.pass2_group());
    }

    /// Between the passes: applies `bones`, in pass-1 deform order, to a pose pass 1 made.
    /// Each [`PhysicsBone`] either sets a bone's world transform from its body, or evaluates the
    /// bone again below its (moved) parent, keeping its local transform (keys, appends, the IK
    /// rotation pass 1 solved), and then, for [`PhysicsBone::Rotation`], takes the body's
    /// rotation.
    pub fn apply_physics(&self, bones: &[PhysicsBone], pose: &mut Pose) {
        let mut work = Work { skeleton: self.skeleton, pose };
        for bone in bones {
            match *bone {
                PhysicsBone::World { bone, position, rotation } => {
                    work.pose.position[bone as usize] = position;
                    work.pose.rotation[bone as usize] = rotation;
                }
                PhysicsBone::Rotation { bone, rotation } => {
                    work.update(bone);
                    work.pose.rotation[bone as usize] = rotation;
                }
                PhysicsBone::Refresh { bone } => work.update(bone),
            }
        }
    }

    /// Pass 2 of [`PoseEvaluator::evaluate`] (the after-physics bones, with their IK) and the
    /// world matrices, on a pose [`PoseEvaluator::evaluate_before_physics`] began with the same
    /// `input`.
    pub fn evaluate_after_physics(&self, input: &PoseInput, pose: &mut Pose) {
        self.deform(input, pose, self.pass2_group()..self.skeleton.groups.len());
        pose.fill_matrices();
    }

    /// The first group of pass 2 (groups never straddle the passes: they are runs of equal
    /// pass and layer).
    fn pass2_group(&self) -> usize {
        let start = self.skeleton.pass2_start;
        self.skeleton.groups.partition_point(|g| (g.end as usize) <= start)
    }

    /// Checks the sizes and sets `pose` up for a new frame (step 1).
    fn start(&self, input: &PoseInput, pose: &mut Pose) {
        let skeleton = self.skeleton;
        let n = skeleton.bone_count();
        assert_eq!(input.bones.len(), n, "one BoneSample per bone");
        assert_eq!(pose.len(), n, "a Pose made for this skeleton");
        assert_eq!(input.morphs.len(), skeleton.morph_count(), "one weight per morph");
        assert_eq!(input.ik_enabled.len(), skeleton.ik_count(), "one switch per IK chain");
        pose.start_from(skeleton, input);
    }

    /// Step 2 for the (pass, layer) groups `groups`: their bones, then their IK.
    fn deform(&self, input: &PoseInput, pose: &mut Pose, groups: Range<usize>) {
        let skeleton = self.skeleton;
        let solve = self.options.solve_ik;
        let variant = self.options.ik_variant;
        let mut work = Work { skeleton, pose };
        let mut start = match groups.start {
            0 => 0,
            g => skeleton.groups[g - 1].end as usize,
        };
        for group in &skeleton.groups[groups] {
            for &b in &skeleton.order[start..group.end as usize] {
                work.update(b);
            }
            start = group.end as usize;
            if solve {
                for &k in &group.iks {
                    if input.ik_enabled[k as usize] {
                        ik::solve(&skeleton.iks[k as usize], &skeleton.bones, variant, &mut work);
                    }
                }
            }
        }
    }
}

/// What physics does to one bone between the passes, in [`PoseEvaluator::apply_physics`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PhysicsBone {
    /// The bone's world position and rotation are its body's (rigid body mode 1).
    World {
        /// The bone's index.
        bone: u32,
        /// Model-space position.
        position: Vec3,
        /// Model-space rotation.
        rotation: Quat,
    },
    /// The bone is placed below its parent as its local transform says, and takes its body's
    /// world rotation (rigid body mode 2).
    Rotation {
        /// The bone's index.
        bone: u32,
        /// Model-space rotation.
        rotation: Quat,
    },
    /// The bone follows its parent, which physics moved, by its own local transform.
    Refresh {
        /// The bone's index.
        bone: u32,
    },
}
