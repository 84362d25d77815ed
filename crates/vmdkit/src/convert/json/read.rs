//! Reading a motion document in one pass, from bytes or a reader, without a value tree: the
//! document's fields are visited in order, the section arrays go key by key into the motion
//! ([`super::keys`]), and what needs the whole document (the encoding, the identity) is
//! settled at the end.

use super::keys::{HexAppend, HexIn, HexText, SectionSeed, State};
use crate::convert::fields::{self, NamesIn};
use crate::convert::scalar::parse_encoding;
use crate::convert::{section_key, skip_bom, trailing, ConvertError, Converted, BOM};
use crate::convert::{FORMAT, SCHEMA_VERSION};
use crate::format::{Header, Section, Version};
use crate::text::TextEncoding;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;
use std::io::{self, Read, Seek, SeekFrom};

pub(super) fn from_slice(bytes: &[u8]) -> Result<Converted, ConvertError> {
    // Editors on Windows may save JSON with a BOM, which JSON parsers reject.
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    read(&mut de, || serde_json::from_slice::<Identity>(bytes).ok()).map_err(|err| {
        locate(err, || tracked_path(&mut serde_json::Deserializer::from_slice(bytes)))
    })
}

pub(super) fn from_reader(r: impl Read) -> Result<Converted, ConvertError> {
    let mut de = serde_json::Deserializer::from_reader(text_reader(r)?);
    // What was read is gone: a shape error is reported as it is, unless the fields read
    // before it already said the document is not a motion, and its path goes down to the key.
    read(&mut de, || None)
}

/// Like [`from_reader`], then on a JSON error back to where the reader started, to read again
/// what [`from_slice`] looks back for: the document's identity and the field's full path.
pub(super) fn from_seekable<R: Read + Seek>(mut r: R) -> Result<Converted, ConvertError> {
    let start = r.stream_position()?;
    let err = match from_reader(&mut r) {
        Err(err @ ConvertError::Json { .. }) => err,
        done => return done,
    };
    let identity =
        rewound(&mut r, start).and_then(|text| serde_json::from_reader::<_, Identity>(text).ok());
    if let Some(explained) =
        identity.and_then(|id| identity_error(id.format.as_ref(), id.schema_version.as_ref()))
    {
        return Err(explained);
    }
    Err(locate(err, || {
        tracked_path(&mut serde_json::Deserializer::from_reader(rewound(&mut r, start)?))
    }))
}

/// `r` back at `start`, as [`text_reader`].
fn rewound<R: Read + Seek>(r: &mut R, start: u64) -> Option<io::BufReader<&mut R>> {
    r.seek(SeekFrom::Start(start)).ok()?;
    text_reader(r).ok()
}

/// `r` buffered, after its byte-order mark if it has one.
fn text_reader<R: Read>(r: R) -> io::Result<io::BufReader<R>> {
    let mut r = io::BufReader::with_capacity(1 << 16, r);
    skip_bom(&mut r)?;
    Ok(r)
}

pub(super) fn from_value(value: Value) -> Result<Converted, ConvertError> {
    let identity = || Identity::deserialize(&value).ok();
    let mut state = State::new();
    let head = DocSeed { state: &mut state }.deserialize(&value);
    finish(head, state, identity).map_err(|err| locate(err, || tracked_path(&value)))
}

fn read<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
    identity: impl FnOnce() -> Option<Identity>,
) -> Result<Converted, ConvertError> {
    let mut state = State::new();
    let head = DocSeed { state: &mut state }.deserialize(&mut *de).and_then(|head| {
        de.end()?;
        Ok(head)
    });
    finish(head, state, identity)
}

/// A JSON error with the full path of the field it is in (`bones[12].rotation[3]`), which
/// `again` finds by reading the document once more, through serde_path_to_error. Only errors
/// pay for it: tracking every field of every key would slow every read by half.
fn locate(err: ConvertError, again: impl FnOnce() -> Option<String>) -> ConvertError {
    match err {
        ConvertError::Json { line, column, path, message } => {
            ConvertError::Json { line, column, path: again().or(path), message }
        }
        other => other,
    }
}

/// The path serde_path_to_error tracks a document's read to when it fails; `None` when it does
/// not fail there (text after the document) or fails at its root.
fn tracked_path<'de, D: Deserializer<'de>>(d: D) -> Option<String> {
    let mut state = State::new();
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(d, &mut track);
    let failed = DocSeed { state: &mut state }.deserialize(tracked).is_err();
    let path = track.path();
    (failed && path.iter().next().is_some()).then(|| path.to_string())
}

/// Only the fields that say what a document is, read again when a shape error may have been
/// caused by a document that is not a motion, or a newer one.
#[derive(Deserialize)]
struct Identity {
    format: Option<Value>,
    schema_version: Option<Value>,
}

fn identity_error(format: Option<&Value>, schema: Option<&Value>) -> Option<ConvertError> {
    let format = format.map(|f| f.as_str().unwrap_or("(not a string)"));
    check_identity(format, schema.map(|v| v.as_u64())).err()
}

fn check_identity(
    format: Option<&str>,
    schema_version: Option<Option<u64>>,
) -> Result<(), ConvertError> {
    match format {
        Some(FORMAT) => {}
        Some(other) => {
            return Err(ConvertError::NotAMotion {
                reason: format!("format is {other:?}, expected {FORMAT:?}"),
            })
        }
        None => {
            return Err(ConvertError::NotAMotion {
                reason: format!("no \"format\": {FORMAT:?} field"),
            })
        }
    }
    match schema_version.flatten() {
        Some(v) if v == SCHEMA_VERSION as u64 => Ok(()),
        Some(found) => Err(ConvertError::UnsupportedSchema { found, supported: SCHEMA_VERSION }),
        None => Err(ConvertError::NotAMotion { reason: "no numeric schema_version field".into() }),
    }
}

/// serde_json's error, at `path` when it is known.
fn json_error(err: serde_json::Error, path: Option<String>) -> ConvertError {
    let (line, column) = (err.line(), err.column());
    let mut message = err.to_string();
    let suffix = format!(" at line {line} column {column}");
    if message.ends_with(&suffix) {
        message.truncate(message.len() - suffix.len());
    }
    ConvertError::Json { line, column, path, message }
}

/// The document-level fields, as given.
#[derive(Default)]
struct Head {
    format: Option<Value>,
    schema_version: Option<Value>,
    vmd_version: Option<u8>,
    encoding: Option<TextEncoding>,
    model_name: String,
    model_name_raw: Option<Vec<u8>>,
    signature_raw: Option<[u8; 30]>,
    sections_present: Option<u64>,
    trailing_len: Option<u64>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    #[serde(rename = "$schema")]
    Schema,
    Format,
    SchemaVersion,
    VmdVersion,
    Encoding,
    ModelName,
    ModelNameRaw,
    SignatureRaw,
    Bones,
    Morphs,
    Cameras,
    Lights,
    SelfShadows,
    Properties,
    SectionsPresent,
    Trailing,
    TrailingLen,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Schema => "$schema",
            Field::Format => "format",
            Field::SchemaVersion => "schema_version",
            Field::VmdVersion => "vmd_version",
            Field::Encoding => "encoding",
            Field::ModelName => "model_name",
            Field::ModelNameRaw => "model_name_raw",
            Field::SignatureRaw => "signature_raw",
            Field::Bones => "bones",
            Field::Morphs => "morphs",
            Field::Cameras => "cameras",
            Field::Lights => "lights",
            Field::SelfShadows => "self_shadows",
            Field::Properties => "properties",
            Field::SectionsPresent => "sections_present",
            Field::Trailing => "trailing",
            Field::TrailingLen => "trailing_len",
        }
    }

    /// This field's bit in a set of fields seen.
    fn bit(self) -> u32 {
        1 << self as u32
    }

    fn section(self) -> Option<Section> {
        Some(match self {
            Field::Bones => Section::Bone,
            Field::Morphs => Section::Morph,
            Field::Cameras => Section::Camera,
            Field::Lights => Section::Light,
            Field::SelfShadows => Section::SelfShadow,
            Field::Properties => Section::Property,
            _ => return None,
        })
    }
}

struct EncodingIn(TextEncoding);

impl<'de> Deserialize<'de> for EncodingIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        parse_encoding(&String::deserialize(d)?).map(EncodingIn).map_err(de::Error::custom)
    }
}

/// Reads the document object: fields in any order, each at most once.
struct DocSeed<'s> {
    state: &'s mut State,
}

impl<'de> DeserializeSeed<'de> for DocSeed<'_> {
    type Value = Head;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Head, D::Error> {
        d.deserialize_any(self)
    }
}

impl DocSeed<'_> {
    fn not_an_object<E: de::Error>(self) -> Result<Head, E> {
        let reason = "the document is not a JSON object".into();
        Err(self.state.stop(ConvertError::NotAMotion { reason }))
    }

    /// Stops at once when the fields read so far say this is not a motion, or a newer one,
    /// rather than at the first field such a document does not have.
    fn check_early<E: de::Error>(&mut self, head: &Head) -> Result<(), E> {
        let Some(format) = &head.format else { return Ok(()) };
        if head.schema_version.is_none() && format.as_str() == Some(FORMAT) {
            return Ok(());
        }
        match identity_error(Some(format), head.schema_version.as_ref()) {
            Some(err) => Err(self.state.stop(err)),
            None => Ok(()),
        }
    }
}

impl<'de> Visitor<'de> for DocSeed<'_> {
    type Value = Head;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a vmdkit motion document (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Head, A::Error> {
        let mut head = Head::default();
        let mut seen = 0u32;
        let mut trailing = Vec::new();
        while let Some(field) = map.next_key::<Field>()? {
            if seen & field.bit() != 0 {
                return Err(de::Error::duplicate_field(field.name()));
            }
            seen |= field.bit();
            if let Some(section) = field.section() {
                map.next_value_seed(SectionSeed { state: &mut *self.state, section })?;
                continue;
            }
            match field {
                Field::Schema => drop(map.next_value::<IgnoredAny>()?),
                Field::Format => {
                    head.format = Some(map.next_value()?);
                    self.check_early(&head)?;
                }
                Field::SchemaVersion => {
                    head.schema_version = Some(map.next_value()?);
                    self.check_early(&head)?;
                }
                Field::VmdVersion => head.vmd_version = Some(map.next_value()?),
                Field::Encoding => head.encoding = Some(map.next_value::<EncodingIn>()?.0),
                Field::ModelName => head.model_name = map.next_value()?,
                Field::ModelNameRaw => {
                    let mut raw = Vec::new();
                    map.next_value_seed(HexText(&mut raw))?;
                    head.model_name_raw = Some(raw);
                }
                Field::SignatureRaw => head.signature_raw = Some(map.next_value::<HexIn<30>>()?.0),
                Field::SectionsPresent => head.sections_present = Some(map.next_value()?),
                Field::Trailing => map.next_value_seed(HexAppend(&mut trailing))?,
                Field::TrailingLen => head.trailing_len = Some(map.next_value()?),
                _ => unreachable!("sections are read above"),
            }
        }
        if let Some(err) = identity_error(head.format.as_ref(), head.schema_version.as_ref()) {
            return Err(self.state.stop(err));
        }
        if seen & Field::ModelName.bit() == 0 {
            return Err(de::Error::missing_field("model_name"));
        }
        self.state.motion.trailing = trailing;
        Ok(head)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Head, A::Error> {
        self.not_an_object()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Head, E> {
        self.not_an_object()
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Head, E> {
        self.not_an_object()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Head, E> {
        self.not_an_object()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Head, E> {
        self.not_an_object()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Head, E> {
        self.not_an_object()
    }
    fn visit_unit<E: de::Error>(self) -> Result<Head, E> {
        self.not_an_object()
    }
}

fn top(field: &str, reason: String) -> ConvertError {
    ConvertError::Field { section: None, record: None, field: field.into(), reason }
}

/// The motion from a read document: an error the read kept comes first, then a shape error
/// (unless the document's identity explains it), then the header, the names and the trailing
/// bytes, which need the whole document.
fn finish(
    head: Result<Head, serde_json::Error>,
    state: State,
    identity: impl FnOnce() -> Option<Identity>,
) -> Result<Converted, ConvertError> {
    let State { mut motion, names: deferred, error, reading } = state;
    if let Some(err) = error {
        return Err(err);
    }
    let key = reading.map(|s| format!("{}[{}]", section_key(s), motion.count(s)));
    let head = head.map_err(|err| {
        if err.is_io() {
            return ConvertError::Io(err.into());
        }
        let explained = identity()
            .and_then(|id| identity_error(id.format.as_ref(), id.schema_version.as_ref()));
        explained.unwrap_or_else(|| json_error(err, key))
    })?;
    let version = version_in(head.vmd_version)?;
    motion.sections_present = sections_present_in(head.sections_present)?;
    let mut names = NamesIn::new(head.encoding.unwrap_or(TextEncoding::ShiftJis));
    // The model name's warnings come before any key's.
    let model_name = names
        .model_name(version, &head.model_name, head.model_name_raw.as_deref())
        .map_err(|e| top(&e.field, e.reason))?;
    let mut warnings = std::mem::take(&mut names.warnings);
    let signature = fields::signature_in(version, head.signature_raw);
    motion.header = Header { signature, model_name };
    warnings.extend(deferred.resolve(&mut motion, &mut names));
    if let Some(len) = head.trailing_len {
        motion.trailing_omitted = trailing_omitted(len, motion.trailing.len())?;
        if motion.trailing_omitted > 0 {
            warnings.push(trailing::cut_warning("trailing_len", len, motion.trailing.len()));
        }
    }
    fields::check_trailing(&motion).map_err(|e| top(&e.field, e.reason))?;
    Ok(Converted { motion, warnings })
}

/// How many bytes a `trailing_len` says were cut from the ones given.
fn trailing_omitted(len: u64, given: usize) -> Result<u64, ConvertError> {
    trailing::omitted(len, given).map_err(|reason| top("trailing_len", reason))
}

fn version_in(vmd_version: Option<u8>) -> Result<Version, ConvertError> {
    match vmd_version.unwrap_or(2) {
        1 => Ok(Version::V1),
        2 => Ok(Version::V2),
        v => Err(top("vmd_version", format!("{v} is not a VMD version (1 or 2)"))),
    }
}

fn sections_present_in(sections_present: Option<u64>) -> Result<usize, ConvertError> {
    match sections_present {
        None => Ok(6),
        Some(n @ 0..=6) => Ok(n as usize),
        Some(n) => {
            Err(top("sections_present", format!("{n} is more than the 6 sections a VMD has")))
        }
    }
}
