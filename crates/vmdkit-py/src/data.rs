//! What a Python `Motion` holds: the file's bytes or the library's decoded motion, how it was
//! read, and what is derived from it on first use (the decoded motion itself, name tables, the
//! encoding, the sampler).
//!
//! A motion read from bytes or a small file keeps those bytes and decodes them only when
//! something needs the library's `Motion` (sampling, edits, writing, any section but the
//! bones): reading is then one validating scan, and the bone columns, which are nearly all of
//! a file, are read straight from the records. Decoding up front would allocate a second copy
//! of the section on every read, and fresh memory costs a page fault per page: several times
//! the rest of the read. Large files are mapped and read the same way, so that their columns
//! cost what a NumPy view of the records does and their pages stay the page cache's until a
//! decode needs them.
//!
//! A `Motion` never changes, so everything derived is computed at most once and shared, also
//! with the section objects (`motion.bones`, ...), which hold the same `Arc` rather than the
//! Python object: that keeps reference cycles out of objects the garbage collector cannot see
//! into.

use crate::names::NameTable;
use pyo3::pybacked::PyBackedBytes;
use std::ops::Range;
use std::sync::OnceLock;
use vmdkit::eval::MotionSampler;
use vmdkit::{
    bone_refs, BoneKey, Header, KeyName, MotionView, ReadOptions, Repair, Section, TextEncoding,
};

/// A file's bytes: a Python `bytes` object (kept, not copied), read from a file, or a large
/// file's memory map.
pub enum Bytes {
    /// The caller's bytes object.
    Python(PyBackedBytes),
    /// Read from a file.
    Owned(Vec<u8>),
    /// A large file, mapped: its pages are the page cache's, read as the columns need them.
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Python(b) => b,
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m,
        }
    }
}

/// A validated file, not yet decoded.
struct Raw {
    bytes: Bytes,
    options: ReadOptions,
    /// Where the bone records are in `bytes` (as read with `options`).
    bones: Range<usize>,
}

/// A motion and what is derived from it.
pub struct Data {
    raw: Option<Raw>,
    motion: OnceLock<vmdkit::Motion>,
    /// What lenient reading repaired to read it.
    pub repairs: Vec<Repair>,
    bone_names: OnceLock<NameTable<15>>,
    morph_names: OnceLock<NameTable<15>>,
    ik_names: OnceLock<NameTable<20>>,
    encoding: OnceLock<TextEncoding>,
    sampler: OnceLock<MotionSampler>,
}

/// One bone key's fields, wherever they are read from.
pub struct BoneFields<'a> {
    pub name: &'a KeyName,
    pub frame: u32,
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
    pub interpolation: &'a [u8; 64],
}

/// The bone keys: records in the file, or decoded keys.
#[derive(Clone, Copy)]
pub enum Bones<'a> {
    /// Whole 111-byte records.
    Records(&'a [u8]),
    /// Decoded keys.
    Keys(&'a [BoneKey]),
}

impl<'a> Bones<'a> {
    /// The number of keys.
    pub fn len(self) -> usize {
        match self {
            Bones::Records(r) => r.len() / BoneKey::SIZE,
            Bones::Keys(k) => k.len(),
        }
    }

    /// Calls `f` with every key's fields, in file order.
    #[inline]
    pub fn for_each(self, mut f: impl FnMut(BoneFields<'a>)) {
        match self {
            Bones::Records(r) => bone_refs(r).for_each(|r| {
                f(BoneFields {
                    name: r.name(),
                    frame: r.frame(),
                    translation: r.translation().to_array(),
                    rotation: r.rotation().to_array(),
                    interpolation: r.interpolation(),
                })
            }),
            Bones::Keys(k) => k.iter().for_each(|k| {
                f(BoneFields {
                    name: &k.name,
                    frame: k.frame,
                    translation: k.translation.to_array(),
                    rotation: k.rotation.to_array(),
                    interpolation: &k.interpolation.0,
                })
            }),
        }
    }
}

impl Data {
    fn with(raw: Option<Raw>, motion: OnceLock<vmdkit::Motion>, repairs: Vec<Repair>) -> Self {
        Data {
            raw,
            motion,
            repairs,
            bone_names: OnceLock::new(),
            morph_names: OnceLock::new(),
            ik_names: OnceLock::new(),
            encoding: OnceLock::new(),
            sampler: OnceLock::new(),
        }
    }

    /// The data of a decoded `motion`, read with `repairs`.
    pub fn new(motion: vmdkit::Motion, repairs: Vec<Repair>) -> Self {
        Data::with(None, OnceLock::from(motion), repairs)
    }

    /// The data of a file's `bytes`, validated (and repaired, leniently) now, decoded later.
    pub fn from_bytes(bytes: Bytes, options: ReadOptions) -> Result<Self, vmdkit::Error> {
        let view = MotionView::with_options(&bytes, options)?;
        let bones = view.layout().span(Section::Bone).map_or(0..0, |s| s.start..s.end);
        let repairs = view.repairs().to_vec();
        Ok(Data::with(Some(Raw { bytes, options, bones }), OnceLock::new(), repairs))
    }

    /// The library's motion, decoded on first use.
    pub fn motion(&self) -> &vmdkit::Motion {
        self.motion.get_or_init(|| {
            let raw = self.raw.as_ref().expect("a motion without bytes is decoded from the start");
            // The same bytes and options read without error when this Data was made, and
            // reading is deterministic.
            let view = MotionView::with_options(&raw.bytes, raw.options)
                .expect("bytes that were read once read again");
            vmdkit::Motion::from_view(&view, raw.options.max_trailing, &mut |_| {})
        })
    }

    /// The bone keys, from the records when the file has not been decoded.
    pub fn bones(&self) -> Bones<'_> {
        match (self.motion.get(), &self.raw) {
            (None, Some(raw)) => Bones::Records(&raw.bytes[raw.bones.clone()]),
            _ => Bones::Keys(&self.motion().bones),
        }
    }

    /// The file in place, when it has not been decoded: the scan is repeated, which costs
    /// next to nothing beside decoding (it reads the counts, and walks the property records).
    fn view(&self) -> Option<MotionView<'_>> {
        match (self.motion.get(), &self.raw) {
            (None, Some(raw)) => MotionView::with_options(&raw.bytes, raw.options).ok(),
            _ => None,
        }
    }

    /// The signature and model name.
    pub fn header(&self) -> Header {
        self.view().map_or_else(|| self.motion().header, |v| v.header())
    }

    /// The bone names, in first-appearance order, with each bone key's index.
    pub fn bone_names(&self) -> &NameTable<15> {
        self.bone_names.get_or_init(|| match self.bones() {
            Bones::Records(r) => NameTable::new(bone_refs(r).map(|r| *r.name())),
            Bones::Keys(k) => NameTable::new(k.iter().map(|k| k.name)),
        })
    }

    /// The morph names, with each morph key's index.
    pub fn morph_names(&self) -> &NameTable<15> {
        self.morph_names.get_or_init(|| match self.view() {
            Some(v) => NameTable::new(v.morphs().map(|r| *r.name())),
            None => NameTable::new(self.motion().morphs.iter().map(|k| k.name)),
        })
    }

    /// The IK names of the property keys, with each IK entry's index (entries of all keys in
    /// file order, flattened).
    pub fn ik_names(&self) -> &NameTable<20> {
        self.ik_names.get_or_init(|| match self.view() {
            Some(v) => NameTable::new(v.properties().flat_map(|p| p.ik().map(|s| s.name))),
            None => {
                let properties = &self.motion().properties;
                NameTable::new(properties.iter().flat_map(|p| p.ik.iter().map(|s| s.name)))
            }
        })
    }

    /// The encoding of the names, as [`vmdkit::Motion::detect_encoding`] finds it. Detecting
    /// over the distinct names gives the same answer (every name must decode) in a fraction of
    /// the time on large files, and needs no decoded motion.
    pub fn encoding(&self) -> TextEncoding {
        *self.encoding.get_or_init(|| {
            let model_name = self.header().model_name;
            vmdkit::detect_encoding(
                std::iter::once(model_name.for_detection())
                    .chain(self.bone_names().for_detection())
                    .chain(self.morph_names().for_detection())
                    .chain(self.ik_names().for_detection()),
            )
        })
    }

    /// The sampler of the motion, built on first use. Call it without the GIL held: building
    /// sorts every track.
    pub fn sampler(&self) -> &MotionSampler {
        self.sampler.get_or_init(|| MotionSampler::new(self.motion()))
    }
}
