//! Motions as one CSV table: UTF-8 (with a BOM only when asked, [`CsvOptions::bom`], since
//! spreadsheets need one and most other readers keep it as part of the first column), a header row, then
//! `#meta` rows for the file-level fields and one row per keyframe with a `section` column.
//! Cells a section does not use stay empty. The layout is in `docs/csv-format.md`.
//!
//! As with JSON, cells are decoded and typed, and a row carries its record's bytes as hex in the
//! `raw` column only when a plain write of its cells would differ from them; an edited cell wins
//! over raw bytes that no longer agree with it. VMD → CSV → VMD is byte-identical.
//!
//! ```
//! use vmdkit::convert;
//! let motion = vmdkit::example::example_motion();
//! let text = convert::to_csv_string(&motion);
//! assert!(text.lines().any(|l| l.starts_with("bone,右腕,15,")));
//! assert_eq!(convert::from_csv_str(&text).unwrap().motion.to_bytes(), motion.to_bytes());
//! ```

mod meta;
mod read;
mod write;

#[cfg(test)]
mod tests;

use super::{ConvertError, Converted};
use crate::format::Motion;
use std::io::{self, Write};

/// The columns, in the order written. Readers find columns by name, so they may be reordered
/// or left out (empty), but unknown columns are refused to catch typos.
pub const COLUMNS: [&str; 35] = [
    "section",
    "name",
    "frame",
    "x",
    "y",
    "z",
    "qx",
    "qy",
    "qz",
    "qw",
    "euler_x",
    "euler_y",
    "euler_z",
    "rx",
    "ry",
    "rz",
    "weight",
    "distance",
    "view_angle",
    "perspective",
    "r",
    "g",
    "b",
    "mode",
    "visible",
    "enabled",
    "curve_x",
    "curve_y",
    "curve_z",
    "curve_rotation",
    "curve_distance",
    "curve_view_angle",
    "physics",
    "raw",
    "value",
];

/// Column indices into [`COLUMNS`].
mod col {
    pub const SECTION: usize = 0;
    pub const NAME: usize = 1;
    pub const FRAME: usize = 2;
    pub const XYZ: [usize; 3] = [3, 4, 5];
    pub const QUAT: [usize; 4] = [6, 7, 8, 9];
    pub const EULER: [usize; 3] = [10, 11, 12];
    pub const RXYZ: [usize; 3] = [13, 14, 15];
    pub const WEIGHT: usize = 16;
    pub const DISTANCE: usize = 17;
    pub const VIEW_ANGLE: usize = 18;
    pub const PERSPECTIVE: usize = 19;
    pub const RGB: [usize; 3] = [20, 21, 22];
    pub const MODE: usize = 23;
    pub const VISIBLE: usize = 24;
    pub const ENABLED: usize = 25;
    /// Bone curves are the first four; camera curves all six.
    pub const CURVES: [usize; 6] = [26, 27, 28, 29, 30, 31];
    pub const PHYSICS: usize = 32;
    pub const RAW: usize = 33;
    pub const VALUE: usize = 34;
}

/// The `section` value of rows holding file-level fields (key in `name`, value in `value`).
pub const META: &str = "#meta";
/// The `section` value of IK rows, which belong to the `property` row above them.
pub const IK: &str = "ik";

/// What reading a CSV table gives.
type CsvResult<T> = std::result::Result<T, ConvertError>;

/// An error at `line` (and `column`, by its index in [`COLUMNS`]) of the table.
fn csv_error(line: u64, column: Option<usize>, reason: impl Into<String>) -> ConvertError {
    ConvertError::Csv {
        line,
        column: column.map(|c| COLUMNS[c].to_string()),
        reason: reason.into(),
    }
}

/// How [`write_csv`] writes a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsvOptions {
    /// Start with UTF-8's byte-order mark: Excel reads a CSV without one in the system code
    /// page, which garbles every Japanese name, while Python's `csv` module and most other
    /// readers take the mark as part of the first header (`'\u{FEFF}section'`). The readers
    /// here accept the table with or without it.
    pub bom: bool,
    /// At most this many of the bytes after the last section. When that cuts them (or they
    /// were cut before, [`Motion::trailing_omitted`]), a `#meta` `trailing_len` row records
    /// their full length, and reading it back says the VMD it makes differs.
    pub max_trailing: usize,
}

impl Default for CsvOptions {
    /// No byte-order mark, every trailing byte.
    fn default() -> Self {
        CsvOptions { bom: false, max_trailing: usize::MAX }
    }
}

/// Writes the motion as CSV to `w`, as `options` say.
pub fn write_csv(motion: &Motion, w: impl Write, options: CsvOptions) -> io::Result<()> {
    write::write(motion, w, options.max_trailing, options.bom)
}

/// The motion as CSV text, without a byte-order mark (as [`write_csv`]).
pub fn to_csv_string(motion: &Motion) -> String {
    let mut out = Vec::with_capacity(1024 + 160 * (motion.bones.len() + motion.morphs.len()));
    write::write(motion, &mut out, usize::MAX, false).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the CSV writer writes UTF-8")
}

/// Reads a motion from CSV text. Lossy edits (a name too long for its field, characters the
/// encoding lacks) are made and returned as warnings beside the motion (`CSV line 12: name:
/// ...`).
pub fn from_csv_str(text: &str) -> Result<Converted, ConvertError> {
    read::read(text.as_bytes())
}

/// Reads a motion from CSV as it comes from `r`, buffered: memory holds the motion being
/// built, not the table. A cell that is not UTF-8 is an error naming its line. Lossy edits
/// are returned as in [`from_csv_str`].
pub fn from_csv_reader(r: impl io::Read) -> Result<Converted, ConvertError> {
    read::read(r)
}
