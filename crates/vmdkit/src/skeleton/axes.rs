//! The coordinate frames and units an export can be written in.
//!
//! **Units.** MMD has no official unit; by convention one unit is about 8 cm (reference §7
//! "Units": mmd_tools imports at 0.08 m per unit; NB: "1ミクセル8cm"), so [`METRES_PER_UNIT`]
//! is 0.08.
//!
//! **Axes** ([`Axes`]): MMD's own left-handed Y-up frame (+X the model's left, models face −Z),
//! or a right-handed frame (reference §8): Y up by mirroring Z (p → (x, y, −z), q → (−x, −y, z,
//! w), as three.js, saba and MMDAgent do; glTF's convention, models face +Z), or Z up as Blender
//! (p → (x, z, y), q → (−x, −z, −y, w); models face −Y, as mmd_tools imports them).

use glam::{Quat, Vec3};

/// Metres per MMD unit (1 unit ≈ 8 cm).
pub const METRES_PER_UNIT: f64 = 0.08;

/// The coordinate frame of an export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Axes {
    /// MMD's own: left-handed, Y up, models face −Z.
    #[default]
    Mmd,
    /// Right-handed, Y up: Z mirrored (glTF, three.js). Models face +Z.
    RightHandedYUp,
    /// Right-handed, Z up (Blender): MMD's Y and Z swapped. Models face −Y.
    RightHandedZUp,
}

impl Axes {
    /// A short name, written into the outputs.
    pub fn label(self) -> &'static str {
        match self {
            Axes::Mmd => "mmd_left_handed_y_up",
            Axes::RightHandedYUp => "right_handed_y_up",
            Axes::RightHandedZUp => "right_handed_z_up",
        }
    }

    /// A position (or any vector) in MMD's frame, in this one.
    pub fn position(self, p: Vec3) -> Vec3 {
        match self {
            Axes::Mmd => p,
            Axes::RightHandedYUp => Vec3::new(p.x, p.y, -p.z),
            Axes::RightHandedZUp => Vec3::new(p.x, p.z, p.y),
        }
    }

    /// A rotation in MMD's frame, in this one. Both conversions are reflections (determinant
    /// −1), under which a rotation's axis maps to −(M·axis) and its angle stays.
    pub fn rotation(self, q: Quat) -> Quat {
        match self {
            Axes::Mmd => q,
            Axes::RightHandedYUp => Quat::from_xyzw(-q.x, -q.y, q.z, q.w),
            Axes::RightHandedZUp => Quat::from_xyzw(-q.x, -q.z, -q.y, q.w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skeleton_export_axes_convert_rotations_consistently() {
        // Rotating a vector then converting equals converting both then rotating.
        let q = Quat::from_axis_angle(Vec3::new(0.3, -0.5, 0.8).normalize(), 0.9);
        let v = Vec3::new(1.0, 2.0, -0.5);
        for axes in [Axes::Mmd, Axes::RightHandedYUp, Axes::RightHandedZUp] {
            let a = axes.position(q * v);
            let b = axes.rotation(q) * axes.position(v);
            assert!((a - b).length() < 1e-5, "{axes:?}: {a} vs {b}");
        }
        // §8's worked rule for the Z mirror.
        assert_eq!(
            Axes::RightHandedYUp.rotation(Quat::from_xyzw(0.1, 0.2, 0.3, 0.9)),
            Quat::from_xyzw(-0.1, -0.2, 0.3, 0.9)
        );
        assert_eq!(crate::limit::sample_count(90, 60.0), 181);
        assert_eq!(crate::limit::sample_count(0, 24.0), 1);
        assert_eq!(crate::limit::sample_count(100, 30.0), 101);
        assert_eq!(crate::limit::sample_count(u32::MAX, 1e300), usize::MAX);
    }
}
