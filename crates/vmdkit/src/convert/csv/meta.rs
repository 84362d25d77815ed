//! The `#meta` rows: file-level fields, which may come anywhere in the table. They are
//! gathered as the rows stream past (a sheet that says it is something else stops the read at
//! once) and applied when the table ends, with the names the key rows left for the encoding.

use super::{col, csv_error, CsvResult as Result, META};
use crate::convert::deferred::DeferredNames;
use crate::convert::fields::{self, NamesIn};
use crate::convert::scalar::{parse_encoding, unhex, unhex_append};
use crate::convert::{trailing, ConvertError, ConvertWarning};
use crate::convert::{FORMAT, SCHEMA_VERSION};
use crate::format::layout::SIGNATURE_LEN;
use crate::format::{Header, Motion, Version};
use crate::text::TextEncoding;
use std::collections::HashMap;

const KEYS: [&str; 10] = [
    "format",
    "schema_version",
    "vmd_version",
    "encoding",
    "model_name",
    "model_name_raw",
    "signature_raw",
    "sections_present",
    "trailing",
    "trailing_len",
];

/// The `#meta` rows read so far: each value with the line it is on, for errors.
#[derive(Default)]
pub(super) struct Meta {
    values: HashMap<&'static str, (String, u64)>,
    /// `trailing` may be split over rows, since one cell of gigabytes of hex would be held
    /// whole; the pieces are decoded as they come. The line is the first row's.
    trailing: Option<(Vec<u8>, u64)>,
}

impl Meta {
    /// Takes one `#meta` row's key and value.
    pub fn add(&mut self, key: &str, value: &str, line: u64) -> Result<()> {
        let Some(&key) = KEYS.iter().find(|&&k| k == key) else {
            let reason = format!("unknown #meta key {key:?}; known keys: {}", KEYS.join(", "));
            return Err(csv_error(line, Some(col::NAME), reason));
        };
        let value = if key == "model_name" { value } else { value.trim() };
        if key == "trailing" {
            let (bytes, _) = self.trailing.get_or_insert_with(|| (Vec::new(), line));
            return unhex_append(value, bytes).map_err(|r| value_err(line, r));
        }
        if self.values.insert(key, (value.to_string(), line)).is_some() {
            return Err(csv_error(line, Some(col::NAME), format!("{META} {key:?} is given twice")));
        }
        match key {
            "format" | "schema_version" => {
                check_identity(self.get("format"), self.get("schema_version"))
            }
            _ => Ok(()),
        }
    }

    fn get(&self, key: &str) -> Option<&(String, u64)> {
        self.values.get(key)
    }

    /// Fills `motion`'s header and file-level fields, and encodes the names of its keys.
    /// Returns the lossy encodings, each with its line.
    pub fn apply(
        mut self,
        motion: &mut Motion,
        deferred: DeferredNames,
    ) -> Result<Vec<ConvertWarning>> {
        let mut take = |key: &str| self.values.remove(key);
        let version = meta_version(take("vmd_version"))?;
        let encoding = match take("encoding") {
            None => TextEncoding::ShiftJis,
            Some((e, line)) => parse_encoding(&e).map_err(|r| value_err(line, r))?,
        };
        let model_name_raw = meta_hex(take("model_name_raw"))?;
        let signature_raw = meta_signature(take("signature_raw"))?;
        motion.sections_present = meta_sections_present(take("sections_present"))?;
        let trailing_len = take("trailing_len");
        let (name, name_line) = take("model_name").unwrap_or_default();

        let raw = model_name_raw.as_ref().map(|(b, _)| &b[..]);
        let mut names = NamesIn::new(encoding);
        let model_name = names.model_name(version, &name, raw).map_err(|e| {
            let line = model_name_raw.as_ref().map_or(name_line, |(_, l)| *l);
            value_err(line, format!("{}: {}", e.field, e.reason))
        })?;
        let mut warnings = names.warnings.split_off(0);
        for warning in &mut warnings {
            warning.field = format!("CSV line {name_line}: {}", warning.field);
        }
        let signature = fields::signature_in(version, signature_raw);
        motion.header = Header { signature, model_name };
        warnings.extend(deferred.resolve(motion, &mut names));
        let trailing_line = self.trailing.as_ref().map_or(1, |(_, line)| *line);
        motion.trailing = self.trailing.map(|(bytes, _)| bytes).unwrap_or_default();
        fields::check_trailing(motion)
            .map_err(|e| value_err(trailing_line, format!("{}: {}", e.field, e.reason)))?;
        if let Some((len, line)) = trailing_len {
            let len = len.parse::<u64>().map_err(|_| {
                value_err(line, format!("trailing_len {len:?} is not a whole number"))
            })?;
            let given = motion.trailing.len();
            motion.trailing_omitted =
                trailing::omitted(len, given).map_err(|r| value_err(line, r))?;
            if motion.trailing_omitted > 0 {
                let field = format!("CSV line {line}: trailing_len");
                warnings.push(trailing::cut_warning(field, len, given));
            }
        }
        Ok(warnings)
    }
}

fn value_err(line: u64, reason: String) -> ConvertError {
    csv_error(line, Some(col::VALUE), reason)
}

/// Unlike a JSON document, a table may leave out `format` and `schema_version`: a hand-made
/// sheet is still read, but a sheet that says it is something else is not.
fn check_identity(format: Option<&(String, u64)>, schema: Option<&(String, u64)>) -> Result<()> {
    if let Some((format, line)) = format {
        if format != FORMAT {
            return Err(value_err(*line, format!("format is {format:?}, expected {FORMAT:?}")));
        }
    }
    if let Some((version, line)) = schema {
        match version.parse::<u64>() {
            Ok(v) if v == SCHEMA_VERSION as u64 => {}
            Ok(found) => {
                return Err(ConvertError::UnsupportedSchema { found, supported: SCHEMA_VERSION })
            }
            Err(_) => {
                return Err(value_err(*line, format!("schema_version {version:?} is not a number")))
            }
        }
    }
    Ok(())
}

fn meta_version(entry: Option<(String, u64)>) -> Result<Version> {
    match entry {
        None => Ok(Version::V2),
        Some((v, _)) if v == "2" => Ok(Version::V2),
        Some((v, _)) if v == "1" => Ok(Version::V1),
        Some((v, line)) => Err(value_err(line, format!("vmd_version {v:?} is not 1 or 2"))),
    }
}

/// The bytes, with the line they came from.
fn meta_hex(entry: Option<(String, u64)>) -> Result<Option<(Vec<u8>, u64)>> {
    entry.map(|(v, line)| unhex(&v).map(|b| (b, line)).map_err(|r| value_err(line, r))).transpose()
}

fn meta_signature(entry: Option<(String, u64)>) -> Result<Option<[u8; SIGNATURE_LEN]>> {
    let Some((bytes, line)) = meta_hex(entry)? else {
        return Ok(None);
    };
    let signature = bytes.try_into().map_err(|b: Vec<u8>| {
        value_err(line, format!("expected 30 bytes of hex, found {}", b.len()))
    })?;
    Ok(Some(signature))
}

fn meta_sections_present(entry: Option<(String, u64)>) -> Result<usize> {
    let Some((n, line)) = entry else {
        return Ok(6);
    };
    match n.parse::<usize>() {
        Ok(n) if n <= 6 => Ok(n),
        _ => Err(value_err(line, format!("sections_present {n:?} is not 0 to 6"))),
    }
}
