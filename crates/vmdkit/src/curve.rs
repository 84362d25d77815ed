//! Bézier interpolation curves as MMD stores and evaluates them.
//! (doc placeholder)

use serde::{Deserialize, Serialize};

/// One MMD interpolation curve: the two inner control points of a cubic Bézier from (0, 0) to
/// (127, 127). Bytes above 127 only occur in damaged files; they are clamped to 127 when
/// evaluating and kept as they are otherwise, so files round-trip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Curve {
    pub x1: u8,
    pub y1: u8,
    pub x2: u8,
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
/// t = 1 − s: every term is non-negative on [0, 1], so the result stays in [0, 1] and is exact
/// at both ends (the power-basis Horner form is not).
#[inline]
fn bez(p1: f64, p2: f64, s: f64) -> f64 {
    let t = 1.0 - s;
    s * (3.0 * t * (t * p1 + s * p2) + s * s)
}

impl Curve {
    /// MMD's default curve, a straight line with the handles at 20 and 107.
    pub const LINEAR: Curve = Curve::new(20, 20, 107, 107);

    pub const fn new(x1: u8, y1: u8, x2: u8, y2: u8) -> Self {
        Curve { x1, y1, x2, y2 }
    }

    /// Both handles on the diagonal, so Y(s) = X(s) and the weight is the progress itself.
    pub const fn is_linear(&self) -> bool {
        self.x1 == self.y1 && self.x2 == self.y2
    }

    /// The curve point (X(s), Y(s)) in unit coordinates. `s` is not clamped (fitting code may
    /// probe outside [0, 1]); the control points are.
    pub fn eval_xy(&self, s: f64) -> (f64, f64) {
        (
            bez(unit(self.x1), unit(self.x2), s),
            bez(unit(self.y1), unit(self.y2), s),
        )
    }

    /// The parameter s* in [0, 1] with X(s*) = p, to |s − s*| ≤ 1e-10 (so |X(s) − p| ≤ 3e-10).
    /// `p` is clamped to [0, 1]; NaN counts as 0.
    ///
    /// X is non-decreasing for any control points in [0, 1], so the root is unique and [lo, hi]
    /// always brackets it. Newton from s = p converges in a few steps for ordinary curves; any
    /// step that leaves the bracket (including X′ = 0 at a vertical tangent, giving ±inf or NaN)
    /// is replaced by a bisection, and after [`NEWTON_ITERS`] steps only bisection is used, which
    /// bounds the work. That matters at triple roots such as (127, 0, 0, 127) at p = 0.5, where
    /// Newton only gains a factor 2/3 per step.
    pub fn solve_s(&self, p: f64) -> f64 {
        if !(p > 0.0) {
            return 0.0;
        }
        if p >= 1.0 {
            return 1.0;
        }
        let (a, b) = (unit(self.x1), unit(self.x2));
        let (mut lo, mut hi, mut s) = (0.0, 1.0, p);
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
        if !(p > 0.0) {
            return 0.0;
        }
        if p >= 1.0 {
            return 1.0;
        }
        if self.is_linear() {
            return p;
        }
        bez(unit(self.y1), unit(self.y2), self.solve_s(p))
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
    /// the originals never need; otherwise nothing is special-cased, so even linear curves and
    /// p = 0 or 1 come out a few 1e-6 off.
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
