//! Rotations as MMD's bone panel shows them.
//!
//! VMD stores bone rotations as quaternions `(x, y, z, w)` in MMD's left-handed, Y-up space.
//! MMD's panel shows three angles `(X, Y, Z)` in degrees. They are the YXZ decomposition
//! `q = qY(Yb) ⊗ qX(X) ⊗ qZ(Zb)` (yaw, then pitch about the new X, then roll), but the panel
//! negates Y and Z: `(X, Y, Z)ui = (X, −Yb, −Zb)` (vmd-reference §8 and §12 row 22; VS and NH
//! agree on this). So in full:
//!
//! ```text
//! UI → q:  q = qY(−Y) ⊗ qX(X) ⊗ qZ(−Z)
//! q → UI:  X = asin(2(wx − yz)),  Y = −atan2(2(wy + xz), 1 − 2(x² + y²)),
//!          Z = −atan2(2(wz + xy), 1 − 2(x² + z²))
//! ```
//!
//! Worked example (the reference's 右ひじ key): the quaternion `(0.176789, −0.061290, 0.747712,
//! 0.637114)` decomposes to `(18.4770, 11.3266, 100.9806)`, so MMD shows
//! `(18.4770, −11.3266, −100.9806)`.
//!
//! ```
//! use glam::{Quat, Vec3};
//! use vmdkit::angles::{mmd_euler_deg_to_quat, quat_to_mmd_euler_deg};
//! let q = Quat::from_xyzw(0.0, -0.382683, 0.0, 0.923880); // stored in the VMD
//! let e = quat_to_mmd_euler_deg(q);
//! assert!((e - Vec3::new(0.0, 45.0, 0.0)).abs().max_element() < 1e-3);
//! assert!(mmd_euler_deg_to_quat(e).dot(q).abs() > 1.0 - 1e-6);
//! ```
//!
//! Ranges: X in [−90°, 90°], Y and Z in (−180°, 180°]. Input quaternions are normalised
//! first; a zero (or non-finite) quaternion counts as the identity.
//!
//! **Gimbal lock.** At X = ±90° only one combination of Y and Z matters (`Y − Z` at +90°,
//! `Y + Z` at −90°, in panel terms). There we report X = ±90° exactly, Z = 0 and put the whole
//! yaw into Y, so `(90, 30, 20)` comes back as `(90, 10, 0)`: the same rotation, stable from
//! call to call. "At ±90°" means cos X below [`GIMBAL_LOCK_COS`], which is f32 round-off.
//!
//! The core works in f64; the f32 functions convert and delegate.

use glam::{DQuat, DVec3, Quat, Vec3};
use std::f64::consts::{FRAC_PI_2, PI};

/// cos X below which the decomposition is treated as gimbal-locked (about 5.7e-5° from ±90°).
/// A f32 quaternion built from X = 90° exactly lands around 1e-7, so this catches it, and
/// snapping costs at most ~1e-6 rad of rotation.
pub const GIMBAL_LOCK_COS: f64 = 1e-6;

/// Quaternion → MMD panel angles `(X, Y, Z)` in radians (f64 core).
pub fn dquat_to_mmd_euler_rad(q: DQuat) -> DVec3 {
    let n = q.length();
    if !(n.is_finite() && n > 0.0) {
        return DVec3::ZERO;
    }
    let DQuat { x, y, z, w } = q / n;
    // Rotation-matrix entries of M = Ry(Yb)·Rx(X)·Rz(Zb): -m12 = sin X, (m02, m22) = cos X·(sin
    // Yb, cos Yb), (m10, m11) = cos X·(sin Zb, cos Zb).
    let sin_x = 2.0 * (w * x - y * z);
    let (m02, m22) = (2.0 * (x * z + w * y), 1.0 - 2.0 * (x * x + y * y));
    let (m10, m11) = (2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z));
    // cos X from its own entries rather than sqrt(1 − sin²X): accurate near ±90°, and atan2
    // never sees an out-of-range argument the way asin could.
    let cos_x = m10.hypot(m11);
    if cos_x < GIMBAL_LOCK_COS {
        // Locked: M = Ry(Yb ∓ Zb)·Rx(±90°). With Zb = 0, (−m20, m00) = (sin Yb, cos Yb).
        let yb = f64::atan2(2.0 * (w * y - x * z), 1.0 - 2.0 * (y * y + z * z));
        return DVec3::new(FRAC_PI_2.copysign(sin_x), neg_wrapped(yb), 0.0);
    }
    let x_ang = sin_x.atan2(cos_x);
    DVec3::new(x_ang, neg_wrapped(m02.atan2(m22)), neg_wrapped(m10.atan2(m11)))
}

/// −a for a in (−π, π], kept in (−π, π] and without a signed zero (the panel shows 180, not
/// −180, and 0, not −0).
fn neg_wrapped(a: f64) -> f64 {
    let v = -a;
    if v <= -PI {
        v + 2.0 * PI
    } else {
        v + 0.0
    }
}

/// MMD panel angles `(X, Y, Z)` in radians → quaternion (f64 core). Any angles are accepted,
/// including |X| > 90°; the result is a unit quaternion, sign not canonicalised.
pub fn mmd_euler_rad_to_dquat(e: DVec3) -> DQuat {
    DQuat::from_rotation_y(-e.y) * DQuat::from_rotation_x(e.x) * DQuat::from_rotation_z(-e.z)
}

/// Quaternion → MMD panel angles `(X, Y, Z)` in degrees (f64).
pub fn dquat_to_mmd_euler_deg(q: DQuat) -> DVec3 {
    dquat_to_mmd_euler_rad(q) * (180.0 / PI)
}

/// MMD panel angles `(X, Y, Z)` in degrees → quaternion (f64).
pub fn mmd_euler_deg_to_dquat(e: DVec3) -> DQuat {
    mmd_euler_rad_to_dquat(e * (PI / 180.0))
}

/// Quaternion → MMD panel angles `(X, Y, Z)` in radians.
pub fn quat_to_mmd_euler_rad(q: Quat) -> Vec3 {
    dquat_to_mmd_euler_rad(q.as_dquat()).as_vec3()
}

/// MMD panel angles `(X, Y, Z)` in radians → quaternion.
pub fn mmd_euler_rad_to_quat(e: Vec3) -> Quat {
    mmd_euler_rad_to_dquat(e.as_dvec3()).as_quat()
}

/// Quaternion → MMD panel angles `(X, Y, Z)` in degrees, as the bone panel shows them.
pub fn quat_to_mmd_euler_deg(q: Quat) -> Vec3 {
    dquat_to_mmd_euler_deg(q.as_dquat()).as_vec3()
}

/// MMD panel angles `(X, Y, Z)` in degrees → quaternion, as MMD stores it in a VMD.
pub fn mmd_euler_deg_to_quat(e: Vec3) -> Quat {
    mmd_euler_deg_to_dquat(e.as_dvec3()).as_quat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec4;
    use proptest::prelude::*;

    /// Largest component difference between two rotations, q and −q being equal.
    fn rot_diff(a: DQuat, b: DQuat) -> f64 {
        let (a, b) = (DVec4::from(a), DVec4::from(b));
        (a - b).abs().max_element().min((a + b).abs().max_element())
    }

    /// Largest angle difference in degrees, modulo 360.
    fn deg_diff(a: DVec3, b: DVec3) -> f64 {
        let d = (a - b).to_array().map(|v| (v + 180.0).rem_euclid(360.0) - 180.0);
        d.iter().fold(0.0_f64, |m, v| m.max(v.abs()))
    }

    /// §8 worked examples: stored quaternion (x, y, z, w) and the MMD panel angles.
    const WORKED: [([f64; 4], [f64; 3]); 5] = [
        ([0.176789, -0.061290, 0.747712, 0.637114], [18.4770, -11.3266, -100.9806]),
        ([0.258819, 0.0, 0.0, 0.965926], [30.0, 0.0, 0.0]),
        ([0.0, -0.382683, 0.0, 0.923880], [0.0, 45.0, 0.0]),
        ([0.0, 0.0, -0.5, 0.866025], [0.0, 0.0, 60.0]),
        ([0.391904, -0.200562, -0.360423, 0.822363], [30.0, 45.0, 60.0]),
    ];

    #[test]
    fn worked_examples_both_ways() {
        for (q, e) in WORKED {
            let (q, e) = (DQuat::from_array(q), DVec3::from_array(e));
            // Inputs are printed to 6 decimals, the angles to 4.
            assert!(deg_diff(dquat_to_mmd_euler_deg(q), e) < 2e-4, "{q} -> {e}");
            assert!(rot_diff(mmd_euler_deg_to_dquat(e), q) < 2e-6, "{e} -> {q}");
            let qf = q.as_quat();
            let ef = quat_to_mmd_euler_deg(qf).as_dvec3();
            assert!(deg_diff(ef, e) < 2e-4, "f32 {q}");
            let back = mmd_euler_deg_to_quat(e.as_vec3()).as_dquat();
            assert!(rot_diff(back, q) < 2e-6, "f32 {e}");
        }
    }

    #[test]
    fn identity_zero_and_unnormalised() {
        assert_eq!(quat_to_mmd_euler_deg(Quat::IDENTITY), Vec3::ZERO);
        assert_eq!(quat_to_mmd_euler_deg(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)), Vec3::ZERO);
        assert_eq!(quat_to_mmd_euler_deg(Quat::from_xyzw(0.0, 0.0, 0.0, -3.0)), Vec3::ZERO);
        assert_eq!(mmd_euler_deg_to_quat(Vec3::ZERO), Quat::IDENTITY);
        let e = quat_to_mmd_euler_deg(Quat::from_xyzw(0.0, 0.0, -5.0, 8.660254));
        assert!((e - Vec3::new(0.0, 0.0, 60.0)).abs().max_element() < 1e-3);
    }

    #[test]
    fn single_axes_follow_the_panel_signs() {
        // The panel's X is the stored +X rotation; its Y and Z are the stored −Y and −Z ones.
        for deg in [-170.0, -90.0, -45.0, -1.0, 1.0, 45.0, 120.0, 180.0_f64] {
            let r = deg.to_radians();
            let cases = [
                (DQuat::from_rotation_y(-r), DVec3::new(0.0, deg, 0.0)),
                (DQuat::from_rotation_z(-r), DVec3::new(0.0, 0.0, deg)),
            ];
            for (q, e) in cases {
                assert!(deg_diff(dquat_to_mmd_euler_deg(q), e) < 1e-9, "{q} {e}");
                assert!(rot_diff(mmd_euler_deg_to_dquat(e), q) < 1e-12, "{q} {e}");
            }
            if deg.abs() <= 90.0 {
                let (q, e) = (DQuat::from_rotation_x(r), DVec3::new(deg, 0.0, 0.0));
                assert!(deg_diff(dquat_to_mmd_euler_deg(q), e) < 1e-9, "{q} {e}");
                assert!(rot_diff(mmd_euler_deg_to_dquat(e), q) < 1e-12, "{q} {e}");
            }
        }
        // Half turns report +180, never −180 or −0.
        let e = quat_to_mmd_euler_deg(Quat::from_xyzw(0.0, 1.0, 0.0, 0.0));
        assert_eq!(e, Vec3::new(0.0, 180.0, 0.0));
        assert!(e.x.is_sign_positive() && e.z.is_sign_positive());
    }

    #[test]
    fn gimbal_lock_keeps_the_rotation_and_puts_yaw_in_y() {
        for x in [90.0, -90.0_f32] {
            for (y, z) in [(0.0, 0.0), (30.0, 20.0), (-75.0, 60.0), (170.0, -30.0), (180.0, 180.0)]
            {
                let input = Vec3::new(x, y, z);
                let q = mmd_euler_deg_to_quat(input);
                let e = quat_to_mmd_euler_deg(q);
                // At +90 only Y − Z matters, at −90 only Y + Z.
                let yaw = if x > 0.0 { y - z } else { y + z };
                let want = Vec3::new(x, yaw, 0.0).as_dvec3();
                assert!(deg_diff(e.as_dvec3(), want) < 1e-4, "{input} -> {e}");
                assert!(e.is_finite() && e.z == 0.0 && e.y > -180.0 && e.y <= 180.0);
                let q2 = mmd_euler_deg_to_quat(e);
                assert!(rot_diff(q2.as_dquat(), q.as_dquat()) < 1e-6, "{input} -> {e}");
                assert_eq!(quat_to_mmd_euler_deg(q2), e, "stable on a second trip");
                // f64 path too.
                let qd = mmd_euler_deg_to_dquat(input.as_dvec3());
                let ed = dquat_to_mmd_euler_deg(qd);
                assert!(deg_diff(ed, want) < 1e-9, "f64 {input} -> {ed}");
                assert!(rot_diff(mmd_euler_deg_to_dquat(ed), qd) < 1e-12);
            }
        }
        // Unnormalised, so the raw 2(wx − yz) exceeds 1: still finite and exactly 90.
        let q = Quat::from_xyzw(0.7071069, 0.0, 0.0, 0.7071069);
        assert_eq!(quat_to_mmd_euler_deg(q), Vec3::new(90.0, 0.0, 0.0));
    }

    fn unit_quat() -> impl Strategy<Value = DQuat> {
        prop::array::uniform4(-1.0..1.0_f64)
            .prop_filter("away from zero", |a| DVec4::from_array(*a).length() > 0.1)
            .prop_map(|a| DQuat::from_array(a).normalize())
    }

    proptest! {
        #[test]
        fn quat_euler_quat_f64(q in unit_quat()) {
            let back = mmd_euler_deg_to_dquat(dquat_to_mmd_euler_deg(q));
            prop_assert!(rot_diff(back, q) < 1e-5, "{q} -> {back}");
        }

        #[test]
        fn quat_euler_quat_f32(q in unit_quat()) {
            let q = q.as_quat();
            let e = quat_to_mmd_euler_deg(q);
            prop_assert!(e.x.abs() <= 90.0 && e.y > -180.0 && e.y <= 180.0 && e.z > -180.0 && e.z <= 180.0);
            let back = mmd_euler_deg_to_quat(e);
            prop_assert!(rot_diff(back.as_dquat(), q.as_dquat()) < 1e-5, "{q} -> {e} -> {back}");
        }

        #[test]
        fn near_lock_round_trip(d in 0.0..1e-2_f64, s in prop::bool::ANY, y in -180.0..180.0_f64, z in -180.0..180.0_f64) {
            // Either side of the GIMBAL_LOCK_COS switch the rotation must survive.
            let q = mmd_euler_deg_to_dquat(DVec3::new(if s { 90.0 - d } else { d - 90.0 }, y, z));
            let e = dquat_to_mmd_euler_deg(q);
            prop_assert!(rot_diff(mmd_euler_deg_to_dquat(e), q) < 1e-5, "{q} -> {e}");
        }

        #[test]
        fn euler_quat_euler_f64(x in -89.999..89.999_f64, y in -180.0..=180.0_f64, z in -180.0..=180.0_f64) {
            let e = DVec3::new(x, y, z);
            let back = dquat_to_mmd_euler_deg(mmd_euler_deg_to_dquat(e));
            prop_assert!(deg_diff(back, e) < 1e-3, "{e} -> {back}");
        }

        #[test]
        fn euler_quat_euler_f32(x in -89.0..89.0_f32, y in -180.0..=180.0_f32, z in -180.0..=180.0_f32) {
            // f32 quaternions carry ~6e-8 of noise, which Y and Z amplify by 1/cos X; below 89°
            // that stays well under 1e-3°.
            let e = Vec3::new(x, y, z);
            let back = quat_to_mmd_euler_deg(mmd_euler_deg_to_quat(e));
            prop_assert!(deg_diff(back.as_dvec3(), e.as_dvec3()) < 1e-3, "{e} -> {back}");
        }
    }
}
