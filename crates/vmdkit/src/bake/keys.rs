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
//!
//! **Size.** A bake's size follows its frame span, not the source's size: one key at frame
//! 4,000,000,000 in a track that also has a key at frame 0 asks for four billion keys. So the
//! output's keys and bytes are counted from each track's range first ([`bake_size`]), and a
//! bake above the limit ([`DEFAULT_MAX_OUTPUT_BYTES`] unless given) fails with
//! [`BakeError::TooLarge`] before anything is sampled or allocated.

use super::BakeError;
use crate::eval::{property_key, Cursor, MotionSampler, SampledKey};
use crate::format::{
    BoneKey, CameraKey, Header, LightKey, MorphKey, Motion, PropertyKey, Section, ShadowKey,
};
use crate::limit::{DenseOutput, DenseSize, DEFAULT_MAX_OUTPUT_BYTES};
use crate::math::FPS;

/// Bakes `motion` to `fps` keys per second (see the module documentation), refusing outputs
/// above [`DEFAULT_MAX_OUTPUT_BYTES`].
pub fn bake(motion: &Motion, fps: f64) -> Result<Motion, BakeError> {
    bake_sampler(&MotionSampler::new(motion), motion.header, fps, DEFAULT_MAX_OUTPUT_BYTES)
}

/// Bakes an already built sampler; the output gets `header`. Fails with
/// [`BakeError::TooLarge`] when [`bake_size`] is above `max_output_bytes`.
pub fn bake_sampler(
    sampler: &MotionSampler,
    header: Header,
    fps: f64,
    max_output_bytes: u64,
) -> Result<Motion, BakeError> {
    let rate = Rate::new(fps)?;
    let keys = section_keys(sampler, rate)?;
    size(sampler, rate, &keys).within(max_output_bytes)?;
    // After the size check, which refuses these first under any limit below ~100 GB.
    for (&n, section) in keys.iter().zip(Section::ALL) {
        if n > u64::from(u32::MAX) {
            return Err(BakeError::TooManyKeys { section, keys: n, fps });
        }
    }
    let mut out = Motion::new(header.model_name);
    out.header = header;
    bake_section::<BoneKey>(sampler, rate, keys[0], &mut out)?;
    bake_section::<MorphKey>(sampler, rate, keys[1], &mut out)?;
    bake_section::<CameraKey>(sampler, rate, keys[2], &mut out)?;
    bake_section::<LightKey>(sampler, rate, keys[3], &mut out)?;
    bake_section::<ShadowKey>(sampler, rate, keys[4], &mut out)?;
    out.properties = bake_properties(sampler, rate)?;
    Ok(out)
}

/// The keys and bytes a bake at `fps` would write, counted from the tracks' ranges without
/// sampling. Bytes are VMD records of the bone, morph, camera, light and self-shadow keys;
/// property keys are left out, as a bake writes no more of them than the source has.
pub fn bake_size(sampler: &MotionSampler, fps: f64) -> Result<DenseSize, BakeError> {
    let rate = Rate::new(fps)?;
    Ok(size(sampler, rate, &section_keys(sampler, rate)?))
}

/// Output keys of the bone, morph, camera, light and self-shadow sections.
fn section_keys(sampler: &MotionSampler, rate: Rate) -> Result<[u64; 5], BakeError> {
    if let Some(last) = sampler.last_frame() {
        rate.output_range(last, last)?;
    }
    Ok([
        track_keys::<BoneKey>(sampler, rate)?,
        track_keys::<MorphKey>(sampler, rate)?,
        track_keys::<CameraKey>(sampler, rate)?,
        track_keys::<LightKey>(sampler, rate)?,
        track_keys::<ShadowKey>(sampler, rate)?,
    ])
}

fn track_keys<K: SampledKey>(sampler: &MotionSampler, rate: Rate) -> Result<u64, BakeError> {
    K::tracks(sampler).iter().try_fold(0u64, |sum, track| {
        let range = rate.track_range(K::frames(track))?;
        Ok(sum.saturating_add(u64::from(range.end() - range.start()) + 1))
    })
}

/// The size of a bake with `keys` per section (in [`Section::ALL`] order).
fn size(sampler: &MotionSampler, rate: Rate, keys: &[u64; 5]) -> DenseSize {
    let bytes = keys.iter().zip(Section::ALL).fold(0u64, |sum, (&n, section)| {
        let record = section.record_size().unwrap_or(0) as u64;
        sum.saturating_add(n.saturating_mul(record))
    });
    let (first, last) = sampled_range(sampler).unwrap_or((0, 0));
    // The range was checked against u32::MAX by `section_keys`.
    let (lo, hi) = rate.output_range(first, last).unwrap_or((0, 0));
    let frames = if keys.iter().all(|&n| n == 0) { 0 } else { u64::from(hi - lo) + 1 };
    DenseSize {
        output: DenseOutput::Keys,
        first,
        last,
        fps: rate.fps,
        frames,
        count: keys.iter().fold(0u64, |sum, &n| sum.saturating_add(n)),
        bytes,
    }
}

/// The first and last key frame over the sampled (non-property) tracks.
fn sampled_range(sampler: &MotionSampler) -> Option<(u32, u32)> {
    fn extend<K: SampledKey>(sampler: &MotionSampler, range: &mut Option<(u32, u32)>) {
        for track in K::tracks(sampler) {
            let frames = K::frames(track);
            let (a, b) = (frames[0], frames[frames.len() - 1]);
            *range = Some(range.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
        }
    }
    let mut range = None;
    extend::<BoneKey>(sampler, &mut range);
    extend::<MorphKey>(sampler, &mut range);
    extend::<CameraKey>(sampler, &mut range);
    extend::<LightKey>(sampler, &mut range);
    extend::<ShadowKey>(sampler, &mut range);
    range
}

/// A key at every output frame of every track of one section, `count` in all.
fn bake_section<K: SampledKey>(
    sampler: &MotionSampler,
    rate: Rate,
    count: u64,
    out: &mut Motion,
) -> Result<(), BakeError> {
    let keys = K::section_mut(out);
    // Exact, so that a bake near the limit does not briefly need twice its size to grow.
    keys.reserve_exact(usize::try_from(count).unwrap_or(0));
    for track in K::tracks(sampler) {
        let mut cursor = Cursor::default();
        for k in rate.track_range(K::frames(track))? {
            keys.push(K::sampled(track, &mut cursor, rate.source_time(k), k));
        }
    }
    Ok(())
}

/// Property keys where the source has one (they are steps), each listing every IK name.
fn bake_properties(sampler: &MotionSampler, rate: Rate) -> Result<Vec<PropertyKey>, BakeError> {
    let Some(visible) = sampler.visibility_track() else {
        return Ok(Vec::new());
    };
    // Source key frames where any property changes: the visibility keys and every IK key.
    let mut changes: Vec<u32> = visible.frames().to_vec();
    for ik in sampler.ik_tracks() {
        changes.extend_from_slice(ik.track().frames());
    }
    // The first output frame at or after each change.
    let mut keys: Vec<u32> =
        changes.iter().map(|&f| rate.output_range(f, f).map(|r| r.1)).collect::<Result<_, _>>()?;
    keys.sort_unstable();
    keys.dedup();
    Ok(keys.into_iter().map(|k| property_key(sampler, k, rate.source_time(k))).collect())
}

/// Output frame numbering at `fps`.
#[derive(Clone, Copy)]
pub(crate) struct Rate {
    pub(crate) fps: f64,
}

impl Rate {
    pub(crate) fn new(fps: f64) -> Result<Self, BakeError> {
        if fps.is_finite() && fps > 0.0 {
            Ok(Rate { fps })
        } else {
            Err(BakeError::BadFrameRate(fps))
        }
    }

    /// Source frame (30 fps) of output frame `k`. For integer rates such as 60 or 24 this is
    /// exact whenever the true value is a whole frame.
    pub(crate) fn source_time(self, k: u32) -> f64 {
        f64::from(k) * FPS / self.fps
    }

    /// Output frames from the last one at or before source frame `first` to the first one at or
    /// after `last`.
    pub(crate) fn output_range(self, first: u32, last: u32) -> Result<(u32, u32), BakeError> {
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
