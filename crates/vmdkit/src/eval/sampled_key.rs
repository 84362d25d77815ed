//! Keys made from a track's value at a time: what a bake writes at every output frame and a
//! trim or an append writes at a cut.

use super::{BoneTrack, CameraTrack, Cursor, LightTrack, MorphTrack, MotionSampler, ShadowTrack};
use crate::curve::Curve;
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, Keyframe, LightKey,
    MorphKey, PropertyKey, ShadowKey,
};

/// A property key at `frame` holding every state in force at source time `t`.
pub(crate) fn property_key(sampler: &MotionSampler, frame: u32, t: f64) -> PropertyKey {
    let visible = sampler.visibility_track().is_some_and(|v| v.sample(t));
    PropertyKey {
        frame,
        visible_byte: u8::from(visible),
        ik: sampler
            .ik_tracks()
            .iter()
            .map(|ik| IkState { name: *ik.name(), enabled_byte: u8::from(ik.sample(t)) })
            .collect(),
    }
}

/// A key type that can be made from its track's value at a time: what a bake writes at every
/// output frame and a trim at a cut.
pub(crate) trait SampledKey: Keyframe {
    /// The sampler's track type for this section.
    type Track;

    /// The sampler's tracks of this section, in [`MotionSampler::source_keys`] order.
    fn tracks(sampler: &MotionSampler) -> &[Self::Track];

    /// A track's key frames.
    fn frames(track: &Self::Track) -> &[u32];

    /// A key at `frame` holding the track's value at source time `t`, with linear curves.
    fn sampled(track: &Self::Track, cursor: &mut Cursor, t: f64, frame: u32) -> Self;
}

/// The one track of an unnamed section, as a slice of zero or one.
fn single<T>(track: Option<&T>) -> &[T] {
    track.map_or(&[], std::slice::from_ref)
}

impl SampledKey for BoneKey {
    type Track = BoneTrack;
    fn tracks(sampler: &MotionSampler) -> &[BoneTrack] {
        sampler.bone_tracks()
    }
    fn frames(track: &BoneTrack) -> &[u32] {
        track.frames()
    }
    fn sampled(track: &BoneTrack, cursor: &mut Cursor, t: f64, frame: u32) -> Self {
        let s = track.sample_with(cursor, t);
        BoneKey {
            name: *track.name(),
            frame,
            translation: s.translation,
            rotation: s.rotation,
            interpolation: BoneInterpolation::canonical([Curve::LINEAR; 4], s.physics),
        }
    }
}

impl SampledKey for MorphKey {
    type Track = MorphTrack;
    fn tracks(sampler: &MotionSampler) -> &[MorphTrack] {
        sampler.morph_tracks()
    }
    fn frames(track: &MorphTrack) -> &[u32] {
        track.frames()
    }
    fn sampled(track: &MorphTrack, cursor: &mut Cursor, t: f64, frame: u32) -> Self {
        MorphKey { name: *track.name(), frame, weight: track.sample_with(cursor, t) }
    }
}

impl SampledKey for CameraKey {
    type Track = CameraTrack;
    fn tracks(sampler: &MotionSampler) -> &[CameraTrack] {
        single(sampler.camera_track())
    }
    fn frames(track: &CameraTrack) -> &[u32] {
        track.frames()
    }
    fn sampled(track: &CameraTrack, cursor: &mut Cursor, t: f64, frame: u32) -> Self {
        let s = track.sample_with(cursor, t);
        CameraKey {
            frame,
            distance: s.distance,
            target: s.target,
            rotation: s.rotation,
            interpolation: CameraInterpolation::DEFAULT,
            // Whole degrees in the file, saturating: a negative angle, only in damaged files,
            // becomes 0.
            view_angle: s.fov.round() as u32,
            perspective_byte: u8::from(!s.perspective),
        }
    }
}

impl SampledKey for LightKey {
    type Track = LightTrack;
    fn tracks(sampler: &MotionSampler) -> &[LightTrack] {
        single(sampler.light_track())
    }
    fn frames(track: &LightTrack) -> &[u32] {
        track.frames()
    }
    fn sampled(track: &LightTrack, cursor: &mut Cursor, t: f64, frame: u32) -> Self {
        let s = track.sample_with(cursor, t);
        LightKey { frame, color: s.color, direction: s.direction }
    }
}

impl SampledKey for ShadowKey {
    type Track = ShadowTrack;
    fn tracks(sampler: &MotionSampler) -> &[ShadowTrack] {
        single(sampler.shadow_track())
    }
    fn frames(track: &ShadowTrack) -> &[u32] {
        track.frames()
    }
    fn sampled(track: &ShadowTrack, cursor: &mut Cursor, t: f64, frame: u32) -> Self {
        let s = track.sample_with(cursor, t);
        ShadowKey { frame, mode: s.mode, distance: s.distance }
    }
}
