//! What the six keyframe types have in common, and walking all six sections of a motion with
//! one generic function instead of six hand-written copies.
//!
//! ```
//! use vmdkit::{Keyframe, SectionVisitor};
//!
//! /// The highest frame of each section.
//! struct Last(Vec<Option<u32>>);
//! impl SectionVisitor for Last {
//!     fn visit<K: Keyframe>(&mut self, keys: &[K]) {
//!         self.0.push(keys.iter().map(K::frame).max());
//!     }
//! }
//! let motion = vmdkit::example::example_motion();
//! let mut last = Last(Vec::new());
//! motion.for_each_section(&mut last);
//! assert_eq!(last.0.len(), 6);
//! assert_eq!(last.0[0], Some(60));
//! ```

use super::layout::Section;
use super::motion::Motion;
use super::records::{BoneKey, CameraKey, LightKey, MorphKey, PropertyKey, ShadowKey};
use crate::text::KeyName;

/// A keyframe of one of the six sections. Keys compare equal when every field holds the
/// same value (names byte for byte, padding included).
pub trait Keyframe: Clone + PartialEq {
    /// The section keys of this type live in.
    const SECTION: Section;

    /// The frame number at 30 fps.
    fn frame(&self) -> u32;

    /// The same key at another frame.
    fn with_frame(&self, frame: u32) -> Self;

    /// The name field of bone and morph keys; `None` in the sections that form one track.
    fn name(&self) -> Option<&KeyName>;

    /// The bytes that say which track the key belongs to: the name up to its NUL (reference
    /// §5: names are compared as bytes), empty for the sections that form one track.
    #[inline]
    fn track_name(&self) -> &[u8] {
        self.name().map_or(&[], |n| n.bytes())
    }

    /// This section's keys in `motion`.
    fn section(motion: &Motion) -> &Vec<Self>;

    /// This section's keys in `motion`, to change.
    fn section_mut(motion: &mut Motion) -> &mut Vec<Self>;
}

/// Implements [`Keyframe`] for a `Copy` key type with a `frame` field.
macro_rules! keyframe {
    ($key:ty, $section:ident, $field:ident, |$k:ident| $name:expr) => {
        impl Keyframe for $key {
            const SECTION: Section = Section::$section;
            #[inline]
            fn frame(&self) -> u32 {
                self.frame
            }
            #[inline]
            fn with_frame(&self, frame: u32) -> Self {
                let mut key = <$key as Clone>::clone(self);
                key.frame = frame;
                key
            }
            #[inline]
            fn name(&self) -> Option<&KeyName> {
                let $k = self;
                $name
            }
            #[inline]
            fn section(motion: &Motion) -> &Vec<Self> {
                &motion.$field
            }
            #[inline]
            fn section_mut(motion: &mut Motion) -> &mut Vec<Self> {
                &mut motion.$field
            }
        }
    };
}

keyframe!(BoneKey, Bone, bones, |k| Some(&k.name));
keyframe!(MorphKey, Morph, morphs, |k| Some(&k.name));
keyframe!(CameraKey, Camera, cameras, |_k| None);
keyframe!(LightKey, Light, lights, |_k| None);
keyframe!(ShadowKey, SelfShadow, shadows, |_k| None);
keyframe!(PropertyKey, Property, properties, |_k| None);

/// Something done to each section's keys in turn, whatever their type.
pub trait SectionVisitor {
    /// Called once per section, in [`Section::ALL`] order.
    fn visit<K: Keyframe>(&mut self, keys: &[K]);
}

/// A section-by-section rewrite: each section's keys become new keys of the same type.
pub trait SectionMapper {
    /// Why a section cannot be rewritten.
    type Error;

    /// The new keys of one section; called in [`Section::ALL`] order.
    fn map<K: Keyframe>(&mut self, keys: &[K]) -> Result<Vec<K>, Self::Error>;
}

impl Motion {
    /// Calls `visitor` with every section, in [`Section::ALL`] order.
    pub fn for_each_section(&self, visitor: &mut impl SectionVisitor) {
        visitor.visit(&self.bones);
        visitor.visit(&self.morphs);
        visitor.visit(&self.cameras);
        visitor.visit(&self.lights);
        visitor.visit(&self.shadows);
        visitor.visit(&self.properties);
    }

    /// This motion (header, section count, trailing bytes) with every section rewritten by
    /// `mapper`; the first error, in [`Section::ALL`] order, stops it.
    pub fn try_map_sections<M: SectionMapper>(&self, mapper: &mut M) -> Result<Motion, M::Error> {
        Ok(Motion {
            header: self.header,
            bones: mapper.map(&self.bones)?,
            morphs: mapper.map(&self.morphs)?,
            cameras: mapper.map(&self.cameras)?,
            lights: mapper.map(&self.lights)?,
            shadows: mapper.map(&self.shadows)?,
            properties: mapper.map(&self.properties)?,
            sections_present: self.sections_present,
            trailing: self.trailing.clone(),
            trailing_omitted: self.trailing_omitted,
        })
    }

    /// This motion's header, section count and trailing bytes with no keys: what an edit
    /// fills with its new sections, without copying the old keys only to drop them.
    pub(crate) fn without_keys(&self) -> Motion {
        Motion {
            header: self.header,
            sections_present: self.sections_present,
            trailing: self.trailing.clone(),
            trailing_omitted: self.trailing_omitted,
            ..Motion::new(self.header.model_name)
        }
    }

    /// The total number of keys over all six sections.
    pub fn key_count(&self) -> usize {
        Section::ALL.iter().map(|&s| self.count(s)).sum()
    }

    /// The lowest and highest key frame over all six sections; `None` without keys.
    pub fn frame_range(&self) -> Option<(u32, u32)> {
        struct Range(Option<(u32, u32)>);
        impl SectionVisitor for Range {
            fn visit<K: Keyframe>(&mut self, keys: &[K]) {
                for frame in keys.iter().map(Keyframe::frame) {
                    self.0 = Some(match self.0 {
                        Some((lo, hi)) => (lo.min(frame), hi.max(frame)),
                        None => (frame, frame),
                    });
                }
            }
        }
        let mut range = Range(None);
        self.for_each_section(&mut range);
        range.0
    }
}
