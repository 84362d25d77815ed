//! Finding the sections of a VMD without decoding its records.
//!
//! Both the owned reader and the zero-copy view start here: the scan checks the header, reads
//! each section's count, proves that the records fit in the file before anything is allocated,
//! and walks the variable-size property records. Fixed-size sections cost O(1) to scan.
//!
//! Lenient scanning repairs the writer quirks seen in real files (a count of 0 followed by
//! records, a count larger than the records present, a bare signature) and says what it did.

pub use crate::error::Section;
use crate::error::{Error, ErrorKind};
use serde::{Deserialize, Serialize};

/// The 25 signature bytes of a current ("0002") file; a 20-byte model name follows.
pub const SIGNATURE_V2: &[u8; 25] = b"Vocaloid Motion Data 0002";
/// The 25 signature bytes of a file from MMD 1.30 and earlier; a 10-byte model name follows.
pub const SIGNATURE_V1: &[u8; 25] = b"Vocaloid Motion Data file";
/// The signature field's width.
pub const SIGNATURE_LEN: usize = 30;
pub(super) const SIGNATURE_STEM: &[u8] = b"Vocaloid Motion Data";

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
    /// [`Repair`](super::Repair); keep every trailing byte.
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
