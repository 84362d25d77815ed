//! Interpolation curves as JSON: one shape for every document that shows them (`vmdkit dump
//! --json` and the convert JSON format), so the two cannot drift apart.

use crate::curve::Curve;
use crate::format::{BoneInterpolation, CameraInterpolation};
use serde::Serialize;

/// A curve as `[x1, y1, x2, y2]`, the order MMD's graph editor shows, for bone and camera
/// curves alike (the camera block stores them as x1, x2, y1, y2).
#[inline]
pub fn curve_points(c: Curve) -> [u8; 4] {
    [c.x1, c.y1, c.x2, c.y2]
}

/// A bone key's four curves, each read from its own row of the interpolation block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BoneCurves {
    /// Translation along X.
    pub x: [u8; 4],
    /// Translation along Y.
    pub y: [u8; 4],
    /// Translation along Z.
    pub z: [u8; 4],
    /// Rotation.
    pub rotation: [u8; 4],
}

impl BoneCurves {
    /// The curves of a bone key's block.
    #[inline]
    pub fn new(block: &BoneInterpolation) -> Self {
        let [x, y, z, rotation] = block.curves().map(curve_points);
        BoneCurves { x, y, z, rotation }
    }
}

/// A camera key's six curves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CameraCurves {
    /// The target's X.
    pub x: [u8; 4],
    /// The target's Y.
    pub y: [u8; 4],
    /// The target's Z.
    pub z: [u8; 4],
    /// The rotation (all three angles).
    pub rotation: [u8; 4],
    /// The distance from the target.
    pub distance: [u8; 4],
    /// The view angle.
    pub view_angle: [u8; 4],
}

impl CameraCurves {
    /// The curves of a camera key's block.
    #[inline]
    pub fn new(block: &CameraInterpolation) -> Self {
        let [x, y, z, rotation, distance, view_angle] = block.curves().map(curve_points);
        CameraCurves { x, y, z, rotation, distance, view_angle }
    }
}
