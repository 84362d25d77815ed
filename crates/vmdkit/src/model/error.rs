//! Typed model-reading errors: what is wrong, in which section, which record, at which byte.

use std::fmt;
use std::path::PathBuf;

/// The part of a PMX or PMD file being read when an error occurred, in file order (the two
/// formats' orders agree on the sections they share).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ModelSection {
    Header,
    Vertices,
    Faces,
    Textures,
    Materials,
    Bones,
    /// PMD's separate IK chain list.
    Ik,
    Morphs,
    DisplayFrames,
    /// PMD's optional English names block.
    EnglishNames,
    /// PMD's optional list of ten toon texture names.
    ToonTextures,
    RigidBodies,
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
pub enum ModelErrorKind {
    #[error("not a PMX or PMD file: {what}")]
    NotAModel { what: String },
    #[error("unsupported {format} version {version}")]
    UnsupportedVersion { format: &'static str, version: f32 },
    #[error("header field {field} has the invalid value {value}")]
    BadHeaderField { field: &'static str, value: u8 },
    #[error("file ends inside a field: {needed} bytes needed, {available} remain")]
    Truncated { needed: u64, available: u64 },
    #[error("negative count {count}")]
    NegativeCount { count: i64 },
    #[error("count {count} needs at least {needed} bytes but only {available} remain")]
    CountTooLarge { count: u64, needed: u64, available: u64 },
    #[error("negative text length {length}")]
    NegativeLength { length: i64 },
    #[error("{what} index {index} is out of range (there are {count})")]
    BadIndex { what: &'static str, index: i64, count: usize },
    #[error("unknown {what} {value}")]
    UnknownKind { what: &'static str, value: u8 },
}

/// A model-reading error with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelError {
    pub kind: ModelErrorKind,
    pub section: ModelSection,
    /// The index of the record within its section, when the error is inside one.
    pub record: Option<u64>,
    /// Byte offset from the start of the file.
    pub offset: u64,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} section", self.section)?;
        if let Some(record) = self.record {
            write!(f, ", record {record}")?;
        }
        write!(f, ", byte offset {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for ModelError {}

/// Reading a model or pose file: the file could not be read, or its contents are invalid.
#[derive(Debug, thiserror::Error)]
pub enum ReadFileError<E: std::error::Error + 'static> {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {error}", path.display())]
    Format {
        path: PathBuf,
        #[source]
        error: E,
    },
}

impl<E: std::error::Error + 'static> ReadFileError<E> {
    /// The format error, when the file was read but is invalid.
    pub fn format_error(&self) -> Option<&E> {
        match self {
            ReadFileError::Format { error, .. } => Some(error),
            ReadFileError::Io { .. } => None,
        }
    }
}

/// Reads `path` whole and parses it, attaching the path to any error.
pub(crate) fn read_and_parse<T, E: std::error::Error + 'static>(
    path: &std::path::Path,
    parse: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Result<T, ReadFileError<E>> {
    let data = std::fs::read(path)
        .map_err(|source| ReadFileError::Io { path: path.to_path_buf(), source })?;
    parse(&data).map_err(|error| ReadFileError::Format { path: path.to_path_buf(), error })
}
