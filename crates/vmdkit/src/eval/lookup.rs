//! Finding a sampler's tracks by the text a user types, and naming them as text.
//!
//! Tracks are keyed by raw name bytes; people name them by decoded text. A typed name matches a
//! track whose name reads as that text, or whose bytes are that text encoded, which also finds a
//! name the file cut at its field width (15 bytes for bones and morphs, 20 for IK) from the full
//! text.
//!
//! ```
//! use vmdkit::eval::MotionSampler;
//!
//! let motion = vmdkit::example::example_motion();
//! let sampler = MotionSampler::new(&motion);
//! let encoding = motion.detect_encoding();
//! assert!(sampler.bone_track_named("右腕", encoding).is_some());
//! assert!(sampler.morph_track_named("まばたき", encoding).is_some());
//! assert!(sampler.bone_track_named("左腕", encoding).is_none());
//! ```

use super::bone::BoneTrack;
use super::light::IkTrack;
use super::morph::MorphTrack;
use super::sampler::MotionSampler;
use crate::text::{RawName, TextEncoding};
use std::collections::HashSet;

/// The first of `names` that reads as `wanted` in `encoding`, else the one whose bytes are
/// `wanted` encoded. Decoding first keeps names found as `vmdkit info` shows them even where
/// encoding the text back would not give the stored bytes.
fn position_named<'a, const N: usize>(
    names: impl Iterator<Item = &'a RawName<N>> + Clone,
    wanted: &str,
    encoding: TextEncoding,
) -> Option<usize> {
    names.clone().position(|n| n.decode(encoding).text == wanted).or_else(|| {
        let encoded = RawName::<N>::encode_as(wanted, encoding).0;
        names.clone().position(|n| n.bytes() == encoded.bytes())
    })
}

impl MotionSampler {
    /// The track of the bone named `name` as text in `encoding` (usually
    /// [`Motion::detect_encoding`](crate::Motion::detect_encoding)); see the module
    /// documentation for how names match.
    pub fn bone_track_named(&self, name: &str, encoding: TextEncoding) -> Option<&BoneTrack> {
        let tracks = self.bone_tracks();
        position_named(tracks.iter().map(|t| t.name()), name, encoding).map(|i| &tracks[i])
    }

    /// The track of the morph named `name` as text in `encoding`.
    pub fn morph_track_named(&self, name: &str, encoding: TextEncoding) -> Option<&MorphTrack> {
        let tracks = self.morph_tracks();
        position_named(tracks.iter().map(|t| t.name()), name, encoding).map(|i| &tracks[i])
    }

    /// The IK switch track of the IK bone named `name` as text in `encoding`.
    pub fn ik_track_named(&self, name: &str, encoding: TextEncoding) -> Option<&IkTrack> {
        let tracks = self.ik_tracks();
        position_named(tracks.iter().map(|t| t.name()), name, encoding).map(|i| &tracks[i])
    }

    /// Every track's name as text, for labelling samples (see [`TrackLabels`]).
    pub fn track_labels(&self, encoding: TextEncoding) -> TrackLabels {
        TrackLabels {
            bones: unique_labels(self.bone_tracks().iter().map(|t| t.name()), encoding),
            morphs: unique_labels(self.morph_tracks().iter().map(|t| t.name()), encoding),
            ik: unique_labels(self.ik_tracks().iter().map(|t| t.name()), encoding),
        }
    }
}

/// The names of a sampler's tracks as text, in track order, each label distinct: where two raw
/// names read the same (undecodable bytes decode to the same replacement characters), the later
/// one gets its bytes in hex, `"name [8140ff]"`, so labels can key a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrackLabels {
    /// In [`MotionSampler::bone_tracks`] order.
    pub bones: Vec<String>,
    /// In [`MotionSampler::morph_tracks`] order.
    pub morphs: Vec<String>,
    /// In [`MotionSampler::ik_tracks`] order.
    pub ik: Vec<String>,
}

fn unique_labels<'a, const N: usize>(
    names: impl Iterator<Item = &'a RawName<N>>,
    encoding: TextEncoding,
) -> Vec<String> {
    let mut seen = HashSet::new();
    names
        .map(|n| {
            let text = n.decode(encoding).text.into_owned();
            if seen.insert(text.clone()) {
                return text;
            }
            let hex: String = n.bytes().iter().map(|b| format!("{b:02x}")).collect();
            let unique = format!("{text} [{hex}]");
            seen.insert(unique.clone());
            unique
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::eval::MotionSampler;
    use crate::format::{BoneKey, IkState, MorphKey, Motion, PropertyKey};
    use crate::text::{KeyName, LongName, RawName, TextEncoding};

    const SJIS: TextEncoding = TextEncoding::ShiftJis;

    fn motion_with_bones(names: &[KeyName]) -> Motion {
        let mut motion = Motion::new(LongName::encode("test").0);
        motion.bones = names.iter().map(|&n| BoneKey::new(n, 0)).collect();
        motion
    }

    #[test]
    fn a_bone_is_found_by_its_text() {
        let motion = motion_with_bones(&[KeyName::encode("センター").0, KeyName::encode("右腕").0]);
        let sampler = MotionSampler::new(&motion);
        let track = sampler.bone_track_named("右腕", SJIS).unwrap();
        assert_eq!(track.name(), &KeyName::encode("右腕").0);
        assert!(sampler.bone_track_named("左腕", SJIS).is_none());
    }

    #[test]
    fn a_name_cut_at_the_field_width_is_found_by_its_full_text() {
        // 8 two-byte characters: the 15-byte field keeps 7 of them.
        let full = "右人差指１右人差指";
        let motion = motion_with_bones(&[KeyName::encode(full).0]);
        let sampler = MotionSampler::new(&motion);
        assert!(sampler.bone_track_named(full, SJIS).is_some());
    }

    #[test]
    fn morphs_and_ik_switches_are_found_by_their_text() {
        let mut motion = Motion::new(LongName::encode("test").0);
        motion
            .morphs
            .push(MorphKey { name: KeyName::encode("まばたき").0, frame: 0, weight: 1.0 });
        let mut key = PropertyKey { frame: 0, visible_byte: 1, ik: Vec::new() };
        key.ik.push(IkState { name: LongName::encode("左足ＩＫ").0, enabled_byte: 0 });
        motion.properties.push(key);
        let sampler = MotionSampler::new(&motion);
        assert_eq!(sampler.morph_track_named("まばたき", SJIS).unwrap().sample(0.0), 1.0);
        assert!(!sampler.ik_track_named("左足ＩＫ", SJIS).unwrap().sample(0.0));
        assert!(sampler.ik_track_named("右足ＩＫ", SJIS).is_none());
    }

    #[test]
    fn labels_that_read_the_same_get_their_bytes() {
        // Two names of bytes that are not CP932 both decode to replacement characters.
        let odd = |b: u8| RawName::<15>::from_bytes_mmd(&[b]);
        let motion = motion_with_bones(&[KeyName::encode("右腕").0, odd(0xfe), odd(0xff)]);
        let labels = MotionSampler::new(&motion).track_labels(SJIS);
        assert_eq!(labels.bones[0], "右腕");
        assert_ne!(labels.bones[1], labels.bones[2]);
        assert!(labels.bones[2].ends_with(" [ff]"), "{:?}", labels.bones);
    }
}
