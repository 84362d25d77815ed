//! Conversions between motions and text formats people can read and edit (JSON, CSV).
//!
//! Both formats put decoded, typed fields first and add raw bytes only where a plain write of
//! those fields would not reproduce the file (odd name padding, undecodable names, old-style
//! interpolation blocks, flag bytes other than 0/1, unusual signatures, trailing bytes). So a
//! VMD converted to text and back is byte-identical, the common case stays readable, and an
//! edited field always wins over raw bytes that no longer agree with it. The one way to lose
//! bytes is to ask for it: [`JsonOptions::max_trailing`] and [`CsvOptions::max_trailing`] may
//! keep only the first of a padded file's trailing bytes, and the document then records how
//! many there were. Readers return the motion with the lossy edits they made
//! ([`Converted`]), each a typed [`ConvertWarning`].
//!
//! Reading streams: keys go from the text straight into the motion, so reading a document from
//! a reader holds the motion, not the text.
//!
//! The layouts are documented in `docs/json-format.md` (with `docs/vmd-json.schema.json`) and
//! `docs/csv-format.md`.

#[cfg(feature = "csv")]
pub(crate) mod csv;
#[cfg(feature = "json")]
pub(crate) mod json;

#[cfg(feature = "csv")]
pub use csv::{
    from_csv_reader, from_csv_str, to_csv_string, write_csv, CsvOptions, COLUMNS as CSV_COLUMNS,
    IK as CSV_IK, META as CSV_META,
};
#[cfg(feature = "json")]
pub use json::{
    from_json_reader, from_json_seekable, from_json_str, from_json_value, to_json, to_json_string,
    write_json, JsonOptions,
};
#[cfg(any(feature = "json", feature = "csv"))]
pub use warning::{ConvertWarning, ConvertWarningKind, Converted};

#[cfg(any(feature = "json", feature = "csv"))]
mod deferred;
#[cfg(any(feature = "json", feature = "csv"))]
mod fields;
#[cfg(any(feature = "json", feature = "csv"))]
mod scalar;
#[cfg(all(test, any(feature = "json", feature = "csv")))]
mod test_motions;
#[cfg(any(feature = "json", feature = "csv"))]
mod trailing;
#[cfg(any(feature = "json", feature = "csv"))]
mod warning;

use crate::error::{Categorize, Category};
use crate::format::Section;
use std::fmt;

/// The version of the document layout shared by JSON documents and CSV tables (its
/// `schema_version`); readers refuse documents from a newer one.
pub const SCHEMA_VERSION: u32 = 1;
/// The value of the `format` field that marks a JSON document or CSV table as a vmdkit motion.
pub const FORMAT: &str = "vmdkit-motion";

/// Why a JSON or CSV document could not be turned into a motion, and where. The message is one
/// line: the location (JSON line and column, JSON path, or CSV line and column), then the reason.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The text is not well-formed JSON, or a value has the wrong type or shape. Shown with the
    /// field's path when the reader was inside one: `JSON line 9, column 31:
    /// bones[12].rotation[3]: invalid type: ...`.
    #[error("JSON line {line}, column {column}: {}{message}", in_field(path.as_deref()))]
    Json {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// The JSON path of the field the reader was in (`bones[12].rotation[3]`), if any.
        path: Option<String>,
        /// The JSON reader's description.
        message: String,
    },
    /// The document is not a vmdkit motion at all (no or another `format`).
    #[error("not a vmdkit motion document: {reason}")]
    NotAMotion {
        /// What is missing or what the document says it is.
        reason: String,
    },
    /// The document was written for a schema version this library does not know.
    #[error("schema_version {found} is not supported (this vmdkit reads version {supported})")]
    UnsupportedSchema {
        /// The document's `schema_version`.
        found: u64,
        /// The version this library reads.
        supported: u32,
    },
    /// A JSON field has a value that cannot be used, e.g. `vmd_version` 3 or a bone with both
    /// `rotation` and `euler_deg`. Shown as a path: `bones[2].euler_deg: ...`.
    #[error("{}: {reason}", FieldPath { section: *section, record: *record, field })]
    Field {
        /// `None` for document-level fields such as `model_name_raw`.
        section: Option<Section>,
        /// The key's index within its section.
        record: Option<usize>,
        /// The field's name within the key or document; empty for the key as a whole.
        field: String,
        /// Why the value cannot be used.
        reason: String,
    },
    /// A CSV row or cell cannot be used.
    #[error("CSV line {line}{}: {reason}", in_column(column.as_deref()))]
    Csv {
        /// 1-based line, counting the header.
        line: u64,
        /// The column's header name, when one cell is at fault.
        column: Option<String>,
        /// Why the row or cell cannot be used.
        reason: String,
    },
    /// The input could not be read.
    #[error("reading input: {0}")]
    Io(#[from] std::io::Error),
}

impl Categorize for ConvertError {
    fn category(&self) -> Category {
        match self {
            ConvertError::Io(_) => Category::Io,
            ConvertError::NotAMotion { .. } => Category::WrongFormat,
            ConvertError::UnsupportedSchema { .. } => Category::Unsupported,
            ConvertError::Json { .. } | ConvertError::Field { .. } | ConvertError::Csv { .. } => {
                Category::Invalid
            }
        }
    }
}

fn in_field(path: Option<&str>) -> String {
    path.map(|p| format!("{p}: ")).unwrap_or_default()
}

fn in_column(column: Option<&str>) -> String {
    column.map(|c| format!(", column `{}`", crate::shown::Shown(c))).unwrap_or_default()
}

/// UTF-8's byte-order mark, which editors on Windows put before JSON and CSV text.
#[cfg(any(feature = "json", feature = "csv"))]
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Skips a byte-order mark at the start of `r`, however the reader splits its first bytes.
#[cfg(any(feature = "json", feature = "csv"))]
fn skip_bom(r: &mut impl std::io::BufRead) -> std::io::Result<()> {
    let mut matched = 0;
    while matched < BOM.len() {
        let buf = r.fill_buf()?;
        let n = buf.len().min(BOM.len() - matched);
        if n == 0 {
            break;
        }
        if buf[..n] != BOM[matched..matched + n] {
            if matched == 0 {
                return Ok(());
            }
            // The bytes read are gone, and they were no text anyway.
            let kind = std::io::ErrorKind::InvalidData;
            return Err(std::io::Error::new(kind, "not UTF-8: starts with a cut byte-order mark"));
        }
        r.consume(n);
        matched += n;
    }
    Ok(())
}

/// The JSON array a section's keys are in.
pub(crate) fn section_key(section: Section) -> &'static str {
    match section {
        Section::Bone => "bones",
        Section::Morph => "morphs",
        Section::Camera => "cameras",
        Section::Light => "lights",
        Section::SelfShadow => "self_shadows",
        Section::Property => "properties",
    }
}

/// Formats a location as a JSON path (`bones[3].name_raw`), which users can search for.
pub(crate) struct FieldPath<'a> {
    pub section: Option<Section>,
    pub record: Option<usize>,
    pub field: &'a str,
}

impl fmt::Display for FieldPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(section) = self.section {
            f.write_str(section_key(section))?;
            if let Some(record) = self.record {
                write!(f, "[{record}]")?;
            }
            if !self.field.is_empty() {
                f.write_str(".")?;
            }
        }
        f.write_str(self.field)
    }
}
