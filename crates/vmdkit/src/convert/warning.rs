//! What the text readers changed to make a VMD of a document, as values: a front end can count,
//! sort or word them, and `Display` gives the one-line message (`bones[3].name: ...`).

use crate::format::Motion;
use crate::shown::shown;
use crate::text::TextEncoding;
use std::fmt;

/// A motion read from JSON or CSV, with the lossy edits reading it made.
#[derive(Clone, Debug)]
pub struct Converted {
    /// The motion as read.
    pub motion: Motion,
    /// The lossy edits, in the order the reader met them; empty when the VMD it makes holds
    /// everything the document says.
    pub warnings: Vec<ConvertWarning>,
}

/// One lossy edit of a text reader. Shown as `field: what happened`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConvertWarning {
    /// Where: the field's JSON path (`bones[3].name`), or the CSV line and field
    /// (`CSV line 12: name`).
    pub field: String,
    /// What was changed.
    pub kind: ConvertWarningKind,
}

/// What a text reader changed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConvertWarningKind {
    /// A name longer than its field in the encoding, cut to fit.
    NameShortened {
        /// The name as the document gives it.
        text: String,
        /// The field's width in bytes.
        bytes: usize,
        /// The motion's text encoding.
        encoding: TextEncoding,
        /// The name as the VMD holds it.
        written: String,
    },
    /// A name with characters the encoding lacks, written with replacements.
    NameUnencodable {
        /// The name as the document gives it.
        text: String,
        /// The motion's text encoding.
        encoding: TextEncoding,
        /// The name as the VMD holds it.
        written: String,
    },
    /// The document holds only the first of the VMD's trailing bytes (a writer cut them), so
    /// the VMD made from it is not the original.
    TrailingCut {
        /// How many trailing bytes the original VMD had.
        len: u64,
        /// How many of them the document holds.
        given: usize,
    },
}

impl ConvertWarning {
    pub(crate) fn new(field: impl Into<String>, kind: ConvertWarningKind) -> Self {
        ConvertWarning { field: field.into(), kind }
    }
}

impl fmt::Display for ConvertWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.kind)
    }
}

impl fmt::Display for ConvertWarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Names may be whole 20 MB cells: messages show them cut.
        match self {
            ConvertWarningKind::NameShortened { text, bytes, encoding, written } => write!(
                f,
                "{:?} is longer than {bytes} bytes in {}; shortened to {:?}",
                shown(text),
                encoding.label(),
                shown(written)
            ),
            ConvertWarningKind::NameUnencodable { text, encoding, written } => write!(
                f,
                "{:?} has characters {} cannot encode; written as {:?}",
                shown(text),
                encoding.label(),
                shown(written)
            ),
            ConvertWarningKind::TrailingCut { len, given } => write!(
                f,
                "the VMD had {len} bytes after its last section, of which this document holds \
                 the first {given}; the VMD made from it lacks the other {}",
                len - *given as u64
            ),
        }
    }
}
