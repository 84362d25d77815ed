//! Lenient recovery of a VMD whose section counts do not fit its bytes.
//!
//! Two kinds of damage are seen in real files: the writer quirk of a count of 0 followed by
//! records, and files cut short. The quirk is believed only where raising one zero count makes
//! every later section parse and end exactly at the end of the file; a cut file is read by
//! keeping the complete sections and the complete records of the cut one. Both explanations
//! can fit the same bytes, and the wrong one turns bytes of one section into keys of another,
//! so each is judged by whether its records look like keys ([`super::plausible`]): recovery
//! keeps only what the file really holds, and reports the explanation it rejected and why.

use super::layout::{property_record_len, scan_sections, section_end, Section, SectionSpan};
use super::plausible::{frame_limit, last_frame, Verdict, MAX_PLAUSIBLE_COUNT};
use crate::error::{Error, ErrorKind};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// The count said more records than the file holds, and what follows it does not read as
    /// records of the section (so it is not a cut section but bytes misread as one): nothing
    /// from the count on was kept.
    Discarded {
        /// The section whose count does not fit.
        section: Section,
        /// Byte offset of that section's 4-byte count.
        offset: u64,
        /// The count the file states.
        declared: u32,
        /// Why the bytes are not records of the section.
        reason: String,
        /// Bytes dropped, from the count's end to the end of the file.
        dropped_bytes: u64,
    },
    /// An explanation of the damage that fits the bytes was considered and rejected because
    /// its records do not look like keys; another repair in the list says what was chosen.
    Rejected {
        /// The section the rejected explanation concerns.
        section: Section,
        /// Byte offset of that section's 4-byte count.
        offset: u64,
        /// `Some(n)`: the writer quirk with the count 0 raised to `n`; `None`: the file cut
        /// inside this section.
        undercount: Option<u32>,
        /// Why it was rejected.
        reason: String,
    },
}

impl Repair {
    /// The section the repair concerns (none for the signature).
    pub fn section(&self) -> Option<Section> {
        match self {
            Repair::UnknownSignature { .. } => None,
            Repair::Undercounted { section, .. }
            | Repair::Truncated { section, .. }
            | Repair::CutCount { section, .. }
            | Repair::Discarded { section, .. }
            | Repair::Rejected { section, .. } => Some(*section),
        }
    }
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
            Repair::Discarded { section, offset, declared, reason, dropped_bytes } => write!(
                f,
                "{section} section at byte {offset}: count {declared} does not fit and the \
                 bytes after it are not {section} keys ({reason}); dropped {dropped_bytes} bytes"
            ),
            Repair::Rejected { section, offset, undercount: Some(n), reason } => write!(
                f,
                "{section} section at byte {offset}: not read as {n} records after a count of 0 \
                 (which would also fit the file's length) because {reason}"
            ),
            Repair::Rejected { section, offset, undercount: None, reason } => write!(
                f,
                "{section} section at byte {offset}: not read as cut there because {reason}"
            ),
        }
    }
}

/// How many records lenient reading will believe follow a zero count. The real writer quirk
/// leaves one or a few; a larger search mostly finds coincidences in cut files.
const UNDERCOUNT_SEARCH: u32 = 64;

/// Lenient recovery after the strict scan failed with `err`.
pub(super) fn repair_sections(
    data: &[u8],
    header_len: usize,
    err: &Error,
    repairs: &mut Vec<Repair>,
) -> (Vec<SectionSpan>, usize) {
    let failed = err.section.map_or(0, |s| s as usize);
    let spans = rescan_prefix(data, header_len, failed);
    // Where the failing section's count is (`err.offset` may point inside its records).
    let failed_count_offset = spans.last().map_or(header_len, |s| s.end);
    let cut = explain_as_cut(data, &spans, failed, failed_count_offset, err);
    let under = find_undercount(data, &spans, failed, failed_count_offset);
    let choose_under = under.as_ref().is_some_and(|u| {
        u.verdict.hard.is_none() && (u.verdict.soft == 0 || cut.worse_than(&u.verdict))
    });
    match under {
        Some(found) if choose_under => {
            // Both readings fit: say why the cut one lost. A clean quirk beside a cut reading
            // with doubts needs no word; a quirk reading with doubts of its own does.
            let reason = match (found.verdict.soft, cut.rejection()) {
                (0, None) => Some("a count of 0 followed by records explains every byte".into()),
                (0, Some(_)) => None,
                (_, reason) => reason,
            };
            if let Some(reason) = reason {
                repairs.push(Repair::Rejected {
                    section: Section::ALL[failed],
                    offset: failed_count_offset as u64,
                    undercount: None,
                    reason,
                });
            }
            let mut sections = spans[..found.culprit].to_vec();
            sections.extend(found.rest);
            repairs.push(Repair::Undercounted {
                section: Section::ALL[found.culprit],
                offset: found.count_offset as u64,
                declared: 0,
                recovered: found.count,
            });
            (sections, data.len())
        }
        rejected => {
            if let Some(found) = rejected {
                repairs.push(Repair::Rejected {
                    section: Section::ALL[found.culprit],
                    offset: found.count_offset as u64,
                    undercount: Some(found.count),
                    reason: found.verdict.reason().unwrap_or_default(),
                });
            }
            repairs.push(cut.repair);
            (cut.sections, data.len())
        }
    }
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
    /// How the records from the culprit on look.
    verdict: Verdict,
}

/// The writer quirk seen in real files: a section whose count is 0 yet records follow. If
/// some count makes every later section parse and end exactly at the end of the file, that
/// may be what the writer meant. Only zero counts of the sections up to the `failed` one are
/// suspected; among the counts that fit, the one whose records look most like keys wins, and
/// then the one needing the fewest records.
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
        let Some((count, rest)) = fitting_count(data, culprit, count_offset) else { continue };
        let limit = frame_limit(last_frame(data, &spans[..culprit]));
        let mut verdict = Verdict::default();
        for (i, span) in rest.iter().enumerate() {
            verdict.add_section(data, Section::ALL[culprit + i], span.start, span.count, limit);
        }
        let candidate = Undercount { culprit, count_offset, count, rest, verdict };
        if best.as_ref().is_none_or(|b| candidate.better_than(b)) {
            best = Some(candidate);
        }
    }
    best
}

/// The smallest count for the section `culprit` that makes the rest of the file parse and end
/// exactly at its end, with the spans it gives.
fn fitting_count(
    data: &[u8],
    culprit: usize,
    count_offset: usize,
) -> Option<(u32, Vec<SectionSpan>)> {
    for count in 1..=UNDERCOUNT_SEARCH {
        let Ok((rest, end)) = scan_sections(data, count_offset, culprit, &[count]) else {
            if section_end(data, Section::ALL[culprit], count_offset + 4, count).is_err() {
                return None;
            }
            continue;
        };
        if end == data.len() {
            return Some((count, rest));
        }
    }
    None
}

impl Undercount {
    fn better_than(&self, other: &Undercount) -> bool {
        let rank = |u: &Undercount| (u.verdict.hard.is_some(), u.verdict.soft, u.count);
        rank(self) < rank(other)
    }
}

/// The file read as cut inside the `failed` section.
struct Cut {
    sections: Vec<SectionSpan>,
    repair: Repair,
    /// How the complete records of the cut section look (before any were discarded).
    verdict: Verdict,
    /// The cut section's count is beyond any real file (so it is more likely misread).
    implausible_count: bool,
}

impl Cut {
    /// Whether this reading is less plausible than an undercount judged `other`.
    fn worse_than(&self, other: &Verdict) -> bool {
        if self.implausible_count || matches!(self.repair, Repair::Discarded { .. }) {
            return true;
        }
        // Soft defects per record, compared without division.
        self.verdict.soft * other.records.max(1) > other.soft * self.verdict.records.max(1)
    }

    /// Why this reading is in doubt, if it is.
    fn rejection(&self) -> Option<String> {
        if let Repair::Discarded { reason, .. } = &self.repair {
            return Some(reason.clone());
        }
        let count = self.implausible_count.then(|| self.count_reason());
        count.or_else(|| self.verdict.reason())
    }

    fn count_reason(&self) -> String {
        let declared = match self.repair {
            Repair::Truncated { declared, .. } | Repair::Discarded { declared, .. } => declared,
            _ => 0,
        };
        format!("its count {declared} is beyond any real file")
    }
}

/// Keeps every complete record of the `failed` section and stops there, unless the count is
/// beyond any real file or the records are not keys of the section, when the section's bytes
/// are dropped.
fn explain_as_cut(
    data: &[u8],
    spans: &[SectionSpan],
    failed: usize,
    count_offset: usize,
    err: &Error,
) -> Cut {
    let section = Section::ALL[failed];
    let mut sections = spans.to_vec();
    if let ErrorKind::TruncatedCount { available } = err.kind {
        // The cut count's bytes are dropped, not kept as trailing bytes (which would be read
        // as a count again).
        let repair = Repair::CutCount {
            section,
            offset: count_offset as u64,
            dropped_bytes: available as u64,
        };
        return Cut { sections, repair, verdict: Verdict::default(), implausible_count: false };
    }
    let declared = u32::from_le_bytes(data[count_offset..count_offset + 4].try_into().unwrap());
    let start = count_offset + 4;
    let (kept, end) = complete_records(data, section, start, declared);
    let mut verdict = Verdict::default();
    verdict.add_section(data, section, start, kept, frame_limit(last_frame(data, spans)));
    // A count beyond any real file may be a damaged real count, so records that look like
    // keys are kept; with any doubt about them as well, they are taken for misread bytes.
    let implausible_count = declared > MAX_PLAUSIBLE_COUNT;
    let implausible = match &verdict.hard {
        Some(_) => verdict.reason(),
        None if implausible_count && verdict.soft > 0 => verdict
            .reason()
            .map(|r| format!("its count {declared} is beyond any real file and {r}")),
        None => None,
    };
    let repair = match implausible {
        Some(reason) => {
            sections.push(SectionSpan { count_offset, count: 0, start, end: start });
            Repair::Discarded {
                section,
                offset: count_offset as u64,
                declared,
                reason,
                dropped_bytes: (data.len() - start) as u64,
            }
        }
        None => {
            sections.push(SectionSpan { count_offset, count: kept, start, end });
            Repair::Truncated {
                section,
                offset: count_offset as u64,
                declared,
                kept,
                dropped_bytes: (data.len() - end) as u64,
            }
        }
    };
    Cut { sections, repair, verdict, implausible_count }
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
