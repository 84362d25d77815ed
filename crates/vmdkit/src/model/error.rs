//! Typed model-reading errors: what is wrong, in which section, which record, at which byte.

use crate::error::{Categorize, Category, InRecord};
use std::fmt;

/// The part of a PMX or PMD file being read when an error occurred, in file order (the two
/// formats' orders agree on the sections they share).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ModelSection {
    /// The magic bytes, version, encoding and names.
    Header,
    /// The vertex list.
    Vertices,
    /// The triangle list.
    Faces,
    /// PMX's texture path list.
    Textures,
    /// The material list.
    Materials,
    /// The bone table.
    Bones,
    /// PMD's separate IK chain list.
    Ik,
    /// The morph list.
    Morphs,
    /// The display frames (bone and morph groups shown in MMD's panels).
    DisplayFrames,
    /// PMD's optional English names block.
    EnglishNames,
    /// PMD's optional list of ten toon texture names.
    ToonTextures,
    /// The physics rigid bodies.
    RigidBodies,
    /// The physics joints.
    Joints,
    /// PMX 2.1 soft bodies.
    SoftBodies,
}

impl ModelSection {
    /// The name used in messages.
    pub const fn name(self) -> &'static str {
        match self {
            ModelSection::Header => "header",
            ModelSection::Vertices => "vertices",
            ModelSection::Faces => "faces",
            ModelSection::Textures => "textures",
            ModelSection::Materials => "materials",
            ModelSection::Bones => "bones",
            ModelSection::Ik => "ik",
            ModelSection::Morphs => "morphs",
            ModelSection::DisplayFrames => "display_frames",
            ModelSection::EnglishNames => "english_names",
            ModelSection::ToonTextures => "toon_textures",
            ModelSection::RigidBodies => "rigid_bodies",
            ModelSection::Joints => "joints",
            ModelSection::SoftBodies => "soft_bodies",
        }
    }
}

impl fmt::Display for ModelSection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What is wrong with the bytes.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelErrorKind {
    /// The magic bytes are neither PMX's nor PMD's.
    #[error("not a PMX or PMD file: {what}")]
    NotAModel {
        /// What the bytes look like instead.
        what: String,
    },
    /// A PMX or PMD of a version this library does not read.
    #[error("unsupported {format} version {version}")]
    UnsupportedVersion {
        /// `"PMX"` or `"PMD"`.
        format: &'static str,
        /// The version as stored.
        version: f32,
    },
    /// A PMX header field (encoding, index size, globals count) has an impossible value.
    #[error("header field {field} has the invalid value {value}")]
    BadHeaderField {
        /// The field's name.
        field: &'static str,
        /// The value as stored.
        value: u8,
    },
    /// The file ends inside a field.
    #[error("file ends inside a field: {needed} bytes needed, {available} remain")]
    Truncated {
        /// The field's length.
        needed: u64,
        /// The bytes left at the field's start.
        available: u64,
    },
    /// A PMX count is negative.
    #[error("negative count {count}")]
    NegativeCount {
        /// The count as stored.
        count: i64,
    },
    /// A count asks for more records than the bytes left could hold.
    #[error("count {count} needs at least {needed} bytes but only {available} remain")]
    CountTooLarge {
        /// The count as stored.
        count: u64,
        /// The bytes that many records take at the least.
        needed: u64,
        /// The bytes left after the count.
        available: u64,
    },
    /// A PMX text field's length is negative.
    #[error("negative text length {length}")]
    NegativeLength {
        /// The length as stored.
        length: i64,
    },
    /// An index refers to a bone, vertex, morph... that does not exist.
    #[error("{what} index {index} is out of range (there are {count})")]
    BadIndex {
        /// What the index refers to, e.g. `"parent bone"`.
        what: &'static str,
        /// The index as stored.
        index: i64,
        /// How many there are.
        count: usize,
    },
    /// A type byte (weight type, morph type...) has no known meaning.
    #[error("unknown {what} {value}")]
    UnknownKind {
        /// The field, e.g. `"weight type"`.
        what: &'static str,
        /// The value as stored.
        value: u8,
    },
}

/// A model-reading error with its location. Reading a file adds the path
/// ([`FileError`](crate::error::FileError)).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{section} section{}, byte offset {offset}: {kind}", InRecord(*record))]
pub struct ModelError {
    /// What is wrong.
    pub kind: ModelErrorKind,
    /// The section being read.
    pub section: ModelSection,
    /// The index of the record within its section, when the error is inside one.
    pub record: Option<u64>,
    /// Byte offset from the start of the file.
    pub offset: u64,
}

impl Categorize for ModelError {
    fn category(&self) -> Category {
        match self.kind {
            ModelErrorKind::NotAModel { .. } => Category::WrongFormat,
            ModelErrorKind::UnsupportedVersion { .. } => Category::Unsupported,
            ModelErrorKind::Truncated { .. } | ModelErrorKind::CountTooLarge { .. } => {
                Category::Truncated
            }
            ModelErrorKind::BadHeaderField { .. }
            | ModelErrorKind::NegativeCount { .. }
            | ModelErrorKind::NegativeLength { .. }
            | ModelErrorKind::BadIndex { .. }
            | ModelErrorKind::UnknownKind { .. } => Category::Invalid,
        }
    }
}
