//! The face's part of a retargeting: its keys added to the motion the body (or the hands)
//! made, or, for an input that holds a face alone, to an empty one: morphs, eyes and head with
//! the body left at rest. Where a body is solved too, the face's rigid frame turns 首/頭 in the
//! body's solved states ([`turn_head`]), since it is far steadier than the pose's ear and nose
//! points; those keys then go through the body's dense → thin path like every other bone's.

use super::conditioning::Conditioned;
use super::face::{self, FaceReport, FaceTrack};
use super::handedness::HandednessCheck;
use super::lm::State;
use super::rig::KeyedRig;
use super::scale::median;
use super::RetargetOptions;
use crate::format::Motion;
use crate::keypoints::JointLayout;
use crate::skeleton::Skeleton;
use glam::{DMat3, DQuat, DVec3};

/// The face of the conditioned (30 fps) keypoints, frame by frame; `None` when the layout has
/// no face.
pub(crate) fn track(
    conditioned: &Conditioned,
    layout: &JointLayout,
    options: &RetargetOptions,
) -> Option<FaceTrack> {
    let block = layout.face?;
    let (kp, joints) = (&conditioned.keypoints, block.joints());
    // The mesh's points where conditioning keeps them: the few the face reads.
    let columns: Vec<Option<usize>> = joints.map(|j| conditioned.column(j)).collect();
    let point = |f: usize, i: usize| {
        let p = kp.frame(f)[(*columns.get(i)?)?];
        p.is_finite().then(|| options.axes.to_mmd(p.as_dvec3()))
    };
    let calibrate = options.face.calibrate_frames;
    Some(face::track_points(kp.frame_count, point, block, calibrate))
}

/// Turns 首 and 頭 of every solved frame that has a face to the face's rigid frame: the face's
/// world rotation from rest (MMD axes, the model's rest facing −Z) is taken relative to 首's
/// parent as solved, less the face frame's fixed tilt on 頭 ([`tilt`]), and split between 首
/// and 頭 as a face alone splits it. Frames without a face keep the body's solve. The face is put right as `check` put the body's points right
/// (turned upright, mirrored back), so that both are in the same axes. Returns the bones
/// turned (skeleton indices), empty when no frame had a face or the model has no 頭.
pub(crate) fn turn_head(
    rig: &KeyedRig,
    track: &FaceTrack,
    check: HandednessCheck,
    states: &mut [State],
) -> Vec<usize> {
    let Some(head) = rig.head else { return Vec::new() };
    // Without 首 between, 頭 takes the whole turn.
    let first = rig.neck.unwrap_or(head);
    let tilt = tilt(head, track, check, states).inverse();
    let mut turned = false;
    for (s, f) in states.iter_mut().zip(&track.frames) {
        let Some(face) = f.as_ref().and_then(|f| f.head) else { continue };
        let face = (corrected(face, check) * tilt).normalize();
        let parent = rig.bones[first].parent.map_or(DQuat::IDENTITY, |p| s.world[p]);
        let turn = (parent.inverse() * face).normalize();
        if let Some(neck) = rig.neck {
            s.world[neck] = (parent * face::split_head(turn).0).normalize();
        }
        // 頭 ends at the face's own rotation whatever the split.
        s.world[head] = face;
        // 頭's pivot hangs on 首's new turn.
        s.place(rig);
        turned = true;
    }
    match turned {
        true => rig.neck.into_iter().chain([head]).map(|b| rig.bones[b].skel).collect(),
        false => Vec::new(),
    }
}

/// The face frames whose turns from the body's solved 頭 agree this closely (median distance
/// from their median, degrees) hold a fixed tilt that [`tilt`] removes; beyond it the body's 頭
/// does not follow the face (ear and nose points that miss a turn the face makes), and
/// cannot calibrate it.
pub(crate) const TILT_SPREAD_DEGREES: f64 = 5.0;

/// The face frame's fixed turn in 頭's own frame: a real face's landmarks (cheeks, chin and
/// forehead) are not square to the model's head, so its rest is off by a tilt that would
/// otherwise land on 首/頭 in every frame. Its median over the frames with a face of the
/// face's turn from the body's solved 頭 (each as a rotation vector, component by component),
/// when those turns agree within [`TILT_SPREAD_DEGREES`]; none otherwise, or without frames.
fn tilt(head: usize, track: &FaceTrack, check: HandednessCheck, states: &[State]) -> DQuat {
    let offsets: Vec<DQuat> = (states.iter().zip(&track.frames))
        .filter_map(|(s, f)| {
            let face = corrected(f.as_ref()?.head?, check);
            let d = (s.world[head].inverse() * face).normalize();
            Some(if d.w < 0.0 { -d } else { d })
        })
        .collect();
    let axis = |k: usize| {
        let mut v: Vec<f64> = offsets.iter().map(|d| d.to_scaled_axis()[k]).collect();
        median(&mut v)
    };
    let (Some(x), Some(y), Some(z)) = (axis(0), axis(1), axis(2)) else {
        return DQuat::IDENTITY;
    };
    let tilt = DQuat::from_scaled_axis(DVec3::new(x, y, z));
    let mut spread: Vec<f64> = offsets.iter().map(|d| d.angle_between(tilt)).collect();
    match median(&mut spread) {
        Some(s) if s.to_degrees() <= TILT_SPREAD_DEGREES => tilt,
        _ => DQuat::IDENTITY,
    }
}

/// The face's rotation from points corrected as `check` corrected the body's. Points turned
/// upright (C, half a turn about X) give the frame C·R; points mirrored back (S, Z negated)
/// give S·R·S, since the frame's third axis is a cross product and flips with the mirror.
fn corrected(face: DQuat, check: HandednessCheck) -> DQuat {
    let mut m = DMat3::from_quat(face);
    if check.turned_upright {
        m = DMat3::from_diagonal(DVec3::new(1.0, -1.0, -1.0)) * m;
    }
    if check.corrected {
        let s = DMat3::from_diagonal(DVec3::new(1.0, 1.0, -1.0));
        m = s * m * s;
    }
    DQuat::from_mat3(&m).normalize()
}

/// Adds the face's keys (morphs, gaze, and the head's turn when `key_head`) of `track` to
/// `motion`.
pub(crate) fn add_face(
    track: &FaceTrack,
    skeleton: &Skeleton,
    options: &RetargetOptions,
    motion: &mut Motion,
    key_head: bool,
) -> FaceReport {
    let keys = face::keys(track, skeleton, &options.face, key_head);
    // Gaze and head bones replace whatever the body keyed on them.
    let names: Vec<_> = keys.bones.iter().map(|k| k.name).collect();
    motion.bones.retain(|k| !names.contains(&k.name));
    motion.bones.extend(keys.bones);
    motion.morphs.extend(keys.morphs);
    keys.report
}
