//! Moving and turning a whole motion in model space through its root bones ([`place`]).
//!
//! A rigid transform p ↦ R·p + d applied to the model is applied to the keys of the bones the
//! rest of the skeleton hangs from (its roots: 全ての親 in a model that has it): a root at rest
//! position r with key (t, q) is at r + t, turned by q, so its new key is
//! (R·(r + t) + d − r, R·q). A root the motion does not key gets one key at frame 0.
//!
//! **Curves.** The rotation curve stays (R·slerp(q₀, q₁, w) = slerp(R·q₀, R·q₁, w)). A
//! translation channel stays exact when R does not mix it with another, or mixes it only with
//! channels of the same curve (the usual case: most keys have one curve on all three). Where a
//! turn mixes channels with different curves, the new channel takes the curve of the channel
//! that moves it most in that segment; [`PlaceReport::approximated_segments`] counts them.
//!
//! **Camera** (when asked): the target moves like a bone, R·T + d, and a turn about the vertical
//! axis (yaw) θ becomes ry − θ (the camera's rotation is Ry(−ry)·Rx(−rx)·Rz(−rz), reference §7).
//! Pitch and roll would need the Euler angles recomputed, which their linear blend cannot
//! follow, so a camera is only turned by yaw ([`EditError::CameraTilt`]).

use super::EditError;
use crate::angles::mmd_euler_deg_to_quat;
use crate::curve::Curve;
use crate::format::{BoneInterpolation, BoneKey, CameraCurve, CameraInterpolation, Motion};
use crate::text::KeyName;
use glam::{Mat3, Quat, Vec3};
use std::collections::{HashMap, HashSet};

/// A rigid transform of model space: p ↦ rotation · p + offset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidTransform {
    /// The turn (unit).
    pub rotation: Quat,
    /// The move, model units, after the turn.
    pub offset: Vec3,
}

impl RigidTransform {
    /// A turn by the angles MMD's bone panel shows, in degrees (yaw Y, pitch X, roll Z: the
    /// panel's `(X, Y, Z)` is `(pitch, yaw, roll)`, see [`crate::angles`]), then a move.
    pub fn from_degrees(yaw: f32, pitch: f32, roll: f32, offset: Vec3) -> Self {
        let rotation = mmd_euler_deg_to_quat(Vec3::new(pitch, yaw, roll)).normalize();
        RigidTransform { rotation, offset }
    }

    /// The yaw of a turn about Y alone, in radians; `None` when it also pitches or rolls.
    fn yaw(&self) -> Option<f32> {
        let up = self.rotation * Vec3::Y;
        if up.distance(Vec3::Y) > 1e-6 {
            return None;
        }
        let (axis, angle) = self.rotation.to_axis_angle();
        Some(if axis.y < 0.0 { -angle } else { angle })
    }
}

/// A bone the transform is applied to: its key name and rest position (model space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaceRoot {
    /// The bone's name as keys carry it.
    pub name: KeyName,
    /// Its rest position; only a turn depends on it.
    pub rest: Vec3,
}

/// What [`place`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlaceReport {
    /// Bone keys rewritten.
    pub bone_keys: usize,
    /// Keys added for roots the motion did not key.
    pub added_keys: usize,
    /// Camera keys rewritten.
    pub camera_keys: usize,
    /// Segments whose new translation channel mixes old channels of different curves, given
    /// the dominant one's curve (see the module documentation).
    pub approximated_segments: usize,
}

/// Applies `transform` to `motion` through `roots`, and to its camera when `camera` is set
/// (see the module documentation).
pub fn place(
    motion: &Motion,
    roots: &[PlaceRoot],
    transform: RigidTransform,
    camera: bool,
) -> Result<(Motion, PlaceReport), EditError> {
    let yaw = match (camera, transform.yaw()) {
        (true, None) => return Err(EditError::CameraTilt),
        (_, yaw) => yaw.unwrap_or(0.0),
    };
    let mut out = motion.clone();
    let mut report = PlaceReport::default();
    let matrix = Mat3::from_quat(transform.rotation);
    // Each root's keys, in frame order; a name given twice is moved once (the first rest wins,
    // as the first bone of a name gets its keys in MMD).
    let mut tracks: HashMap<&[u8], Vec<usize>> =
        roots.iter().map(|r| (r.name.bytes(), Vec::new())).collect();
    for (i, key) in motion.bones.iter().enumerate() {
        if let Some(track) = tracks.get_mut(key.name.bytes()) {
            track.push(i);
        }
    }
    let mut done = HashSet::new();
    for root in roots.iter().filter(|r| done.insert(r.name.bytes())) {
        let moved = |t: Vec3| transform.rotation * (root.rest + t) + transform.offset - root.rest;
        let mut keyed = false;
        let mut order = tracks.remove(root.name.bytes()).unwrap_or_default();
        order.sort_by_key(|&i| out.bones[i].frame);
        let mut previous: Option<Vec3> = None;
        for &i in &order {
            let key = &mut out.bones[i];
            let change = previous.map_or(Vec3::ZERO, |p| key.translation - p);
            previous = Some(key.translation);
            let [x, y, z, r] = key.interpolation.curves();
            let (curves, mixed) = mix(&matrix, [x, y, z], change);
            report.approximated_segments += usize::from(mixed);
            let physics = key.interpolation.physics();
            key.interpolation =
                keep_raw(key.interpolation, [curves[0], curves[1], curves[2], r], physics);
            key.translation = moved(key.translation);
            key.rotation = (transform.rotation * key.rotation).normalize();
            report.bone_keys += 1;
            keyed = true;
        }
        if !keyed {
            let mut key = BoneKey::new(root.name, 0);
            key.translation = moved(Vec3::ZERO);
            key.rotation = transform.rotation;
            out.bones.push(key);
            report.added_keys += 1;
        }
    }
    if camera {
        let mut order: Vec<usize> = (0..out.cameras.len()).collect();
        order.sort_by_key(|&i| out.cameras[i].frame);
        let mut previous: Option<Vec3> = None;
        for &i in &order {
            let key = &mut out.cameras[i];
            let change = previous.map_or(Vec3::ZERO, |p| key.target - p);
            previous = Some(key.target);
            let mut curves = key.interpolation.curves();
            let (xyz, mixed) = mix(&matrix, [curves[0], curves[1], curves[2]], change);
            report.approximated_segments += usize::from(mixed);
            curves[CameraCurve::X as usize] = xyz[0];
            curves[CameraCurve::Y as usize] = xyz[1];
            curves[CameraCurve::Z as usize] = xyz[2];
            if curves != key.interpolation.curves() {
                key.interpolation = CameraInterpolation::new(curves);
            }
            key.target = transform.rotation * key.target + transform.offset;
            key.rotation.y -= yaw;
            report.camera_keys += 1;
        }
    }
    Ok((out, report))
}

/// The block with `curves`, the raw bytes kept when they are the curves it already has.
fn keep_raw(
    block: BoneInterpolation,
    curves: [Curve; 4],
    physics: crate::format::PhysicsToggle,
) -> BoneInterpolation {
    if curves == block.curves() {
        block
    } else {
        BoneInterpolation::canonical(curves, physics)
    }
}

/// The curves of the three channels of `matrix · v` given the curves of v's channels, and
/// whether one of them had to be approximated. `change` is v's change over the segment: where
/// channels of different curves mix, the one moving the new channel most gives its curve.
fn mix(matrix: &Mat3, curves: [Curve; 3], change: Vec3) -> ([Curve; 3], bool) {
    let mut out = curves;
    let mut approximated = false;
    for (i, slot) in out.iter_mut().enumerate() {
        let row = matrix.row(i);
        let used: Vec<usize> = (0..3).filter(|&j| row[j].abs() > 1e-6).collect();
        let Some(&first) = used.first() else { continue };
        if used.iter().all(|&j| curves[j] == curves[first]) {
            *slot = curves[first];
            continue;
        }
        let weight = |j: usize| (row[j] * change[j]).abs();
        let dominant =
            used.iter().copied().fold(first, |a, b| if weight(b) > weight(a) { b } else { a });
        *slot = curves[dominant];
        // A segment with no change in the mixed channels has nothing to follow.
        approximated |= used.iter().filter(|&&j| weight(j) > 0.0).count() > 1;
    }
    (out, approximated)
}
