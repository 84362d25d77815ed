//! The camera track: six curves (target X, Y, Z, rotation, distance, view angle).
//!
//! **Error measures**: the target's Euclidean distance and the distance's difference count
//! against the position tolerance; each Euler angle's difference (degrees) and the view
//! angle's difference (degrees) against the angle tolerance. The three Euler angles share the
//! rotation curve and blend linearly (reference §6.6), so their bands intersect. A jump in the
//! reference (a cut) cannot fit inside a longer segment, so the segmentation ends up with keys
//! on the frames either side of it, one frame apart: a cut again. View angles are whole degrees
//! in the file, so a key is placed only where the reference's view angle is whole to within the
//! tolerance; otherwise the track keeps its original keys.

use super::fast::{fit_band, FastFit};
use super::fit::Band;
use super::segment::{self, Track};
use super::Tolerance;
use crate::curve::Curve;
use crate::eval::{CameraSample, MotionSampler};
use crate::format::{CameraInterpolation, CameraKey, Motion};
use crate::math::lerp;
use std::collections::HashMap;

/// The camera's reference values at consecutive frames starting at `first`.
#[derive(Clone, Debug)]
pub(crate) struct CameraSamples {
    pub first: u32,
    pub samples: Vec<CameraSample>,
}

pub(crate) struct CameraFit<'r> {
    r: &'r CameraSamples,
    /// The view angle each key would store.
    fov: Vec<f32>,
    tol: Tolerance,
    breaks: Vec<bool>,
    hints: HashMap<(usize, usize), [Curve; 6]>,
    /// The cheap fitter, for [`ReduceMethod::Fast`](super::ReduceMethod::Fast).
    fast: Option<FastFit>,
}

impl<'r> CameraFit<'r> {
    pub fn new(r: &'r CameraSamples, tol: Tolerance) -> Self {
        let n = r.samples.len();
        let breaks = (0..n)
            .map(|i| i > 0 && r.samples[i].perspective != r.samples[i - 1].perspective)
            .collect();
        let fov = r.samples.iter().map(|s| s.fov.round().max(0.0)).collect();
        CameraFit { r, fov, tol, breaks, hints: HashMap::new(), fast: None }
    }

    /// Fits curves with the cheap fitter of [`ReduceMethod::Fast`](super::ReduceMethod::Fast).
    pub fn use_fast_fit(&mut self) {
        self.fast = Some(FastFit::default());
    }

    pub fn force_break(&mut self, i: usize) {
        self.breaks[i] = true;
    }

    pub fn hint(&mut self, a: usize, b: usize, curves: [Curve; 6]) {
        self.hints.insert((a, b), curves);
    }

    pub fn is_hinted(&self, a: usize, b: usize, curves: &[Curve; 6]) -> bool {
        self.hints.get(&(a, b)) == Some(curves)
    }

    /// Makes keys on both sides of every jump of the reference, so that cuts stay cuts (keys
    /// one frame apart, held) instead of becoming steep two-frame curves that happen to pass
    /// within tolerance at integer frames. A jump is a one-frame change over the tolerance and
    /// over 8 times the change of the frames on either side of it: a cut, not fast motion.
    pub fn keep_jumps(&mut self) {
        let s = &self.r.samples;
        let change = |k: usize| -> f64 {
            let (a, b) = (&s[k], &s[k + 1]);
            let pos = (a.target.as_dvec3() - b.target.as_dvec3())
                .length()
                .max(f64::from((a.distance - b.distance).abs()));
            let ang = (a.rotation.as_dvec3() - b.rotation.as_dvec3())
                .abs()
                .max_element()
                .to_degrees()
                .max(f64::from((a.fov - b.fov).abs()));
            (pos / self.tol.position.max(1e-9)).max(ang / self.tol.angle_degrees.max(1e-9))
        };
        let d: Vec<f64> = (0..s.len().saturating_sub(1)).map(change).collect();
        for k in 0..d.len() {
            let around = d[k.saturating_sub(1)].max(*d.get(k + 1).unwrap_or(&0.0));
            let around = if k == 0 { d.get(1).copied().unwrap_or(0.0) } else { around };
            if d[k] > 1.0 && d[k] > 8.0 * around {
                self.breaks[k] = true;
                self.breaks[k + 1] = true;
            }
        }
    }

    /// Whether every key the track could have stores its reference value within tolerance.
    pub fn keys_representable(&self) -> bool {
        self.r
            .samples
            .iter()
            .zip(&self.fov)
            .all(|(s, &f)| f64::from((s.fov - f).abs()) <= self.tol.angle_degrees)
    }

    pub fn keys(&self, plan: &[(usize, [Curve; 6])]) -> Vec<CameraKey> {
        plan.iter()
            .map(|&(i, curves)| {
                let s = &self.r.samples[i];
                CameraKey {
                    frame: self.r.first + i as u32,
                    distance: s.distance,
                    target: s.target,
                    rotation: s.rotation,
                    interpolation: CameraInterpolation::new(curves),
                    view_angle: self.fov[i] as u32,
                    perspective_byte: u8::from(!s.perspective),
                }
            })
            .collect()
    }

    /// Normalised error (≤ 1 within tolerance) of a played sample against reference frame k.
    fn error(&self, got: &CameraSample, k: usize) -> f64 {
        let want = &self.r.samples[k];
        let e_pos = (got.target.as_dvec3() - want.target.as_dvec3())
            .length()
            .max(f64::from((got.distance - want.distance).abs()));
        let e_rot =
            (got.rotation.as_dvec3() - want.rotation.as_dvec3()).abs().max_element().to_degrees();
        let e_fov = f64::from((got.fov - want.fov).abs());
        (e_pos / self.tol.position.max(1e-300))
            .max(e_rot.max(e_fov) / self.tol.angle_degrees.max(1e-300))
    }

    /// Plays a..b exactly as the sampler does.
    fn check(&self, a: usize, b: usize, c: &[Curve; 6]) -> Result<(), usize> {
        let (sa, sb) = (&self.r.samples[a], &self.r.samples[b]);
        let (mut worst, mut at) = (1.0, None);
        for k in a + 1..b {
            let p = (k - a) as f64 / (b - a) as f64;
            let w: [f64; 6] = std::array::from_fn(|i| c[i].weight_f64(p));
            let got = CameraSample {
                target: glam::Vec3::new(
                    lerp(sa.target.x, sb.target.x, w[0]),
                    lerp(sa.target.y, sb.target.y, w[1]),
                    lerp(sa.target.z, sb.target.z, w[2]),
                ),
                distance: lerp(sa.distance, sb.distance, w[4]),
                rotation: glam::Vec3::new(
                    lerp(sa.rotation.x, sb.rotation.x, w[3]),
                    lerp(sa.rotation.y, sb.rotation.y, w[3]),
                    lerp(sa.rotation.z, sb.rotation.z, w[3]),
                ),
                fov: lerp(self.fov[a], self.fov[b], w[5]),
                perspective: sa.perspective,
            };
            let e = self.error(&got, k);
            if e > worst {
                (worst, at) = (e, Some(k));
            }
        }
        at.map_or(Ok(()), Err)
    }

    /// Bands for scalar channels `get` sharing the budget `share(k)`, all ending at a..b.
    fn scalar_bands(
        &self,
        a: usize,
        b: usize,
        values: &[&dyn Fn(usize) -> f64],
        share: &dyn Fn(usize) -> f64,
    ) -> Result<[Option<Band>; 3], usize> {
        let mut bands: [Option<Band>; 3] = Default::default();
        for (slot, get) in bands.iter_mut().zip(values) {
            let (x, d) = (get(a), get(b) - get(a));
            if d == 0.0 {
                continue; // held; its error is part of `share`
            }
            let mut band = Band::with_capacity(b - a);
            for k in a + 1..b {
                let (lo, hi) = ((get(k) - share(k) - x) / d, (get(k) + share(k) - x) / d);
                if !band.push((k - a) as f64 / (b - a) as f64, lo.min(hi), lo.max(hi)) {
                    return Err(k);
                }
            }
            *slot = Some(band);
        }
        Ok(bands)
    }

    fn fit_bands(&self, a: usize, b: usize, shrink: f64) -> Result<[Curve; 6], usize> {
        let s = &self.r.samples;
        let (e, ang) = (self.tol.position * shrink, (self.tol.angle_degrees * shrink).to_radians());
        let mut curves = [Curve::LINEAR; 6];
        let fit = |band: &Option<Band>| {
            band.as_ref().map_or(Ok(Curve::LINEAR), |b| {
                fit_band(b, self.fast.as_ref()).map_err(|i| a + 1 + i)
            })
        };

        // Target: like a bone translation, held axes first, the rest of the budget shared.
        let axes: [&dyn Fn(usize) -> f64; 3] =
            [&|k| f64::from(s[k].target.x), &|k| f64::from(s[k].target.y), &|k| {
                f64::from(s[k].target.z)
            }];
        let moving: Vec<bool> = axes.iter().map(|g| g(a) != g(b)).collect();
        let m = moving.iter().filter(|&&v| v).count().max(1) as f64;
        let held = |k: usize| -> f64 {
            (0..3).filter(|&c| !moving[c]).map(|c| (axes[c](a) - axes[c](k)).powi(2)).sum()
        };
        if let Some(k) = (a + 1..b).find(|&k| held(k) > e * e) {
            return Err(k);
        }
        let share = |k: usize| ((e * e - held(k)) / m).sqrt();
        let bands = self.scalar_bands(a, b, &axes, &share)?;
        for c in 0..3 {
            curves[c] = fit(&bands[c])?;
        }
        // Distance and view angle: one scalar each.
        let dist: &dyn Fn(usize) -> f64 = &|k| f64::from(s[k].distance);
        let fov: &dyn Fn(usize) -> f64 = &|k| {
            if k == a || k == b {
                f64::from(self.fov[k])
            } else {
                f64::from(s[k].fov)
            }
        };
        for (get, tol, slot) in [(dist, e, 4), (fov, ang.to_degrees(), 5)] {
            if get(a) == get(b) {
                if let Some(k) = (a + 1..b).find(|&k| (get(k) - get(a)).abs() > tol) {
                    return Err(k);
                }
            } else {
                curves[slot] = fit(&self.scalar_bands(a, b, &[get], &|_| tol)?[0])?;
            }
        }
        // Rotation: one curve for three angles; intersect their bands.
        let rot = |k: usize, c: usize| f64::from(s[k].rotation.to_array()[c]);
        let mut band = Band::with_capacity(b - a);
        for k in a + 1..b {
            let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
            for c in 0..3 {
                let (x, d, v) = (rot(a, c), rot(b, c) - rot(a, c), rot(k, c));
                if d == 0.0 {
                    if (v - x).abs() > ang {
                        return Err(k);
                    }
                    continue;
                }
                let (l, h) = ((v - ang - x) / d, (v + ang - x) / d);
                lo = lo.max(l.min(h));
                hi = hi.min(l.max(h));
            }
            if lo.is_finite() && !band.push((k - a) as f64 / (b - a) as f64, lo, hi) {
                return Err(k);
            }
        }
        if band.len() == b - a - 1 {
            curves[3] = fit_band(&band, self.fast.as_ref()).map_err(|i| a + 1 + i)?;
        }
        Ok(curves)
    }
}

impl Track for CameraFit<'_> {
    type Curves = [Curve; 6];

    fn len(&self) -> usize {
        self.r.samples.len()
    }

    fn is_break(&self, i: usize) -> bool {
        self.breaks[i]
    }

    fn linear(&self) -> [Curve; 6] {
        [Curve::LINEAR; 6]
    }

    fn fit(&self, a: usize, b: usize) -> Result<[Curve; 6], usize> {
        let hint = self.hints.get(&(a, b));
        let check = |c: &[Curve; 6]| self.check(a, b, c);
        segment::fit_hinted((a, b), hint, [Curve::LINEAR; 6], check, |shrink| {
            self.fit_bands(a, b, shrink)
        })
    }

    fn violations(&self, plan: &[(usize, [Curve; 6])]) -> Vec<usize> {
        let mut motion = Motion::new_camera();
        motion.cameras = self.keys(plan);
        let sampler = MotionSampler::new(&motion);
        let track = sampler.camera_track().expect("keys were given");
        let mut cursor = crate::eval::Cursor::default();
        (0..self.len())
            .filter(|&i| {
                let got = track.sample_with(&mut cursor, f64::from(self.r.first + i as u32));
                self.error(&got, i) > 1.0 || got.perspective != self.r.samples[i].perspective
            })
            .collect()
    }
}

impl CameraFit<'_> {
    /// The baseline's split rule with linear weights: the worst frame if over tolerance.
    pub fn linear_split(&self, a: usize, b: usize) -> Option<usize> {
        self.check(a, b, &[Curve::LINEAR; 6]).err()
    }
}
