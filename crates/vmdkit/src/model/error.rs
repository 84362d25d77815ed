//! Typed model-reading errors: what is wrong, in which section, which record, at which byte.

use crate::error::{Categorize, Category, InRecord};
use std::fmt;

/// The part of a PMX or PMD file being read when an error occurred, in file order (the two
/// formats' orders agree on the sections they share). A bone CSV's errors name
/// [`ModelSection::Bones`] or [`ModelSection::Ik`].
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
    /// PMD's separate IK chain list; a bone CSV's `IKLink` rows.
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
    /// The magic bytes are neither PMX's nor PMD's, and the text is not a bone CSV.
    #[error("not a PMX, PMD or bone CSV file: {what}")]
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
    /// A bone CSV field cannot be used.
    #[error("line {line}, column {column} ({field}): {problem}")]
    CsvField {
        /// The line the row starts on, from 1.
        line: usize,
        /// The field's column in its row, from 1 (the row kind is column 1).
        column: usize,
        /// The column's name, e.g. `"parent name"`.
        field: &'static str,
        /// What is wrong with it.
        problem: CsvProblem,
    },
    /// A bone CSV that is neither UTF-8 nor Shift-JIS text; the error's offset is that of the
    /// first byte that is not UTF-8.
    #[error("the bone CSV is neither UTF-8 nor Shift-JIS text")]
    CsvNotText,
    /// A bone CSV row has fewer fields than its kind needs.
    #[error("line {line}: a {row} row needs {needed} fields but has {found}")]
    CsvRowTooShort {
        /// The line the row starts on, from 1.
        line: usize,
        /// The row kind, `"Bone"` or `"IKLink"`.
        row: &'static str,
        /// The fields the kind has.
        needed: usize,
        /// The fields the row has.
        found: usize,
    },
}

/// What is wrong with one field of a bone CSV ([`ModelErrorKind::CsvField`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CsvProblem {
    /// A number field that does not parse.
    #[error("{:?} is not a number", crate::shown::Shown(.value))]
    NotANumber {
        /// The field as written.
        value: String,
    },
    /// A 0/1 field with another value.
    #[error("{:?} is not 0 or 1", crate::shown::Shown(.value))]
    NotAFlag {
        /// The field as written.
        value: String,
    },
    /// A bone name that no `Bone` row has.
    #[error("no bone is named {:?}", crate::shown::Shown(.name))]
    UnknownBone {
        /// The name as written.
        name: String,
    },
    /// An `IKLink` row's IK bone is a bone whose IK column is 0.
    #[error("bone {:?} is not an IK bone", crate::shown::Shown(.name))]
    NotAnIkBone {
        /// The name as written.
        name: String,
    },
    /// A field that must name something is empty (an IK bone's target).
    #[error("empty, but required")]
    Empty,
    /// A quoted field whose closing quote never comes.
    #[error("the quote is never closed")]
    UnclosedQuote,
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
            | ModelErrorKind::UnknownKind { .. }
            | ModelErrorKind::CsvField { .. }
            | ModelErrorKind::CsvNotText => Category::Invalid,
            // A row cut short is more often a damaged or hand-edited row than a file that
            // ends early, but the fields it lacks are missing all the same.
            ModelErrorKind::CsvRowTooShort { .. } => Category::Truncated,
        }
    }
}
