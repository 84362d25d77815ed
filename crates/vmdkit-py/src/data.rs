//! What a Python `Motion` holds: the library's motion, how it was read, and what is derived
//! from it on first use (name tables, the encoding, the sampler).
//!
//! A `Motion` never changes, so everything derived is computed at most once and shared, also
//! with the section objects (`motion.bones`, ...), which hold the same `Arc` rather than the
//! Python object: that keeps reference cycles out of objects the garbage collector cannot see
//! into.

use crate::names::NameTable;
use std::sync::OnceLock;
use vmdkit::eval::MotionSampler;
use vmdkit::{Repair, TextEncoding};

/// A motion and what is derived from it.
pub struct Data {
    /// The motion as read or built.
    pub motion: vmdkit::Motion,
    /// What lenient reading repaired to read it.
    pub repairs: Vec<Repair>,
    bone_names: OnceLock<NameTable<15>>,
    morph_names: OnceLock<NameTable<15>>,
    ik_names: OnceLock<NameTable<20>>,
    encoding: OnceLock<TextEncoding>,
    sampler: OnceLock<MotionSampler>,
}

impl Data {
    /// The data of `motion`, read with `repairs`.
    pub fn new(motion: vmdkit::Motion, repairs: Vec<Repair>) -> Self {
        Data {
            motion,
            repairs,
            bone_names: OnceLock::new(),
            morph_names: OnceLock::new(),
            ik_names: OnceLock::new(),
            encoding: OnceLock::new(),
            sampler: OnceLock::new(),
        }
    }

    /// The bone names, in first-appearance order, with each bone key's index.
    pub fn bone_names(&self) -> &NameTable<15> {
        self.bone_names.get_or_init(|| NameTable::new(self.motion.bones.iter().map(|k| &k.name)))
    }

    /// The morph names, with each morph key's index.
    pub fn morph_names(&self) -> &NameTable<15> {
        self.morph_names.get_or_init(|| NameTable::new(self.motion.morphs.iter().map(|k| &k.name)))
    }

    /// The IK names of the property keys, with each IK entry's index (entries of all keys in
    /// file order, flattened).
    pub fn ik_names(&self) -> &NameTable<20> {
        self.ik_names.get_or_init(|| {
            NameTable::new(self.motion.properties.iter().flat_map(|p| p.ik.iter().map(|s| &s.name)))
        })
    }

    /// The encoding of the names, as [`vmdkit::Motion::detect_encoding`] finds it. Detecting
    /// over the distinct names gives the same answer (every name must decode) in a fraction of
    /// the time on large files.
    pub fn encoding(&self) -> TextEncoding {
        *self.encoding.get_or_init(|| {
            let header = std::iter::once(self.motion.header.model_name.for_detection());
            vmdkit::detect_encoding(
                header
                    .chain(self.bone_names().for_detection())
                    .chain(self.morph_names().for_detection())
                    .chain(self.ik_names().for_detection()),
            )
        })
    }

    /// The sampler of the motion, built on first use. Call it without the GIL held: building
    /// sorts every track.
    pub fn sampler(&self) -> &MotionSampler {
        self.sampler.get_or_init(|| MotionSampler::new(&self.motion))
    }
}
