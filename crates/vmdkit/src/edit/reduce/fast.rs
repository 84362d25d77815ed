//! [`ReduceMethod::Fast`](super::ReduceMethod::Fast): a cheap curve fitter for dense, smooth
//! input such as retargeting output.
//!
//! [`Band::fit`] searches all four handles of a curve (least squares, Levenberg–Marquardt, an
//! integer pattern search), which is what makes a reduction small and what makes it slow: most
//! of a reduction's time is spent there. This fitter tries far fewer curves:
//!
//! 1. the linear curve;
//! 2. for each of a few fixed pairs of time handles (x1, x2) the curve's parameter s at each
//!    progress value is a known table, and the weight Y(s) = 3(1 − s)²s·y1 + 3(1 − s)s²·y2 + s³
//!    is linear in the value handles: (y1, y2) solve a 2×2 least-squares system weighted by the
//!    band's half-widths, and are rounded to MMD's integers (with the neighbouring integers
//!    tried when the rounded curve misses).
//!
//! Each candidate is checked against the whole band with early exit; the first inside is taken.
//! Tables are kept per segment length (the band's progress values are j/n), so a fit solves
//! nothing that an earlier fit of the same length solved; those of short segments, which every
//! track of a dense motion fits over and over, are shared by all tracks and reductions. The curves only have to be inside the
//! band: the caller still plays every segment exactly and the segmentation verifies the whole
//! track with the sampler, so the bound holds as it does for [`ReduceMethod::Fitted`].
//!
//! [`ReduceMethod::Fitted`]: super::ReduceMethod::Fitted

use super::fit::Band;
use crate::curve::Curve;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Time handles tried, after the linear curve: MMD's default (20, 107), X(s) = s (42, 85), and
/// eases that spend more of the segment near one end or the middle.
const TIME_HANDLES: [(u8, u8); 6] = [(42, 85), (20, 107), (0, 127), (64, 64), (96, 32), (127, 0)];
const PAIRS: usize = TIME_HANDLES.len();
/// Segments up to this length keep their parameter tables; longer ones (rare, and tried once
/// per stretch) solve them afresh, so the memory stays bounded.
const MAX_CACHED_LEN: usize = 600;
/// Segments up to this length share their tables process-wide (all of them together are
/// under 100 kB): most of a dense track's fits are this short, and a table per track would be
/// solved again for every track.
const SHARED_LEN: usize = 64;

/// The parameter s of each pair of time handles at each interior progress value j/n.
type Table = Arc<[[f64; PAIRS]]>;

/// The shared tables, by segment length, each made on first use.
static SHARED: [OnceLock<Table>; SHARED_LEN + 1] = [const { OnceLock::new() }; SHARED_LEN + 1];

/// Fits bands with the cheap fitter, remembering parameter tables per segment length.
#[derive(Default)]
pub(crate) struct FastFit {
    tables: RefCell<HashMap<usize, Table>>,
}

impl FastFit {
    /// A curve whose weights pass through `band`, or `Err(k)` with the point that failed under
    /// the best candidate.
    pub fn fit(&self, band: &Band) -> Result<Curve, usize> {
        let n = band.len();
        if n == 0 {
            return Ok(Curve::LINEAR);
        }
        band.monotone()?;
        let mut worst = match first_miss(band, |k| band.p[k]) {
            None => return Ok(Curve::LINEAR),
            Some(miss) => miss,
        };
        let table = self.table(band);
        for (pair, &(x1, x2)) in TIME_HANDLES.iter().enumerate() {
            let s =
                |k: usize| table.as_ref().map_or_else(|| solve(x1, x2, band.p[k]), |t| t[k][pair]);
            let Some((y1, y2)) = least_squares(band, &s) else {
                continue;
            };
            let (r1, r2) = (quantise(y1), quantise(y2));
            // The rounded point first, then its neighbours on the side the rounding left.
            let (n1, n2) = (neighbour(y1, r1), neighbour(y2, r2));
            for (c1, c2) in [(r1, r2), (n1, r2), (r1, n2), (n1, n2)] {
                let c = Curve::new(x1, c1, x2, c2);
                let weight = |k: usize| if c.is_linear() { band.p[k] } else { c.weight_at_s(s(k)) };
                match first_miss(band, weight) {
                    None => return Ok(c),
                    Some(miss) if miss.1 < worst.1 => worst = miss,
                    Some(_) => {}
                }
            }
        }
        Err(worst.0)
    }

    /// The parameter table of `band`'s length, when its progress values are the usual j/n.
    fn table(&self, band: &Band) -> Option<Table> {
        let len = band.len() + 1;
        let usual = band.p.iter().enumerate().all(|(k, &p)| p == (k + 1) as f64 / len as f64);
        if !usual {
            return None;
        }
        let make = || -> Table {
            band.p
                .iter()
                .map(|&p| std::array::from_fn(|i| solve(TIME_HANDLES[i].0, TIME_HANDLES[i].1, p)))
                .collect()
        };
        if let Some(shared) = SHARED.get(len) {
            return Some(shared.get_or_init(make).clone());
        }
        if let Some(t) = self.tables.borrow().get(&len) {
            return Some(t.clone());
        }
        let t = make();
        if len <= MAX_CACHED_LEN {
            self.tables.borrow_mut().insert(len, t.clone());
        }
        Some(t)
    }
}

/// Fits `band` with `fast` when given, else with the full fitter.
pub(crate) fn fit_band(band: &Band, fast: Option<&FastFit>) -> Result<Curve, usize> {
    match fast {
        Some(f) => f.fit(band),
        None => band.fit(),
    }
}

/// The curve parameter s at progress p for time handles (x1, x2), as the sampler solves it.
fn solve(x1: u8, x2: u8, p: f64) -> f64 {
    Curve::new(x1, 0, x2, 0).solve_s(p)
}

/// The first point whose weight is outside the band, with how far outside (in half-widths);
/// `None` when all are inside.
fn first_miss(band: &Band, weight: impl Fn(usize) -> f64) -> Option<(usize, f64)> {
    (0..band.len()).find_map(|k| {
        let w = weight(k);
        let (lo, hi) = (band.lo[k], band.hi[k]);
        (w < lo || w > hi).then(|| {
            let half = (0.5 * (hi - lo)).max(1e-12);
            (k, (w - 0.5 * (lo + hi)).abs() / half)
        })
    })
}

/// (y1, y2) in unit coordinates minimising the squared distances of Y(s(p)) from the band's
/// midpoints, each divided by the band's half-width there; `None` when the system is singular.
fn least_squares(band: &Band, s: &impl Fn(usize) -> f64) -> Option<(f64, f64)> {
    let (mut a11, mut a12, mut a22, mut c1, mut c2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for k in 0..band.len() {
        let (lo, hi) = (band.lo[k], band.hi[k]);
        let inv = 1.0 / (0.5 * (hi - lo)).max(1e-12);
        let w2 = inv * inv;
        let t = s(k);
        let u = 1.0 - t;
        let (b1, b2, b3) = (3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        let r = 0.5 * (lo + hi) - b3;
        a11 += w2 * b1 * b1;
        a12 += w2 * b1 * b2;
        a22 += w2 * b2 * b2;
        c1 += w2 * b1 * r;
        c2 += w2 * b2 * r;
    }
    let det = a11 * a22 - a12 * a12;
    if det.is_nan() || det.abs() <= 1e-12 * (a11 * a22).abs().max(1e-300) {
        // One handle carries no weight (a single point): fit y1 = y2.
        let (a, c) = (a11 + 2.0 * a12 + a22, c1 + c2);
        return (a > 0.0).then(|| (c / a, c / a));
    }
    Some(((a22 * c1 - a12 * c2) / det, (a11 * c2 - a12 * c1) / det))
}

/// A unit coordinate as MMD's nearest integer handle.
fn quantise(v: f64) -> u8 {
    (v.clamp(0.0, 1.0) * 127.0).round() as u8
}

/// The integer next to `q` on the side of the continuous `v` (or `q` itself at the ends).
fn neighbour(v: f64, q: u8) -> u8 {
    let exact = v.clamp(0.0, 1.0) * 127.0;
    if exact > f64::from(q) {
        (q + 1).min(127)
    } else {
        q.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fit::tests::band_of;
    use super::super::{measure, reduce, ReduceMethod, ReduceOptions};
    use super::*;
    use crate::format::{BoneKey, Motion};
    use crate::text::KeyName;
    use glam::{Quat, Vec3};

    /// A dense motion of one bone, a key per frame, from `path(frame)`.
    fn dense(frames: u32, path: impl Fn(u32) -> (Vec3, Quat)) -> Motion {
        let mut m = Motion::new(Default::default());
        for f in 0..frames {
            let (t, q) = path(f);
            let mut key = BoneKey::new(KeyName::encode("センター").0, f);
            (key.translation, key.rotation) = (t, q);
            m.bones.push(key);
        }
        m
    }

    /// Reduces `m` fast, checks the bound by playing both, and returns the bone keys kept.
    fn reduced_within_bounds(m: &Motion) -> usize {
        let options = ReduceOptions { method: ReduceMethod::Fast, ..Default::default() };
        let (out, report) = reduce(m, &options);
        let e = measure(m, &out);
        assert!(e.within(&options.tolerance), "{e:?}");
        assert_eq!(e, report.errors);
        assert!(out.bones.len() <= m.bones.len());
        out.bones.len()
    }

    #[test]
    fn synthetic_motions_stay_within_bounds() {
        let smooth = dense(600, |f| {
            let t = f as f32 / 30.0;
            (Vec3::new(t.sin() * 3.0, (t * 0.7).cos(), t * 0.2), Quat::from_rotation_y(t.sin()))
        });
        assert!(reduced_within_bounds(&smooth) < 120);
        let mut state = 7u64;
        let mut noise = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let noisy: Vec<(Vec3, Quat)> = (0..400)
            .map(|f| {
                let t = f as f32 / 30.0;
                let n = Vec3::new(noise(), noise(), noise()) * 0.06;
                (Vec3::new(t.sin(), 0.0, 0.0) + n, Quat::from_rotation_x(t + 0.02 * noise()))
            })
            .collect();
        reduced_within_bounds(&dense(400, |f| noisy[f as usize]));
        let steps = dense(300, |f| {
            let level = (f / 37) as f32;
            (Vec3::new(level, -level, 0.0), Quat::from_rotation_z(0.3 * level))
        });
        reduced_within_bounds(&steps);
        let constant = dense(500, |_| (Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_x(0.5)));
        assert_eq!(reduced_within_bounds(&constant), 2);
    }

    #[test]
    fn sparse_and_baked_examples_gain_no_keys_and_stay_within_bounds() {
        let sparse = crate::example::example_motion();
        let options = ReduceOptions { method: ReduceMethod::Fast, ..Default::default() };
        let (out, report) = reduce(&sparse, &options);
        assert!(report.errors.within(&options.tolerance), "{report:?}");
        assert!(report.after.bones <= report.before.bones, "{report:?}");
        assert!(report.after.cameras <= report.before.cameras, "{report:?}");
        assert_eq!(measure(&sparse, &out), report.errors);
        let dense = crate::bake::bake(&sparse, 30.0).unwrap();
        let (out, report) = reduce(&dense, &options);
        assert!(report.errors.within(&options.tolerance), "{report:?}");
        assert!(report.after.total() < report.before.total() / 4, "{report:?}");
        assert_eq!(measure(&dense, &out), report.errors);
    }

    #[test]
    fn fits_curves_with_its_own_time_handles() {
        let fast = FastFit::default();
        for c in
            [Curve::new(20, 0, 107, 127), Curve::new(42, 100, 85, 30), Curve::new(0, 0, 127, 127)]
        {
            for n in [5, 30, 200] {
                let band = band_of(c, n, 1e-3);
                let got = fast.fit(&band).unwrap_or_else(|k| panic!("{c:?}, {n}: failed at {k}"));
                for k in 0..band.len() {
                    let w = got.weight_f64(band.p[k]);
                    assert!(w >= band.lo[k] && w <= band.hi[k], "{c:?}, {n}: {got:?} at {k}");
                }
            }
        }
    }

    #[test]
    fn answers_are_inside_the_band_or_name_a_point() {
        let fast = FastFit::default();
        // A curve whose time handles are none of the table's: whatever comes back is inside
        // the band or names one of its points, and a loose band is met.
        let c = Curve::new(110, 5, 10, 120);
        for tol in [0.3, 0.05, 1e-3, 1e-6] {
            let band = band_of(c, 60, tol);
            match fast.fit(&band) {
                Ok(got) => assert!((0..band.len()).all(|k| {
                    let w = got.weight_f64(band.p[k]);
                    w >= band.lo[k] && w <= band.hi[k]
                })),
                Err(k) => assert!(tol < 0.3 && k < band.len(), "{tol}: {k}"),
            }
        }
        let mut reversal = Band::default();
        assert!(reversal.push(0.25, 0.5, 0.6));
        assert!(!reversal.push(0.5, 0.1, 0.2));
        assert_eq!(fast.fit(&reversal), Err(1));
        assert_eq!(fast.fit(&Band::default()), Ok(Curve::LINEAR));
    }
}
