//! The one error type of the keypoint readers: which format, where (line and column, or byte
//! offset), which field, and what is wrong.

use super::KeypointFormat;
use crate::error::{Categorize, Category, FileError};
use std::fmt;

/// Reading a keypoint file: it could not be read, or its contents are not usable keypoints.
pub type KeypointFileError = FileError<KeypointError>;

/// Where in the input an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// A text position, 1-based; the column is a field index for CSV and TRC, a character
    /// for JSON.
    Line {
        /// The line.
        line: u64,
        /// The column or field, when known.
        column: Option<u64>,
    },
    /// A byte offset from the start of the input (or of the archive member, for NPZ).
    Offset(u64),
}

/// What is wrong with keypoint input.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum KeypointErrorKind {
    /// The bytes are not this format at all.
    #[error("not a keypoint file of this format: {0}")]
    WrongFormat(String),
    /// The right format, in a variant this library does not read (a pickled array, a
    /// complex dtype, a `.pose` version, 2-D points).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The format needs a crate feature this build does not have.
    #[error("this build has no {format} support (enable the `{feature}` feature)")]
    FeatureDisabled {
        /// The format.
        format: KeypointFormat,
        /// The vmdkit feature that brings it.
        feature: &'static str,
    },
    /// The input ends before the data its header announces.
    #[error("cut off: {needed} bytes needed, {available} present")]
    Truncated {
        /// The bytes the header announces.
        needed: u64,
        /// The bytes there are.
        available: u64,
    },
    /// The text does not parse (bad JSON or CSV syntax, a number that is not one).
    #[error("syntax: {0}")]
    Syntax(String),
    /// A row with another number of cells than the header.
    #[error("row has {found} cells, the header has {expected}")]
    Ragged {
        /// The header's cell count.
        expected: usize,
        /// This row's.
        found: usize,
    },
    /// The data parses but cannot be keypoints: a wrong shape, joint counts that differ
    /// between frames, a header value that contradicts the data.
    #[error("{0}")]
    Invalid(String),
    /// No frames at all.
    #[error("no frames")]
    NoFrames,
    /// Frames without any joint.
    #[error("no joints")]
    NoJoints,
    /// Every coordinate is missing (NaN, empty or null).
    #[error("every joint is missing in every frame")]
    AllMissing,
}

/// A keypoint input error: the format being read, where, the field when one is at fault, and
/// what is wrong. Reading a file wraps it in [`KeypointFileError`], which adds the path.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{format}{}{}: {kind}", At(location), InField(field))]
pub struct KeypointError {
    /// The format being read.
    pub format: KeypointFormat,
    /// What is wrong.
    pub kind: KeypointErrorKind,
    /// Where, when the reader knows.
    pub location: Option<Location>,
    /// The field, column or array at fault, when one is.
    pub field: Option<String>,
}

impl KeypointError {
    pub(crate) fn new(format: KeypointFormat, kind: KeypointErrorKind) -> KeypointError {
        KeypointError { format, kind, location: None, field: None }
    }

    pub(crate) fn at(mut self, location: Location) -> KeypointError {
        self.location = Some(location);
        self
    }

    pub(crate) fn at_line(self, line: u64, column: Option<u64>) -> KeypointError {
        self.at(Location::Line { line, column })
    }

    pub(crate) fn at_offset(self, offset: usize) -> KeypointError {
        self.at(Location::Offset(offset as u64))
    }

    pub(crate) fn field(mut self, field: impl Into<String>) -> KeypointError {
        self.field = Some(field.into());
        self
    }
}

impl Categorize for KeypointError {
    fn category(&self) -> Category {
        match self.kind {
            KeypointErrorKind::WrongFormat(_) => Category::WrongFormat,
            KeypointErrorKind::Unsupported(_) | KeypointErrorKind::FeatureDisabled { .. } => {
                Category::Unsupported
            }
            KeypointErrorKind::Truncated { .. } => Category::Truncated,
            KeypointErrorKind::Syntax(_)
            | KeypointErrorKind::Ragged { .. }
            | KeypointErrorKind::Invalid(_)
            | KeypointErrorKind::NoFrames
            | KeypointErrorKind::NoJoints
            | KeypointErrorKind::AllMissing => Category::Invalid,
        }
    }
}

/// ", line 3, column 4" or ", byte offset 12", nothing when the place is unknown.
struct At<'a>(&'a Option<Location>);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(Location::Line { line, column: Some(column) }) => {
                write!(f, ", line {line}, column {column}")
            }
            Some(Location::Line { line, column: None }) => write!(f, ", line {line}"),
            Some(Location::Offset(offset)) => write!(f, ", byte offset {offset}"),
            None => Ok(()),
        }
    }
}

/// ", field `x`" when a field is at fault.
struct InField<'a>(&'a Option<String>);

impl fmt::Display for InField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(field) => write!(f, ", field `{}`", crate::shown::Shown(field)),
            None => Ok(()),
        }
    }
}
