//! Keypoints from a motion: the motion played on a model by the full evaluator (IK, appends,
//! morphs), each layout joint read off the posed bones where the retargeting places it. This is
//! the oracle of the round-trip tests and a source of synthetic training data.

use super::axes::InputAxes;
use super::fingers::PointSource;
use super::rig::{KeyedRig, Source};
use super::solve::Observed;
use super::RetargetError;
use crate::eval::MotionSampler;
use crate::format::Motion;
use crate::keypoints::{JointLayout, Keypoints, Units};
use crate::limit::{DenseOutput, DenseSize, DEFAULT_MAX_OUTPUT_BYTES};
use crate::roles::Role;
use crate::skeleton::{Binding, BoneSubset, Pose, Poser, Skeleton, METRES_PER_UNIT};
use glam::{DVec3, Vec3};

/// How [`keypoints_from_motion`] writes its keypoints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeypointOptions {
    /// Frames per second of the output.
    pub fps: f64,
    /// The output's axes (the inverse of a retargeting input's).
    pub axes: InputAxes,
    /// The output's units; model units become metres at [`METRES_PER_UNIT`] first.
    pub units: Units,
    /// The largest output allowed, in bytes of its positions ([`keypoints_size`]).
    pub max_output_bytes: u64,
}

impl Default for KeypointOptions {
    fn default() -> Self {
        KeypointOptions {
            fps: 30.0,
            axes: InputAxes::default(),
            units: Units::Metres,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }
}

/// The size of [`keypoints_from_motion`]'s output: a sample at every 1/fps second from frame 0
/// through the motion's last key, three `f32` per joint.
pub fn keypoints_size(motion: &Motion, joints: usize, fps: f64) -> DenseSize {
    let last = motion.frame_range().map_or(0, |(_, last)| last);
    let frames = crate::limit::samples(last, fps);
    let joints = joints as u64;
    DenseSize {
        output: DenseOutput::Joints,
        first: 0,
        last,
        fps,
        frames,
        count: joints,
        bytes: frames.saturating_mul(joints).saturating_mul(3 * 4),
    }
}

/// The joints of `layout` over the whole motion played on `skeleton`. Joints the layout maps
/// to no role (or to one the skeleton cannot place) are NaN. Fails before posing anything when
/// the output would be larger than `options.max_output_bytes`.
pub fn keypoints_from_motion(
    motion: &Motion,
    skeleton: &Skeleton,
    layout: &JointLayout,
    options: &KeypointOptions,
) -> Result<Keypoints, RetargetError> {
    keypoints_from_motion_with_progress(motion, skeleton, layout, options, &|_, _| {})
}

/// Like [`keypoints_from_motion`], calling `progress(done, total)` with the output frames
/// posed, every [`super::PROGRESS_FRAMES`] and at the last.
pub fn keypoints_from_motion_with_progress(
    motion: &Motion,
    skeleton: &Skeleton,
    layout: &JointLayout,
    options: &KeypointOptions,
    progress: crate::edit::Progress,
) -> Result<Keypoints, RetargetError> {
    if !(options.fps.is_finite() && options.fps > 0.0 && options.fps <= crate::math::MAX_FPS) {
        return Err(RetargetError::Option(format!("bad frame rate {}", options.fps)));
    }
    let rig = KeyedRig::new(skeleton)
        .map_err(|m| RetargetError::MissingBones(m.0.iter().map(|s| s.to_string()).collect()))?;
    // No more bytes than an address space holds, so the frame count fits in usize too.
    let limit = options.max_output_bytes.min(usize::MAX as u64);
    let size = keypoints_size(motion, layout.joints.len(), options.fps).within(limit)?;
    let count = size.frames as usize;
    let per_unit = METRES_PER_UNIT / options.units.metres();
    let mut kp = Keypoints::missing(count, layout.joints.len());
    // Posed and read off one frame at a time, so that nothing but the output grows with the
    // frame span.
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::new(skeleton, &sampler, &binding);
    let mut pose = Pose::new(skeleton);
    for f in 0..count {
        poser.pose_at(f as f64 * crate::math::FPS / options.fps, &mut pose);
        let roles = read_roles(&rig, skeleton, &pose);
        for (j, joint) in layout.joints.iter().enumerate() {
            let Some(role) = joint.role else { continue };
            let (p, w) = roles[role as usize];
            if w > 0.0 {
                kp.positions[f * kp.joint_count + j] =
                    (options.axes.from_mmd(p) * per_unit).as_vec3();
            }
        }
        if (f + 1) % super::PROGRESS_FRAMES == 0 || f + 1 == count {
            progress(f + 1, count);
        }
    }
    kp.names = Some(layout.joints.iter().map(|j| j.name.clone()).collect());
    kp.fps = Some(options.fps);
    kp.units = Some(options.units);
    kp.up = Some(options.axes.up);
    Ok(kp)
}

/// Every role's model-space position at each time (MMD frames) of the motion `sampler` plays,
/// weight 1 where the rig places it and 0 where it cannot; the hands' points only when `hands`
/// (else weight 0: their bones are not posed).
pub(crate) fn role_positions(
    rig: &KeyedRig,
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    times: &[f64],
    hands: bool,
) -> Vec<Observed> {
    let mut out: Vec<Observed> = Vec::with_capacity(times.len());
    play(rig, skeleton, sampler, times, hands, |_, pose| {
        // Read straight into the output: an Observed is kilobytes, copied once per frame
        // otherwise.
        out.push([(DVec3::ZERO, 0.0); Role::ALL.len()]);
        read_roles_into(rig, skeleton, pose, hands, out.last_mut().expect("pushed above"));
    });
    out
}

/// [`role_positions`] handed to `f` one time at a time (with the time's index), for callers
/// that need not keep them.
pub(crate) fn for_each_role_positions(
    rig: &KeyedRig,
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    times: &[f64],
    hands: bool,
    mut f: impl FnMut(usize, &Observed),
) {
    let mut roles: Observed = [(DVec3::ZERO, 0.0); Role::ALL.len()];
    play(rig, skeleton, sampler, times, hands, |i, pose| {
        roles.fill((DVec3::ZERO, 0.0));
        read_roles_into(rig, skeleton, pose, hands, &mut roles);
        f(i, &roles);
    });
}

/// The motion `sampler` plays, posed at each time for the roles and handed to `f`: only the
/// bones the roles are read from and what posing them needs (a [`BoneSubset`]), which gives
/// them the same positions as a full pose without the hair, skirt and other bones nobody reads.
fn play(
    rig: &KeyedRig,
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    times: &[f64],
    hands: bool,
    mut f: impl FnMut(usize, &Pose),
) {
    let binding = Binding::new(skeleton, sampler);
    let mut poser = Poser::new(skeleton, sampler, &binding);
    let mut pose = Pose::new(skeleton);
    let subset = BoneSubset::new(skeleton, bones_read(rig, hands));
    for (i, &t) in times.iter().enumerate() {
        poser.pose_subset_at(t, &mut pose, &subset);
        f(i, &pose);
    }
}

/// Every role's position in a posed skeleton.
pub(crate) fn read_roles(rig: &KeyedRig, skeleton: &Skeleton, pose: &Pose) -> Observed {
    let mut out: Observed = [(DVec3::ZERO, 0.0); Role::ALL.len()];
    read_roles_into(rig, skeleton, pose, true, &mut out);
    out
}

/// [`read_roles`] into `out`, the hands' points only when `hands`.
fn read_roles_into(
    rig: &KeyedRig,
    skeleton: &Skeleton,
    pose: &Pose,
    hands: bool,
    out: &mut Observed,
) {
    for (i, source) in rig.sources.iter().enumerate() {
        let p: Option<Vec3> = source.map(|s| match s {
            Source::Head(b) => pose.position(b),
            Source::Mean(a, b) => (pose.position(a) + pose.position(b)) / 2.0,
            Source::Offset(b, rest) => {
                pose.position(b) + pose.rotation(b) * (rest.as_vec3() - skeleton.rest_position(b))
            }
        });
        if let Some(p) = p {
            out[i] = (p.as_dvec3(), 1.0);
        }
    }
    if hands {
        rig.fingers.read(skeleton, pose, out);
    }
}

/// The bones [`read_roles_into`] reads.
fn bones_read(rig: &KeyedRig, hands: bool) -> Vec<usize> {
    let mut bones = Vec::new();
    for source in rig.sources.iter().flatten() {
        match *source {
            Source::Head(b) | Source::Offset(b, _) => bones.push(b),
            Source::Mean(a, b) => bones.extend([a, b]),
        }
    }
    for hand in rig.fingers.hands.iter().flatten().filter(|_| hands) {
        bones.push(hand.wrist);
        for source in hand.fingers.iter().flat_map(|f| &f.sources) {
            match *source {
                PointSource::Head(b) | PointSource::Offset(b, _) => bones.push(b),
            }
        }
    }
    bones
}
