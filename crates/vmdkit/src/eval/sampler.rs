//! [`MotionSampler`]: every track of a motion, built once, sampled at any time into buffers the
//! caller owns.
//!
//! ```
//! use vmdkit::eval::{BoneSample, MotionSampler};
//!
//! let motion = vmdkit::example::example_motion();
//! let sampler = MotionSampler::new(&motion);
//!
//! // All bones at frame 7.5, in `bone_names()` order, without allocating.
//! let mut bones = vec![BoneSample::default(); sampler.bone_count()];
//! sampler.sample_bones(7.5, &mut bones);
//!
//! // Playback: a playhead keeps each track's segment, so increasing times never search.
//! let mut playhead = sampler.playhead();
//! let mut frame = sampler.new_sample();
//! for k in 0..=120 {
//!     sampler.sample_into(&mut playhead, k as f64 * 0.5, &mut frame);
//! }
//!
//! // One track.
//! let center = vmdkit::KeyName::encode("センター").0;
//! let track = sampler.bone_track(center.bytes()).unwrap();
//! assert_eq!(track.sample(15.0).translation.y, -0.25);
//! ```

use super::bone::{BoneSample, BoneTrack};
use super::camera::{CameraSample, CameraTrack};
use super::light::{IkTrack, LightSample, LightTrack, ShadowSample, ShadowTrack};
use super::morph::MorphTrack;
use super::track::{
    group_keys, group_section, Cursor, Duplicate, Group, StepTrack, WeightCache, SHARED_WEIGHTS,
};
use crate::format::{Keyframe, Motion, Section};
use std::collections::HashMap;

/// Every track of a motion, ready to sample. Immutable once built, so one sampler can serve many
/// threads, each with its own [`Playhead`].
#[derive(Clone, Debug)]
pub struct MotionSampler {
    bones: Vec<BoneTrack>,
    bone_index: HashMap<Box<[u8]>, usize>,
    morphs: Vec<MorphTrack>,
    morph_index: HashMap<Box<[u8]>, usize>,
    camera: Option<CameraTrack>,
    light: Option<LightTrack>,
    shadow: Option<ShadowTrack>,
    visible: Option<StepTrack<bool>>,
    ik: Vec<IkTrack>,
    duplicates: Vec<Duplicate>,
    /// Per section (in [`Section::ALL`] order), each track's key indices.
    sources: [Vec<Vec<usize>>; 6],
    last_frame: Option<u32>,
}

/// Per-track cursors for sequential sampling with one [`MotionSampler`]. Made by
/// [`MotionSampler::playhead`]; cheap to reset by making a new one. A playhead used with another
/// sampler gives correct results, only slower.
#[derive(Clone, Debug, Default)]
pub struct Playhead {
    bones: Vec<Cursor>,
    morphs: Vec<Cursor>,
    camera: Cursor,
    light: Cursor,
    shadow: Cursor,
    visible: Cursor,
    ik: Vec<Cursor>,
}

/// Everything a motion says at one time. Made by [`MotionSampler::new_sample`] with the right
/// sizes, then filled by [`MotionSampler::sample_into`] without allocating.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MotionSample {
    /// In [`MotionSampler::bone_names`] order.
    pub bones: Vec<BoneSample>,
    /// In [`MotionSampler::morph_names`] order.
    pub morphs: Vec<f32>,
    /// `None` when the motion has no camera keys (see [`CameraSample::MMD_DEFAULT`]).
    pub camera: Option<CameraSample>,
    /// `None` when the motion has no light keys (see [`LightSample::MMD_DEFAULT`]).
    pub light: Option<LightSample>,
    /// The self-shadow mode and distance; `None` when the motion has no self-shadow keys.
    pub shadow: Option<ShadowSample>,
    /// The model's visibility; `None` without property keys.
    pub visible: Option<bool>,
    /// In [`MotionSampler::ik_tracks`] order.
    pub ik: Vec<bool>,
}

/// Groups one section, builds a track per group and keeps each group's key indices in
/// `sources`.
fn tracks_of<'a, K: Keyframe, T>(
    keys: &'a [K],
    duplicates: &mut Vec<Duplicate>,
    sources: &mut [Vec<Vec<usize>>; 6],
    build: impl Fn(&Group<'a>) -> T,
) -> Vec<T> {
    let groups = group_section(keys, duplicates);
    let tracks = groups.iter().map(build).collect();
    sources[K::SECTION as usize] = groups.into_iter().map(|g| g.keys).collect();
    tracks
}

fn name_index<'a>(names: impl Iterator<Item = &'a [u8]>) -> HashMap<Box<[u8]>, usize> {
    names.enumerate().map(|(i, n)| (Box::from(n), i)).collect()
}

impl MotionSampler {
    /// Builds every track of `motion`: grouped by raw name, sorted by frame, duplicates resolved
    /// (last in file order wins) and listed in [`MotionSampler::duplicates`].
    pub fn new(motion: &Motion) -> Self {
        let mut duplicates = Vec::new();
        let mut sources: [Vec<Vec<usize>>; 6] = Default::default();
        let bones = tracks_of(&motion.bones, &mut duplicates, &mut sources, |g| {
            BoneTrack::new(motion.bones[g.first].name, &motion.bones, &g.keys)
        });
        let morphs = tracks_of(&motion.morphs, &mut duplicates, &mut sources, |g| {
            MorphTrack::new(motion.morphs[g.first].name, &motion.morphs, &g.keys)
        });
        // Unnamed sections: one track (or none when the section is empty).
        let camera = tracks_of(&motion.cameras, &mut duplicates, &mut sources, |g| {
            CameraTrack::new(&motion.cameras, &g.keys)
        })
        .pop();
        let light = tracks_of(&motion.lights, &mut duplicates, &mut sources, |g| {
            LightTrack::new(&motion.lights, &g.keys)
        })
        .pop();
        let shadow = tracks_of(&motion.shadows, &mut duplicates, &mut sources, |g| {
            ShadowTrack::new(&motion.shadows, &g.keys)
        })
        .pop();
        let props = &motion.properties;
        let visible = tracks_of(props, &mut duplicates, &mut sources, |g| {
            StepTrack::new(
                g.keys.iter().map(|&k| props[k].frame).collect(),
                g.keys.iter().map(|&k| props[k].is_visible()).collect(),
            )
        })
        .pop();
        let ik = Self::ik_tracks_of(motion, &mut duplicates);

        let last_frame = bones
            .iter()
            .map(|t| t.frames())
            .chain(morphs.iter().map(|t| t.frames()))
            .chain(camera.as_ref().map(|t| t.frames()))
            .chain(light.as_ref().map(|t| t.frames()))
            .chain(shadow.as_ref().map(|t| t.frames()))
            .chain(visible.as_ref().map(|t| t.frames()))
            .filter_map(|f| f.last().copied())
            .max();
        MotionSampler {
            bone_index: name_index(bones.iter().map(|t| t.name().bytes())),
            bones,
            morph_index: name_index(morphs.iter().map(|t| t.name().bytes())),
            morphs,
            camera,
            light,
            shadow,
            visible,
            ik,
            duplicates,
            sources,
            last_frame,
        }
    }

    /// This sampler (of a motion without bone keys) with `tracks` as its bone tracks, which
    /// have no keys in any motion: [`MotionSampler::source_keys`] lists none for them, so it
    /// is for playing, not for editing a motion.
    pub(crate) fn with_bone_tracks(mut self, tracks: Vec<BoneTrack>) -> Self {
        debug_assert!(self.bones.is_empty(), "the bone tracks would be replaced");
        let last = tracks.iter().filter_map(|t| t.frames().last().copied()).max();
        self.last_frame = self.last_frame.max(last);
        self.bone_index = name_index(tracks.iter().map(|t| t.name().bytes()));
        self.sources[Section::Bone as usize] = vec![Vec::new(); tracks.len()];
        self.bones = tracks;
        self
    }

    /// One step track per IK name, from every (property key, IK entry) pair.
    fn ik_tracks_of(motion: &Motion, duplicates: &mut Vec<Duplicate>) -> Vec<IkTrack> {
        // Flatten to (key index, entry) so that duplicates report property key indices.
        let entries: Vec<(usize, &crate::format::IkState)> = motion
            .properties
            .iter()
            .enumerate()
            .flat_map(|(k, p)| p.ik.iter().map(move |e| (k, e)))
            .collect();
        let frame = |e: usize| motion.properties[entries[e].0].frame;
        let mut dups = Vec::new();
        let groups = group_keys(
            Section::Property,
            entries.len(),
            |e| entries[e].1.name.bytes(),
            frame,
            &mut dups,
        );
        duplicates.extend(dups.into_iter().map(|d| Duplicate {
            dropped: entries[d.dropped].0,
            kept: entries[d.kept].0,
            ..d
        }));
        groups
            .iter()
            .map(|g| IkTrack {
                name: entries[g.first].1.name,
                track: StepTrack::new(
                    g.keys.iter().map(|&e| frame(e)).collect(),
                    g.keys.iter().map(|&e| entries[e].1.is_enabled()).collect(),
                ),
            })
            .collect()
    }

    /// The keys each track of `section` was built from, as indices into that section of the
    /// motion: sorted by frame, one per frame (the key kept of duplicates). Named sections list
    /// their tracks in [`MotionSampler::bone_tracks`] / [`MotionSampler::morph_tracks`] order;
    /// the others have one track, or none when empty. For [`Section::Property`] this is the
    /// visibility track's keys. Edits walk these instead of grouping the keys again.
    pub fn source_keys(&self, section: Section) -> &[Vec<usize>] {
        &self.sources[section as usize]
    }

    /// Keys dropped because another key of the same name had the same frame.
    pub fn duplicates(&self) -> &[Duplicate] {
        &self.duplicates
    }

    /// The last key frame over all tracks, or `None` for an empty motion.
    pub fn last_frame(&self) -> Option<u32> {
        self.last_frame
    }

    /// The number of bone tracks: distinct bone names in the motion.
    pub fn bone_count(&self) -> usize {
        self.bones.len()
    }

    /// The number of morph tracks: distinct morph names in the motion.
    pub fn morph_count(&self) -> usize {
        self.morphs.len()
    }

    /// Bone names as raw bytes up to the NUL, in the order of [`MotionSampler::sample_bones`]
    /// (the order in which they first appear in the file).
    pub fn bone_names(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.bones.iter().map(|t| t.name().bytes())
    }

    /// Morph names as raw bytes up to the NUL, in the order of [`MotionSampler::sample_morphs`].
    pub fn morph_names(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.morphs.iter().map(|t| t.name().bytes())
    }

    /// Every bone track, in [`MotionSampler::bone_names`] order.
    pub fn bone_tracks(&self) -> &[BoneTrack] {
        &self.bones
    }

    /// Every morph track, in [`MotionSampler::morph_names`] order.
    pub fn morph_tracks(&self) -> &[MorphTrack] {
        &self.morphs
    }

    /// The track of the bone whose name is `name` (raw bytes up to the NUL, e.g.
    /// `KeyName::encode("センター").0.bytes()`).
    pub fn bone_track(&self, name: &[u8]) -> Option<&BoneTrack> {
        self.bone_index.get(name).map(|&i| &self.bones[i])
    }

    /// The track of the morph named `name` (raw bytes up to the NUL).
    pub fn morph_track(&self, name: &[u8]) -> Option<&MorphTrack> {
        self.morph_index.get(name).map(|&i| &self.morphs[i])
    }

    /// The camera keys as one track; `None` when the motion has no camera keys.
    pub fn camera_track(&self) -> Option<&CameraTrack> {
        self.camera.as_ref()
    }

    /// The light keys as one track; `None` when the motion has no light keys.
    pub fn light_track(&self) -> Option<&LightTrack> {
        self.light.as_ref()
    }

    /// The self-shadow keys as one track; `None` when the motion has none.
    pub fn shadow_track(&self) -> Option<&ShadowTrack> {
        self.shadow.as_ref()
    }

    /// The model's visibility keys.
    pub fn visibility_track(&self) -> Option<&StepTrack<bool>> {
        self.visible.as_ref()
    }

    /// One track per IK bone named in the property keys, in first-appearance order.
    pub fn ik_tracks(&self) -> &[IkTrack] {
        &self.ik
    }

    /// The IK track for `name` (raw bytes up to the NUL).
    pub fn ik_track(&self, name: &[u8]) -> Option<&IkTrack> {
        self.ik.iter().find(|t| t.name.bytes() == name)
    }

    /// A playhead for this sampler, at the start.
    pub fn playhead(&self) -> Playhead {
        Playhead {
            bones: vec![Cursor::default(); self.bones.len()],
            morphs: vec![Cursor::default(); self.morphs.len()],
            ik: vec![Cursor::default(); self.ik.len()],
            ..Playhead::default()
        }
    }

    /// A [`MotionSample`] with buffers of the right sizes.
    pub fn new_sample(&self) -> MotionSample {
        MotionSample {
            bones: vec![BoneSample::default(); self.bones.len()],
            morphs: vec![0.0; self.morphs.len()],
            ik: vec![true; self.ik.len()],
            ..MotionSample::default()
        }
    }

    /// Every bone at frame `t` into `out`, in [`MotionSampler::bone_names`] order, each track's
    /// segment found through its index.
    ///
    /// # Panics
    /// If `out.len()` differs from [`MotionSampler::bone_count`].
    pub fn sample_bones(&self, t: impl Into<f64>, out: &mut [BoneSample]) {
        let t = t.into();
        assert_eq!(out.len(), self.bones.len(), "one BoneSample per bone track");
        let mut weights = WeightCache::<SHARED_WEIGHTS>::new();
        for (track, out) in self.bones.iter().zip(out) {
            track.sample_to(None, t, out, &mut weights);
        }
    }

    /// [`MotionSampler::sample_bones`] walking from `playhead`: for increasing `t`, each track
    /// steps to its next segment instead of searching.
    pub fn sample_bones_with(
        &self,
        playhead: &mut Playhead,
        t: impl Into<f64>,
        out: &mut [BoneSample],
    ) {
        let t = t.into();
        assert_eq!(out.len(), self.bones.len(), "one BoneSample per bone track");
        playhead.bones.resize(self.bones.len(), Cursor::default());
        let mut weights = WeightCache::<SHARED_WEIGHTS>::new();
        for ((track, cursor), out) in self.bones.iter().zip(&mut playhead.bones).zip(out) {
            track.sample_to(Some(cursor), t, out, &mut weights);
        }
    }

    /// Every morph weight at frame `t` into `out`, in [`MotionSampler::morph_names`] order.
    ///
    /// # Panics
    /// If `out.len()` differs from [`MotionSampler::morph_count`].
    pub fn sample_morphs(&self, t: impl Into<f64>, out: &mut [f32]) {
        let t = t.into();
        assert_eq!(out.len(), self.morphs.len(), "one weight per morph track");
        for (track, out) in self.morphs.iter().zip(out) {
            *out = track.sample(t);
        }
    }

    /// [`MotionSampler::sample_morphs`] walking from `playhead`.
    pub fn sample_morphs_with(&self, playhead: &mut Playhead, t: impl Into<f64>, out: &mut [f32]) {
        let t = t.into();
        assert_eq!(out.len(), self.morphs.len(), "one weight per morph track");
        playhead.morphs.resize(self.morphs.len(), Cursor::default());
        for ((track, cursor), out) in self.morphs.iter().zip(&mut playhead.morphs).zip(out) {
            *out = track.sample_with(cursor, t);
        }
    }

    /// The camera at frame `t`, or `None` without camera keys.
    pub fn sample_camera(&self, t: impl Into<f64>) -> Option<CameraSample> {
        self.camera.as_ref().map(|c| c.sample(t))
    }

    /// The light at frame `t`, or `None` without light keys.
    pub fn sample_light(&self, t: impl Into<f64>) -> Option<LightSample> {
        self.light.as_ref().map(|c| c.sample(t))
    }

    /// The self-shadow at frame `t`, or `None` without self-shadow keys.
    pub fn sample_shadow(&self, t: impl Into<f64>) -> Option<ShadowSample> {
        self.shadow.as_ref().map(|c| c.sample(t))
    }

    /// Everything at frame `t` into `out` (resized only if it was not made by
    /// [`MotionSampler::new_sample`]), walking from `playhead`.
    pub fn sample_into(&self, playhead: &mut Playhead, t: impl Into<f64>, out: &mut MotionSample) {
        let t = t.into();
        out.bones.resize(self.bones.len(), BoneSample::default());
        out.morphs.resize(self.morphs.len(), 0.0);
        out.ik.resize(self.ik.len(), true);
        self.sample_bones_with(playhead, t, &mut out.bones);
        self.sample_morphs_with(playhead, t, &mut out.morphs);
        out.camera = self.camera.as_ref().map(|c| c.sample_with(&mut playhead.camera, t));
        out.light = self.light.as_ref().map(|c| c.sample_with(&mut playhead.light, t));
        out.shadow = self.shadow.as_ref().map(|c| c.sample_with(&mut playhead.shadow, t));
        out.visible = self.visible.as_ref().map(|c| c.sample_with(&mut playhead.visible, t));
        playhead.ik.resize(self.ik.len(), Cursor::default());
        for ((track, cursor), out) in self.ik.iter().zip(&mut playhead.ik).zip(&mut out.ik) {
            *out = track.track.sample_with(cursor, t);
        }
    }
}
