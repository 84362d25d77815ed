//! Input axes → MMD's: a proper rotation that brings the input's up axis to +Y, then, for the
//! right-handed inputs estimators, OpenSim and BVH write, a mirror of Z. A right-handed subject
//! facing +Z with its left at +X then faces −Z with its left at +X, as an MMD model does.

use crate::keypoints::UpAxis;
use glam::DVec3;

/// How input coordinates become MMD's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputAxes {
    /// The input's up axis.
    pub up: UpAxis,
    /// Whether the input is already left-handed (as MMD is): no mirror.
    pub left_handed: bool,
}

impl Default for InputAxes {
    fn default() -> Self {
        InputAxes { up: UpAxis::Y, left_handed: false }
    }
}

impl InputAxes {
    /// An input point in MMD's axes (same length units).
    pub fn to_mmd(self, p: DVec3) -> DVec3 {
        let y_up = match self.up {
            UpAxis::Y => p,
            UpAxis::NegY => DVec3::new(p.x, -p.y, -p.z),
            UpAxis::Z => DVec3::new(p.x, p.z, -p.y),
            UpAxis::NegZ => DVec3::new(p.x, -p.z, p.y),
        };
        if self.left_handed {
            y_up
        } else {
            DVec3::new(y_up.x, y_up.y, -y_up.z)
        }
    }

    /// The inverse of [`InputAxes::to_mmd`].
    pub fn from_mmd(self, p: DVec3) -> DVec3 {
        let y_up = if self.left_handed { p } else { DVec3::new(p.x, p.y, -p.z) };
        match self.up {
            UpAxis::Y => y_up,
            UpAxis::NegY => DVec3::new(y_up.x, -y_up.y, -y_up.z),
            UpAxis::Z => DVec3::new(y_up.x, -y_up.z, y_up.y),
            UpAxis::NegZ => DVec3::new(y_up.x, y_up.z, -y_up.y),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_convention_inverts_and_brings_up_to_y() {
        let p = DVec3::new(0.3, -1.7, 2.9);
        for up in [UpAxis::Y, UpAxis::NegY, UpAxis::Z, UpAxis::NegZ] {
            for left_handed in [false, true] {
                let axes = InputAxes { up, left_handed };
                assert!((axes.from_mmd(axes.to_mmd(p)) - p).length() < 1e-12);
                let up_vector = match up {
                    UpAxis::Y => DVec3::Y,
                    UpAxis::NegY => DVec3::NEG_Y,
                    UpAxis::Z => DVec3::Z,
                    UpAxis::NegZ => DVec3::NEG_Z,
                };
                assert!((axes.to_mmd(up_vector) - DVec3::Y).length() < 1e-12);
                // Lengths are kept; handedness flips only for right-handed inputs.
                let (a, b) = (DVec3::X, DVec3::Y);
                let c = a.cross(b);
                let mirrored = axes.to_mmd(a).cross(axes.to_mmd(b)).dot(axes.to_mmd(c)) < 0.0;
                assert_eq!(mirrored, !left_handed);
            }
        }
    }

    #[test]
    fn mediapipe_world_landmarks_face_the_camera_as_mmd_faces_minus_z() {
        // MediaPipe: x to the image's right (the subject's left when facing the camera), y
        // down, z away from the camera; the nose is nearer the camera than the hips.
        let axes = InputAxes { up: UpAxis::NegY, left_handed: false };
        let nose = axes.to_mmd(DVec3::new(0.0, -0.6, -0.1));
        let left_hip = axes.to_mmd(DVec3::new(0.1, 0.0, 0.0));
        assert!(nose.y > 0.0 && nose.z < 0.0);
        assert!(left_hip.x > 0.0);
    }
}
