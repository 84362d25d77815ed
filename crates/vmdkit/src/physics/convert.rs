//! Between vmdkit's math types and the engine's (the engine uses a newer glam), and MMD's
//! numbers in the engine's terms: Euler angles, damping.

use glam::{EulerRot, Quat, Vec3};
use rapier3d::math::{Pose, Rotation, Vector};

/// A vmdkit vector as the engine's.
pub(super) fn to_vector(v: Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// An engine vector as vmdkit's.
pub(super) fn from_vector(v: Vector) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// A vmdkit rotation as the engine's.
pub(super) fn to_rotation(q: Quat) -> Rotation {
    Rotation::from_xyzw(q.x, q.y, q.z, q.w)
}

/// An engine rotation as vmdkit's.
pub(super) fn from_rotation(q: Rotation) -> Quat {
    Quat::from_xyzw(q.x, q.y, q.z, q.w)
}

/// A rigid transform (rotation, then translation) as the engine's pose.
pub(super) fn to_pose(t: Transform) -> Pose {
    Pose::from_parts(to_vector(t.translation), to_rotation(t.rotation))
}

/// An engine pose as a [`Transform`].
pub(super) fn from_pose(p: &Pose) -> Transform {
    Transform { translation: from_vector(p.translation), rotation: from_rotation(p.rotation) }
}

/// The rotation a file's Euler angles (radians) mean: about Y, then X, then Z, as MMD and the
/// players read rigid bodies and joints.
pub(super) fn euler(angles: Vec3) -> Quat {
    Quat::from_euler(EulerRot::YXZ, angles.y, angles.x, angles.z)
}

/// The largest share of velocity per second damping may remove: at 1 the engine's coefficient
/// would be infinite.
const MAX_DAMPING: f32 = 0.999;

/// Bullet's damping `d` (velocity times (1 − d)^dt per step, i.e. `exp(t · ln(1 − d))` over
/// time) as the engine's coefficient `c` (velocity over time `exp(−c t)` to first order in the
/// step): `c = −ln(1 − d)`. Negative or NaN `d` mean no damping, `d` near 1 is clamped.
pub(super) fn damping(d: f32) -> f32 {
    if d.is_nan() || d <= 0.0 {
        return 0.0;
    }
    -(1.0 - d.min(MAX_DAMPING)).ln()
}

/// A rigid transform of model space: `x ↦ rotation · x + translation`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform { translation: Vec3::ZERO, rotation: Quat::IDENTITY };

    /// `translation · rotation`.
    pub fn new(translation: Vec3, rotation: Quat) -> Transform {
        Transform { translation, rotation }
    }

    /// `self · other`: `other` first.
    pub fn mul(self, other: Transform) -> Transform {
        Transform {
            translation: self.translation + self.rotation * other.translation,
            rotation: (self.rotation * other.rotation).normalize(),
        }
    }

    /// The inverse transform.
    pub fn inverse(self) -> Transform {
        let r = self.rotation.conjugate();
        Transform { translation: r * -self.translation, rotation: r }
    }

    /// A point moved by the transform.
    #[cfg(test)]
    pub fn point(self, p: Vec3) -> Vec3 {
        self.translation + self.rotation * p
    }

    /// The way from `self` (at 0) to `other` (at 1): positions linearly, rotations by slerp.
    pub fn lerp(self, other: Transform, t: f32) -> Transform {
        Transform {
            translation: self.translation.lerp(other.translation, t),
            rotation: self.rotation.slerp(other.rotation, t),
        }
    }
}
