//! Typed errors that say where in a file something went wrong.

use crate::format::Section;
use std::fmt;
use std::path::PathBuf;

/// What is wrong with the bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file ends inside the 30-byte signature or the model name.
    TruncatedHeader { needed: usize, available: usize },
    /// The bytes are not a VMD; `what` says what they look like instead. `vmd_like` is set for
    /// a signature that starts like a VMD's, which lenient reading accepts as version 2.
    NotVmd { what: String, vmd_like: bool },
    /// The file ends inside a section's 4-byte count.
    TruncatedCount { available: usize },
    /// A fixed-size section's count asks for more bytes than the file has.
    CountTooLarge { count: u32, needed: u64, available: u64 },
    /// The file ends inside a record.
    TruncatedRecord { needed: u64, available: u64 },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::TruncatedHeader { needed, available } => write!(
                f,
                "file ends inside the header ({available} bytes, a VMD header needs {needed})"
            ),
            ErrorKind::NotVmd { what, .. } => write!(f, "not a VMD file: {what}"),
            ErrorKind::TruncatedCount { available } => {
                write!(f, "file ends inside the section count ({available} of 4 bytes)")
            }
            ErrorKind::CountTooLarge { count, needed, available } => {
                write!(f, "count {count} needs {needed} bytes but only {available} remain")
            }
            ErrorKind::TruncatedRecord { needed, available } => {
                write!(f, "record cut off: it needs {needed} bytes but only {available} remain")
            }
        }
    }
}

/// A reading error with its location: file, section, record index and byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// The section being read, if the header was complete.
    pub section: Option<Section>,
    /// The index of the record within its section, when the error is inside one.
    pub record: Option<u64>,
    /// Byte offset from the start of the file.
    pub offset: u64,
    /// The file, when the error came from reading one.
    pub path: Option<PathBuf>,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Self {
        Error { kind, section: None, record: None, offset: offset as u64, path: None }
    }

    pub(crate) fn in_section(mut self, section: Section, record: Option<u64>) -> Self {
        self.section = Some(section);
        self.record = record;
        self
    }

    /// Attaches the file the error came from.
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}: ", path.display())?;
        }
        match self.section {
            Some(section) => write!(f, "{} section", section.name())?,
            None => f.write_str("header")?,
        }
        if let Some(record) = self.record {
            write!(f, ", record {record}")?;
        }
        write!(f, ", byte offset {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for Error {}

/// Reading a file: either the file could not be read, or its bytes are not a valid VMD.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Format(#[from] Error),
}

impl ReadError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        ReadError::Io { path: path.to_path_buf(), source }
    }
}
