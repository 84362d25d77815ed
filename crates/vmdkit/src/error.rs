//! Typed errors that say where in a file something went wrong.
//!
//! Each reader family has one error type: VMD motions [`Error`] (here), models
//! [`ModelError`](crate::model::ModelError), VPD poses [`VpdError`](crate::model::VpdError) and
//! text conversions [`ConvertError`](crate::convert::ConvertError). Reading a file wraps the
//! family's error in the one [`FileError`], which adds the path. Every one of them says its
//! [`Category`], for callers that react to the kind of failure rather than its details.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// What is wrong with the bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file ends inside the 30-byte signature or the model name.
    #[error("file ends inside the header ({available} bytes, a VMD header needs {needed})")]
    TruncatedHeader {
        /// The header's length for the signature read (or the signature's, if that is cut).
        needed: usize,
        /// The file's length.
        available: usize,
    },
    /// The bytes are not a VMD.
    #[error("not a VMD file: {what}")]
    NotVmd {
        /// What the bytes look like instead.
        what: String,
        /// Set for a signature that starts like a VMD's, which lenient reading accepts as
        /// version 2.
        vmd_like: bool,
    },
    /// The file ends inside a section's 4-byte count.
    #[error("file ends inside the section count ({available} of 4 bytes)")]
    TruncatedCount {
        /// The bytes of the count that are there.
        available: usize,
    },
    /// A fixed-size section's count asks for more bytes than the file has.
    #[error("count {count} needs {needed} bytes but only {available} remain")]
    CountTooLarge {
        /// The count as stored.
        count: u32,
        /// The bytes that many records take.
        needed: u64,
        /// The bytes left after the count.
        available: u64,
    },
    /// The file ends inside a record.
    #[error("record cut off: it needs {needed} bytes but only {available} remain")]
    TruncatedRecord {
        /// The record's length.
        needed: u64,
        /// The bytes left at the record's start.
        available: u64,
    },
}

/// A reading error with its location: section, record index and byte offset. Reading a file
/// adds the path ([`ReadError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}, byte offset {offset}: {kind}", VmdPlace(*section), InRecord(*record))]
pub struct Error {
    /// What is wrong.
    pub kind: ErrorKind,
    /// The section being read, if the header was complete.
    pub section: Option<Section>,
    /// The index of the record within its section, when the error is inside one.
    pub record: Option<u64>,
    /// Byte offset from the start of the file.
    pub offset: u64,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Self {
        Error { kind, section: None, record: None, offset: offset as u64 }
    }

    pub(crate) fn in_section(mut self, section: Section, record: Option<u64>) -> Self {
        self.section = Some(section);
        self.record = record;
        self
    }

    /// Attaches the file the error came from.
    pub fn with_path(self, path: impl Into<PathBuf>) -> ReadError {
        FileError::format(path, self)
    }

    /// Whether lenient reading could recover the complete records around the damage.
    pub fn lenient_may_help(&self) -> bool {
        match self.kind {
            ErrorKind::NotVmd { vmd_like, .. } => vmd_like,
            ErrorKind::TruncatedHeader { .. } => false,
            _ => true,
        }
    }
}

impl Categorize for Error {
    fn category(&self) -> Category {
        match self.kind {
            ErrorKind::NotVmd { .. } => Category::WrongFormat,
            ErrorKind::TruncatedHeader { .. }
            | ErrorKind::TruncatedCount { .. }
            | ErrorKind::CountTooLarge { .. }
            | ErrorKind::TruncatedRecord { .. } => Category::Truncated,
        }
    }
}

/// Reading a VMD file: the file could not be read, or its bytes are not a valid VMD.
pub type ReadError = FileError<Error>;

/// "bone section" or "header": a VMD has no header section, so errors before the first
/// section name none.
struct VmdPlace(Option<Section>);

impl fmt::Display for VmdPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(section) => write!(f, "{} section", section.name()),
            None => f.write_str("header"),
        }
    }
}

/// ", record N" when the error is inside a record, nothing between records.
pub(crate) struct InRecord(pub Option<u64>);

impl fmt::Display for InRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(record) => write!(f, ", record {record}"),
            None => Ok(()),
        }
    }
}

/// Reading a file failed: the file could not be read, or its contents are invalid. The
/// message starts with the path, then gives the cause's own message; the cause is in the
/// variant (see [`FileError::format_error`]), not repeated as a `source()`, so that error
/// reporters that print the chain do not print it twice.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError<E: std::error::Error + 'static> {
    /// The file could not be opened, mapped or read.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why it could not be read.
        error: std::io::Error,
    },
    /// The file was read, but its contents are invalid.
    #[error("{}: {error}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong with the contents, and where.
        error: E,
    },
}

impl<E: std::error::Error + 'static> FileError<E> {
    /// The file `path` could not be read.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        FileError::Io { path: path.into(), error }
    }

    /// The contents of the file `path` are invalid.
    pub fn format(path: impl Into<PathBuf>, error: E) -> Self {
        FileError::Format { path: path.into(), error }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. } | FileError::Format { path, .. } => path,
        }
    }

    /// The format error, when the file was read but is invalid.
    pub fn format_error(&self) -> Option<&E> {
        match self {
            FileError::Format { error, .. } => Some(error),
            FileError::Io { .. } => None,
        }
    }
}

impl<E: Categorize + std::error::Error + 'static> Categorize for FileError<E> {
    fn category(&self) -> Category {
        match self {
            FileError::Io { .. } => Category::Io,
            FileError::Format { error, .. } => error.category(),
        }
    }
}

/// Reads `path` whole and parses it, attaching the path to any error.
pub(crate) fn read_and_parse<T, E: std::error::Error + 'static>(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Result<T, FileError<E>> {
    let data = std::fs::read(path).map_err(|source| FileError::io(path, source))?;
    parse(&data).map_err(|error| FileError::format(path, error))
}

/// The kind of a failure, for callers that react to it without matching every detail (retry
/// with lenient reading, skip files of another kind, report damage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// The file or input could not be read at all.
    Io,
    /// The data is another kind of file, or none known: a model given as a motion, a VMD
    /// given as a model, a JSON document that is not a vmdkit motion.
    WrongFormat,
    /// The right format, in a version or schema this library does not read.
    Unsupported,
    /// The data stops early: it ends inside a header, count, record or entry, or a count
    /// asks for more than is left.
    Truncated,
    /// The data is complete, but a value in it cannot be used.
    Invalid,
}

/// An error that can say its [`Category`].
pub trait Categorize {
    /// The kind of failure.
    fn category(&self) -> Category;
}

/// The six sections, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Section {
    /// Bone keys, 111 bytes each.
    Bone = 0,
    /// Morph (facial) keys, 23 bytes each.
    Morph = 1,
    /// Camera keys, 61 bytes each.
    Camera = 2,
    /// Light keys, 28 bytes each.
    Light = 3,
    /// Self-shadow keys, 9 bytes each.
    SelfShadow = 4,
    /// Property keys (model visibility and IK on/off), 9 + 21 × IK entries bytes each.
    Property = 5,
}

impl Section {
    /// Every section in file order; a section's discriminant is its index here.
    pub const ALL: [Section; 6] = [
        Section::Bone,
        Section::Morph,
        Section::Camera,
        Section::Light,
        Section::SelfShadow,
        Section::Property,
    ];

    /// The name used in messages, JSON and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Section::Bone => "bone",
            Section::Morph => "morph",
            Section::Camera => "camera",
            Section::Light => "light",
            Section::SelfShadow => "self_shadow",
            Section::Property => "property",
        }
    }

    /// The size of one record, or `None` for the variable-size property records.
    pub const fn record_size(self) -> Option<usize> {
        match self {
            Section::Bone => Some(111),
            Section::Morph => Some(23),
            Section::Camera => Some(61),
            Section::Light => Some(28),
            Section::SelfShadow => Some(9),
            Section::Property => None,
        }
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::json::from_json_str;
    use crate::model::{Model, VpdPose};
    use crate::Motion;

    #[test]
    fn every_reader_says_the_category_of_its_failure() {
        let vmd = crate::example::example_motion().to_bytes();
        assert_eq!(
            Motion::parse(&vmd[..vmd.len() - 3]).unwrap_err().category(),
            Category::Truncated
        );
        assert_eq!(Motion::parse(b"PMX 2.0").unwrap_err().category(), Category::WrongFormat);
        assert_eq!(Model::parse(&vmd).unwrap_err().category(), Category::WrongFormat);
        assert_eq!(
            Model::parse(b"PMX \0\0\x40\x40").unwrap_err().category(),
            Category::Unsupported
        );
        assert_eq!(VpdPose::parse(b"hello").unwrap_err().category(), Category::WrongFormat);
        assert_eq!(from_json_str("{").unwrap_err().category(), Category::Invalid);
        let missing = Model::read_file("/nonexistent/vmdkit/model.pmx").unwrap_err();
        assert_eq!(
            (missing.category(), missing.path()),
            (Category::Io, Path::new("/nonexistent/vmdkit/model.pmx"))
        );
    }

    #[test]
    fn the_file_wrapper_puts_the_path_before_the_reader_message() {
        let err = Motion::parse(b"").unwrap_err();
        let message = err.to_string();
        let in_file = err.clone().with_path("dance.vmd");
        assert_eq!(in_file.to_string(), format!("dance.vmd: {message}"));
        assert_eq!(in_file.format_error(), Some(&err));
        assert_eq!(in_file.category(), Category::WrongFormat);
        // The message already holds the cause: a chain printer must not show it again.
        assert!(std::error::Error::source(&in_file).is_none());
        let missing = Motion::read_file("/nonexistent/vmdkit/dance.vmd").unwrap_err();
        assert!(missing.to_string().starts_with("/nonexistent/vmdkit/dance.vmd: "));
        assert!(std::error::Error::source(&missing).is_none());
    }
}
