//! The interpolation blocks of bone and camera keys, kept raw with typed accessors.
//!
//! Bone keys carry a 64-byte block of four rows, each row the 16 curve bytes shifted left by the
//! row number (reference §2.1). Newer MMD overwrites bytes 2–3 of row 0 with a physics toggle, so
//! each curve is read from its own row, never from row 0 alone. Camera keys carry six curves of
//! four bytes each, in x1, x2, y1, y2 order (§3.2).

use crate::curve::Curve;
use serde::{Deserialize, Serialize};

/// Which of a bone key's four curves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BoneCurve {
    /// The x-translation curve, read from row 0 (block bytes 0, 4, 8, 12).
    X = 0,
    /// The y-translation curve, read from row 1 (block bytes 16, 20, 24, 28).
    Y = 1,
    /// The z-translation curve, read from row 2 (block bytes 32, 36, 40, 44).
    Z = 2,
    /// The rotation curve (one curve for the whole slerp), read from row 3 (bytes 48, 52, 56, 60).
    Rotation = 3,
}

/// The physics toggle stored in bytes 2–3 of a bone key's interpolation block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PhysicsToggle {
    /// (0, 0): the bone's rigid bodies are simulated.
    On,
    /// (99, 15): the rigid bodies follow the animation.
    Off,
    /// Anything else, such as the unmodified curve bytes older writers leave; players treat it
    /// as on.
    Unknown(u8, u8),
}

impl PhysicsToggle {
    const OFF: (u8, u8) = (99, 15);

    const fn bytes(self) -> (u8, u8) {
        match self {
            PhysicsToggle::On => (0, 0),
            PhysicsToggle::Off => Self::OFF,
            PhysicsToggle::Unknown(a, b) => (a, b),
        }
    }

    /// Whether physics is simulated: everything but an explicit off.
    pub fn is_on(self) -> bool {
        self != PhysicsToggle::Off
    }
}

/// A bone key's raw 64-byte interpolation block.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoneInterpolation(pub [u8; 64]);

impl BoneInterpolation {
    /// MMD's block for four linear curves with physics on.
    pub const DEFAULT: BoneInterpolation =
        BoneInterpolation::canonical([Curve::LINEAR; 4], PhysicsToggle::On);

    /// Builds the block MMD writes: shifted rows, the physics flag in bytes 2–3, filler bytes 0.
    pub const fn canonical(curves: [Curve; 4], physics: PhysicsToggle) -> Self {
        let mut primary = [0u8; 16];
        let mut k = 0;
        while k < 4 {
            primary[k] = curves[k].x1;
            primary[4 + k] = curves[k].y1;
            primary[8 + k] = curves[k].x2;
            primary[12 + k] = curves[k].y2;
            k += 1;
        }
        let mut block = [0u8; 64];
        let mut row = 0;
        while row < 4 {
            let mut col = 0;
            while col + row < 16 {
                block[16 * row + col] = primary[col + row];
                col += 1;
            }
            row += 1;
        }
        let (a, b) = physics.bytes();
        block[2] = a;
        block[3] = b;
        BoneInterpolation(block)
    }

    /// One of the four curves, read from its own row (bytes 16k + 0/4/8/12).
    #[inline]
    pub fn curve(&self, which: BoneCurve) -> Curve {
        let base = 16 * which as usize;
        let b = &self.0;
        Curve { x1: b[base], y1: b[base + 4], x2: b[base + 8], y2: b[base + 12] }
    }

    /// The X, Y, Z and rotation curves.
    pub fn curves(&self) -> [Curve; 4] {
        [BoneCurve::X, BoneCurve::Y, BoneCurve::Z, BoneCurve::Rotation].map(|c| self.curve(c))
    }

    /// The physics toggle from bytes 2–3.
    pub fn physics(&self) -> PhysicsToggle {
        match (self.0[2], self.0[3]) {
            (0, 0) => PhysicsToggle::On,
            PhysicsToggle::OFF => PhysicsToggle::Off,
            (a, b) => PhysicsToggle::Unknown(a, b),
        }
    }

    /// True when the block is exactly what [`BoneInterpolation::canonical`] writes for its own
    /// curves and physics bytes, i.e. nothing would be lost by storing only those.
    pub fn is_canonical(&self) -> bool {
        *self == Self::canonical(self.curves(), self.physics())
    }
}

impl Default for BoneInterpolation {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl std::fmt::Debug for BoneInterpolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoneInterpolation")
            .field("curves", &self.curves())
            .field("physics", &self.physics())
            .field("canonical", &self.is_canonical())
            .finish()
    }
}

/// Which of a camera key's six curves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CameraCurve {
    /// The target's x curve (block bytes 0–3).
    X = 0,
    /// The target's y curve (block bytes 4–7).
    Y = 1,
    /// The target's z curve (block bytes 8–11).
    Z = 2,
    /// One curve shared by all three rotation angles (block bytes 12–15).
    Rotation = 3,
    /// The eye's distance from the target (block bytes 16–19).
    Distance = 4,
    /// The vertical field of view (block bytes 20–23).
    ViewAngle = 5,
}

/// A camera key's raw 24-byte interpolation block: six curves as (x1, x2, y1, y2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CameraInterpolation(pub [u8; 24]);

impl CameraInterpolation {
    /// Six linear curves as MMD writes them.
    pub const DEFAULT: CameraInterpolation = CameraInterpolation::new([Curve::LINEAR; 6]);

    /// Builds the block from six curves in [`CameraCurve`] order.
    pub const fn new(curves: [Curve; 6]) -> Self {
        let mut block = [0u8; 24];
        let mut k = 0;
        while k < 6 {
            block[4 * k] = curves[k].x1;
            block[4 * k + 1] = curves[k].x2;
            block[4 * k + 2] = curves[k].y1;
            block[4 * k + 3] = curves[k].y2;
            k += 1;
        }
        CameraInterpolation(block)
    }

    /// One of the six curves.
    #[inline]
    pub fn curve(&self, which: CameraCurve) -> Curve {
        self.curve_at(which as usize)
    }

    /// All six curves in [`CameraCurve`] order.
    pub fn curves(&self) -> [Curve; 6] {
        std::array::from_fn(|k| self.curve_at(k))
    }

    /// The `k`th curve's four bytes, stored x1, x2, y1, y2.
    #[inline(always)]
    fn curve_at(&self, k: usize) -> Curve {
        let b = &self.0[4 * k..];
        Curve { x1: b[0], x2: b[1], y1: b[2], y2: b[3] }
    }
}

impl Default for CameraInterpolation {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A bone key's four curves as [`Curve::points`], each read from its own row of the
/// interpolation block: the shape JSON documents show them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BoneCurvePoints {
    /// Translation along X.
    pub x: [u8; 4],
    /// Translation along Y.
    pub y: [u8; 4],
    /// Translation along Z.
    pub z: [u8; 4],
    /// Rotation.
    pub rotation: [u8; 4],
}

impl BoneCurvePoints {
    /// The curves of a bone key's block.
    #[inline]
    pub fn new(block: &BoneInterpolation) -> Self {
        let [x, y, z, rotation] = block.curves().map(Curve::points);
        BoneCurvePoints { x, y, z, rotation }
    }
}

/// A camera key's six curves as [`Curve::points`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CameraCurvePoints {
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

impl CameraCurvePoints {
    /// The curves of a camera key's block.
    #[inline]
    pub fn new(block: &CameraInterpolation) -> Self {
        let [x, y, z, rotation, distance, view_angle] = block.curves().map(Curve::points);
        CameraCurvePoints { x, y, z, rotation, distance, view_angle }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_block_matches_the_reference_bytes() {
        #[rustfmt::skip]
        let expected: [u8; 64] = [
            20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107,
            20, 20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0,
            20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, 0,
            20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, 0, 0,
        ];
        assert_eq!(BoneInterpolation::DEFAULT.0, expected);
        assert!(BoneInterpolation::DEFAULT.is_canonical());
        assert_eq!(BoneInterpolation::DEFAULT.physics(), PhysicsToggle::On);
    }

    #[test]
    fn curves_come_from_their_own_rows_not_the_physics_bytes() {
        let curves = [
            Curve { x1: 1, y1: 2, x2: 3, y2: 4 },
            Curve { x1: 5, y1: 6, x2: 7, y2: 8 },
            Curve { x1: 9, y1: 10, x2: 11, y2: 12 },
            Curve { x1: 13, y1: 14, x2: 15, y2: 16 },
        ];
        let block = BoneInterpolation::canonical(curves, PhysicsToggle::Off);
        assert_eq!((block.0[2], block.0[3]), (99, 15));
        assert_eq!(block.curves(), curves);
        assert_eq!(block.physics(), PhysicsToggle::Off);
        assert!(!block.physics().is_on());
    }

    #[test]
    fn old_writers_leave_curve_bytes_in_the_physics_slot() {
        let mut block = BoneInterpolation::DEFAULT;
        block.0[2] = 20;
        block.0[3] = 20;
        assert_eq!(block.physics(), PhysicsToggle::Unknown(20, 20));
        assert!(block.physics().is_on());
        assert!(block.is_canonical());
        assert_eq!(block.curves(), [Curve::LINEAR; 4]);
    }

    #[test]
    fn camera_curves_are_x1_x2_y1_y2() {
        let mut curves = [Curve::LINEAR; 6];
        curves[4] = Curve { x1: 1, y1: 2, x2: 3, y2: 4 };
        let block = CameraInterpolation::new(curves);
        assert_eq!(&block.0[16..20], &[1, 3, 2, 4]);
        assert_eq!(block.curve(CameraCurve::Distance), curves[4]);
        assert_eq!(block.curves(), curves);
    }
}
