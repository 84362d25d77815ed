//! Bone tracks: per-axis translation curves and the rotation curve.
//!
//! **Error measures** (what the tolerances mean): the translation error at a frame is the
//! Euclidean distance between the two offsets, in model units; the rotation error is the angle
//! of the rotation taking one orientation to the other, in degrees.
//!
//! **Bands.** A translation axis whose end values are equal is held by the sampler (no curve
//! can move it): its error counts against the budget of the others. The remaining budget at a
//! frame, √(E² − e_held²), is shared equally by the m moving axes (each gets budget/√m, so the
//! Euclidean sum stays within E whatever each axis does inside its share). A rotation from qa to
//! qb slerps along one great circle: each interior rotation q is projected onto that circle,
//! giving its progress u = φ/θ (φ its angle along the circle, θ the segment's) and its distance
//! d from the circle. Any weight w then misses q by about √((2θ(w − u))² + d²) of rotation, so
//! the band is u ± √(E² − d²)/(2θ) (empty when d > E). The bands are approximations (shares,
//! small-angle geometry); the fit is accepted only after [`BoneFit::check`] has played the
//! segment exactly as the sampler does (same weights, same f64 lerp rounded to f32, same
//! slerp), and with tighter bands otherwise.

use super::fast::{fit_band, FastFit};
use super::fit::Band;
use super::segment::{self, Track};
use super::Tolerance;
use crate::curve::Curve;
use crate::eval::{BoneSample, BoneTrack, Cursor};
use crate::format::{BoneInterpolation, BoneKey, PhysicsToggle};
use crate::math::{lerp, normalized_rotation, quat_angle, slerp};
use crate::text::KeyName;
use glam::{DQuat, Quat, Vec3};
use std::cell::RefCell;
use std::collections::HashMap;

/// A bone's reference values at consecutive frames starting at `first`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct BoneSamples {
    pub name: KeyName,
    pub first: u32,
    pub translation: Vec<Vec3>,
    /// As the keys will store them.
    pub rotation: Vec<Quat>,
    pub physics: Vec<PhysicsToggle>,
}

impl BoneSamples {
    /// No values yet, room for `frames` of them.
    pub fn with_capacity(name: KeyName, first: u32, frames: usize) -> Self {
        BoneSamples {
            name,
            first,
            translation: Vec::with_capacity(frames),
            rotation: Vec::with_capacity(frames),
            physics: Vec::with_capacity(frames),
        }
    }

    /// Appends the next frame's values.
    pub fn push(&mut self, s: BoneSample) {
        self.translation.push(s.translation);
        self.rotation.push(s.rotation);
        self.physics.push(s.physics);
    }
}

/// Fits segments of a [`BoneSamples`].
pub(crate) struct BoneFit<'r> {
    r: &'r BoneSamples,
    /// Rotations as the sampler will hold them (normalised on loading).
    unit: Vec<Quat>,
    tol: Tolerance,
    breaks: Vec<bool>,
    /// Curves known to reproduce a segment (retiming keeps a source segment's curves).
    hints: HashMap<(usize, usize), [Curve; 4]>,
    /// The cheap fitter, for [`ReduceMethod::Fast`](super::ReduceMethod::Fast).
    fast: Option<FastFit>,
    /// The bands of the three translation axes and the rotation, reused by every fit: a dense
    /// track's segments are a few frames long, so allocating them would cost more than the fit.
    bands: RefCell<[Band; 4]>,
    /// What the last [`Track::violations`] played at every reference frame (rotations of unit
    /// length, as the sampler returns them): once a plan is verified, the reduced track's
    /// values, for a caller that would play it at those frames.
    played: RefCell<BoneSamples>,
}

/// The angle of the rotation between two unit quaternions, in degrees.
pub(crate) fn angle_deg(a: Quat, b: Quat) -> f64 {
    quat_angle(a, b).to_degrees()
}

/// Whether [`angle_deg`] of `a` and `b` is certainly at most `degrees`, told without its
/// atan2: that angle is 4·atan(|a − b| / |a + b|) (b on a's side), and atan x ≤ x, so a chord
/// ratio within a quarter of the bound settles it (squared, less a margin far above the
/// rounding). False means the angle has to be worked out. The checks below play every frame
/// of every segment they try, and almost every frame is well within the tolerance.
fn surely_within(a: Quat, b: Quat, degrees: f64) -> bool {
    let (a, b) = (a.as_dquat(), b.as_dquat());
    let b = if a.dot(b) < 0.0 { -b } else { b };
    let quarter = degrees.to_radians() / 4.0;
    (a - b).length_squared() <= quarter * quarter * (a + b).length_squared() * (1.0 - 1e-9)
}

impl<'r> BoneFit<'r> {
    pub fn new(r: &'r BoneSamples, tol: Tolerance) -> Self {
        let n = r.translation.len();
        let breaks = (0..n)
            // Only on/off matters: old writers leave curve bytes in the toggle's place
            // (`PhysicsToggle::Unknown`), varying from key to key and all meaning "on".
            .map(|i| i > 0 && r.physics[i].is_on() != r.physics[i - 1].is_on())
            .collect();
        let unit = r.rotation.iter().map(|&q| normalized_rotation(q)).collect();
        BoneFit {
            r,
            unit,
            tol,
            breaks,
            hints: HashMap::new(),
            fast: None,
            bands: Default::default(),
            played: RefCell::new(BoneSamples::with_capacity(r.name, r.first, 0)),
        }
    }

    /// What the last [`Track::violations`] played (see the field), taken.
    pub fn take_played(&self) -> BoneSamples {
        self.played.take()
    }

    /// The reference as a track of a key at every frame plays it: its own values, the
    /// rotations normalised as the sampler normalises a key's.
    pub fn reference_played(&self) -> BoneSamples {
        BoneSamples {
            name: self.r.name,
            first: self.r.first,
            translation: self.r.translation.clone(),
            rotation: self.unit.clone(),
            physics: self.r.physics.clone(),
        }
    }

    /// Fits curves with the cheap fitter of [`ReduceMethod::Fast`](super::ReduceMethod::Fast).
    pub fn use_fast_fit(&mut self) {
        self.fast = Some(FastFit::default());
    }

    /// Makes frame `i` a key.
    pub fn force_break(&mut self, i: usize) {
        self.breaks[i] = true;
    }

    pub fn hint(&mut self, a: usize, b: usize, curves: [Curve; 4]) {
        self.hints.insert((a, b), curves);
    }

    pub fn is_hinted(&self, a: usize, b: usize, curves: &[Curve; 4]) -> bool {
        self.hints.get(&(a, b)) == Some(curves)
    }

    /// The keys of a plan.
    pub fn keys(&self, plan: &[(usize, [Curve; 4])]) -> Vec<BoneKey> {
        plan.iter().map(|&(i, curves)| self.key(i, curves)).collect()
    }

    /// The key at reference frame `i` whose curves shape the segment ending there.
    pub fn key(&self, i: usize, curves: [Curve; 4]) -> BoneKey {
        BoneKey {
            name: self.r.name,
            frame: self.r.first + i as u32,
            translation: self.r.translation[i],
            rotation: self.r.rotation[i],
            interpolation: BoneInterpolation::canonical(curves, self.r.physics[i]),
        }
    }

    /// Plays a..b with `curves` exactly as the sampler does; `Err` names the worst frame.
    fn check(&self, a: usize, b: usize, curves: &[Curve; 4]) -> Result<(), usize> {
        let (ta, tb) = (self.r.translation[a], self.r.translation[b]);
        let (qa, qb) = (self.unit[a], self.unit[b]);
        let (mut worst, mut at) = (1.0f64, None);
        for k in a + 1..b {
            let p = (k - a) as f64 / (b - a) as f64;
            let axis = |x: f32, y: f32, c: Curve| {
                if x == y {
                    x
                } else {
                    lerp(x, y, c.weight_f64(p))
                }
            };
            let t = Vec3::new(
                axis(ta.x, tb.x, curves[0]),
                axis(ta.y, tb.y, curves[1]),
                axis(ta.z, tb.z, curves[2]),
            );
            let q = if qa == qb { qa } else { slerp(qa, qb, curves[3].weight_f64(p) as f32) };
            let pos = (t.as_dvec3() - self.r.translation[k].as_dvec3()).length()
                / self.tol.position.max(1e-300);
            // A frame surely within the angle cannot be the worst on its angle (`worst`
            // starts at 1): its exact angle is not needed.
            let ang = match surely_within(q, self.unit[k], self.tol.angle_degrees) {
                true => 0.0,
                false => angle_deg(q, self.unit[k]) / self.tol.angle_degrees.max(1e-300),
            };
            let e = pos.max(ang);
            if e > worst {
                (worst, at) = (e, Some(k));
            }
        }
        at.map_or(Ok(()), Err)
    }

    /// Translation curves for a..b with each moving axis's share of the budget scaled by
    /// `shrink`.
    fn fit_translation(&self, a: usize, b: usize, shrink: f64) -> Result<[Curve; 3], usize> {
        let (ta, tb) = (self.r.translation[a].to_array(), self.r.translation[b].to_array());
        let (mut axes, mut m) = ([0usize; 3], 0);
        for c in (0..3).filter(|&c| ta[c] != tb[c]) {
            (axes[m], m) = (c, m + 1);
        }
        let moving = &axes[..m];
        let e = self.tol.position;
        let mut scratch = self.bands.borrow_mut();
        let bands = &mut scratch[..m];
        bands.iter_mut().for_each(Band::clear);
        for k in a + 1..b {
            let v = self.r.translation[k].to_array();
            let held: f64 = (0..3)
                .filter(|c| !moving.contains(c))
                .map(|c| (f64::from(ta[c]) - f64::from(v[c])).powi(2))
                .sum();
            if held > e * e {
                return Err(k);
            }
            if moving.is_empty() {
                continue;
            }
            let share = shrink * ((e * e - held) / moving.len() as f64).sqrt();
            let p = (k - a) as f64 / (b - a) as f64;
            for (band, &c) in bands.iter_mut().zip(moving) {
                let (x, y, d) =
                    (f64::from(ta[c]), f64::from(v[c]), f64::from(tb[c]) - f64::from(ta[c]));
                let (lo, hi) = ((y - share - x) / d, (y + share - x) / d);
                if !band.push(p, lo.min(hi), lo.max(hi)) {
                    return Err(k);
                }
            }
        }
        let mut curves = [Curve::LINEAR; 3];
        for (band, &c) in bands.iter().zip(moving) {
            curves[c] = fit_band(band, self.fast.as_ref()).map_err(|i| a + 1 + i)?;
        }
        Ok(curves)
    }

    /// The rotation curve for a..b with the band scaled by `shrink`.
    fn fit_rotation(&self, a: usize, b: usize, shrink: f64) -> Result<Curve, usize> {
        let (qa, qb) = (self.unit[a], self.unit[b]);
        let tol = shrink * self.tol.angle_degrees.to_radians();
        if qa == qb {
            // The sampler holds qa: nothing to fit, only to check.
            return match (a + 1..b).find(|&k| angle_deg(qa, self.unit[k]).to_radians() > tol) {
                Some(k) => Err(k),
                None => Ok(Curve::LINEAR),
            };
        }
        let (e1, b64) = (qa.as_dquat(), qb.as_dquat());
        let b64 = if e1.dot(b64) < 0.0 { -b64 } else { b64 };
        // θ: the angle between qa and qb on the 4D sphere (half the rotation angle).
        let theta = 2.0 * (b64 - e1).length().atan2((b64 + e1).length());
        let e2 = b64 - e1 * e1.dot(b64);
        let e2 =
            if e2.length() > 1e-15 { e2.normalize() } else { DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0) };
        let middle = (e1 + b64).normalize();
        let mut scratch = self.bands.borrow_mut();
        let band = &mut scratch[3];
        band.clear();
        for k in a + 1..b {
            let q = self.unit[k].as_dquat();
            let q = if q.dot(middle) < 0.0 { -q } else { q };
            let (x, y) = (q.dot(e1), q.dot(e2));
            let off = (q - e1 * x - e2 * y).length();
            let r = (x * x + y * y).sqrt();
            // The two angles in f32, whose atan2 costs a fraction of f64's: the band is an
            // approximation that the exact check settles, and 1e-7 of relative error moves its
            // edges by far less than that approximation.
            let d = 2.0 * f64::from((off as f32).atan2(r as f32)); // rotation angle to the circle
            if d > tol {
                return Err(k);
            }
            let u = f64::from((y as f32).atan2(x as f32)) / theta;
            let half = (tol * tol - d * d).sqrt() / (2.0 * theta);
            if !band.push((k - a) as f64 / (b - a) as f64, u - half, u + half) {
                return Err(k);
            }
        }
        fit_band(band, self.fast.as_ref()).map_err(|i| a + 1 + i)
    }
}

impl Track for BoneFit<'_> {
    type Curves = [Curve; 4];

    fn len(&self) -> usize {
        self.r.translation.len()
    }

    fn is_break(&self, i: usize) -> bool {
        self.breaks[i]
    }

    fn linear(&self) -> [Curve; 4] {
        [Curve::LINEAR; 4]
    }

    fn fit(&self, a: usize, b: usize) -> Result<[Curve; 4], usize> {
        let hint = self.hints.get(&(a, b));
        let check = |c: &[Curve; 4]| self.check(a, b, c);
        segment::fit_hinted((a, b), hint, [Curve::LINEAR; 4], check, |shrink| {
            let [x, y, z] = self.fit_translation(a, b, shrink)?;
            Ok([x, y, z, self.fit_rotation(a, b, shrink)?])
        })
    }

    fn violations(&self, plan: &[(usize, [Curve; 4])]) -> Vec<usize> {
        // The track the sampler would build of the plan's keys, built straight from them.
        let keys = plan.iter().map(|&(i, curves)| self.key(i, curves));
        let track = &BoneTrack::of_sorted(self.r.name, keys);
        let mut cursor = Cursor::default();
        let mut played = self.played.borrow_mut();
        *played = BoneSamples::with_capacity(self.r.name, self.r.first, self.len());
        (0..self.len())
            .filter(|&i| {
                let s = track.sample_with(&mut cursor, f64::from(self.r.first + i as u32));
                played.push(s);
                let pos = (s.translation.as_dvec3() - self.r.translation[i].as_dvec3()).length();
                pos > self.tol.position
                    || !surely_within(s.rotation, self.unit[i], self.tol.angle_degrees)
                        && angle_deg(s.rotation, self.unit[i]) > self.tol.angle_degrees
                    || s.physics.is_on() != self.r.physics[i].is_on()
            })
            .collect()
    }
}

/// Errors of the segment a..b played with linear weights, as the baseline measures them:
/// the worst (translation error, frame) and (rotation error in degrees, frame).
pub(crate) fn linear_errors(fit: &BoneFit<'_>, a: usize, b: usize) -> ((f64, usize), (f64, usize)) {
    let (ta, tb) = (fit.r.translation[a], fit.r.translation[b]);
    let (qa, qb) = (fit.unit[a], fit.unit[b]);
    let (mut pos, mut ang) = ((0.0, a), (0.0, a));
    for k in a + 1..b {
        let p = (k - a) as f64 / (b - a) as f64;
        let axis = |x: f32, y: f32| if x == y { x } else { lerp(x, y, p) };
        let t = Vec3::new(axis(ta.x, tb.x), axis(ta.y, tb.y), axis(ta.z, tb.z));
        let q = if qa == qb { qa } else { slerp(qa, qb, p as f32) };
        let e = (t.as_dvec3() - fit.r.translation[k].as_dvec3()).length();
        if e > pos.0 {
            pos = (e, k);
        }
        let e = angle_deg(q, fit.unit[k]);
        if e > ang.0 {
            ang = (e, k);
        }
    }
    (pos, ang)
}

impl BoneFit<'_> {
    /// The baseline's split rule: the frame of largest translation error if that is over
    /// tolerance, else of largest rotation error if that is, else none.
    pub fn linear_split(&self, a: usize, b: usize) -> Option<usize> {
        let (pos, ang) = linear_errors(self, a, b);
        if pos.0 > self.tol.position {
            Some(pos.1)
        } else if ang.0 > self.tol.angle_degrees {
            Some(ang.1)
        } else {
            None
        }
    }
}

/// A bone track sampled at `times`, as a reference whose frame i is `first + i`.
pub(crate) fn bone_reference_at(
    track: &BoneTrack,
    name: KeyName,
    first: u32,
    times: impl Iterator<Item = f64>,
) -> BoneSamples {
    let mut r = BoneSamples::with_capacity(name, first, times.size_hint().0);
    let mut cursor = Cursor::default();
    for t in times {
        r.push(track.sample_with(&mut cursor, t));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::MotionSampler;
    use crate::format::Motion;

    /// `surely_within` never says "within" for a larger angle, and says it for every angle a
    /// little below the bound: pairs at angles from 0.8 to 1.2 times the tolerance, turned
    /// about axes all round, on both hemispheres.
    #[test]
    fn surely_within_is_never_wrong_and_rarely_unsure() {
        for degrees in [0.5, 0.05, 3.0] {
            for i in 0..20_000 {
                let t = i as f32;
                let a = Quat::from_euler(glam::EulerRot::YXZ, t * 0.37, t * 0.61, t * 0.83);
                let axis = Vec3::new((t * 1.3).sin(), (t * 2.1).cos(), (t * 0.7).sin() + 0.1);
                let angle = degrees * (0.8 + 0.4 * (i % 1000) as f64 / 999.0);
                let b = Quat::from_axis_angle(axis.normalize(), angle.to_radians() as f32) * a;
                let b = if i % 2 == 0 { -b } else { b };
                let exact = angle_deg(a, b);
                if surely_within(a, b, degrees) {
                    assert!(exact <= degrees, "{exact} > {degrees}");
                } else {
                    assert!(exact > 0.99 * degrees, "{exact} unsure at {degrees}");
                }
            }
        }
    }

    /// What `reduce_bone_samples` says its keys play is what the sampler plays of them, frame
    /// by frame: for a smooth track that thins, and for one too rough to (a key at every frame).
    #[test]
    fn reduced_samples_play_as_their_keys() {
        let name = KeyName::encode("腕").0;
        for rough in [false, true] {
            let n = 300;
            // Rough: every other frame off to one side, so that no two frames share a segment.
            let wobble = |i: usize| if rough { (i % 2) as f32 * 0.3 } else { 0.0 };
            let r = BoneSamples {
                name,
                first: 0,
                translation: (0..n)
                    .map(|i| Vec3::new((i as f32 * 0.05).sin(), wobble(i), 0.01 * i as f32))
                    .collect(),
                rotation: (0..n)
                    .map(|i| {
                        let t = i as f32 * 0.02 + wobble(i);
                        normalized_rotation(Quat::from_euler(glam::EulerRot::YXZ, t, 0.5 * t, 0.1))
                    })
                    .collect(),
                physics: vec![PhysicsToggle::On; n],
            };
            let options = super::super::ReduceOptions::default();
            // After a key already there: each track's keys are appended.
            let mut keys = vec![BoneKey::new(name, 999)];
            let played = super::super::reduce_bone_samples(&r, &options, &mut keys);
            assert_eq!(keys.remove(0).frame, 999);
            assert_eq!(keys.len() == n, rough, "{} keys", keys.len());
            let mut motion = Motion::new(Default::default());
            motion.bones = keys;
            let sampler = MotionSampler::new(&motion);
            let track = &sampler.bone_tracks()[0];
            assert_eq!(played.translation.len(), n);
            for i in 0..n {
                let s = track.sample(i as f64);
                let p = (played.translation[i], played.rotation[i], played.physics[i]);
                assert_eq!((s.translation, s.rotation, s.physics), p, "rough {rough}, frame {i}");
            }
        }
    }
}
