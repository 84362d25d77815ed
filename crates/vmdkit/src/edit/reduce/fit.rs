//! Fitting one MMD curve to a segment's progress profile.
//!
//! A channel of a segment from key a to key b is `lerp(a, b, w(p))` (or a slerp) with w the
//! curve's weight at progress p. The tolerance at each interior frame turns into an interval
//! of acceptable weights, a [`Band`]: for a scalar channel |a + (b − a)·w − v| ≤ τ gives
//! w ∈ [(v − τ − a)/(b − a), (v + τ − a)/(b − a)]. Fitting is then: find integer control
//! points (0..=127) whose weight passes through every interval.
//!
//! 1. **Necessary condition, O(n).** Weights of an MMD curve are non-decreasing in p and stay in
//!    [0, 1], so some non-decreasing sequence must pass through the intervals clipped to [0, 1]
//!    ([`Band::monotone`]). Segments across a reversal of the motion fail here, cheaply, which
//!    is what most failed attempts of the segmentation are.
//! 2. **Linear** (w = p), the most common answer for slow parts.
//! 3. **Least squares** through the intervals' midpoints, as Schneider's curve fitting does:
//!    with parameters s fixed, the two inner control points solve a 2×2 linear system per
//!    coordinate; then each s moves by a Newton step towards the nearest point of the curve;
//!    a few rounds. Then **Levenberg–Marquardt** from there on what matters, the weights at
//!    the given progress values (normalised by the band's half-widths). Each result is clamped
//!    into the unit square and rounded to 0..=127. When the refined continuous curve's sum of
//!    squares is far above what a curve inside the band would have, the segment is declared
//!    unfittable without searching further (this is what keeps failed attempts cheap).
//! 4. **Integer pattern search** from the best so far: moves of ±32 down to ±1 on each control
//!    coordinate, on (x1, y1) and (x2, y2) together and on the two handles in opposite
//!    directions, accepting any move that lowers a smooth measure of the distance from the
//!    band (the sum of fourth powers of the normalised distances), until the band is met, no
//!    move helps or the budget of curve evaluations is spent. Candidates that share their time
//!    handles share the solved curve parameters (`params.rs`), so most scores solve nothing.
//!
//! A dense bake of an MMD motion has profiles that *are* MMD curves, which step 3 recovers
//! almost exactly and step 4 finishes; noisy captures end in steps 1 and 4.

use super::params::Params;
use crate::curve::Curve;

/// Acceptable weights at a segment's interior frames: w(p[k]) ∈ [lo[k], hi[k]].
#[derive(Clone, Debug, Default)]
pub(crate) struct Band {
    pub p: Vec<f64>,
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
    /// Each interval's midpoint and half-width (at least [`MIN_HALF`]), kept because every
    /// score of every candidate curve needs them.
    mid: Vec<f64>,
    half: Vec<f64>,
    /// The lowest weight a non-decreasing curve can have after the points so far.
    floor: f64,
}

/// The smallest half-width used when normalising, so a zero tolerance does not divide by 0.
const MIN_HALF: f64 = 1e-12;
/// Pattern-search budget (curve evaluations over the whole band).
const MAX_EVALS: usize = 250;

#[derive(Clone, Copy, Debug)]
struct Score {
    sum: f64,
    worst: f64,
    at: usize,
}

impl Band {
    pub fn with_capacity(n: usize) -> Self {
        Band {
            p: Vec::with_capacity(n),
            lo: Vec::with_capacity(n),
            hi: Vec::with_capacity(n),
            mid: Vec::with_capacity(n),
            half: Vec::with_capacity(n),
            floor: 0.0,
        }
    }

    /// Empties the band, keeping its storage (fitters reuse one band per channel).
    pub fn clear(&mut self) {
        for v in [&mut self.p, &mut self.lo, &mut self.hi, &mut self.mid, &mut self.half] {
            v.clear();
        }
        self.floor = 0.0;
    }

    /// Adds a point; false when no non-decreasing weight in [0, 1] can pass through the
    /// intervals any more (see [`Band::monotone`]), so that callers stop building at once.
    pub fn push(&mut self, p: f64, lo: f64, hi: f64) -> bool {
        self.p.push(p);
        self.lo.push(lo);
        self.hi.push(hi);
        self.mid.push(0.5 * (lo + hi));
        self.half.push((0.5 * (hi - lo)).max(MIN_HALF));
        let floor = lo.max(self.floor);
        self.floor = floor;
        floor <= hi.min(1.0)
    }

    pub fn len(&self) -> usize {
        self.p.len()
    }

    /// Whether a non-decreasing weight in [0, 1] can pass through every interval; `Err(k)`
    /// names the first point where it cannot.
    pub fn monotone(&self) -> Result<(), usize> {
        let mut floor = 0.0f64;
        for k in 0..self.len() {
            let lo = self.lo[k].max(floor);
            if lo > self.hi[k].min(1.0) {
                return Err(k);
            }
            floor = lo;
        }
        Ok(())
    }

    /// How far `c` is from the band: the sum of the fourth powers of the normalised distances
    /// from the interval midpoints (a smooth stand-in for the worst one, which a pattern search
    /// gets stuck on), the worst one (≤ 1 means inside the band) and where it is. Gives up once
    /// the sum exceeds `cutoff`.
    fn score(&self, c: Curve, cutoff: f64) -> Score {
        self.score_with(|k| c.weight_f64(self.p[k]), cutoff)
    }

    /// [`Band::score`] of the curve whose weight at point k is `weight(k)`, asked in order.
    fn score_with(&self, mut weight: impl FnMut(usize) -> f64, cutoff: f64) -> Score {
        let mut s = Score { sum: 0.0, worst: 0.0, at: 0 };
        for k in 0..self.len() {
            let w = weight(k);
            let r = (w - self.mid[k]).abs() / self.half[k];
            s.sum += r.powi(4);
            if r > s.worst {
                (s.worst, s.at) = (r, k);
            }
            if s.sum > cutoff {
                s.worst = f64::INFINITY;
                break;
            }
        }
        s
    }

    /// A curve whose weights pass through the band, or `Err(k)` with the point that failed
    /// worst under the best curve found.
    pub fn fit(&self) -> Result<Curve, usize> {
        if self.len() == 0 {
            return Ok(Curve::LINEAR);
        }
        self.monotone()?;
        let linear = self.score(Curve::LINEAR, f64::INFINITY);
        if linear.worst <= 1.0 {
            return Ok(Curve::LINEAR);
        }
        let mut best = (Curve::LINEAR, linear);
        let Some(seed) = self.least_squares() else {
            return self.finish(best);
        };
        let rounded = round(seed);
        let s = self.score(rounded, f64::INFINITY);
        if s.worst <= 1.0 {
            return Ok(rounded);
        }
        if s.sum < best.1.sum {
            best = (rounded, s);
        }
        let (refined, cost) = self.refine(seed);
        // Pruning: a curve inside the band has every normalised distance ≤ 1, so a sum of
        // squares ≤ n. When the best continuous curve found is far above that, no integer
        // curve will do (the margin allows for a local minimum).
        if cost > 2.0 * self.len() as f64 {
            return Err(best.1.at);
        }
        let rounded = round(refined);
        let s = self.score(rounded, f64::INFINITY);
        if s.worst <= 1.0 {
            return Ok(rounded);
        }
        if s.sum < best.1.sum {
            best = (rounded, s);
        }
        self.finish(best)
    }

    /// The pattern search's verdict from `start`.
    fn finish(&self, start: (Curve, Score)) -> Result<Curve, usize> {
        let (curve, score) = self.pattern_search(start);
        if score.worst <= 1.0 {
            Ok(curve)
        } else {
            Err(score.at)
        }
    }

    /// Integer pattern search on the four control coordinates (see the module docs).
    fn pattern_search(&self, start: (Curve, Score)) -> (Curve, Score) {
        let (mut best, mut score) = start;
        let mut evals = 0;
        let mut params = Params::new(&self.p);
        // Single coordinates, each handle along the diagonal, and the two handles in opposite
        // directions (the family of symmetric eases).
        const MOVES: [[i8; 4]; 16] = [
            [1, 0, 0, 0],
            [-1, 0, 0, 0],
            [0, 1, 0, 0],
            [0, -1, 0, 0],
            [0, 0, 1, 0],
            [0, 0, -1, 0],
            [0, 0, 0, 1],
            [0, 0, 0, -1],
            [1, 1, 0, 0],
            [-1, -1, 0, 0],
            [0, 0, 1, 1],
            [0, 0, -1, -1],
            [1, 0, -1, 0],
            [-1, 0, 1, 0],
            [0, 1, 0, -1],
            [0, -1, 0, 1],
        ];
        for step in [32i16, 16, 8, 4, 2, 1] {
            let mut improved = true;
            while improved && score.worst > 1.0 && evals < MAX_EVALS {
                improved = false;
                for mv in MOVES {
                    let coords = [best.x1, best.y1, best.x2, best.y2];
                    let moved: [u8; 4] = std::array::from_fn(|i| {
                        (i16::from(coords[i]) + step * i16::from(mv[i])).clamp(0, 127) as u8
                    });
                    if moved == coords {
                        continue;
                    }
                    let cand = Curve::new(moved[0], moved[1], moved[2], moved[3]);
                    evals += 1;
                    let mut weights = params.of(cand);
                    let s = self.score_with(|k| weights.at(k), score.sum);
                    if s.sum < score.sum {
                        (best, score) = (cand, s);
                        improved = true;
                        if score.worst <= 1.0 {
                            break;
                        }
                    }
                }
            }
            if score.worst <= 1.0 || evals >= MAX_EVALS {
                break;
            }
        }
        (best, score)
    }

    /// Levenberg–Marquardt on the continuous control points (x1, y1, x2, y2) in [0, 1],
    /// minimising the sum of squared normalised distances of w(p) from the interval midpoints:
    /// the quantity that matters (weights at given progress), where the geometric fit of
    /// [`Band::least_squares`] only gets close.
    fn refine(&self, start: [f64; 4]) -> ([f64; 4], f64) {
        let n = self.len();
        let mids = &self.mid;
        let inv: Vec<f64> = self.half.iter().map(|h| 1.0 / h).collect();
        // The cost at q, leaving the parameters s(p) it solved for in `s`: the Jacobian at an
        // accepted point needs the same ones. Each solve starts from `from`'s parameter, the
        // last accepted point's, which a damped step moves little.
        let cost = |q: &[f64; 4], from: &[f64], s: &mut Vec<f64>| -> f64 {
            s.clear();
            (0..n)
                .map(|k| {
                    let sk = solve_unit(q[0], q[2], self.p[k], from.get(k).copied());
                    s.push(sk);
                    ((cubic(q[1], q[3], sk).0 - mids[k]) * inv[k]).powi(2)
                })
                .sum()
        };
        let (mut s_at_q, mut s_next) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut q = start;
        let mut c = cost(&q, &[], &mut s_at_q);
        let mut lambda = 1e-3;
        for _ in 0..15 {
            let mut jtj = [[0.0f64; 4]; 4];
            let mut jtr = [0.0f64; 4];
            for k in 0..n {
                let s = s_at_q[k];
                let (_, dx, _) = cubic(q[0], q[2], s);
                let (y, dy, _) = cubic(q[1], q[3], s);
                let (b1, b2) = (3.0 * s * (1.0 - s) * (1.0 - s), 3.0 * s * s * (1.0 - s));
                // w = Y(s(p)); ∂s/∂x1 = −B1/X′ and ∂s/∂x2 = −B2/X′, damped where X′ ≈ 0.
                let slope = dy / dx.max(1e-3);
                let j = [-slope * b1 * inv[k], b1 * inv[k], -slope * b2 * inv[k], b2 * inv[k]];
                let r = (y - mids[k]) * inv[k];
                for a in 0..4 {
                    jtr[a] += j[a] * r;
                    for b in 0..4 {
                        jtj[a][b] += j[a] * j[b];
                    }
                }
            }
            let mut m = jtj;
            for (a, row) in m.iter_mut().enumerate() {
                row[a] += lambda * (jtj[a][a] + 1e-9);
            }
            let Some(delta) = solve4(m, jtr.map(|v| -v)) else {
                break;
            };
            let next: [f64; 4] = std::array::from_fn(|i| (q[i] + delta[i]).clamp(0.0, 1.0));
            let nc = cost(&next, &s_at_q, &mut s_next);
            if nc < c {
                let moved = (0..4).map(|i| (next[i] - q[i]).abs()).fold(0.0, f64::max);
                (q, c) = (next, nc);
                std::mem::swap(&mut s_at_q, &mut s_next);
                lambda = (lambda / 3.0).max(1e-9);
                if moved < 1e-6 {
                    break;
                }
            } else {
                lambda *= 4.0;
                if lambda > 1e6 {
                    break;
                }
            }
        }
        (q, c)
    }

    /// Schneider-style least-squares fit through the interval midpoints: (x1, y1, x2, y2).
    fn least_squares(&self) -> Option<[f64; 4]> {
        let n = self.len();
        let pts: Vec<(f64, f64)> =
            (0..n).map(|k| (self.p[k], 0.5 * (self.lo[k] + self.hi[k]).clamp(-1.0, 2.0))).collect();
        // Chord-length parameters, end points (0, 0) and (1, 1) included.
        let mut s = Vec::with_capacity(n);
        let mut total = 0.0;
        let mut prev = (0.0, 0.0);
        for &q in pts.iter().chain(std::iter::once(&(1.0, 1.0))) {
            total += ((q.0 - prev.0).powi(2) + (q.1 - prev.1).powi(2)).sqrt();
            s.push(total);
            prev = q;
        }
        if total <= 0.0 {
            return None;
        }
        s.truncate(n);
        s.iter_mut().for_each(|v| *v /= total);
        let (mut p1, mut p2) = ((0.0, 0.0), (1.0, 1.0));
        for _ in 0..6 {
            let (mut a11, mut a12, mut a22) = (0.0, 0.0, 0.0);
            let (mut cx1, mut cx2, mut cy1, mut cy2) = (0.0, 0.0, 0.0, 0.0);
            for (k, &(x, y)) in pts.iter().enumerate() {
                let t = s[k];
                let (b1, b2, b3) =
                    (3.0 * t * (1.0 - t) * (1.0 - t), 3.0 * t * t * (1.0 - t), t * t * t);
                a11 += b1 * b1;
                a12 += b1 * b2;
                a22 += b2 * b2;
                cx1 += b1 * (x - b3);
                cx2 += b2 * (x - b3);
                cy1 += b1 * (y - b3);
                cy2 += b2 * (y - b3);
            }
            let det = a11 * a22 - a12 * a12;
            if det.abs() < 1e-12 {
                break;
            }
            p1 = ((a22 * cx1 - a12 * cx2) / det, (a22 * cy1 - a12 * cy2) / det);
            p2 = ((a11 * cx2 - a12 * cx1) / det, (a11 * cy2 - a12 * cy1) / det);
            // One Newton step per point towards its nearest point on the curve.
            for (k, &(x, y)) in pts.iter().enumerate() {
                let t = s[k];
                let (bx, dx, ddx) = cubic(p1.0, p2.0, t);
                let (by, dy, ddy) = cubic(p1.1, p2.1, t);
                let (ex, ey) = (bx - x, by - y);
                let num = ex * dx + ey * dy;
                let den = dx * dx + dy * dy + ex * ddx + ey * ddy;
                if den > 1e-12 {
                    s[k] = (t - num / den).clamp(0.0, 1.0);
                }
            }
        }
        Some([p1.0, p1.1, p2.0, p2.1].map(|v| v.clamp(0.0, 1.0)))
    }
}

/// Continuous control points rounded to MMD's 0..=127.
fn round(q: [f64; 4]) -> Curve {
    let r = |v: f64| (v.clamp(0.0, 1.0) * 127.0).round() as u8;
    Curve::new(r(q[0]), r(q[1]), r(q[2]), r(q[3]))
}

/// s in [0, 1] with X(s) = p for continuous handles a, b in [0, 1] (X is non-decreasing):
/// Newton from `start` (else from s = p), bisection when a step leaves the bracket.
fn solve_unit(a: f64, b: f64, p: f64, start: Option<f64>) -> f64 {
    let (mut lo, mut hi, mut s) = (0.0, 1.0, start.unwrap_or(p).clamp(0.0, 1.0));
    for _ in 0..40 {
        let (x, d, _) = cubic(a, b, s);
        let f = x - p;
        if f.abs() < 1e-12 {
            break;
        }
        if f < 0.0 {
            lo = s;
        } else {
            hi = s;
        }
        let next = if d > 1e-12 { s - f / d } else { f64::NAN };
        s = if next > lo && next < hi { next } else { 0.5 * (lo + hi) };
    }
    s
}

/// Solves the 4×4 system m·x = v by Gaussian elimination with partial pivoting.
fn solve4(mut m: [[f64; 4]; 4], mut v: [f64; 4]) -> Option<[f64; 4]> {
    for col in 0..4 {
        let pivot = (col..4).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        v.swap(col, pivot);
        let pivot_row = m[col];
        for row in col + 1..4 {
            let f = m[row][col] / pivot_row[col];
            for (x, p) in m[row].iter_mut().zip(pivot_row).skip(col) {
                *x -= f * p;
            }
            v[row] -= f * v[col];
        }
    }
    let mut x = [0.0; 4];
    for row in (0..4).rev() {
        let rest: f64 = (row + 1..4).map(|c| m[row][c] * x[c]).sum();
        x[row] = (v[row] - rest) / m[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// One coordinate of the cubic with end points 0 and 1 and inner points a, b: value, first and
/// second derivative at t.
fn cubic(a: f64, b: f64, t: f64) -> (f64, f64, f64) {
    let u = 1.0 - t;
    let v = 3.0 * u * u * t * a + 3.0 * u * t * t * b + t * t * t;
    let d = 3.0 * u * u * a + 6.0 * u * t * (b - a) + 3.0 * t * t * (1.0 - b);
    let dd = 6.0 * u * (b - 2.0 * a) + 6.0 * t * (1.0 - 2.0 * b + a);
    (v, d, dd)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A band `tol` wide around `c` sampled at `n` steps (shared with the fast fit's tests).
    pub(in crate::edit::reduce) fn band_of(c: Curve, n: usize, tol: f64) -> Band {
        let mut band = Band::default();
        for k in 1..n {
            let p = k as f64 / n as f64;
            let w = c.weight_f64(p);
            assert!(band.push(p, w - tol, w + tol));
        }
        band
    }

    #[test]
    fn recovers_mmd_curves_from_their_samples() {
        for c in [
            Curve::new(127, 0, 0, 127),
            Curve::new(36, 0, 93, 127),
            Curve::new(64, 0, 64, 127),
            Curve::new(10, 90, 40, 127),
        ] {
            let band = band_of(c, 40, 1e-3);
            let fitted = band.fit().unwrap_or_else(|k| panic!("{c:?} failed at {k}"));
            for k in 0..band.len() {
                assert!((fitted.weight_f64(band.p[k]) - c.weight_f64(band.p[k])).abs() <= 1e-3);
            }
        }
    }

    #[test]
    fn reversals_fail_the_monotone_test() {
        let mut band = Band::default();
        assert!(band.push(0.25, 0.5, 0.6));
        assert!(!band.push(0.5, 0.1, 0.2));
        assert_eq!(band.monotone(), Err(1));
        assert_eq!(band.fit(), Err(1));
        assert_eq!(Band::default().fit(), Ok(Curve::LINEAR));
    }
}
