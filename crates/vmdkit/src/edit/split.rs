//! Cutting an MMD curve: the piece of a segment between two progress values, as a curve of its
//! own with integer control points.
//!
//! **Method.** The piece of the cubic Bézier (X(s), Y(s)) between the parameters s₀ and s₁ where
//! X(s₀) = p₀ and X(s₁) = p₁ is again a cubic Bézier. Its control points are the blossoms
//! B(s₀,s₀,s₀), B(s₀,s₀,s₁), B(s₀,s₁,s₁), B(s₁,s₁,s₁) (de Casteljau's construction run with
//! different parameters at each level). Renormalised to the piece's own unit square (progress
//! from p₀ to p₁, weight from w₀ = Y(s₀) to w₁ = Y(s₁)), the inner two give the new curve's
//! (x1, y1, x2, y2) in [0, 1] up to one exception below. The piece of a segment from value a to
//! value b, between progress p₀ and p₁, is then exactly the segment from lerp(a, b, w₀) to
//! lerp(a, b, w₁) shaped by that curve: per axis for translations, and along the same great
//! circle for slerp (a sub-arc of a slerp is the slerp of its ends).
//!
//! **Rounding and its bound.** MMD stores 0..=127: each coordinate is rounded to the nearest
//! 1/127, moving it by at most 0.5/127. A point of the curve is B₁(s)·P₁ + B₂(s)·P₂ + (ends), and
//! B₁ + B₂ = 3s(1 − s) ≤ 3/4, so every point (at equal parameter s) moves by at most
//! **β = 0.75 · max |rounded − exact| ≤ 0.375/127 ≈ 0.00295** per coordinate of the unit
//! square. At a progress p, the stored weight therefore lies within
//! [w(p − β) − β, w(p + β) + β] of the exact piece's weight function w: at most β of the
//! piece's value change, after shifting time by at most β of the piece's length. Steep
//! curves turn the time shift into a larger weight difference, which is why the bound is
//! stated in both coordinates.
//!
//! **Exception (clamping).** X and Y are non-decreasing, so the first inner point of a right
//! piece and the second of a left piece always fall inside the square; the other inner point
//! can fall outside it (for (127, 0, 0, 127) cut at p = 0.47, the right piece's second x is
//! below 0). MMD cannot store that; the coordinate is clamped into 0..=127 and β grows to 0.75
//! times the distance moved. [`SubCurve::clamped`] says when this happened, and β is always
//! the true bound for the stored curve.
//!
//! A piece over which the weight does not change (w₁ = w₀: a flat part of the curve) holds one
//! value, so any curve shapes it exactly; it gets the linear curve and β = 0.

use crate::curve::Curve;

/// A piece of a curve, renormalised to its own segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SubCurve {
    /// The stored curve: the exact control points rounded (and clamped) to 0..=127.
    pub curve: Curve,
    /// The exact control points (x1, y1, x2, y2) in the piece's unit square.
    pub exact: [f64; 4],
    /// The weight w₀ of the original curve at the piece's start: the value at the cut point is
    /// lerp(a, b, w₀).
    pub w0: f64,
    /// The weight w₁ of the original curve at the piece's end: the value there is
    /// lerp(a, b, w₁).
    pub w1: f64,
    /// Bound on the distance, per coordinate of the unit square, between points of the stored
    /// and the exact piece at equal parameter (see the module documentation).
    pub bound: f64,
    /// Whether a control point fell outside the unit square and was clamped.
    pub clamped: bool,
}

/// The bound β when nothing is clamped: 0.75 × half a step of 1/127.
pub const ROUNDING_BOUND: f64 = 0.75 * 0.5 / 127.0;

/// Control points of `c` as unit coordinates, clamped at 127 as evaluation does.
fn control_points(c: Curve) -> [(f64, f64); 4] {
    let u = |v: u8| f64::from(v.min(127)) / 127.0;
    [(0.0, 0.0), (u(c.x1), u(c.y1)), (u(c.x2), u(c.y2)), (1.0, 1.0)]
}

/// The blossom B(u, v, w) of the cubic with control points `p`: de Casteljau with parameter u
/// on the first level, v on the second and w on the third.
fn blossom(p: &[(f64, f64); 4], u: f64, v: f64, w: f64) -> (f64, f64) {
    let lerp =
        |a: (f64, f64), b: (f64, f64), t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    let q = [lerp(p[0], p[1], u), lerp(p[1], p[2], u), lerp(p[2], p[3], u)];
    let r = [lerp(q[0], q[1], v), lerp(q[1], q[2], v)];
    lerp(r[0], r[1], w)
}

/// The piece of `curve` between progress `p0` and `p1` (0 ≤ p0 < p1 ≤ 1), renormalised.
pub fn sub_curve(curve: Curve, p0: f64, p1: f64) -> SubCurve {
    let (p0, p1) = (p0.clamp(0.0, 1.0), p1.clamp(0.0, 1.0));
    let (s0, s1) = (curve.solve_s(p0), curve.solve_s(p1));
    let pts = control_points(curve);
    let a = blossom(&pts, s0, s0, s0);
    let b = blossom(&pts, s0, s0, s1);
    let c = blossom(&pts, s0, s1, s1);
    let d = blossom(&pts, s1, s1, s1);
    let (w0, w1) = (curve.weight_f64(p0), curve.weight_f64(p1));
    let (dx, dy) = (d.0 - a.0, d.1 - a.1);
    if !(dy > 1e-12 && dx > 1e-12) {
        // Flat (or empty) piece: one value throughout, so the curve does not matter.
        return SubCurve {
            curve: Curve::LINEAR,
            exact: [20.0 / 127.0, 20.0 / 127.0, 107.0 / 127.0, 107.0 / 127.0],
            w0,
            w1,
            bound: 0.0,
            clamped: false,
        };
    }
    let exact = [(b.0 - a.0) / dx, (b.1 - a.1) / dy, (c.0 - a.0) / dx, (c.1 - a.1) / dy];
    let mut bound = 0.0f64;
    let mut clamped = false;
    let stored = exact.map(|v| {
        let q = (v * 127.0).round();
        let q = if !(0.0..=127.0).contains(&q) {
            clamped = true;
            q.clamp(0.0, 127.0)
        } else {
            q
        };
        bound = bound.max((q / 127.0 - v).abs());
        q as u8
    });
    SubCurve {
        curve: Curve::new(stored[0], stored[1], stored[2], stored[3]),
        exact,
        w0,
        w1,
        bound: 0.75 * bound,
        clamped,
    }
}

/// The two pieces of `curve` on either side of progress `p`.
pub fn split_at(curve: Curve, p: f64) -> (SubCurve, SubCurve) {
    (sub_curve(curve, 0.0, p), sub_curve(curve, p, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The exact piece's weight at progress x of the piece, from the original curve.
    fn exact_piece(c: Curve, p0: f64, p1: f64, x: f64) -> f64 {
        let (w0, w1) = (c.weight_f64(p0), c.weight_f64(p1));
        (c.weight_f64(p0 + (p1 - p0) * x.clamp(0.0, 1.0)) - w0) / (w1 - w0)
    }

    /// Checks the stated bound at many progress values.
    fn check(c: Curve, p0: f64, p1: f64) -> Result<(), TestCaseError> {
        let piece = sub_curve(c, p0, p1);
        if piece.w1 - piece.w0 <= 1e-9 {
            return Ok(());
        }
        prop_assert!(piece.bound <= ROUNDING_BOUND + 1e-12 || piece.clamped);
        let b = piece.bound;
        // A little slack for the 1e-10 solver and the renormalisation of short pieces.
        let eps = 1e-7 / (p1 - p0).min(piece.w1 - piece.w0);
        for k in 0..=64 {
            let x = f64::from(k) / 64.0;
            let got = piece.curve.weight_f64(x);
            let lo = exact_piece(c, p0, p1, x - b) - b - eps;
            let hi = exact_piece(c, p0, p1, x + b) + b + eps;
            prop_assert!(
                lo <= got && got <= hi,
                "{c:?} [{p0}, {p1}] at {x}: {got} not in [{lo}, {hi}], {piece:?}"
            );
        }
        // The exact control points describe the exact piece (up to solver error).
        let exact = |s: f64| {
            let [x1, y1, x2, y2] = piece.exact;
            let bez = |a: f64, b: f64| {
                3.0 * (1.0 - s) * (1.0 - s) * s * a + 3.0 * (1.0 - s) * s * s * b + s * s * s
            };
            (bez(x1, x2), bez(y1, y2))
        };
        for k in 1..16 {
            let (x, y) = exact(f64::from(k) / 16.0);
            if (0.0..=1.0).contains(&x) {
                prop_assert!((exact_piece(c, p0, p1, x) - y).abs() < 1e-6 + eps);
            }
        }
        Ok(())
    }

    #[test]
    fn whole_curve_is_itself() {
        for c in [Curve::LINEAR, Curve::new(127, 0, 0, 127), Curve::new(36, 0, 93, 127)] {
            let piece = sub_curve(c, 0.0, 1.0);
            assert_eq!(piece.curve, c);
            assert!(piece.bound < 1e-9);
        }
    }

    #[test]
    fn clamping_is_reported_with_its_bound() {
        let c = Curve::new(127, 0, 0, 127);
        let (_, right) = split_at(c, 0.47);
        assert!(right.clamped && right.exact[2] < 0.0, "{right:?}");
        assert!(right.bound > ROUNDING_BOUND);
        check(c, 0.47, 1.0).unwrap();
    }

    #[test]
    fn linear_curves_split_into_linear_pieces() {
        let (l, r) = split_at(Curve::LINEAR, 0.3);
        for piece in [l, r] {
            for x in [0.1, 0.5, 0.9] {
                assert!((piece.curve.weight_f64(x) - x).abs() <= 2.0 * ROUNDING_BOUND);
            }
        }
    }

    proptest! {
        #[test]
        fn pieces_stay_within_the_stated_bound(
            x1 in 0u8..=127, y1 in 0u8..=127, x2 in 0u8..=127, y2 in 0u8..=127,
            a in 0.0f64..1.0, b in 0.0f64..1.0,
        ) {
            let (p0, p1) = if a < b { (a, b) } else { (b, a) };
            prop_assume!(p1 - p0 > 1e-3);
            check(Curve::new(x1, y1, x2, y2), p0, p1)?;
            check(Curve::new(x1, y1, x2, y2), 0.0, p1)?;
            check(Curve::new(x1, y1, x2, y2), p0, 1.0)?;
        }
    }
}
