//! Baking: a motion resampled to a key at every 1/N second.
//!
//! **Frame numbers count at the new rate.** A VMD has no frame-rate field and MMD plays every
//! file at 30 fps, so "N fps" can only be carried by the frame numbers: output frame k is the
//! source at time k/N seconds, i.e. source frame k·30/N. This is what 60 fps exporters do; a
//! 60 fps bake played by MMD runs at half speed, and a player must be told the rate. (At N = 30
//! the output is an ordinary MMD motion.) The rate itself is stored nowhere in a VMD, so the
//! caller must pass it on.
//!
//! **Keys.** Each track gets a key at every output frame from floor(first·N/30) to
//! ceil(last·N/30), where first and last are its first and last source key frames, so the baked
//! track spans the source's range and holds the same end values outside it. Bone, camera and
//! morph keys get linear curves; bone keys keep the physics toggle in force at their time.
//! Values are exact at every output frame; between them the output blends linearly, except:
//!
//! * **Camera**: dense keys are one frame apart, so every output segment is a cut (§6.6) and
//!   each key holds until the next. A cut in the source, at any rate, therefore lands between
//!   two adjacent output keys and stays a cut: the output jumps at the first output frame at or
//!   after the source's cut. The view angle is stored in whole degrees, so between source keys
//!   it is rounded.
//! * **Property keys** (visibility, IK on/off) are steps, so they are written only where the
//!   source has a key: at the first output frame at or after it, listing every IK name.
//! * Duplicate keys are resolved as [`MotionSampler`] does (the last in file order wins).

use super::sampler::MotionSampler;
use super::track::Cursor;
use crate::curve::Curve;
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, Header, IkState, LightKey,
    MorphKey, Motion, PropertyKey, ShadowKey,
};
use crate::math::FPS;

/// Why a motion cannot be baked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BakeError {
    #[error("the frame rate must be a positive finite number, not {0}")]
    BadFrameRate(f64),
    #[error("frame {frame} at {fps} fps is beyond the largest VMD frame number")]
    TooLong { frame: u32, fps: f64 },
}

/// Bakes `motion` to `fps` keys per second (see the module documentation).
pub fn bake(motion: &Motion, fps: f64) -> Result<Motion, BakeError> {
    bake_sampler(&MotionSampler::new(motion), motion.header, fps)
}

/// Bakes an already built sampler; the output gets `header`.
pub fn bake_sampler(
    sampler: &MotionSampler,
    header: Header,
    fps: f64,
) -> Result<Motion, BakeError> {
    let rate = Rate::new(fps)?;
    if let Some(last) = sampler.last_frame() {
        rate.output_range(last, last)?;
    }
    let mut out = Motion::new(header.model_name);
    out.header = header;

    for track in sampler.bone_tracks() {
        let mut cursor = Cursor::default();
        for k in rate.track_range(track.frames())? {
            let s = track.sample_with(&mut cursor, rate.source_time(k));
            out.bones.push(BoneKey {
                name: *track.name(),
                frame: k,
                translation: s.translation,
                rotation: s.rotation,
                interpolation: BoneInterpolation::canonical([Curve::LINEAR; 4], s.physics),
            });
        }
    }
    for track in sampler.morph_tracks() {
        let mut cursor = Cursor::default();
        for k in rate.track_range(track.frames())? {
            let weight = track.sample_with(&mut cursor, rate.source_time(k));
            out.morphs.push(MorphKey { name: *track.name(), frame: k, weight });
        }
    }
    if let Some(track) = sampler.camera_track() {
        let mut cursor = Cursor::default();
        for k in rate.track_range(track.frames())? {
            let s = track.sample_with(&mut cursor, rate.source_time(k));
            out.cameras.push(CameraKey {
                frame: k,
                distance: s.distance,
                target: s.target,
                rotation: s.rotation,
                interpolation: CameraInterpolation::DEFAULT,
                // Saturating: a negative angle, only in damaged files, becomes 0.
                view_angle: s.fov.round() as u32,
                perspective_byte: u8::from(!s.perspective),
            });
        }
    }
    if let Some(track) = sampler.light_track() {
        let mut cursor = Cursor::default();
        for k in rate.track_range(track.frames())? {
            let s = track.sample_with(&mut cursor, rate.source_time(k));
            out.lights.push(LightKey { frame: k, color: s.color, direction: s.direction });
        }
    }
    if let Some(track) = sampler.shadow_track() {
        let mut cursor = Cursor::default();
        for k in rate.track_range(track.frames())? {
            let s = track.sample_with(&mut cursor, rate.source_time(k));
            out.shadows.push(ShadowKey { frame: k, mode: s.mode, distance: s.distance });
        }
    }
    if let Some(visible) = sampler.visibility_track() {
        // Source key frames where any property changes: the visibility keys and every IK key.
        let mut changes: Vec<u32> = visible.frames().to_vec();
        for ik in sampler.ik_tracks() {
            changes.extend_from_slice(ik.track().frames());
        }
        // The first output frame at or after each change.
        let mut keys: Vec<u32> = changes
            .iter()
            .map(|&f| rate.output_range(f, f).map(|r| r.1))
            .collect::<Result<_, _>>()?;
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            let t = rate.source_time(k);
            out.properties.push(PropertyKey {
                frame: k,
                visible_byte: u8::from(visible.sample(t)),
                ik: sampler
                    .ik_tracks()
                    .iter()
                    .map(|ik| IkState { name: *ik.name(), enabled_byte: u8::from(ik.sample(t)) })
                    .collect(),
            });
        }
    }
    Ok(out)
}

/// Output frame numbering at `fps`.
#[derive(Clone, Copy)]
struct Rate {
    fps: f64,
}

impl Rate {
    fn new(fps: f64) -> Result<Self, BakeError> {
        if fps.is_finite() && fps > 0.0 {
            Ok(Rate { fps })
        } else {
            Err(BakeError::BadFrameRate(fps))
        }
    }

    /// Source frame (30 fps) of output frame `k`. For integer rates such as 60 or 24 this is
    /// exact whenever the true value is a whole frame.
    fn source_time(self, k: u32) -> f64 {
        f64::from(k) * FPS / self.fps
    }

    /// Output frames from the last one at or before source frame `first` to the first one at or
    /// after `last`.
    fn output_range(self, first: u32, last: u32) -> Result<(u32, u32), BakeError> {
        let at = |f: u32| f64::from(f) * self.fps / FPS;
        let (lo, hi) = (at(first).floor(), at(last).ceil());
        if hi > f64::from(u32::MAX) {
            return Err(BakeError::TooLong { frame: last, fps: self.fps });
        }
        Ok((lo as u32, hi as u32))
    }

    fn track_range(self, frames: &[u32]) -> Result<std::ops::RangeInclusive<u32>, BakeError> {
        let (lo, hi) = self.output_range(frames[0], frames[frames.len() - 1])?;
        Ok(lo..=hi)
    }
}
