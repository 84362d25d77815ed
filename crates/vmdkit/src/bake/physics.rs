//! Baking physics into keys: a motion that plays with physics off as it played with physics on.
//!
//! **What is baked.** Every bone a simulated rigid body moves ([`PhysicsWorld::driven_bones`]:
//! hair, skirts, ribbons, breasts) gets a key at every frame from frame 0 to the motion's last
//! bone, morph or IK key, at MMD's 30 fps. The simulation always starts at frame 0, as MMD plays a
//! motion from its start, so that the first keyed frames show the same settled start. Each key
//! holds the bone's local rotation, and translation, in the bone's own local frame (what a VMD
//! key means), solved so that forward kinematics with physics off gives the pose the physics
//! gave: for a "physics" (mode 1) body the bone's rotation and position, for a "physics with
//! bone position" (mode 2) body its rotation (its offset stays what its keys said). Every other
//! track and key is kept exactly, so IK still solves on playback as it did, with one exception:
//! an IK chain that rotates a bone a body moves (a hair IK, as models ship for posing hair by
//! hand) is overwritten by the bodies when physics is on, so it is switched off in the property
//! section (at frame 0 and in every existing key) and all its links are baked.
//!
//! **How.** Per output frame the original is posed with physics on ([`PhysicsWorld::pose`],
//! frame after frame, 1/30 s apart, with [`PhysicsBakeOptions::physics`]); the baked bones' keys
//! are then solved by the pose bakes' shared solver (`solve.rs`, as [`bake_ik`](super::bake_ik)
//! does): each bone's local transform in its parent's frame, in rounds until every bone is
//! within 1e-5 units of its target. The report gives the largest difference left over all bones
//! and frames between the physics play and the new keys played without physics, measured on the
//! keys as written, and the simulation's own figures ([`PhysicsStats`]).
//!
//! **Reduce.** With [`PhysicsBakeOptions::reduce`] the dense keys of the baked bones (and only
//! those) are thinned by [`reduce()`](crate::edit::reduce()). Its bound holds per track, on each
//! bone's local translation and rotation angle at every frame, not in model space: along a hair
//! chain of n bones the tips may move up to n times the angle bound (in radians) times the
//! chain's length further than the dense keys put them.
//!
//! **World-space bakes.** [`bake_world_with_physics`] bakes physics into the motion first and
//! then poses the baked motion with [`bake_world`] as any other: one route, so a world bake
//! with physics shows exactly what the baked VMD plays (between the 30 fps frames, at another
//! rate, the baked keys blend linearly).
//!
//! **Size.** The output's VMD records are counted before any simulation (frames × baked bones,
//! plus the original's records) and a bake above [`PhysicsBakeOptions::max_output_bytes`] fails
//! with [`BakeError::TooLarge`].

use super::solve::{
    keys_size, named_tracks, pose_span, records_bytes, solve_frames, switch_ik_off,
};
use super::world::{bake_world, BakeSettings, WorldBake};
use super::BakeError;
use crate::edit::{reduce, ReduceOptions, ReduceReport};
use crate::eval::MotionSampler;
use crate::format::Motion;
use crate::limit::DEFAULT_MAX_OUTPUT_BYTES;
use crate::math::FPS;
use crate::model::Model;
use crate::physics::{PhysicsSettings, PhysicsStats, PhysicsWorld};
use crate::skeleton::{Binding, Pose, PoseEvaluator, PoseInput, PoseOptions, Poser, Skeleton};
use std::collections::HashSet;

/// How [`bake_physics`] plays the original and what it writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhysicsBakeOptions {
    /// How the simulation runs.
    pub physics: PhysicsSettings,
    /// How the skeleton is posed around the simulation (IK variant, IK on or off); the baked
    /// motion is meant to be played with the same options.
    pub pose: PoseOptions,
    /// Thin the baked bones' dense keys with [`reduce()`](crate::edit::reduce()) (see the module
    /// documentation for what its bound means here).
    pub reduce: Option<ReduceOptions>,
    /// Refuse outputs larger than this many bytes of VMD records, before any simulation.
    pub max_output_bytes: u64,
}

impl Default for PhysicsBakeOptions {
    fn default() -> Self {
        PhysicsBakeOptions {
            physics: PhysicsSettings::default(),
            pose: PoseOptions::default(),
            reduce: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }
}

/// What [`bake_physics`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhysicsBakeReport {
    /// The simulation's counts (bodies, joints, steps, resets) and the largest joint error
    /// seen, as the world gave them at the end.
    pub physics: PhysicsStats,
    /// Output frames baked (frame 0 through the motion's last key).
    pub frames: u64,
    /// The bones that got a key at every frame (model bone indices, in deform order).
    pub baked_bones: Vec<usize>,
    /// IK chains switched off in the property section: those that rotate a bone a body moves
    /// (hair IK), whose result the physics play overwrites.
    pub chains_switched_off: usize,
    /// Bones a body moves that no VMD key can address: their 15-byte name drives an earlier
    /// bone of the same name. They keep their keys, so their pose may differ (see the errors).
    pub unkeyable_bones: Vec<usize>,
    /// Keys written for the baked bones (before any reduction).
    pub keys: u64,
    /// The largest distance, over every bone and output frame, between a bone's model-space
    /// position played with physics off on the new keys and with physics on on the original
    /// (model units).
    pub max_position_error: f32,
    /// The same for model-space rotations, in degrees.
    pub max_rotation_error_degrees: f64,
    /// What the reduction did, when asked for.
    pub reduce: Option<ReduceReport>,
}

/// The bones to bake: those the bodies drive, and the links of every IK chain that rotates one
/// of them (when IK is solved), in deform order; and those chains. Such a chain's result is
/// overwritten by the bodies in the physics play, so without physics it must be off, its links
/// keyed with what the physics play gave them.
fn baked_bones(
    skeleton: &Skeleton,
    driven: &[usize],
    pose: PoseOptions,
) -> (Vec<usize>, Vec<usize>) {
    let mut baked = vec![false; skeleton.bone_count()];
    for &b in driven {
        baked[b] = true;
    }
    let chains: Vec<usize> = match pose.solve_ik {
        true => {
            (0..skeleton.ik_count()).filter(|&k| skeleton.ik_links(k).any(|b| baked[b])).collect()
        }
        false => Vec::new(),
    };
    for &k in &chains {
        for b in skeleton.ik_links(k) {
            baked[b] = true;
        }
    }
    (skeleton.deform_order().filter(|&b| baked[b]).collect(), chains)
}

/// Bakes the physics of `model` (whose skeleton is `skeleton`, made by [`Skeleton::new`] from
/// it) playing `motion` into keys (see the module documentation). `progress(done, total)` is
/// called after each output frame.
pub fn bake_physics(
    motion: &Motion,
    model: &Model,
    skeleton: &Skeleton,
    options: &PhysicsBakeOptions,
    mut progress: impl FnMut(u64, u64),
) -> Result<(Motion, PhysicsBakeReport), BakeError> {
    let sampler = MotionSampler::new(motion);
    if sampler.bone_tracks().is_empty() {
        return Err(BakeError::NoBoneKeys);
    }
    let binding = Binding::new(skeleton, &sampler);
    let (first, last) = pose_span(&sampler);
    let frames = u64::from(last) + 1;
    let mut world = PhysicsWorld::new(model, skeleton, &options.physics);
    let (driven, chains) = baked_bones(skeleton, world.driven_bones(), options.pose);

    let count = frames.saturating_mul(driven.len() as u64);
    let size = keys_size((first.min(last), last), FPS, frames, count, records_bytes(motion));
    size.within(options.max_output_bytes)?;

    let mut report = PhysicsBakeReport { frames, ..PhysicsBakeReport::default() };
    let (tracks, unkeyable) = named_tracks(skeleton, &sampler, &binding, &driven);
    report.unkeyable_bones = unkeyable;
    report.baked_bones = tracks.iter().map(|&(b, _)| b).collect();

    let evaluator = PoseEvaluator::with_options(skeleton, options.pose);
    let mut poser = Poser::with_options(skeleton, &sampler, &binding, options.pose);
    let dt = (1.0 / FPS) as f32;
    let target = |k: u32, target: &mut Pose, input: &mut PoseInput| {
        poser.sample(k);
        world.pose(&evaluator, poser.input(), dt, target);
        input.clone_from(poser.input());
        // The baked motion plays these chains off (see `baked_bones`).
        for &chain in &chains {
            input.ik_enabled[chain] = false;
        }
    };
    let keys = solve_frames(skeleton, &evaluator, (0, last), &tracks, target, {
        let report = &mut report;
        move |done, errors: (f32, f64)| {
            report.max_position_error = report.max_position_error.max(errors.0);
            report.max_rotation_error_degrees = report.max_rotation_error_degrees.max(errors.1);
            progress(done, frames);
        }
    });
    report.physics = world.stats();
    report.chains_switched_off = chains.len();
    report.keys = keys.len() as u64;

    let mut out = motion.clone();
    let replaced: HashSet<&[u8]> = tracks.iter().map(|(_, name)| name.bytes()).collect();
    out.bones.retain(|k| !replaced.contains(k.name.bytes()));
    match options.reduce {
        Some(reduce_options) if !keys.is_empty() => {
            let dense = Motion { bones: keys, ..motion.without_keys() };
            let (thin, reduced) = reduce(&dense, &reduce_options);
            out.bones.extend(thin.bones);
            report.reduce = Some(reduced);
        }
        _ => out.bones.extend(keys),
    }
    switch_ik_off(&mut out.properties, skeleton, &sampler, &binding, &chains);
    Ok((out, report))
}

/// [`bake_world`] for a model, with its physics when [`BakeSettings::physics`] asks for it:
/// physics baked into the motion first ([`bake_physics`], with `settings.pose` and
/// `settings.max_output_bytes`), then that motion posed. `progress(done, total, what)` is told
/// how far each stage is: `"physics"` frames, then `"pose"` samples. Gives the world bake and,
/// with physics, the physics bake's report.
pub fn bake_world_with_physics(
    motion: &Motion,
    model: &Model,
    skeleton: &Skeleton,
    settings: &BakeSettings,
    mut progress: impl FnMut(u64, u64, &str),
) -> Result<(WorldBake, Option<PhysicsBakeReport>), BakeError> {
    let plain = BakeSettings { physics: None, ..*settings };
    // The world bake's size is checked first: it does not depend on the physics.
    let check = MotionSampler::new(motion);
    super::world_bake_size(skeleton, &check, settings.fps)?.within(settings.max_output_bytes)?;
    drop(check);
    let (baked, report) = match settings.physics {
        Some(physics) => {
            let options = PhysicsBakeOptions {
                physics,
                pose: settings.pose,
                reduce: None,
                max_output_bytes: settings.max_output_bytes,
            };
            let (baked, report) =
                bake_physics(motion, model, skeleton, &options, |d, t| progress(d, t, "physics"))?;
            (std::borrow::Cow::Owned(baked), Some(report))
        }
        None => (std::borrow::Cow::Borrowed(motion), None),
    };
    let sampler = MotionSampler::new(&baked);
    let binding = Binding::new(skeleton, &sampler);
    let bake = bake_world(skeleton, &sampler, &binding, &plain, |d, t| {
        progress(d as u64, t as u64, "pose")
    })?;
    Ok((bake, report))
}
