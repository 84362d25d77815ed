//! Motions as JSON documents: `"format": "vmdkit-motion"`, `"schema_version": 1`.
//!
//! Every field is decoded and typed (names as text in the file's encoding, floats as numbers,
//! curves as `[x1, y1, x2, y2]`), and raw bytes appear as hex only where a plain write would not
//! reproduce the file, so VMD → JSON → VMD is byte-identical and an edited document still makes
//! a VMD written the way MMD writes one. The layout is in `docs/json-format.md` and the schema in
//! `docs/vmd-json.schema.json`.
//!
//! ```
//! use vmdkit::convert;
//! let motion = vmdkit::example::example_motion();
//! let text = convert::to_json_string(&motion, true);
//! assert!(text.contains(r#""name": "右腕""#));
//! assert_eq!(convert::from_json_str(&text).unwrap().motion.to_bytes(), motion.to_bytes());
//! ```

mod keys;
mod read;
mod write;

#[cfg(test)]
mod tests;

use super::{ConvertError, Converted};
use crate::format::Motion;
use serde::Serialize;
use std::io::{self, Write};

/// The motion as a JSON value tree. Floats hold the shortest decimal of each f32, so the tree
/// prints as readably as [`to_json_string`] and reads back to the same bits.
pub fn to_json(motion: &Motion) -> serde_json::Value {
    let document = write::Document::new(motion, write::FloatStyle::Decimal, usize::MAX);
    serde_json::to_value(document).expect("a motion document always converts to a JSON value")
}

/// The motion as JSON text. `pretty` puts each key on its own line (see
/// [`JsonOptions::pretty`]).
pub fn to_json_string(motion: &Motion, pretty: bool) -> String {
    // About 250 bytes per bone key; reserving avoids regrowing the buffer for big motions.
    let mut out = Vec::with_capacity(1024 + 256 * (motion.bones.len() + motion.morphs.len()));
    write_into(motion, &mut out, pretty, usize::MAX).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// How [`write_json`] lays a document out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonOptions {
    /// Indent the document's top level and the section arrays and put each keyframe on one
    /// line, so big motions stay scrollable and diffs show whole keys; otherwise the text is
    /// one compact line.
    pub pretty: bool,
    /// At most this many of the bytes after the last section. When that cuts them (or they
    /// were cut before, [`Motion::trailing_omitted`]), the document records their full length
    /// in `trailing_len`, and reading it back says the VMD it makes differs.
    pub max_trailing: usize,
}

impl Default for JsonOptions {
    /// Compact, with every trailing byte.
    fn default() -> Self {
        JsonOptions { pretty: false, max_trailing: usize::MAX }
    }
}

/// Streams the motion as JSON to `w`, buffered, laid out as `options` say.
pub fn write_json(motion: &Motion, w: impl Write, options: JsonOptions) -> io::Result<()> {
    let mut w = io::BufWriter::with_capacity(1 << 16, w);
    write_into(motion, &mut w, options.pretty, options.max_trailing)?;
    w.flush()
}

fn write_into(
    motion: &Motion,
    w: &mut impl Write,
    pretty: bool,
    max_trailing: usize,
) -> io::Result<()> {
    let document = write::Document::new(motion, write::FloatStyle::Native, max_trailing);
    if pretty {
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut *w, write::KeyPerLine::default());
        document.serialize(&mut serializer)?;
        w.write_all(b"\n")
    } else {
        Ok(serde_json::to_writer(w, &document)?)
    }
}

/// Reads a motion document. Lossy edits (a name too long for its field, characters the
/// encoding lacks) are made and returned as warnings beside the motion.
pub fn from_json_str(text: &str) -> Result<Converted, ConvertError> {
    read::from_slice(text.as_bytes())
}

/// Reads a motion document from `r` as it comes, buffered: memory holds the motion being
/// built, not the text. Lossy edits are returned as in [`from_json_str`]. A shape error is
/// reported as found, even when `format` or `schema_version` later in the text would have
/// shown the document is not one this library reads ([`from_json_str`] looks back for them),
/// and its path names the key (`bones[12]`) but not the field in it.
pub fn from_json_reader(r: impl io::Read) -> Result<Converted, ConvertError> {
    read::from_reader(r)
}

/// Like [`from_json_reader`], for a reader that can go back to where it started (a file):
/// after a JSON error it reads the text again, as [`from_json_str`] would look back, for the
/// document's identity and the field's full path (`bones[12].rotation[3]`). A read that
/// succeeds costs what a streamed one does.
pub fn from_json_seekable(r: impl io::Read + io::Seek) -> Result<Converted, ConvertError> {
    read::from_seekable(r)
}

/// Reads a motion from a JSON value tree such as [`to_json`] returns, with its lossy edits as
/// in [`from_json_str`]. Errors carry no line numbers, since a value tree has none.
pub fn from_json_value(value: serde_json::Value) -> Result<Converted, ConvertError> {
    read::from_value(value)
}
