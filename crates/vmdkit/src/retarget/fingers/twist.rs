//! The twist of a finger's base about its own direction: the one whose hinged middle and end
//! joints reach the input best, the bend plane's own twist (none) winning ties.
//!
//! A finger's model segments are never quite in one plane, so the twist the input's bend plane
//! gives may leave a hinge short of its target where another twist would let it reach. The
//! cost of a twist `t` is the sum of the squared angles (radians) by which the hinges miss the
//! input's segments, plus `1e-6·t²` so that flat costs keep the plane's twist; it is searched
//! over ±[`SEARCH_DEGREES`].
//!
//! **Why this is fast.** The cost is evaluated in the base bone's own frame, where a twist only
//! turns the input's segments about the base's rest direction: each is `p + q·cos t − w·sin t`
//! with `p`, `q`, `w` fixed per finger, and each hinge's bend comes as the cosine and sine of
//! its angle from projections, its reach as a vector (no atan2, no sin/cos, no quaternion but
//! at the end). A hinge whose axis tilts within the limit reaches its target exactly, so only
//! the others' misses are measured (one asin each), and the tilt is told from squared lengths.
//! Most fingers reach the input at the plane's twist (cost ≈ 0): one evaluation. Else the grid
//! is scanned from the middle outward, stopping once no farther point can win (its penalty
//! alone exceeds the best cost: exact), and the best grid point is refined by a golden-section
//! search within a grid step, finer than the 0.3° sub-grid it replaces. A point whose penalty
//! alone, or with the middle hinge's miss, already reaches the best cost is not weighed further
//! (exact too: the rest only adds), which spares most losing points the end hinge or all.

use super::{MAX_HINGE_TILT_DEGREES, MAX_HYPEREXTENSION_DEGREES};
use glam::{DQuat, DVec3};

/// The twists tried about the plane's: ±`SEARCH_DEGREES` by `STEP_DEGREES`, the best refined
/// to `TOLERANCE_DEGREES`.
const SEARCH_DEGREES: f64 = 45.0;
const STEP_DEGREES: f64 = 3.0;
const TOLERANCE_DEGREES: f64 = 0.01;

/// Weight of the preference for the plane's twist (per radian²).
const PREFERENCE: f64 = 1e-6;

/// A non-thumb finger's hinges, seen from its base bone: what a twist changes and what it does
/// not.
pub(super) struct Hinges {
    /// The bend axis at rest, shared by both hinges (in each bone's parent's frame).
    axis: DVec3,
    /// The middle and end segments' rest directions.
    rest: [Rest; 2],
    /// The input's middle and end segments in the base's frame at no twist, split about
    /// `rest_base` as (along it, across it, `rest_base` × it); `None` where missing.
    input: [Option<[DVec3; 3]>; 2],
    /// cos and sin of the hyperextension limit (a negative bend).
    limit: (f64, f64),
    /// sin² of the largest hinge tilt.
    max_tilt_sin2: f64,
}

impl Hinges {
    /// The hinges of a finger whose base, at no twist, has the rotation `base`; `rest` and
    /// `input` are its three segments' directions (rest, and observed in the hand's frame),
    /// `axis` its bend axis at rest.
    pub(super) fn new(
        base: DQuat,
        rest: &[DVec3; 3],
        input: &[Option<DVec3>; 3],
        axis: DVec3,
    ) -> Hinges {
        let rest_base = rest[0];
        let back = base.inverse();
        let split = |d: DVec3| {
            let v = back * d;
            let along = rest_base * rest_base.dot(v);
            [along, v - along, rest_base.cross(v)]
        };
        let limit = MAX_HYPEREXTENSION_DEGREES.to_radians();
        Hinges {
            axis,
            rest: [Rest::new(rest[1], axis), Rest::new(rest[2], axis)],
            input: [input[1].map(split), input[2].map(split)],
            limit: (limit.cos(), -limit.sin()),
            max_tilt_sin2: MAX_HINGE_TILT_DEGREES.to_radians().sin().powi(2),
        }
    }

    /// The twist (radians, about the base's direction) whose hinges reach the input best: see
    /// the module documentation.
    pub(super) fn best_twist(&self) -> f64 {
        let step = STEP_DEGREES.to_radians();
        let fine = step / 10.0;
        let at_zero = self.miss(1.0, 0.0);
        // No point of the old 0.3° sub-grid around 0 could beat it: the plane's twist stands.
        if at_zero <= PREFERENCE * fine * fine {
            return 0.0;
        }
        // The grid, ring by ring from the middle (the negative side first, as the plain scan
        // from −45° would keep it on a tie).
        let (step_sin, step_cos) = step.sin_cos();
        let rings = (SEARCH_DEGREES / STEP_DEGREES) as i32;
        let (mut best, mut best_cost) = (0.0, at_zero);
        let (mut c, mut s) = (1.0, 0.0);
        for m in 1..=rings {
            (c, s) = (c * step_cos - s * step_sin, s * step_cos + c * step_sin);
            let t = f64::from(m) * step;
            if best_cost <= PREFERENCE * t * t {
                break;
            }
            for (t, s) in [(-t, -s), (t, s)] {
                let k = self.cost_below(t, || (c, s), best_cost);
                if k < best_cost {
                    (best, best_cost) = (t, k);
                }
            }
        }
        // Golden-section search in the bracket the grid gives (its neighbours cost more).
        const SHRINK: f64 = 0.381_966_011_250_105_1;
        let (mut lo, mut hi) = (best - step, best + step);
        let tolerance = TOLERANCE_DEGREES.to_radians();
        while hi - lo > tolerance {
            let x = if hi - best > best - lo {
                best + SHRINK * (hi - best)
            } else {
                best - SHRINK * (best - lo)
            };
            let turn = || {
                let (s, c) = x.sin_cos();
                (c, s)
            };
            let k = self.cost_below(x, turn, best_cost);
            if k < best_cost {
                if x > best {
                    lo = best;
                } else {
                    hi = best;
                }
                (best, best_cost) = (x, k);
            } else if x > best {
                hi = x;
            } else {
                lo = x;
            }
        }
        best
    }

    /// The cost of the twist `t`, whose cosine and sine `turn` gives, if it is below `best`;
    /// else infinity, as soon as its preference alone or with the middle hinge's miss shows
    /// it cannot win (exact: the end hinge's miss only adds), so that most losing twists are
    /// never turned or cost one hinge.
    fn cost_below(&self, t: f64, turn: impl FnOnce() -> (f64, f64), best: f64) -> f64 {
        let preference = PREFERENCE * t * t;
        if preference >= best {
            return f64::INFINITY;
        }
        let (c, s) = turn();
        let k = self.miss_below(c, s, best - preference) + preference;
        if k < best {
            k
        } else {
            f64::INFINITY
        }
    }

    /// The sum of the squared angles (radians) by which the hinges miss the input, the base
    /// twisted by the angle whose cosine and sine are `c` and `s`. As `Chain::distal` bends
    /// them: each hinge tilted as little as an exact reach needs, at most the largest tilt,
    /// and held at the backward-bend limit.
    pub(super) fn miss(&self, c: f64, s: f64) -> f64 {
        self.miss_below(c, s, f64::INFINITY)
    }

    /// [`Hinges::miss`], or infinity once the middle hinge's miss alone reaches `bound`.
    fn miss_below(&self, c: f64, s: f64, bound: f64) -> f64 {
        let turned = |k: usize| self.input[k].map(|[p, q, w]| p + q * c - w * s);
        let mut error = 0.0;
        // The middle joint: its bend turns the end segment's target back with it.
        let end = turned(1);
        let end = match turned(0) {
            Some(u) => {
                let joint = self.bend(&self.rest[0], u);
                error += joint.miss * joint.miss;
                if error >= bound {
                    return f64::INFINITY;
                }
                end.map(|e| joint.undo(e))
            }
            None => end,
        };
        if let Some(u) = end {
            let joint = self.bend(&self.rest[1], u);
            error += joint.miss * joint.miss;
        }
        error
    }

    /// A hinge from rest direction `rest` toward the unit `u` (both in its parent's frame), as
    /// `solve::hinge` and the limit in `Chain::distal` bend it, with the arithmetic cut to what
    /// each case needs: the axis tilted square to `u − r` reaches `u` exactly (no miss to
    /// measure), and the fixed axis's side of the rest direction is precomputed. Inlined so that
    /// the end hinge, of whose bend only the miss is read, skips the rest.
    #[inline(always)]
    fn bend(&self, rest: &Rest, u: DVec3) -> Bend {
        let (a, r) = (self.axis, rest.dir);
        let e = u - r;
        let (ee, ae) = (e.length_squared(), a.dot(e));
        // The tilted axis a − e·(a·e)/|e|² has the length cos(tilt): within the largest tilt
        // when (a·e)² ≤ sin²(largest)·|e|², no square root needed to tell.
        if ee > 0.0 && ee.is_finite() && ae * ae <= self.max_tilt_sin2 * ee {
            let h = (a - e * (ae / ee)).normalize();
            // h·r = h·u, so both sides of the axis are as long: the bend's cosine and sine
            // times that length squared.
            let k = h.dot(r);
            let size = 1.0 - k * k;
            let (cos, sin) = (r.dot(u) - k * k, h.dot(r.cross(u)));
            if size <= 0.0 {
                return Bend { axis: h, cos: 1.0, sin: 0.0, miss: 0.0 };
            }
            return self.limited(h, h * k, r - h * k, u, cos, sin).unwrap_or(Bend {
                axis: h,
                cos: cos / size,
                sin: sin / size,
                miss: 0.0,
            });
        }
        let au = a.dot(u);
        let g = (u - a * au).length();
        let size = rest.across_length * g;
        if size <= 0.0 {
            return Bend { axis: a, cos: 1.0, sin: 0.0, miss: chord_angle((r - u).length()) };
        }
        let (cos, sin) = (r.dot(u) - rest.along * au, a.dot(r.cross(u)));
        let at_rest = a * rest.along;
        self.limited(a, at_rest, rest.across, u, cos, sin).unwrap_or_else(|| {
            // f turned onto g keeps its length: it misses along the axis and across it.
            let (along, across) = (rest.along - au, rest.across_length - g);
            let chord = (along * along + across * across).sqrt();
            Bend { axis: a, cos: cos / size, sin: sin / size, miss: chord_angle(chord) }
        })
    }

    /// The bend about the unit `h` held at the backward-bend limit, when the bend whose cosine
    /// and sine are `cos` and `sin` times the same positive factor is past it; `at_rest` and
    /// `across` are the rest direction's parts along `h` and across it.
    fn limited(
        &self,
        h: DVec3,
        at_rest: DVec3,
        across: DVec3,
        u: DVec3,
        cos: f64,
        sin: f64,
    ) -> Option<Bend> {
        // Past the limit when sin θ < 0 and sin(θ − limit) < 0, θ in (−π, π].
        let (lc, ls) = self.limit;
        (sin < 0.0 && sin * lc - cos * ls < 0.0).then(|| {
            let reached = at_rest + across * lc + h.cross(across) * ls;
            Bend { axis: h, cos: lc, sin: ls, miss: chord_angle((reached - u).length()) }
        })
    }
}

/// The angle between two unit vectors `chord` apart.
fn chord_angle(chord: f64) -> f64 {
    2.0 * (chord / 2.0).min(1.0).asin()
}

/// A hinge's rest direction, split about the finger's bend axis.
struct Rest {
    dir: DVec3,
    /// Its component along the axis.
    along: f64,
    /// Its part across the axis, and that part's length.
    across: DVec3,
    across_length: f64,
}

impl Rest {
    fn new(dir: DVec3, axis: DVec3) -> Rest {
        let along = axis.dot(dir);
        let across = dir - axis * along;
        Rest { dir, along, across, across_length: across.length() }
    }
}

/// One hinge bent: its axis, the cosine and sine of its bend, and the angle it misses by.
struct Bend {
    axis: DVec3,
    cos: f64,
    sin: f64,
    miss: f64,
}

impl Bend {
    /// `x` (in the hinge's parent's frame) seen from the bent bone: turned back by the bend.
    fn undo(&self, x: DVec3) -> DVec3 {
        let h = self.axis;
        let along = h * h.dot(x);
        along + (x - along) * self.cos - h.cross(x) * self.sin
    }
}
