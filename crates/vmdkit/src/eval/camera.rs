//! The camera track and the camera's view (reference §3.2, §6.6, §7).
//!
//! Interpolation:
//!
//! * Target X, Y, Z, distance and view angle each use their own curve, read in the file's
//!   x1, x2, y1, y2 order
//!   ([`CameraInterpolation::curve`](crate::format::CameraInterpolation::curve), §3.2), and the
//!   later key's curves shape the segment (§6.2).
//! * The three Euler angles are blended **linearly**, all by the rotation curve (§6.6, §12 row 6:
//!   BM, MA and SB; three.js slerps instead). A spin from 0 to 4π therefore turns twice.
//! * The view angle is blended as a number of degrees (§6.6: BM; SB blends radians, which is
//!   the same).
//! * **Cuts**: in a segment whose keys are one frame apart, the earlier key holds until the
//!   later key's frame (§6.6, §12 row 7: SB and BM always hold; MMDAgent holds only on large
//!   jumps and three.js under 1.5 frames). At integer frames every rule gives the same result.
//! * The perspective flag (byte 0 = perspective, §3.2 and §12 row 8) steps on the earlier key.
//!
//! The view (§7, §12 row 5: BM, MA and MT agree; SB swaps pitch and roll): with
//! C = Ry(−ry)·Rx(−rx)·Rz(−rz) in MMD's left-handed axes, the eye is T + C·(0, 0, d), the
//! camera looks along C·(0, 0, 1) with C·(0, 1, 0) up, and the field of view is vertical.
//! The distance d is normally negative, which puts the eye behind the target.

use super::track::{Cursor, Segment, Timeline, WeightCache, TRACK_WEIGHTS};
use crate::curve::Curve;
use crate::format::{CameraCurve, CameraKey};
use crate::math::lerp;
use glam::{DMat3, DVec3, Mat3, Vec3};

/// The camera's keyed values at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraSample {
    /// The point the camera orbits, MMD's left-handed axes.
    pub target: Vec3,
    /// Signed distance from the target to the eye along the camera's Z; normally negative.
    pub distance: f32,
    /// Euler angles (x, y, z) in radians as stored in the file; see [`CameraSample::view`].
    pub rotation: Vec3,
    /// Vertical field of view in degrees (fractional between keys).
    pub fov: f32,
    /// Perspective projection (true) or orthographic (false).
    pub perspective: bool,
}

impl CameraSample {
    /// The camera of a motion with no camera keys, as babylon-mmd and mmd_tools set it up
    /// (§6.6): target (0, 10, 0), no rotation, distance −45, 30°.
    pub const MMD_DEFAULT: CameraSample = CameraSample {
        target: Vec3::new(0.0, 10.0, 0.0),
        distance: -45.0,
        rotation: Vec3::ZERO,
        fov: 30.0,
        perspective: true,
    };

    /// The camera-to-world rotation C = Ry(−ry)·Rx(−rx)·Rz(−rz) (§7): yaw outermost, roll
    /// about the viewing axis innermost.
    pub fn rotation_matrix(&self) -> Mat3 {
        rotation_f64(self.rotation).as_mat3()
    }

    /// Eye, viewing directions and field of view (§7), computed in f64.
    pub fn view(&self) -> CameraView {
        let c = rotation_f64(self.rotation);
        let target = self.target.as_dvec3();
        CameraView {
            eye: (target + c * DVec3::new(0.0, 0.0, f64::from(self.distance))).as_vec3(),
            target: self.target,
            forward: c.z_axis.as_vec3(),
            up: c.y_axis.as_vec3(),
            right: c.x_axis.as_vec3(),
            fov_y_degrees: self.fov,
            perspective: self.perspective,
        }
    }
}

fn rotation_f64(r: Vec3) -> DMat3 {
    let r = r.as_dvec3();
    DMat3::from_rotation_y(-r.y) * DMat3::from_rotation_x(-r.x) * DMat3::from_rotation_z(-r.z)
}

/// Where the camera is and where it looks, in MMD's left-handed axes (§7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraView {
    /// The camera's position: the target plus the distance along the camera's local Z.
    pub eye: Vec3,
    /// The point the camera orbits and looks at (the key's target, interpolated).
    pub target: Vec3,
    /// Unit viewing direction (the camera's local +Z).
    pub forward: Vec3,
    /// Unit up direction (the camera's local +Y).
    pub up: Vec3,
    /// Unit right direction (the camera's local +X).
    pub right: Vec3,
    /// Vertical field of view in degrees.
    pub fov_y_degrees: f32,
    /// Perspective projection when true (perspective byte 0), orthographic otherwise.
    pub perspective: bool,
}

impl CameraView {
    /// A world point in camera coordinates (left-handed, looking along +Z): Cᵀ·(p − eye), which
    /// is §7's Cᵀ·(p − T) − (0, 0, d).
    pub fn to_view_space(&self, p: Vec3) -> Vec3 {
        let v = p - self.eye;
        Vec3::new(v.dot(self.right), v.dot(self.up), v.dot(self.forward))
    }
}

/// The camera keys, sorted by frame.
#[derive(Clone, Debug, PartialEq)]
pub struct CameraTrack {
    timeline: Timeline,
    keys: Box<[CameraSample]>,
    /// Key i's curves shape the segment from key i − 1 to key i.
    curves: Box<[[Curve; 6]]>,
}

impl CameraTrack {
    /// A track from `keys[k]` for each k in `order` (sorted by frame, one key per frame).
    pub(crate) fn new(keys: &[CameraKey], order: &[usize]) -> Self {
        CameraTrack {
            timeline: Timeline::new(order.iter().map(|&k| keys[k].frame).collect()),
            keys: order
                .iter()
                .map(|&k| {
                    let key = &keys[k];
                    CameraSample {
                        target: key.target,
                        distance: key.distance,
                        rotation: key.rotation,
                        fov: key.view_angle as f32,
                        perspective: key.is_perspective(),
                    }
                })
                .collect(),
            curves: order.iter().map(|&k| keys[k].interpolation.curves()).collect(),
        }
    }

    super::accessors::timeline_accessors!(CameraSample, "camera");

    /// Key `i`'s values.
    pub fn key(&self, i: usize) -> CameraSample {
        self.keys[i]
    }

    /// The curves of the segment ending at key `i`.
    pub fn curves(&self, i: usize) -> [Curve; 6] {
        self.curves[i]
    }

    /// Whether the segment from key `i` to key `i + 1` is a cut (keys one frame apart).
    pub fn is_cut(&self, i: usize) -> bool {
        self.frames().get(i + 1).is_some_and(|&next| next - self.frames()[i] == 1)
    }

    /// The camera at frame `t`, walking from `cursor`.
    pub fn sample_with(&self, cursor: &mut Cursor, t: impl Into<f64>) -> CameraSample {
        match cursor.locate(&self.timeline, t.into()) {
            Segment::Key(i) => self.keys[i],
            Segment::Between { i, .. } if self.is_cut(i) => self.keys[i],
            Segment::Between { i, p } => self.interpolate(i, p),
        }
    }

    fn interpolate(&self, i: usize, p: f64) -> CameraSample {
        let (a, b) = (&self.keys[i], &self.keys[i + 1]);
        let curves = &self.curves[i + 1];
        let mut weights = WeightCache::<TRACK_WEIGHTS>::new();
        let mut w = |c: CameraCurve| weights.weight(curves[c as usize], p);
        let (wx, wy, wz) = (w(CameraCurve::X), w(CameraCurve::Y), w(CameraCurve::Z));
        let wr = w(CameraCurve::Rotation);
        let target = Vec3::new(
            lerp(a.target.x, b.target.x, wx),
            lerp(a.target.y, b.target.y, wy),
            lerp(a.target.z, b.target.z, wz),
        );
        let rotation = Vec3::new(
            lerp(a.rotation.x, b.rotation.x, wr),
            lerp(a.rotation.y, b.rotation.y, wr),
            lerp(a.rotation.z, b.rotation.z, wr),
        );
        CameraSample {
            target,
            distance: lerp(a.distance, b.distance, w(CameraCurve::Distance)),
            rotation,
            fov: lerp(a.fov, b.fov, w(CameraCurve::ViewAngle)),
            perspective: a.perspective,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::CameraInterpolation;

    fn key(frame: u32, target: Vec3, distance: f32, rotation: Vec3, fov: u32) -> CameraKey {
        CameraKey {
            frame,
            distance,
            target,
            rotation,
            interpolation: CameraInterpolation::DEFAULT,
            view_angle: fov,
            perspective_byte: 0,
        }
    }

    fn near(a: Vec3, b: Vec3, tol: f32) -> bool {
        (a - b).abs().max_element() < tol
    }

    #[test]
    fn reference_numerical_check() {
        // §7: T = (1, 10, 2), d = −45, (rx, ry, rz) = (0.3, 0.5, 0.2): BM, MA and MT all give
        // eye (21.6106, −3.2984, −35.7274) and forward (−0.4580, 0.2955, 0.8384).
        let cam = CameraSample {
            target: Vec3::new(1.0, 10.0, 2.0),
            distance: -45.0,
            rotation: Vec3::new(0.3, 0.5, 0.2),
            fov: 30.0,
            perspective: true,
        };
        let v = cam.view();
        assert!(near(v.eye, Vec3::new(21.6106, -3.2984, -35.7274), 1e-4), "{v:?}");
        assert!(near(v.forward, Vec3::new(-0.4580, 0.2955, 0.8384), 1e-4), "{v:?}");
        // SB's yaw·roll·pitch order gives a different eye, (19.2920, −3.0333, −36.9940).
        assert!(!near(v.eye, Vec3::new(19.2920, -3.0333, -36.9940), 0.5));
        // The frame is orthonormal and the target lies straight ahead at |d|.
        assert!(
            (v.forward.dot(v.up)).abs() < 1e-6 && (v.right.cross(v.up) - v.forward).length() < 1e-6
        );
        assert!(near(v.to_view_space(cam.target), Vec3::new(0.0, 0.0, 45.0), 1e-4));
        assert!(near(cam.rotation_matrix() * Vec3::Z, v.forward, 1e-6));
    }

    #[test]
    fn reference_sanity_checks() {
        // No rotation: the eye is 45 units in front of the model (at −Z), looking +Z.
        let v = CameraSample::MMD_DEFAULT.view();
        assert!(near(v.eye, Vec3::new(0.0, 10.0, -45.0), 1e-6) && near(v.forward, Vec3::Z, 1e-7));
        assert!(near(v.up, Vec3::Y, 1e-7));
        // ry = +90°: the eye moves to the +X side (the model's left), looking towards −X.
        let side = CameraSample {
            rotation: Vec3::new(0.0, 90f32.to_radians(), 0.0),
            ..CameraSample::MMD_DEFAULT
        };
        let v = side.view();
        assert!(
            near(v.eye, Vec3::new(45.0, 10.0, 0.0), 1e-5) && near(v.forward, -Vec3::X, 1e-6),
            "{v:?}"
        );
        // Roll turns about the viewing axis: forward stays, up tilts.
        let roll = CameraSample { rotation: Vec3::new(0.0, 0.0, 0.5), ..CameraSample::MMD_DEFAULT };
        assert!(near(roll.view().forward, Vec3::Z, 1e-6) && roll.view().up.y < 0.9);
    }

    #[test]
    fn euler_angles_blend_linearly_and_cuts_hold() {
        let spin = Vec3::new(0.0, 4.0 * std::f32::consts::PI, 0.0);
        let keys = [
            key(0, Vec3::ZERO, -45.0, Vec3::ZERO, 30),
            key(10, Vec3::new(0.0, 10.0, 0.0), -35.0, spin, 50),
            key(11, Vec3::new(5.0, 0.0, 0.0), -10.0, Vec3::ZERO, 20),
        ];
        let track = CameraTrack::new(&keys, &[0, 1, 2]);
        let s = track.sample(5.0);
        // Linear Euler blend: halfway through a 4π spin is 2π, not a quaternion shortcut.
        assert!((s.rotation.y - 2.0 * std::f32::consts::PI).abs() < 1e-5);
        assert_eq!((s.target, s.distance, s.fov), (Vec3::new(0.0, 5.0, 0.0), -40.0, 40.0));
        // 10 → 11 is a cut: key 10 holds until frame 11.
        assert!(track.is_cut(1) && !track.is_cut(0) && !track.is_cut(2));
        for t in [10.0, 10.25, 10.5, 10.999] {
            assert_eq!(track.sample(t), track.key(1), "t = {t}");
        }
        assert_eq!(track.sample(11.0), track.key(2));
    }

    #[test]
    fn each_camera_channel_has_its_own_curve() {
        let ease = Curve::new(127, 0, 0, 127);
        let mut keys = [
            key(0, Vec3::ZERO, 0.0, Vec3::ZERO, 10),
            key(20, Vec3::splat(1.0), 1.0, Vec3::splat(1.0), 30),
        ];
        let mut curves = [Curve::LINEAR; 6];
        curves[CameraCurve::Y as usize] = ease;
        curves[CameraCurve::ViewAngle as usize] = Curve::new(0, 127, 0, 127);
        keys[1].interpolation = CameraInterpolation::new(curves);
        keys[1].perspective_byte = 1;
        let track = CameraTrack::new(&keys, &[0, 1]);
        let s = track.sample(5.0);
        let w_ease = ease.weight_f64(0.25) as f32;
        let w_fov = Curve::new(0, 127, 0, 127).weight_f64(0.25) as f32;
        assert_eq!(s.target.x, 0.25);
        assert!((s.target.y - w_ease).abs() < 1e-7 && (s.fov - (10.0 + 20.0 * w_fov)).abs() < 1e-5);
        assert_eq!((s.distance, s.rotation), (0.25, Vec3::splat(0.25)));
        // Perspective steps on the earlier key.
        assert!(s.perspective && !track.sample(20.0).perspective);
    }
}
