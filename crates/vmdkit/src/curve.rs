//! Bézier interpolation curves as MMD stores and evaluates them.
//!
//! Each key carries one curve per channel, and the curve on the *later* key shapes the segment
//! leading up to it (vmd-reference §6.2). With a = x1/127, b = x2/127, c = y1/127, d = y2/127
//! (§6.3):
//!
//! ```text
//! X(s) = 3(1−s)²s·a + 3(1−s)s²·b + s³      Y(s) = the same with c, d      (s ∈ [0, 1])
//! weight(p) = Y(s*) where X(s*) = p        (p = progress through the segment)
//! ```
//!
//! **Solver.** [`Curve::weight`] solves X(s) = p with bracketed Newton from s = p, falling back
//! to bisection, in f64, to |s − s*| ≤ 1e-10, so the weight is within ~3e-10 of exact. Ordinary
//! inputs take a few evaluations of X, and the iteration cap bounds any input at 48. Linear
//! curves (x1 = y1 and x2 = y2, such as [`Curve::LINEAR`]) return p as it is. p = 0 gives
//! exactly 0 and p = 1 exactly 1. Bytes above 127, which only damaged files contain, count as
//! 127. Every input, NaN included, gives a weight in [0, 1].
//!
//! **Distance from the players.** three.js and babylon-mmd bisect 15 times to |X(s) − p| < 1e-5
//! ([`Curve::weight_bisect15`]); saba bisects without a cap. The reference (§6.3, §12 row 12)
//! puts the difference below 1e-4, which does not hold everywhere: a tolerance in X becomes a
//! larger error in s wherever X′ is small. So the gap grows where handles pull X flat (near
//! p = 1 on (127, 0, 126, 0), at p = 1/2 on (127, 0, 0, 127), where the bisection stops at once
//! at s = 1/2), and at the ends of a curve with a vertical tangent, where the bisection stops
//! at s = 1/64 however close p is to 0. The sizes, over the whole grid of handles and at those
//! points, are in `BENCHMARKS.md` ("Curve solver against the players"), asserted by the tests
//! `matches_bisect15_within_measured_bound` and (ignored, for release builds)
//! `bisect15_gap_over_the_full_grid`.
//!
//! ```
//! use vmdkit::Curve;
//! let c = Curve::new(36, 0, 93, 127); // (x1, y1, x2, y2)
//! assert!((c.weight(0.25) - 0.169266).abs() < 1e-6);
//! assert_eq!(Curve::LINEAR.weight(0.25), 0.25);
//! ```

use serde::{Deserialize, Serialize};

/// One MMD interpolation curve: the two inner control points of a cubic Bézier from (0, 0) to
/// (127, 127). Bytes above 127 only occur in damaged files; they are clamped to 127 when
/// evaluating and kept as they are otherwise, so files round-trip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Curve {
    /// First handle's time coordinate, 0–127 (127 = the segment's end).
    pub x1: u8,
    /// First handle's value coordinate, 0–127 (127 = the later key's value).
    pub y1: u8,
    /// Second handle's time coordinate, 0–127.
    pub x2: u8,
    /// Second handle's value coordinate, 0–127.
    pub y2: u8,
}

const INV_127: f64 = 1.0 / 127.0;
/// Newton steps tried before the solver switches to pure bisection.
const NEWTON_ITERS: u32 = 12;
/// Bound on |s − s*| at exit. Y′ ≤ 3, so the weight is then off by at most ~3e-10.
const S_TOL: f64 = 1e-10;
/// Bisection from a bracket of width ≤ 1 reaches 2·S_TOL within 33 halvings; the cap is slack.
const MAX_ITERS: u32 = NEWTON_ITERS + 36;

/// A control byte as a coordinate in [0, 1].
#[inline]
fn unit(v: u8) -> f64 {
    f64::from(v.min(127)) * INV_127
}

/// One coordinate of the curve at parameter `s`, written as s·(3t·(t·p1 + s·p2) + s²) with
/// t = 1 − s: every term is non-negative on [0, 1], so the result cannot go below 0, and it is
/// exact at both ends (the power-basis Horner form is neither).
#[inline]
fn bez(p1: f64, p2: f64, s: f64) -> f64 {
    let t = 1.0 - s;
    s * (3.0 * t * (t * p1 + s * p2) + s * s)
}

impl Curve {
    /// MMD's default curve, a straight line with the handles at 20 and 107.
    pub const LINEAR: Curve = Curve::new(20, 20, 107, 107);

    /// A curve from its handles in MMD's (x1, y1, x2, y2) order, kept as given (not clamped).
    pub const fn new(x1: u8, y1: u8, x2: u8, y2: u8) -> Self {
        Curve { x1, y1, x2, y2 }
    }

    /// The handles as `[x1, y1, x2, y2]`, the order MMD's graph editor shows, for bone and camera
    /// curves alike (the camera block stores them as x1, x2, y1, y2).
    pub const fn points(self) -> [u8; 4] {
        [self.x1, self.y1, self.x2, self.y2]
    }

    /// The inverse of [`points`](Curve::points).
    pub const fn from_points([x1, y1, x2, y2]: [u8; 4]) -> Self {
        Curve { x1, y1, x2, y2 }
    }

    /// Both handles on the diagonal, so Y(s) = X(s) and the weight is the progress itself.
    pub const fn is_linear(&self) -> bool {
        self.x1 == self.y1 && self.x2 == self.y2
    }

    /// The curve point (X(s), Y(s)) in unit coordinates. `s` is not clamped (fitting code may
    /// probe outside [0, 1]); the control points are.
    pub fn eval_xy(&self, s: f64) -> (f64, f64) {
        (bez(unit(self.x1), unit(self.x2), s), bez(unit(self.y1), unit(self.y2), s))
    }

    /// The parameter s* in [0, 1] with X(s*) = p, to |s − s*| ≤ 1e-10 (so |X(s) − p| ≤ 3e-10).
    /// `p` is clamped to [0, 1]; NaN counts as 0.
    ///
    /// X is non-decreasing for any control points in [0, 1], so the root is unique and [lo, hi]
    /// always brackets it. Newton from s = p converges in a few steps for ordinary curves; any
    /// step that leaves the bracket (including X′ = 0 at a vertical tangent, giving ±inf or NaN)
    /// is replaced by a bisection, and after 12 steps only bisection is used, which bounds the
    /// work (at most 48 evaluations of X). That matters at triple roots such as (127, 0, 0, 127)
    /// at p = 0.5, where Newton only gains a factor 2/3 per step.
    pub fn solve_s(&self, p: f64) -> f64 {
        if p.is_nan() || p <= 0.0 {
            return 0.0;
        }
        if p >= 1.0 {
            return 1.0;
        }
        self.solve_s_near(p, p)
    }

    /// [`Curve::solve_s`] with Newton started from `start` instead of from p: a caller that
    /// solves at increasing p starts each solve from the last one's answer, which is closer,
    /// and gets the same root to the same bound. `p` must be in (0, 1), `start` in [0, 1].
    pub(crate) fn solve_s_near(&self, p: f64, start: f64) -> f64 {
        let (a, b) = (unit(self.x1), unit(self.x2));
        let (mut lo, mut hi, mut s) = (0.0, 1.0, start);
        for i in 0..MAX_ITERS {
            let f = bez(a, b, s) - p;
            if f < 0.0 {
                lo = s;
            } else if f > 0.0 {
                hi = s;
            } else {
                return s;
            }
            if i < NEWTON_ITERS {
                let t = 1.0 - s;
                let d = 3.0 * (a * t * t + 2.0 * (b - a) * t * s + (1.0 - b) * s * s);
                let step = f / d;
                // Tested before the bracket: a step below one ulp of s would land on the
                // bracket end just set and be mistaken for a divergent one.
                if step.abs() <= S_TOL {
                    return (s - step).clamp(0.0, 1.0);
                }
                let next = s - step;
                if next > lo && next < hi {
                    s = next;
                    continue;
                }
            }
            if hi - lo <= 2.0 * S_TOL {
                break;
            }
            s = 0.5 * (lo + hi);
        }
        0.5 * (lo + hi)
    }

    /// The interpolation weight Y(s*) at progress `p` (see [`Curve::solve_s`]), in f64.
    /// `weight_f64(0) == 0` and `weight_f64(1) == 1` exactly; the result is always in [0, 1].
    pub fn weight_f64(&self, p: f64) -> f64 {
        if p.is_nan() || p <= 0.0 {
            return 0.0;
        }
        if p >= 1.0 {
            return 1.0;
        }
        if self.is_linear() {
            return p;
        }
        // min (in weight_at_s): rounding can put s·(3t + s²) one ulp above 1.
        self.weight_at_s(self.solve_s(p))
    }

    /// Y(s) for an `s` the caller solved with [`Curve::solve_s`], clamped as
    /// [`Curve::weight_f64`] clamps it: for a curve that is not linear and 0 < p < 1,
    /// `weight_at_s(solve_s(p)) == weight_f64(p)`. Lets fitters reuse one solve across curves
    /// that share their time handles (x1, x2).
    pub(crate) fn weight_at_s(&self, s: f64) -> f64 {
        bez(unit(self.y1), unit(self.y2), s).min(1.0)
    }

    /// [`Curve::weight_f64`] for f32 callers. The solve runs in f64 on purpose: scalar f64
    /// arithmetic costs the same as f32, and f32 cannot resolve s to 1e-10.
    #[inline]
    pub fn weight(&self, p: f32) -> f32 {
        self.weight_f64(f64::from(p)) as f32
    }

    /// The weight as three.js (`CubicBezierInterpolation._calculate`) and babylon-mmd
    /// (`BezierInterpolate`) compute it, for comparisons: bisection from s = 0.5 with a step that
    /// halves, stopping when |X(s) − p| < 1e-5 or after 15 evaluations. When the 15 run out, s
    /// has already moved once more but Y is taken at the last evaluated s; that quirk is kept.
    /// Computed in f64 like the JavaScript original. `p` is clamped to [0, 1] (NaN → 0), which
    /// the originals never need. Nothing else is special-cased: linear curves come out up to
    /// 1e-5 off, and p = 0 or 1 can be off by hundredths (see the module docs).
    pub fn weight_bisect15(&self, p: f32) -> f32 {
        let x = if p > 0.0 { f64::from(p.min(1.0)) } else { 0.0 };
        let (a, b) = (unit(self.x1), unit(self.x2));
        let (mut step, mut s) = (0.5, 0.5);
        let mut eval_s = s;
        for _ in 0..15 {
            eval_s = s;
            let f = bez(a, b, s) - x;
            if f.abs() < 1e-5 {
                break;
            }
            step *= 0.5;
            s += if f < 0.0 { step } else { -step };
        }
        bez(unit(self.y1), unit(self.y2), eval_s) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Control values covering both ends in steps of 7, as (first, second) pairs.
    fn grid2() -> impl Iterator<Item = (u8, u8)> {
        let g = || (0..=126u8).step_by(7).chain([127]);
        g().flat_map(move |a| g().map(move |b| (a, b)))
    }

    #[test]
    fn worked_numbers_match_reference() {
        // vmd-reference §6.8: curve, p, s*, exact weight, three.js/babylon-mmd weight. The table
        // has 6 decimals, so it is itself only good to 5e-7.
        let near = |a: f64, b: f64| (a - b).abs() < 6e-7;
        for ((x1, y1, x2, y2), p, s, w, b15) in [
            ((20, 20, 107, 107), 0.25, 0.294987, 0.250000, 0.249996),
            ((20, 20, 107, 107), 0.50, 0.500000, 0.500000, 0.500000),
            ((36, 0, 93, 127), 0.25, 0.261399, 0.169266, 0.169247),
            ((36, 0, 93, 127), 0.50, 0.494566, 0.491849, 0.491852),
            ((127, 0, 0, 127), 0.25, 0.103150, 0.029725, 0.029724),
            ((64, 0, 64, 127), 0.50, 0.496063, 0.494095, 0.494095),
        ] {
            let c = Curve::new(x1, y1, x2, y2);
            let pf = p as f32;
            assert!(near(c.solve_s(p), s) && near(c.weight_f64(p), w), "{c:?} {p}");
            assert!(near(c.weight(pf).into(), w), "{c:?} {p}");
            assert!(near(c.weight_bisect15(pf).into(), b15), "{c:?} {p}");
        }
    }

    #[test]
    fn linear_curves_return_progress() {
        let (zero, full) = (Curve::new(0, 0, 0, 0), Curve::new(127, 127, 127, 127));
        for c in [Curve::LINEAR, zero, full, Curve::new(200, 200, 3, 3)] {
            assert!(c.is_linear());
            for p in (0..=100).map(|k| k as f32 / 100.0) {
                assert_eq!(c.weight(p), p);
                // The full solve agrees, since Y = X on these curves.
                let (x, y) = c.eval_xy(c.solve_s(p.into()));
                assert!((y - f64::from(p)).abs() < 1e-9 && x == y, "{c:?} {p}");
            }
        }
        assert!(!Curve::new(36, 0, 93, 127).is_linear());
    }

    #[test]
    fn ends_are_exact_and_inputs_are_clamped() {
        for (x1, x2) in grid2().chain([(255, 200)]) {
            let c = Curve::new(x1, 127 - x1.min(127), x2, 255);
            assert_eq!([c.weight(0.0), c.weight(-3.0), c.weight(f32::NAN)], [0.0; 3]);
            assert_eq!([c.weight(1.0), c.weight(f32::INFINITY)], [1.0; 2]);
            assert_eq!([c.eval_xy(0.0), c.eval_xy(1.0)], [(0.0, 0.0), (1.0, 1.0)]);
        }
        // Damaged bytes evaluate as 127.
        let (bad, good) = (Curve::new(255, 130, 128, 255), Curve::new(127, 127, 127, 127));
        for p in (0..=20).map(|k| k as f32 / 20.0) {
            assert_eq!(bad.weight(p), good.weight(p));
        }
    }

    #[test]
    fn weight_is_monotone() {
        // With every control point in [0, 1] both X and Y are non-decreasing, so weight is too.
        for (x1, x2) in grid2() {
            for (y1, y2) in [(0, 0), (0, 127), (127, 0), (127, 127), (64, 20), (10, 100)] {
                let c = Curve::new(x1, y1, x2, y2);
                let mut prev = 0.0;
                for k in 1..=500 {
                    let w = c.weight_f64(k as f64 / 500.0);
                    assert!(w >= prev && w <= 1.0, "{c:?} at {k}/500: {w} after {prev}");
                    prev = w;
                }
            }
        }
    }

    #[test]
    fn degenerate_handles() {
        // x1 = x2 = 0: X = s³. x1 = x2 = 127: X = 1 − (1 − s)³. Both have X′ = 0 at one end.
        let (flat0, flat1) = (Curve::new(0, 127, 0, 127), Curve::new(127, 0, 127, 0));
        for p in [1e-15f64, 1e-9, 1e-4, 0.3, 0.7, 1.0 - 1e-9] {
            let (s0, s1) = (p.cbrt(), 1.0 - (1.0 - p).cbrt());
            assert!((flat0.solve_s(p) - s0).abs() < 1e-9, "{p}");
            assert!((flat1.solve_s(p) - s1).abs() < 1e-9, "{p}");
            // Y = 1 − (1 − s)³ on flat0: a vertical tangent at p = 0.
            assert!((flat0.weight_f64(p) - (1.0 - (1.0 - s0).powi(3))).abs() < 1e-9, "{p}");
        }
        // Triple root: X(s) − 1/2 = 4(s − 1/2)³, where plain Newton crawls.
        let ease = Curve::new(127, 0, 0, 127);
        assert!((ease.solve_s(0.5) - 0.5).abs() < 1e-9);
        assert!((ease.weight_f64(0.5) - 0.5).abs() < 3e-9);
    }

    #[test]
    fn matches_bisect15_within_measured_bound() {
        let mut worst = (0.0f64, Curve::LINEAR, 0.0f32);
        for (x1, x2) in grid2() {
            // The difference is affine in (y1, y2), so the corners bound every y.
            for (y1, y2) in [(0, 0), (0, 127), (127, 0), (127, 127)] {
                let c = Curve::new(x1, y1, x2, y2);
                for p in (1..1000).map(|k| k as f32 / 1000.0) {
                    let d = (c.weight_f64(p.into()) - f64::from(c.weight_bisect15(p))).abs();
                    if d > worst.0 {
                        worst = (d, c, p);
                    }
                }
            }
        }
        assert!(worst.0 < 1e-3, "{worst:?}");
        // The points BENCHMARKS.md quotes ("Curve solver against the players").
        let gap = |c: Curve, p: f32| (c.weight(p), c.weight_bisect15(p));
        let widest = Curve::new(127, 0, 126, 0);
        let d = widest.weight_f64(0.999f32.into()) - f64::from(widest.weight_bisect15(0.999));
        assert!((d.abs() - 9.82e-4).abs() < 5e-6, "{d:e}");
        let (ours, theirs) = gap(Curve::new(127, 0, 0, 127), 0.500005);
        assert!((ours - 0.5162).abs() < 5e-5 && theirs == 0.5, "{ours} {theirs}");
        let vertical = Curve::new(0, 127, 0, 127);
        assert_eq!(gap(vertical, 0.0).0, 0.0);
        assert!((vertical.weight_bisect15(0.0) - 0.046146).abs() < 1e-6);
        let (ours, theirs) = gap(vertical, 1e-6);
        assert!((ours - 0.0297).abs() < 5e-5 && (theirs - 0.0461).abs() < 5e-5, "{ours} {theirs}");
    }

    /// The whole grid BENCHMARKS.md describes: every (x1, x2), the four y corners (the gap is
    /// affine in (y1, y2)), p = k/1000. Too slow for a debug build, so run it on purpose:
    /// `cargo test --release -p vmdkit --lib -- --ignored bisect15_gap_over_the_full_grid`.
    #[test]
    #[ignore]
    fn bisect15_gap_over_the_full_grid() {
        let (mut worst, mut under_1e5, mut under_1e4, mut total) = (0.0f64, 0u64, 0u64, 0u64);
        let mut at = (Curve::LINEAR, 0.0f32);
        for (x1, x2) in (0..=127u8).flat_map(|a| (0..=127u8).map(move |b| (a, b))) {
            for (y1, y2) in [(0, 0), (0, 127), (127, 0), (127, 127)] {
                let c = Curve::new(x1, y1, x2, y2);
                for p in (1..1000).map(|k| k as f32 / 1000.0) {
                    let d = (c.weight_f64(p.into()) - f64::from(c.weight_bisect15(p))).abs();
                    if d > worst {
                        (worst, at) = (d, (c, p));
                    }
                    under_1e5 += u64::from(d < 1e-5);
                    under_1e4 += u64::from(d < 1e-4);
                    total += 1;
                }
            }
        }
        let share = |n: u64| n as f64 / total as f64;
        println!(
            "worst {worst:e} at {at:?}, <1e-5 {}, <1e-4 {}",
            share(under_1e5),
            share(under_1e4)
        );
        assert!((worst - 9.82e-4).abs() < 5e-6, "{worst:e} at {at:?}");
        assert_eq!(at, (Curve::new(127, 0, 126, 0), 0.999));
        assert!((share(under_1e5) - 0.668).abs() < 0.001, "{}", share(under_1e5));
        assert!((share(under_1e4) - 0.9998).abs() < 0.00005, "{}", share(under_1e4));
    }

    proptest! {
        #[test]
        fn solve_s_hits_progress(x1 in 0u8..=127, x2 in 0u8..=127, p in 0.0f64..=1.0) {
            let c = Curve::new(x1, 0, x2, 0);
            let s = c.solve_s(p);
            prop_assert!((0.0..=1.0).contains(&s));
            prop_assert!((c.eval_xy(s).0 - p).abs() < 1e-9);
        }

        #[test]
        fn weight_is_in_unit_range(x1: u8, y1: u8, x2: u8, y2: u8, p: f64) {
            let c = Curve::new(x1, y1, x2, y2);
            prop_assert!((0.0..=1.0).contains(&c.weight_f64(p)));
            prop_assert!((0.0..=1.0).contains(&c.weight(p as f32)));
        }
    }
}
