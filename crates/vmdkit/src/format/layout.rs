//! Finding the sections of a VMD without decoding its records.
//!
//! Both the owned reader and the zero-copy view start here: the scan checks the header, reads
//! each section's count, proves that the records fit in the file before anything is allocated,
//! and walks the variable-size property records. Fixed-size sections cost O(1) to scan.
//!
//! Lenient scanning repairs the writer quirks seen in real files (a count of 0 followed by
//! records, a count larger than the records present, a bare signature) and says what it did.

use super::repair::Repair;
use crate::error::{Error, ErrorKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The 25 signature bytes of a current ("0002") file; a 20-byte model name follows.
pub const SIGNATURE_V2: &[u8; 25] = b"Vocaloid Motion Data 0002";
/// The 25 signature bytes of a file from MMD 1.30 and earlier; a 10-byte model name follows.
pub const SIGNATURE_V1: &[u8; 25] = b"Vocaloid Motion Data file";
/// The signature field's width.
pub const SIGNATURE_LEN: usize = 30;
const SIGNATURE_STEM: &[u8] = b"Vocaloid Motion Data";

/// The format version, chosen by the signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Version {
    /// "Vocaloid Motion Data file": 10-byte model name.
    V1 = 1,
    /// "Vocaloid Motion Data 0002": 20-byte model name.
    V2 = 2,
}

impl Version {
    /// Bytes in the model name field.
    pub const fn model_name_len(self) -> usize {
        match self {
            Version::V1 => 10,
            Version::V2 => 20,
        }
    }

    /// Bytes before the bone count.
    pub const fn header_len(self) -> usize {
        SIGNATURE_LEN + self.model_name_len()
    }

    /// The version a signature field announces, if it is a VMD signature.
    pub fn from_signature(signature: &[u8]) -> Option<Version> {
        match signature.get(..25)? {
            s if s == SIGNATURE_V2 => Some(Version::V2),
            s if s == SIGNATURE_V1 => Some(Version::V1),
            _ => None,
        }
    }
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

/// The fixed part of a property record; each IK entry adds 21 bytes.
pub const PROPERTY_HEAD_LEN: usize = 9;
/// One IK entry of a property record: a 20-byte name and an on/off byte.
pub const IK_ENTRY_LEN: usize = 21;

/// Where one present section lies in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionSpan {
    /// Offset of the 4-byte count.
    pub count_offset: usize,
    /// The number of records read (after any lenient repair).
    pub count: u32,
    /// The records' bytes: `start..end`.
    pub start: usize,
    /// One past the last record byte; the next section's count starts here.
    pub end: usize,
}

/// The layout of a whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The header's version, which fixes the model name's width and so where sections start.
    pub version: Version,
    /// The sections present, in order; sections after the last one were absent from the file.
    pub sections: Vec<SectionSpan>,
    /// Where the bytes after the last section begin.
    pub end: usize,
}

impl Layout {
    /// The span of `section`, if the file has it.
    pub fn span(&self, section: Section) -> Option<&SectionSpan> {
        self.sections.get(section as usize)
    }
}

/// How strictly to read, and how much of the bytes after the last section to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Repair what can be repaired instead of failing; repairs are reported.
    pub lenient: bool,
    /// The most bytes after the last section that [`Motion`](super::Motion)'s readers copy into
    /// `Motion::trailing`; the rest are counted in `Motion::trailing_omitted` and left unread.
    /// A file padded with gigabytes is then inspected without holding the padding. Views see
    /// every byte whatever this says. `usize::MAX` (the default) keeps them all, so that writing
    /// gives back the file.
    pub max_trailing: usize,
}

impl ReadOptions {
    /// Fail on the first damage found; keep every trailing byte.
    pub const STRICT: ReadOptions = ReadOptions { lenient: false, max_trailing: usize::MAX };
    /// Repair damage where the rest of the file can still be read exactly, reporting each
    /// [`Repair`]; keep every trailing byte.
    pub const LENIENT: ReadOptions = ReadOptions { lenient: true, max_trailing: usize::MAX };

    /// These options, keeping at most `bytes` of the bytes after the last section.
    pub const fn with_max_trailing(self, bytes: usize) -> ReadOptions {
        ReadOptions { max_trailing: bytes, ..self }
    }
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions::STRICT
    }
}

/// Scans `data`'s layout. Strict scanning fails on any damage; lenient scanning repairs it.
pub fn scan(data: &[u8], options: ReadOptions) -> Result<(Layout, Vec<Repair>), Error> {
    let mut repairs = Vec::new();
    let version = scan_header(data, options, &mut repairs)?;
    let header_len = version.header_len();
    match scan_sections(data, header_len, 0, &[]) {
        Ok((sections, end)) => Ok((Layout { version, sections, end }, repairs)),
        Err(err) if !options.lenient => Err(err),
        Err(err) => {
            let (sections, end) =
                super::repair::repair_sections(data, header_len, &err, &mut repairs);
            Ok((Layout { version, sections, end }, repairs))
        }
    }
}

fn scan_header(
    data: &[u8],
    options: ReadOptions,
    repairs: &mut Vec<Repair>,
) -> Result<Version, Error> {
    let head = &data[..data.len().min(SIGNATURE_LEN)];
    let is_cut_signature =
        |sig: &[u8]| head.len() < 25 && !head.is_empty() && sig.starts_with(head);
    if is_cut_signature(SIGNATURE_V2) || is_cut_signature(SIGNATURE_V1) {
        let kind = ErrorKind::TruncatedHeader { needed: SIGNATURE_LEN, available: data.len() };
        return Err(Error::new(kind, data.len()));
    }
    let version = match Version::from_signature(head) {
        Some(version) => version,
        None if options.lenient && head.starts_with(SIGNATURE_STEM) => {
            let sig = String::from_utf8_lossy(head).trim_end_matches('\0').to_string();
            repairs.push(Repair::UnknownSignature { signature: sig });
            Version::V2
        }
        None => {
            let kind = ErrorKind::NotVmd {
                what: describe_non_vmd(data),
                vmd_like: head.starts_with(SIGNATURE_STEM),
            };
            return Err(Error::new(kind, 0));
        }
    };
    if data.len() < version.header_len() {
        let kind =
            ErrorKind::TruncatedHeader { needed: version.header_len(), available: data.len() };
        return Err(Error::new(kind, data.len()));
    }
    Ok(version)
}

/// Says what bytes that are not a VMD look like, so the error helps.
fn describe_non_vmd(data: &[u8]) -> String {
    let head = &data[..data.len().min(64)];
    if data.is_empty() {
        return "the file is empty".into();
    }
    if data.starts_with(b"version https://git-lfs") {
        return "a Git LFS pointer, not the file's content".into();
    }
    if data.starts_with(SIGNATURE_STEM) {
        let sig = String::from_utf8_lossy(&head[..head.len().min(30)]);
        return format!("unknown signature {:?}", sig.trim_end_matches('\0'));
    }
    // A file of a known kind is named as what it is, in the words every front end uses.
    let kind = crate::FileKind::detect(data);
    match kind {
        crate::FileKind::Text | crate::FileKind::Binary | crate::FileKind::Json => {}
        kind if kind.is_motion() => return format!("this is {kind}, not a VMD"),
        found => return crate::WrongKind { found, expected: crate::Expected::Motion }.to_string(),
    }
    // Text, ASCII or UTF-8 (an HTML page or README often has non-ASCII text near its start);
    // the 64-byte window may end inside a character.
    let text = match std::str::from_utf8(head) {
        Ok(text) => Some(text),
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&head[..e.valid_up_to()]).ok(),
        Err(_) => None,
    };
    let is_text =
        |t: &str| !t.is_empty() && t.chars().all(|c| !c.is_control() || c.is_whitespace());
    if let Some(text) = text.filter(|t| is_text(t)) {
        let line = text.lines().next().unwrap_or("");
        return format!("text starting {line:?}");
    }
    format!("the signature is {:02x?}", &head[..head.len().min(25)])
}

/// Scans sections from `pos`, starting with section number `first`, with `overrides` replacing
/// the counts of the first sections scanned. Returns the spans and the end of the last section.
pub(super) fn scan_sections(
    data: &[u8],
    mut pos: usize,
    first: usize,
    overrides: &[u32],
) -> Result<(Vec<SectionSpan>, usize), Error> {
    let mut sections = Vec::with_capacity(6);
    for (i, &section) in Section::ALL.iter().enumerate().skip(first) {
        if pos == data.len() {
            break;
        }
        let available = data.len() - pos;
        if available < 4 {
            let err = Error::new(ErrorKind::TruncatedCount { available }, pos);
            return Err(err.in_section(section, None));
        }
        let declared = u32::from_le_bytes(data[pos..pos + 4].try_into().unwrap());
        let count = overrides.get(i - first).copied().unwrap_or(declared);
        let start = pos + 4;
        let end = section_end(data, section, start, count)?;
        sections.push(SectionSpan { count_offset: pos, count, start, end });
        pos = end;
    }
    Ok((sections, pos))
}

/// The end of a section of `count` records starting at `start`, checked against the file.
pub(super) fn section_end(
    data: &[u8],
    section: Section,
    start: usize,
    count: u32,
) -> Result<usize, Error> {
    let available = (data.len() - start) as u64;
    if let Some(size) = section.record_size() {
        let needed = count as u64 * size as u64;
        if needed > available {
            let kind = ErrorKind::CountTooLarge { count, needed, available };
            let record = available / size as u64;
            let offset = start + (record as usize) * size;
            return Err(Error::new(kind, offset).in_section(section, Some(record)));
        }
        return Ok(start + needed as usize);
    }
    let mut pos = start;
    for record in 0..count as u64 {
        let len = property_record_len(&data[pos..])
            .map_err(|kind| Error::new(kind, pos).in_section(section, Some(record)))?;
        pos += len;
    }
    Ok(pos)
}

/// The length of the property record at the start of `rest`, if it is complete.
pub(crate) fn property_record_len(rest: &[u8]) -> Result<usize, ErrorKind> {
    let truncated =
        |needed: u64| ErrorKind::TruncatedRecord { needed, available: rest.len() as u64 };
    if rest.len() < PROPERTY_HEAD_LEN {
        return Err(truncated(PROPERTY_HEAD_LEN as u64));
    }
    let n = u32::from_le_bytes(rest[5..9].try_into().unwrap()) as u64;
    let needed = PROPERTY_HEAD_LEN as u64 + n * IK_ENTRY_LEN as u64;
    if needed > rest.len() as u64 {
        return Err(truncated(needed));
    }
    Ok(needed as usize)
}
