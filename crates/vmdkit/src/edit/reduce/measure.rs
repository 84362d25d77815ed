//! How far one motion is from another, measured by playing both with the library's sampler at
//! every integer frame. Used by [`reduce`](super::reduce()) for its report, by
//! [`retime`](crate::edit::retime()) and by the tests, so no bound is ever taken on the fitter's word.

use super::bone::angle_deg;
use crate::eval::{BoneSample, CameraSample, MotionSampler};
use crate::format::Motion;

/// The largest differences found, per measure (see [`reduce`](super::reduce) for the units).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeasuredErrors {
    /// Bone translation, Euclidean, in model units.
    pub position: f64,
    /// Bone rotation angle, degrees.
    pub angle_degrees: f64,
    /// Morph weight.
    pub morph: f64,
    /// Camera target (Euclidean) and distance.
    pub camera_position: f64,
    /// Camera Euler angles (each) and view angle, degrees.
    pub camera_angle_degrees: f64,
    /// Integer frames compared (0 through the last key of either motion).
    pub frames: u32,
}

impl MeasuredErrors {
    /// Whether every measure is within `tol` (camera measures against the same tolerances).
    pub fn within(&self, tol: &super::Tolerance) -> bool {
        self.position <= tol.position
            && self.angle_degrees <= tol.angle_degrees
            && self.morph <= tol.morph
            && self.camera_position <= tol.position
            && self.camera_angle_degrees <= tol.angle_degrees
    }
}

/// Compares `candidate` at every integer frame g in 0..=`last` with `reference` at
/// `reference_time(g)` (g itself for reductions; g / factor for retiming). Tracks are matched
/// by name; a track of the reference missing from the candidate counts as the rest pose (or
/// weight 0, or MMD's default camera), as a player would show it.
pub fn measure_with(
    reference: &Motion,
    candidate: &Motion,
    last: u32,
    reference_time: impl Fn(u32) -> f64,
) -> MeasuredErrors {
    let (a, b) = (MotionSampler::new(reference), MotionSampler::new(candidate));
    let mut e = MeasuredErrors { frames: last + 1, ..MeasuredErrors::default() };
    for track in a.bone_tracks() {
        let other = b.bone_track(track.name().bytes());
        for f in 0..=last {
            let x = track.sample(reference_time(f));
            let y = other.map_or(BoneSample::default(), |t| t.sample(f));
            e.position =
                e.position.max((x.translation.as_dvec3() - y.translation.as_dvec3()).length());
            e.angle_degrees = e.angle_degrees.max(angle_deg(x.rotation, y.rotation));
        }
    }
    for track in a.morph_tracks() {
        let other = b.morph_track(track.name().bytes());
        for f in 0..=last {
            let y = other.map_or(0.0, |t| t.sample(f));
            e.morph = e.morph.max(f64::from((track.sample(reference_time(f)) - y).abs()));
        }
    }
    if let Some(track) = a.camera_track() {
        for f in 0..=last {
            let x = track.sample(reference_time(f));
            let y = b.camera_track().map_or(CameraSample::MMD_DEFAULT, |t| t.sample(f));
            let pos = (x.target.as_dvec3() - y.target.as_dvec3())
                .length()
                .max(f64::from((x.distance - y.distance).abs()));
            let rot =
                (x.rotation.as_dvec3() - y.rotation.as_dvec3()).abs().max_element().to_degrees();
            e.camera_position = e.camera_position.max(pos);
            e.camera_angle_degrees =
                e.camera_angle_degrees.max(rot).max(f64::from((x.fov - y.fov).abs()));
        }
    }
    e
}

/// [`measure_with`] at equal frames, through the last key of either motion.
pub fn measure(reference: &Motion, candidate: &Motion) -> MeasuredErrors {
    measure_with(reference, candidate, last_frame(reference).max(last_frame(candidate)), f64::from)
}

/// The largest key frame of any section (0 for an empty motion).
pub(crate) fn last_frame(m: &Motion) -> u32 {
    m.frame_range().map_or(0, |(_, last)| last)
}
