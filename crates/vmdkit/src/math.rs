//! The small numeric helpers every stage shares: MMD's frame rate, blends, rotation angles and
//! the plain rotation geometry the retargeting solver builds on.
//!
//! Each is written once so that the stages that must agree bit for bit do: the evaluator and
//! the curve fitter of `reduce` blend with the same [`lerp`], and IK, append transforms, the
//! fitter and the tests measure rotations with the same [`quat_angle`].

use glam::{DMat3, DQuat, DVec3, Quat, Vec4};

/// MMD's frame rate: VMD frame numbers count at 30 fps (reference §6.1).
pub const FPS: f64 = 30.0;

/// The highest frame rate vmdkit samples, reads from a file or writes: 10,000 frames a second.
/// Capture runs at 1,000 at most; a file giving more (a `Frame Time` of 1e-12, an `fps` of 1e30)
/// is damaged, and sampling it would ask for a frame per microsecond of motion.
pub const MAX_FPS: f64 = 10_000.0;

/// The frame (at 30 fps) for a time in seconds.
pub fn frame_at_seconds(seconds: f64) -> f64 {
    seconds * FPS
}

/// `a + (b − a)·w`, in f64 and rounded once, as the evaluator blends every scalar channel.
#[inline]
pub fn lerp(a: f32, b: f32, w: f64) -> f32 {
    let a64 = f64::from(a);
    (a64 + (f64::from(b) - a64) * w) as f32
}

/// The angle in radians of the rotation from `a` to `b`, both unit quaternions, whichever sign
/// each is stored with. Computed in f64 as 4·atan2(|a − b|, |a + b|), which stays accurate
/// near 0, where acos of the dot product loses half the digits.
pub fn quat_angle(a: Quat, b: Quat) -> f64 {
    let (a, b) = (a.as_dquat(), b.as_dquat());
    let b = if a.dot(b) < 0.0 { -b } else { b };
    4.0 * (a - b).length().atan2((a + b).length())
}

/// A key's rotation as the evaluator uses it: normalised, with zero or non-finite quaternions
/// taken as the identity.
pub fn normalized_rotation(q: Quat) -> Quat {
    let len = q.length();
    if len.is_finite() && len > 0.0 {
        q / len
    } else {
        Quat::IDENTITY
    }
}

/// Shortest-arc spherical interpolation between unit quaternions `a` and `b` at `w`.
///
/// After the sign flip, cos θ = |a·b| ≥ 0, so θ ≤ π/2 and both sine arguments lie in [0, π/2]:
/// there a polynomial acos (Abramowitz & Stegun 4.4.46, error ≤ 2e-8) and the Taylor series
/// of sin to x¹³ (error < 7e-10) are as accurate as f32 itself and cheaper than libm's. The
/// scales sin((1−w)θ) and sin(wθ) are not divided by sin θ: normalising the sum does that.
/// Below θ ≈ 0.014 rad the result is the normalised linear blend, whose direction differs from
/// the true slerp by under 1e-7 rad there.
#[inline]
pub fn slerp(a: Quat, b: Quat, w: f32) -> Quat {
    let mut d = a.dot(b);
    let b = if d < 0.0 {
        d = -d;
        -b
    } else {
        b
    };
    let (sa, sb) = if d > 0.9999 {
        (1.0 - w, w)
    } else {
        let theta = acos_nonnegative(d.min(1.0));
        let s = sin_to_half_pi(Vec4::new((1.0 - w) * theta, w * theta, 0.0, 0.0));
        (s.x, s.y)
    };
    (a * sa + b * sb).normalize()
}

/// acos(x) for x in [0, 1] (Abramowitz & Stegun 4.4.46), the polynomial by Estrin's scheme so
/// that its multiplications do not wait on each other. Plain multiply-adds: `mul_add` would
/// call a software fma on targets without the instruction.
#[inline]
fn acos_nonnegative(x: f32) -> f32 {
    let (x2, x4) = (x * x, x * x * x * x);
    let p01 = std::f32::consts::FRAC_PI_2 - 0.214_598_8 * x;
    let p23 = 0.088_978_99 - 0.050_174_303 * x;
    let p45 = 0.030_891_88 - 0.017_088_126 * x;
    let p67 = 0.006_670_09 - 0.001_262_491_1 * x;
    let p = (p01 + p23 * x2) + (p45 + p67 * x2) * x4;
    p * (1.0 - x).sqrt()
}

/// sin of each lane, for lanes in [0, π/2]: the Taylor series to x¹³, whose remainder there is
/// below 7e-10, far under f32's rounding. Both sines of a slerp go through one 4-wide pass.
#[inline]
fn sin_to_half_pi(x: Vec4) -> Vec4 {
    let x2 = x * x;
    let c = Vec4::splat;
    let p = c(1.0 / 6_227_020_800.0) * x2 - c(1.0 / 39_916_800.0); // 1/13!, 1/11!
    let p = p * x2 + c(1.0 / 362_880.0);
    let p = p * x2 - c(1.0 / 5_040.0);
    let p = p * x2 + c(1.0 / 120.0);
    let p = p * x2 - c(1.0 / 6.0);
    x + x * x2 * p
}

/// The rotation vector (axis × angle, angle ≤ π) of a unit quaternion.
pub(crate) fn rotation_vector(q: DQuat) -> DVec3 {
    let q = if q.w < 0.0 { -q } else { q };
    let v = DVec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-12 {
        return v * 2.0;
    }
    v * (2.0 * s.atan2(q.w) / s)
}

/// The shortest rotation taking direction `from` to direction `to` (the identity when either
/// is zero).
pub(crate) fn shortest_arc(from: DVec3, to: DVec3) -> DQuat {
    match (from.try_normalize(), to.try_normalize()) {
        (Some(a), Some(b)) => DQuat::from_rotation_arc(a, b),
        _ => DQuat::IDENTITY,
    }
}

/// The rotation taking `a0` to `a1` exactly and `b0` as close to `b1` as that allows.
pub(crate) fn frame_rotation(a0: DVec3, b0: DVec3, a1: DVec3, b1: DVec3) -> DQuat {
    let basis = |a: DVec3, b: DVec3| {
        let x = a.normalize_or(DVec3::X);
        let z = x.cross(b).normalize_or(x.any_orthonormal_vector());
        let y = z.cross(x);
        DMat3::from_cols(x, y, z)
    };
    let r = basis(a1, b1) * basis(a0, b0).transpose();
    DQuat::from_mat3(&r).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, Vec3};
    use quat_angle as angle;

    #[test]
    fn slerp_matches_an_f64_reference() {
        // Against slerp computed in f64 for angles from 1e-6 rad to nearly π.
        let axis = Vec3::new(0.3, -0.8, 0.52).normalize();
        for k in 0..200 {
            let theta = 1e-6f64 * (3.1 / 1e-6f64).powf(f64::from(k) / 199.0);
            let a = Quat::from_rotation_x(0.4);
            let b = a * Quat::from_axis_angle(axis, theta as f32);
            for w in [0.1f32, 0.5, 0.77] {
                let want = slerp_f64(a.as_dquat(), b.as_dquat(), f64::from(w));
                let got = slerp(a, b, w);
                assert!(angle(got, want.as_quat()) < 2e-6, "theta {theta} w {w}");
                assert!((got.length() - 1.0).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn polynomial_acos_and_sin_are_as_good_as_f32() {
        // Against f64, over the whole ranges used. One f32 ulp near π/2 is 1.2e-7; the polynomial
        // itself is good to 2e-8, the rest is f32 rounding (Estrin's order rounds a little
        // differently from Horner's: up to about 3 ulp).
        let (mut acos_err, mut sin_err) = (0.0f64, 0.0f64);
        for k in 0..=100_000 {
            let x = k as f32 / 100_000.0;
            acos_err = acos_err.max((f64::from(acos_nonnegative(x)) - f64::from(x).acos()).abs());
            let y = x * std::f32::consts::FRAC_PI_2;
            sin_err = sin_err
                .max((f64::from(sin_to_half_pi(Vec4::splat(y)).x) - f64::from(y).sin()).abs());
        }
        assert!(acos_err < 4e-7 && sin_err < 1.5e-7, "acos {acos_err:e}, sin {sin_err:e}");
    }

    /// Textbook slerp in f64, with θ from atan2 so that it is accurate at small angles.
    fn slerp_f64(a: DQuat, b: DQuat, w: f64) -> DQuat {
        let b = if a.dot(b) < 0.0 { -b } else { b };
        let theta = 2.0 * (b - a).length().atan2((b + a).length());
        if theta == 0.0 {
            return a;
        }
        (a * ((1.0 - w) * theta).sin() + b * (w * theta).sin()) / theta.sin()
    }

    #[test]
    fn quat_angle_is_sign_blind_and_accurate_near_zero() {
        let a = Quat::from_rotation_y(0.3);
        assert!((quat_angle(a, Quat::from_rotation_y(0.8)) - 0.5).abs() < 1e-6);
        assert!((quat_angle(a, -Quat::from_rotation_y(0.8)) - 0.5).abs() < 1e-6);
        let tiny = quat_angle(Quat::IDENTITY, Quat::from_rotation_x(1e-6));
        assert!((tiny - 1e-6).abs() < 1e-9, "{tiny:e}");
        assert_eq!(lerp(1.0, 3.0, 0.5), 2.0);
        assert_eq!(frame_at_seconds(2.0), 60.0);
    }
}
