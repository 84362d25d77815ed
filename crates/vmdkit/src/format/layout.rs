//! Finding the sections of a VMD without decoding its records.
//!
//! Both the owned reader and the zero-copy view start here: the scan checks the header, reads
//! each section's count, proves that the records fit in the file before anything is allocated,
//! and walks the variable-size property records. Fixed-size sections cost O(1) to scan.
//!
//! Lenient scanning repairs the writer quirks seen in real files (a count of 0 followed by
//! records, a count larger than the records present, a bare signature) and says what it did.

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

/// A repair made by lenient reading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Repair {
    /// The signature is not one of the two known ones but starts like a VMD's; read as v2.
    UnknownSignature {
        /// The 30-byte signature field as text (lossy ASCII), trailing NULs removed.
        signature: String,
    },
    /// The count was 0 but records follow (a writer quirk); the rest of the file parses
    /// exactly only with the larger count.
    Undercounted {
        /// The section whose count was wrong.
        section: Section,
        /// Byte offset of that section's 4-byte count.
        offset: u64,
        /// The count the file states (always 0).
        declared: u32,
        /// The number of records that make the rest of the file parse to its last byte.
        recovered: u32,
    },
    /// The count said more records than the file holds: the complete records were kept.
    Truncated {
        /// The section that ends early.
        section: Section,
        /// Byte offset of that section's 4-byte count.
        offset: u64,
        /// The count the file states.
        declared: u32,
        /// Complete records present and kept.
        kept: u32,
        /// Bytes of the partial record at the end of the file, dropped.
        dropped_bytes: u64,
    },
    /// The file ends inside a section count; the bytes were dropped.
    CutCount {
        /// The section whose count is cut.
        section: Section,
        /// Byte offset where the count starts.
        offset: u64,
        /// The 1–3 bytes of the count that are present, dropped.
        dropped_bytes: u64,
    },
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Repair::UnknownSignature { signature } => {
                write!(f, "unknown signature {signature:?}, read as version 2")
            }
            Repair::Undercounted { section, offset, declared, recovered } => write!(
                f,
                "{section} section at byte {offset}: count {declared} but {recovered} records \
                 follow; recovered all {recovered}"
            ),
            Repair::Truncated { section, offset, declared, kept, dropped_bytes } => write!(
                f,
                "{section} section at byte {offset}: count {declared} but only {kept} complete \
                 records; kept {kept}, dropped {dropped_bytes} bytes of a cut record"
            ),
            Repair::CutCount { section, offset, dropped_bytes } => write!(
                f,
                "{section} section at byte {offset}: file ends inside the count; dropped \
                 {dropped_bytes} bytes"
            ),
        }
    }
}

/// How strictly to read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Repair what can be repaired instead of failing; repairs are reported.
    pub lenient: bool,
}

impl ReadOptions {
    /// Fail on the first damage found.
    pub const STRICT: ReadOptions = ReadOptions { lenient: false };
    /// Repair damage where the rest of the file can still be read exactly, reporting each
    /// [`Repair`].
    pub const LENIENT: ReadOptions = ReadOptions { lenient: true };
}

/// How many records lenient reading will believe follow a zero count. The real writer quirk
/// leaves one or a few; a larger search mostly finds coincidences in cut files.
const UNDERCOUNT_SEARCH: u32 = 64;

/// Scans `data`'s layout. Strict scanning fails on any damage; lenient scanning repairs it.
pub fn scan(data: &[u8], options: ReadOptions) -> Result<(Layout, Vec<Repair>), Error> {
    let mut repairs = Vec::new();
    let version = scan_header(data, options, &mut repairs)?;
    let header_len = version.header_len();
    match scan_sections(data, header_len, 0, &[]) {
        Ok((sections, end)) => Ok((Layout { version, sections, end }, repairs)),
        Err(err) if !options.lenient => Err(err),
        Err(err) => {
            let (sections, end) = repair_sections(data, header_len, &err, &mut repairs);
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
        return format!("unknown signature {:?} (try lenient reading)", sig.trim_end_matches('\0'));
    }
    for (magic, what) in [
        (&b"PMX "[..], "a PMX model"),
        (b"Pmd", "a PMD model"),
        (b"Vocaloid Pose Data", "a VPD pose"),
    ] {
        if data.starts_with(magic) {
            return format!("{what}, not a motion");
        }
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
fn scan_sections(
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
fn section_end(data: &[u8], section: Section, start: usize, count: u32) -> Result<usize, Error> {
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

/// Lenient recovery after the strict scan failed with `err`.
fn repair_sections(
    data: &[u8],
    header_len: usize,
    err: &Error,
    repairs: &mut Vec<Repair>,
) -> (Vec<SectionSpan>, usize) {
    let failed = err.section.map_or(0, |s| s as usize);
    let spans = rescan_prefix(data, header_len, failed);
    // Where the failing section's count is (`err.offset` may point inside its records).
    let failed_count_offset = spans.last().map_or(header_len, |s| s.end);
    if let Some(found) = find_undercount(data, &spans, failed, failed_count_offset) {
        let mut sections = spans[..found.culprit].to_vec();
        sections.extend(found.rest);
        repairs.push(Repair::Undercounted {
            section: Section::ALL[found.culprit],
            offset: found.count_offset as u64,
            declared: 0,
            recovered: found.count,
        });
        return (sections, data.len());
    }
    keep_complete_records(data, spans, failed, failed_count_offset, err, repairs)
}

/// The spans of the first `upto` sections, which the strict scan already read without fault.
fn rescan_prefix(data: &[u8], header_len: usize, upto: usize) -> Vec<SectionSpan> {
    let mut spans = Vec::new();
    let mut pos = header_len;
    for &section in &Section::ALL[..upto] {
        let count = u32::from_le_bytes(data[pos..pos + 4].try_into().unwrap());
        let end = section_end(data, section, pos + 4, count).expect("scanned before");
        spans.push(SectionSpan { count_offset: pos, count, start: pos + 4, end });
        pos = end;
    }
    spans
}

/// A zero count that, raised to `count`, makes the rest of the file parse exactly.
struct Undercount {
    /// The section number whose count was 0.
    culprit: usize,
    /// Offset of that section's count.
    count_offset: usize,
    /// The fewest records found to make the rest of the file parse.
    count: u32,
    /// The spans from the culprit on, with its count raised.
    rest: Vec<SectionSpan>,
}

/// The writer quirk seen in real files: a section whose count is 0 yet records follow. If
/// some count makes every later section parse and end exactly at the end of the file, that
/// is what the writer meant. A cut file can imitate this by coincidence, so only zero counts
/// (of the sections up to the `failed` one) are suspected, and the explanation needing the
/// fewest invented records wins.
fn find_undercount(
    data: &[u8],
    spans: &[SectionSpan],
    failed: usize,
    failed_count_offset: usize,
) -> Option<Undercount> {
    let mut best: Option<Undercount> = None;
    for culprit in (0..=failed).rev() {
        let count_offset = spans.get(culprit).map_or(failed_count_offset, |s| s.count_offset);
        if count_offset + 4 > data.len() || data[count_offset..count_offset + 4] != [0; 4] {
            continue;
        }
        let limit = best.as_ref().map_or(UNDERCOUNT_SEARCH, |b| b.count - 1);
        for count in 1..=limit {
            let Ok((rest, end)) = scan_sections(data, count_offset, culprit, &[count]) else {
                if section_end(data, Section::ALL[culprit], count_offset + 4, count).is_err() {
                    break;
                }
                continue;
            };
            if end == data.len() {
                best = Some(Undercount { culprit, count_offset, count, rest });
                break;
            }
        }
    }
    best
}

/// The fallback repair: keep every complete record of the `failed` section and stop there.
fn keep_complete_records(
    data: &[u8],
    mut sections: Vec<SectionSpan>,
    failed: usize,
    count_offset: usize,
    err: &Error,
    repairs: &mut Vec<Repair>,
) -> (Vec<SectionSpan>, usize) {
    let section = Section::ALL[failed];
    if let ErrorKind::TruncatedCount { available } = err.kind {
        repairs.push(Repair::CutCount {
            section,
            offset: count_offset as u64,
            dropped_bytes: available as u64,
        });
        // The cut count's bytes are dropped, not kept as trailing bytes (which would be read
        // as a count again).
        return (sections, data.len());
    }
    let declared = u32::from_le_bytes(data[count_offset..count_offset + 4].try_into().unwrap());
    let start = count_offset + 4;
    let (kept, end) = complete_records(data, section, start, declared);
    sections.push(SectionSpan { count_offset, count: kept, start, end });
    repairs.push(Repair::Truncated {
        section,
        offset: count_offset as u64,
        declared,
        kept,
        dropped_bytes: (data.len() - end) as u64,
    });
    (sections, data.len())
}

/// How many of `declared` records starting at `start` are complete, and where they end.
fn complete_records(data: &[u8], section: Section, start: usize, declared: u32) -> (u32, usize) {
    if let Some(size) = section.record_size() {
        let fit = ((data.len() - start) / size).min(declared as usize);
        return (fit as u32, start + fit * size);
    }
    let mut pos = start;
    let mut kept = 0;
    while kept < declared {
        match property_record_len(&data[pos..]) {
            Ok(len) => pos += len,
            Err(_) => break,
        }
        kept += 1;
    }
    (kept, pos)
}
