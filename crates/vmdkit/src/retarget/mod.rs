//! Retargeting: 3D keypoints, or a motion made for another model, onto an MMD skeleton, with
//! the errors it leaves measured; and the inverse, keypoints of any layout from a motion.
//!
//! ```no_run
//! use vmdkit::keypoints::{Keypoints, JointLayout};
//! use vmdkit::retarget::{retarget, RetargetOptions};
//! use vmdkit::skeleton::Skeleton;
//!
//! let keypoints = Keypoints::read_file("joints.npy".as_ref())?;
//! let layout = JointLayout::builtin("h36m").unwrap();
//! let skeleton = Skeleton::new(&vmdkit::example::example_model());
//! let options = RetargetOptions { fps: 50.0, ..RetargetOptions::default() };
//! let out = retarget(&keypoints, &layout, &skeleton, &options)?;
//! println!("{} keys, scale {:.3}", out.report.keys, out.report.scale);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The pipeline, each step in its own file:
//! 1. `axes.rs`: input axes and handedness to MMD's (left-handed, Y up, facing −Z);
//!    `handedness.rs` notices an input that is still mirrored and mirrors it back
//!    (`hand_chirality.rs` for hands without a body, by the hands' shapes).
//! 2. Conditioning (`crate::keypoints` filters): resampling by time to 30 fps, gaps, outliers,
//!    left/right swaps, zero-phase smoothing of positions (never of Euler angles).
//! 3. Scale (`scale.rs`): the median, over the clip and over segments, of the target's segment
//!    length over the input's, so that noisy lengths and a few bad frames do not move it.
//! 4. `rig.rs`: the target's keyed bones and where each joint sits on them, from the model's
//!    own rest pose; `solve/` + `lm/`: every frame's bone rotations and root translation.
//! 5. `feet.rs`: the floor from foot heights, no foot below it, feet still while in contact.
//! 6. `keys.rs`: keys (センター/グルーブ, rotations, 足ＩＫ/つま先ＩＫ or IK switched off),
//!    thinned with [`edit::reduce`](crate::edit::reduce); `report.rs` measures the result by
//!    playing it back through the full evaluator.
//! 7. `inverse.rs`: [`keypoints_from_motion`], the test oracle: a motion played on a model, read
//!    off as any layout's joints.
//!
//! Hands and face join the body: `parts.rs` tells which parts the layout drives (a body,
//! hands, a face, or hands or a face alone); `hands.rs` solves each frame's fingers
//! (`fingers/`) before the body, which needs nothing of them but the palm, the world rotation
//! 手首 then takes; their keys join the body's before thinning (step 6), and the report gains
//! a section per part. A face (`faces.rs`) turns 首/頭 in the solved states wherever it was
//! seen, then keys its morphs and eyes.

mod anchors;
mod axes;
mod carry;
mod conditioning;
pub mod face;
mod faces;
mod feet;
pub mod fingers;
mod hand_chirality;
mod handedness;
mod hands;
mod inverse;
mod keys;
mod lm;
mod options;
mod parts;
mod report;
mod rig;
mod scale;
mod solve;

#[cfg(test)]
mod tests;

pub use axes::InputAxes;
pub use carry::{
    carry_over, size_ratio, BoneFate, BoneTrack, Carried, CarryInputs, CarryReport, FingerReport,
    MorphMatch, MorphTrack, FINGER_AXES_TOLERANCE_DEGREES, FLIP_DEGREES,
};
pub use conditioning::ConditioningNotes;
pub use handedness::HandednessCheck;
pub use inverse::{
    keypoints_from_motion, keypoints_from_motion_with_progress, keypoints_size, KeypointOptions,
};
pub use options::{FloorMode, KeyMode, RetargetOptions, ScaleMode};
pub use report::{JointResidual, RetargetReport, SegmentError};

use crate::format::Motion;
use crate::keypoints::{JointLayout, Keypoints};
use crate::limit::{DenseOutput, DenseSize, OutputTooLarge};
use crate::roles::Role;
use crate::skeleton::Skeleton;
use glam::DVec3;
use parts::Parts;

/// What [`retarget`] made.
#[derive(Clone, Debug)]
pub struct Retargeted {
    /// The motion, 30 fps.
    pub motion: Motion,
    /// What was done and how well it fits.
    pub report: RetargetReport,
}

/// Why a retargeting could not start.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RetargetError {
    /// The target model lacks bones every body needs.
    #[error("the model has no bone named {}", .0.join(", "))]
    MissingBones(Vec<String>),
    /// The keypoints have another number of joints than the layout.
    #[error("the layout {layout} has {expected} joints but the keypoints have {found}")]
    JointCount {
        /// The layout's name.
        layout: String,
        /// Its joint count.
        expected: usize,
        /// The keypoints'.
        found: usize,
    },
    /// The layout lacks joints the solver cannot do without.
    #[error("the layout {layout} has no {}", .missing.join(", "))]
    LayoutTooSparse {
        /// The layout's name.
        layout: String,
        /// The roles missing.
        missing: Vec<String>,
    },
    /// No frame, or no joint present anywhere.
    #[error("the keypoints hold no usable frame")]
    Empty,
    /// An option is out of range.
    #[error("{0}")]
    Option(String),
    /// The output would be larger than the limit; nothing was posed or solved.
    #[error(transparent)]
    TooLarge(#[from] OutputTooLarge),
}

/// Keypoints of `layout` → a motion for `skeleton`, with a report.
pub fn retarget(
    keypoints: &Keypoints,
    layout: &JointLayout,
    skeleton: &Skeleton,
    options: &RetargetOptions,
) -> Result<Retargeted, RetargetError> {
    retarget_with_progress(keypoints, layout, skeleton, options, &|_, _| {})
}

/// Frames solved between two calls of a progress callback.
const PROGRESS_FRAMES: usize = 64;

/// Like [`retarget`], calling `progress(done, total)` as the work goes: one step per input
/// frame solved (told every [`PROGRESS_FRAMES`]), then one for thinning the keys and one for
/// measuring the result.
pub fn retarget_with_progress(
    keypoints: &Keypoints,
    layout: &JointLayout,
    skeleton: &Skeleton,
    options: &RetargetOptions,
    progress: crate::edit::Progress,
) -> Result<Retargeted, RetargetError> {
    options.validate()?;
    if keypoints.joint_count != layout.joints.len() {
        return Err(RetargetError::JointCount {
            layout: layout.name.clone(),
            expected: layout.joints.len(),
            found: keypoints.joint_count,
        });
    }
    let parts = parts::Parts::of(layout)?;
    let rig = rig::KeyedRig::new(skeleton)
        .map_err(|m| RetargetError::MissingBones(m.0.iter().map(|s| s.to_string()).collect()))?;
    dense_size(keypoints, &rig, parts, options.fps).within(options.max_output_bytes)?;
    let conditioned = conditioning::condition(keypoints, layout, options)?;
    let mut frames = roles_per_frame(&conditioned, layout, options);
    let handedness = match parts.body {
        true => handedness::check_and_correct(&mut frames, options.detect_handedness),
        false => hand_chirality::check_and_correct(&mut frames, options.detect_handedness),
    };
    // A face-only layout has no roles: its frames are the face's to judge.
    if frames.is_empty() || (!parts.face && frames.iter().all(|f| f.iter().all(|o| o.1 <= 0.0))) {
        return Err(RetargetError::Empty);
    }
    let scale = match parts {
        Parts { body: true, .. } => scale::estimate(&rig, &frames, options)?,
        Parts { hands: [false, false], .. } => {
            scale::Scale { factor: 1.0, segments: 0, spread: 0.0 }
        }
        _ => hands::scale(&rig, &frames, options)?,
    };
    // Scaled in place: a copy would be another 1.4 kB per frame to allocate and fill.
    let mut observed = frames;
    for o in &mut observed {
        for (p, _) in o.iter_mut() {
            *p *= scale.factor;
        }
    }
    let total = observed.len() + 2;
    let mut states = Vec::with_capacity(if parts.body { observed.len() } else { 0 });
    if parts.body {
        feet::place_origin(&mut observed, options);
    }
    // The fingers first: they need nothing of the body, and where a hand is solved its palm
    // turns 手首, which the body's solve then need not fit.
    let hands = hands::solve(&rig, &observed, parts);
    if parts.body {
        let mut solver = solve::Solver::new(&rig);
        solver.leg_ik = options.ik && rig.leg_ik.iter().any(Option::is_some);
        for (i, obs) in observed.iter().enumerate() {
            let palms = hands.as_ref().and_then(|h| h.palms.get(i).copied());
            solver.frame(obs, palms.unwrap_or_default());
            states.push(solver.state.clone());
            if (i + 1) % PROGRESS_FRAMES == 0 || i + 1 == observed.len() {
                progress(i + 1, total);
            }
        }
    }
    let floor = if parts.body {
        let before: Vec<DVec3> = states.iter().map(|s| s.translation).collect();
        let floor = feet::ground(&rig, &mut states, options);
        // Measure against the input as placed: moved with each frame's lift.
        for ((obs, s), t) in observed.iter_mut().zip(&states).zip(&before) {
            let lift = s.translation - *t;
            for (p, _) in obs.iter_mut() {
                *p += lift;
            }
        }
        floor
    } else {
        if let Some(h) = &hands {
            hands::place_on_model(&rig, &mut observed, h);
        }
        progress(observed.len(), total);
        feet::Floor::default()
    };
    // The face's rigid frame turns 首/頭 wherever it was seen: before the keys are made, so
    // that they are the body's keys for those bones, thinned with them.
    let face_track = if parts.face { faces::track(&conditioned, layout, options) } else { None };
    let face_head = match (&face_track, parts.body) {
        (Some(track), true) => faces::turn_head(&rig, track, handedness, &mut states),
        _ => Vec::new(),
    };
    let keys::Keyed { mut motion, dense, thinned, dense_keys } =
        keys::keyed(&rig, skeleton, &states, hands.as_ref().map(|h| &h.solved), options);
    progress(total - 1, total);
    let report = report::measure(report::Inputs {
        rig: &rig,
        skeleton,
        layout,
        observed: &observed,
        dense_keys,
        dense_sampler: &dense,
        motion: &motion,
        played: thinned.as_ref().unwrap_or(&dense),
        scale,
        floor,
        conditioning: conditioned.notes,
        handedness,
        options,
        parts,
        fingers: hands.map(|h| h.report),
    });
    // The face keys its own morphs and eyes, after the body is measured; 首/頭 were turned in
    // the body's solve above where there is a body, and are the face's keys where it is alone.
    let face = face_track.map(|track| {
        let mut report = faces::add_face(&track, skeleton, options, &mut motion, !parts.body);
        if parts.body {
            report.head_bones =
                face_head.iter().map(|&b| skeleton.bone_name(b).to_string()).collect();
        }
        report
    });
    progress(total, total);
    let report = RetargetReport { face, ..report };
    Ok(Retargeted { motion, report })
}

/// The dense motion the solve makes from `keypoints` at `fps`: a key per driven bone at every
/// frame once resampled to 30 fps (as `keypoints::resample` counts them), before thinning.
fn dense_size(keypoints: &Keypoints, rig: &rig::KeyedRig, parts: Parts, fps: f64) -> DenseSize {
    let frames = match keypoints.frame_count {
        0 => 0,
        n => ((n - 1) as f64 * crate::math::FPS / fps + 1e-6).floor() as u64 + 1,
    };
    let body = if parts.body { keys::keys_per_frame(rig) } else { 0 };
    let keys =
        frames.saturating_mul((body + fingers::keys_per_frame(&rig.fingers, parts.hands)) as u64);
    DenseSize {
        output: DenseOutput::RetargetKeys,
        first: 0,
        last: u32::try_from(frames.saturating_sub(1)).unwrap_or(u32::MAX),
        fps: crate::math::FPS,
        frames,
        count: keys,
        bytes: keys.saturating_mul(111),
    }
}

/// Per frame, every role's position in MMD axes (input units) and weight; the synthetic pelvis
/// (the hips' mean) where the layout has none.
fn roles_per_frame(
    conditioned: &conditioning::Conditioned,
    layout: &JointLayout,
    options: &RetargetOptions,
) -> Vec<solve::Observed> {
    let kp = &conditioned.keypoints;
    // Each role's joint by its column among the conditioned ones.
    let joints: Vec<(usize, Role)> = (layout.joints.iter().enumerate())
        .filter_map(|(i, j)| Some((conditioned.column(i)?, j.role?)))
        .collect();
    (0..kp.frame_count)
        .map(|f| {
            let mut o: solve::Observed = [(DVec3::ZERO, 0.0); Role::ALL.len()];
            for &(j, role) in &joints {
                if o[role as usize].1 > 0.0 || !kp.is_present(f, j, options.min_confidence) {
                    continue;
                }
                let p = kp.positions[f * kp.joint_count + j].as_dvec3();
                let weight =
                    kp.confidence.as_ref().map_or(1.0, |c| c[f * kp.joint_count + j] as f64);
                o[role as usize] = (options.axes.to_mmd(p), weight.clamp(0.0, 1.0).max(1e-3));
            }
            // A hand's wrist a layout takes from the body's (SMPL-X): the body's synthetic
            // points (COCO's thorax) are left to the solver, which places its own.
            for point in layout.synthetic.iter().filter(|p| p.role.hand_part().is_some()) {
                let from: Option<Vec<(DVec3, f64)>> = (point.mean_of.iter())
                    .map(|r| Some(o[*r as usize]).filter(|x| x.1 > 0.0))
                    .collect();
                if let (Some(from), true) = (from, o[point.role as usize].1 <= 0.0) {
                    let n = from.len().max(1) as f64;
                    let p = from.iter().map(|x| x.0).sum::<DVec3>() / n;
                    o[point.role as usize] = (p, from.iter().map(|x| x.1).fold(1.0, f64::min));
                }
            }
            let (l, r) = (o[Role::LeftHip as usize], o[Role::RightHip as usize]);
            if o[Role::Pelvis as usize].1 <= 0.0 && l.1 > 0.0 && r.1 > 0.0 {
                o[Role::Pelvis as usize] = ((l.0 + r.0) / 2.0, l.1.min(r.1));
            }
            o
        })
        .collect()
}
