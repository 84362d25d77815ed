//! Baking IK into plain forward-kinematics keys: a motion that plays the same with IK off.
//!
//! **What is baked.** Every bone an IK chain rotates (the links of every chain that some key
//! leaves on) gets a key at every frame of the motion's pose span (its first to its last bone,
//! morph or IK key) holding the local rotation and translation that give, with IK off, the pose
//! the original plays with IK on: every bone's model-space position and rotation. Every other
//! track keeps its keys and curves exactly. The property section then switches every chain of
//! the model off: a key at frame 0 (added when there is none) and every existing key list each
//! IK bone as off; visibility is kept.
//!
//! **Append (付与) is kept, not baked.** MMD and the engines without IK still evaluate append
//! bones from their sources on playback (a 足D follows 足, however 足 got its rotation), so a bone
//! that appends from a baked link follows the link's new keys by itself: baking the append into
//! its own keys too would apply it twice. An append bone gets keys only when it is itself a link;
//! they are then what gives, with its append still applied, the target rotation.
//!
//! **How.** Per output frame the original is posed with IK on ([`IkBakeOptions::pose`]); the
//! baked bones' keys are then solved by the pose bakes' shared solver (`solve.rs`: each bone's
//! local transform in its parent's frame, in rounds, at most [`MAX_ROUNDS`](super::MAX_ROUNDS), until every bone is
//! within 1e-5 units of its target). The report gives the largest difference left over all
//! bones and frames, measured on the keys as written.
//!
//! **Frame rate.** Without [`IkBakeOptions::fps`] frame numbers stay and the baked keys fall on
//! every integer frame. With it, the whole motion is first resampled ([`bake_sampler`]) and the
//! baked bones get keys at the same output frames.
//!
//! **Reduce.** With [`IkBakeOptions::reduce`] the dense keys are thinned by [`reduce()`](crate::edit::reduce()): the
//! baked bones' tracks alone, or with `fps` the whole (resampled) motion. The bound then holds
//! per track (local translation and angle), not in model space.

use super::keys::{bake_sampler, bake_size, Rate};
use super::solve::{
    keys_size, named_tracks, pose_span, records_bytes, solve_frames, switch_ik_off,
};
use super::BakeError;
use crate::edit::{reduce, ReduceOptions, ReduceReport};
use crate::eval::MotionSampler;
use crate::format::Motion;
use crate::limit::DEFAULT_MAX_OUTPUT_BYTES;
use crate::math::FPS;
use crate::skeleton::{Binding, Pose, PoseEvaluator, PoseInput, PoseOptions, Poser, Skeleton};
use std::collections::HashSet;

/// How [`bake_ik`] plays the original and what it writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkBakeOptions {
    /// How the original is posed: the IK solver whose result the keys reproduce.
    pub pose: PoseOptions,
    /// `None`: keep the frame numbers; `Some(n)`: resample the motion to n keys per second
    /// (frame numbers then count at n, as [`bake()`](super::bake()) does).
    pub fps: Option<f64>,
    /// Thin the dense keys with [`reduce()`](crate::edit::reduce()).
    pub reduce: Option<ReduceOptions>,
    /// Refuse outputs larger than this many bytes of VMD records, before any work.
    pub max_output_bytes: u64,
}

impl Default for IkBakeOptions {
    fn default() -> Self {
        IkBakeOptions {
            pose: PoseOptions::default(),
            fps: None,
            reduce: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }
}

/// What [`bake_ik`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IkBakeReport {
    /// The bones that got a key at every frame (model bone indices, in deform order).
    pub baked_bones: Vec<usize>,
    /// Baked bones no VMD key can address: their 15-byte name drives an earlier bone of the
    /// same name. They keep their original keys, so their pose may differ (see the errors).
    pub unkeyable_bones: Vec<usize>,
    /// IK chains switched off in the property section (every chain of the model).
    pub chains_switched_off: usize,
    /// Output frames baked.
    pub frames: u64,
    /// Keys written for the baked bones (before any reduction).
    pub keys: u64,
    /// The largest distance, over every bone and output frame, between a bone's model-space
    /// position with IK off on the new keys and with IK on on the original (model units).
    pub max_position_error: f32,
    /// The same for model-space rotations, in degrees.
    pub max_rotation_error_degrees: f64,
    /// What the reduction did, when asked for.
    pub reduce: Option<ReduceReport>,
}

/// Bakes the IK of `motion`, posed on `skeleton`, into forward-kinematics keys (see the module
/// documentation). `progress(done, total)` is called after each output frame.
pub fn bake_ik(
    motion: &Motion,
    skeleton: &Skeleton,
    options: &IkBakeOptions,
    mut progress: impl FnMut(u64, u64),
) -> Result<(Motion, IkBakeReport), BakeError> {
    let sampler = MotionSampler::new(motion);
    if sampler.bone_tracks().is_empty() {
        return Err(BakeError::NoBoneKeys);
    }
    let rate = Rate::new(options.fps.unwrap_or(FPS))?;
    let binding = Binding::new(skeleton, &sampler);
    let (first, last) = pose_span(&sampler);
    let (lo, hi) = rate.output_range(first, last)?;
    let frames = u64::from(hi - lo) + 1;

    let baked = baked_bones(skeleton, &sampler, &binding, options.pose);
    let count = frames.saturating_mul(baked.len() as u64);
    let base_bytes = match options.fps {
        Some(fps) => bake_size(&sampler, fps)?.bytes,
        None => records_bytes(motion),
    };
    let size = keys_size((first, last), rate.fps, frames, count, base_bytes);
    size.within(options.max_output_bytes)?;

    let mut out = match options.fps {
        Some(fps) => bake_sampler(&sampler, motion.header, fps, options.max_output_bytes)?,
        None => motion.clone(),
    };
    let mut report = IkBakeReport { frames, ..IkBakeReport::default() };
    let (tracks, unkeyable) = named_tracks(skeleton, &sampler, &binding, &baked);
    report.unkeyable_bones = unkeyable;
    report.baked_bones = tracks.iter().map(|&(b, _)| b).collect();

    let mut poser = Poser::with_options(skeleton, &sampler, &binding, options.pose);
    let fk = PoseEvaluator::with_options(skeleton, PoseOptions { solve_ik: false, ..options.pose });
    let target = |k: u32, target: &mut Pose, input: &mut PoseInput| {
        poser.pose_at(rate.source_time(k), target);
        input.clone_from(poser.input());
    };
    let keys = solve_frames(skeleton, &fk, (lo, hi), &tracks, target, {
        let report = &mut report;
        move |done, errors: (f32, f64)| {
            report.max_position_error = report.max_position_error.max(errors.0);
            report.max_rotation_error_degrees = report.max_rotation_error_degrees.max(errors.1);
            progress(done, frames);
        }
    });
    report.keys = keys.len() as u64;

    let replaced: HashSet<&[u8]> = tracks.iter().map(|(_, name)| name.bytes()).collect();
    out.bones.retain(|k| !replaced.contains(k.name.bytes()));
    match (options.reduce, options.fps) {
        (Some(reduce_options), None) => {
            let dense = Motion { bones: keys, ..motion.without_keys() };
            let (thin, reduced) = reduce(&dense, &reduce_options);
            out.bones.extend(thin.bones);
            report.reduce = Some(reduced);
        }
        (Some(reduce_options), Some(_)) => {
            out.bones.extend(keys);
            let (thin, reduced) = reduce(&out, &reduce_options);
            out = thin;
            report.reduce = Some(reduced);
        }
        (None, _) => out.bones.extend(keys),
    }
    let all: Vec<usize> = (0..skeleton.ik_count()).collect();
    report.chains_switched_off =
        switch_ik_off(&mut out.properties, skeleton, &sampler, &binding, &all);
    Ok((out, report))
}

/// The links of every chain some key leaves on, in deform order; none when IK is not solved.
fn baked_bones(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    binding: &Binding,
    pose: PoseOptions,
) -> Vec<usize> {
    if !pose.solve_ik {
        return Vec::new();
    }
    let mut on = vec![true; skeleton.ik_count()];
    for &(track, k) in &binding.iks {
        on[k as usize] = sampler.ik_tracks()[track as usize].track().values().contains(&true);
    }
    let mut link = vec![false; skeleton.bone_count()];
    for k in (0..skeleton.ik_count()).filter(|&k| on[k]) {
        for b in skeleton.ik_links(k) {
            link[b] = true;
        }
    }
    skeleton.deform_order().filter(|&b| link[b]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::solve::difference;
    use crate::format::BoneKey;
    use crate::math::quat_angle;
    use crate::model::{Append, Bone, BoneFlags, Ik, IkLink, Model, ModelFormat};
    use crate::text::{KeyName, LongName};
    use glam::{Quat, Vec3};

    fn bone(name: &str, position: Vec3, parent: Option<usize>) -> Bone {
        Bone { flags: BoneFlags::ROTATABLE, ..Bone::new(name, position, parent) }
    }

    /// A leg whose hip link also appends half of a control bone's turn, whose knee a D bone
    /// follows by append, solved by 足ＩＫ.
    fn leg() -> Model {
        let mut bones = vec![
            bone("ctrl", Vec3::new(0.0, 11.0, 0.0), None),
            bone("足", Vec3::new(1.0, 10.0, 0.0), None),
            bone("ひざ", Vec3::new(1.0, 5.0, 0.0), Some(1)),
            bone("足首", Vec3::new(1.0, 0.5, 0.0), Some(2)),
            bone("足ＩＫ", Vec3::new(1.0, 0.5, 0.0), None),
            bone("ひざD", Vec3::new(1.0, 5.0, 0.0), Some(1)),
        ];
        bones[1].append = Some(Append {
            parent: 0,
            ratio: 0.5,
            rotation: true,
            translation: false,
            local: false,
        });
        bones[5].append = Some(Append {
            parent: 2,
            ratio: 1.0,
            rotation: true,
            translation: false,
            local: false,
        });
        bones[4].deform_layer = 1;
        let knee = (Vec3::new(-std::f32::consts::PI, 0.0, 0.0), Vec3::new(-0.0087, 0.0, 0.0));
        bones[4].ik = Some(Ik {
            target: 3,
            loop_count: 40,
            limit_angle: 2.0,
            links: vec![IkLink { bone: 2, limits: Some(knee) }, IkLink { bone: 1, limits: None }],
        });
        Model::from_bones(ModelFormat::Pmx { version: 2.0, utf8: true }, "leg", bones)
    }

    fn key(name: &str, frame: u32, translation: Vec3, rotation: Quat) -> BoneKey {
        BoneKey { translation, rotation, ..BoneKey::new(KeyName::encode(name).0, frame) }
    }

    #[test]
    fn a_baked_leg_plays_with_ik_off_as_with_ik_and_its_d_bone_keeps_following() {
        let skeleton = Skeleton::new(&leg());
        let mut motion = Motion::new(LongName::encode("leg").0);
        motion.bones = vec![
            key("足ＩＫ", 0, Vec3::new(0.0, 2.0, -1.0), Quat::IDENTITY),
            key("足ＩＫ", 10, Vec3::new(0.5, 3.0, -2.0), Quat::IDENTITY),
            key("ctrl", 0, Vec3::ZERO, Quat::IDENTITY),
            key("ctrl", 10, Vec3::ZERO, Quat::from_rotation_y(0.6)),
            key("ひざ", 5, Vec3::ZERO, Quat::from_rotation_x(-0.2)),
        ];
        let (baked, report) =
            bake_ik(&motion, &skeleton, &IkBakeOptions::default(), |_, _| ()).expect("a bake");
        assert_eq!(report.baked_bones, vec![1, 2]);
        assert_eq!((report.frames, report.keys, report.chains_switched_off), (11, 22, 1));
        // The control bone's and the IK bone's keys are kept as they were.
        assert_eq!(&baked.bones[..4], &motion.bones[..4]);
        assert!(baked.properties[0].ik.iter().all(|s| !s.is_enabled()));

        let play = |m: &Motion, options: PoseOptions, t: f64| {
            let sampler = MotionSampler::new(m);
            let binding = Binding::new(&skeleton, &sampler);
            let mut pose = Pose::new(&skeleton);
            Poser::with_options(&skeleton, &sampler, &binding, options).pose_at(t, &mut pose);
            pose
        };
        let fk = PoseOptions { solve_ik: false, ..PoseOptions::default() };
        for t in 0..=12 {
            let (want, got) =
                (play(&motion, PoseOptions::default(), t.into()), play(&baked, fk, t.into()));
            let (position, rotation) = difference(&want, &got);
            assert!(position < 1e-4 && rotation < 1e-2, "frame {t}: {position} {rotation}");
            // The IK moved the leg, and the D bone follows the baked knee by its append.
            assert!(want.ik_rotation(2) != Quat::IDENTITY);
            assert!(quat_angle(got.rotation(5), got.rotation(2)) < 1e-5);
        }
    }

    #[test]
    fn a_far_frame_is_refused_before_any_work_and_nothing_to_bake_poses_nothing() {
        let skeleton = Skeleton::new(&leg());
        let mut motion = Motion::new(LongName::encode("leg").0);
        motion.bones = vec![
            key("足ＩＫ", 0, Vec3::new(0.0, 2.0, -1.0), Quat::IDENTITY),
            key("足ＩＫ", u32::MAX - 1, Vec3::new(0.5, 3.0, -2.0), Quat::IDENTITY),
        ];
        let err = bake_ik(&motion, &skeleton, &IkBakeOptions::default(), |_, _| ()).unwrap_err();
        assert!(matches!(err, BakeError::TooLarge(_)), "{err:?}");
        // IK not solved: no bone to bake, so no frame is posed, however far the keys are.
        let off = PoseOptions { solve_ik: false, ..PoseOptions::default() };
        let options = IkBakeOptions { pose: off, ..IkBakeOptions::default() };
        let (out, report) = bake_ik(&motion, &skeleton, &options, |_, _| ()).unwrap();
        assert_eq!((report.baked_bones.len(), report.keys), (0, 0));
        assert_eq!(out.bones, motion.bones);
        assert!(out.properties[0].ik.iter().all(|s| !s.is_enabled()));
    }
}
