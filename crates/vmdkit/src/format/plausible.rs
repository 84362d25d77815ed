//! Whether bytes look like real keyframe records: the judge between two explanations of a
//! damaged file.
//!
//! Lenient reading meets files where a section's count is wrong. Either the writer quirk (a
//! count of 0 with records after it) or a cut explains the bytes, and the wrong choice turns
//! the bytes of one section into keys of another: morph keys made of property bytes, with
//! frames in the billions and weights of 1e24. Real records have names that decode, finite
//! values in the ranges MMD can set, flag bytes of 0 or 1, and frames on the scale of the rest
//! of the file. Each check here was run over every record of the shared corpus, where none
//! fails (see the `plausible_corpus` test), so a failure is strong evidence of misreading.

use super::layout::{property_record_len, Section, SectionSpan, IK_ENTRY_LEN, PROPERTY_HEAD_LEN};
use crate::text::{DecodeStatus, RawName, TextEncoding};
use std::fmt;

/// Frames this far beyond the rest of the file (and beyond [`FRAME_FLOOR`]) are a soft sign
/// of misreading.
const FRAME_SCALE: u64 = 16;
/// Below this frame no frame is suspicious: a 10-hour motion at 30 fps.
const FRAME_FLOOR: u64 = 1 << 20;
/// Counts above this are not real: 16.7 million bone keys would be a 1.9 GB file.
pub(crate) const MAX_PLAUSIBLE_COUNT: u32 = 1 << 24;
/// Positions and distances beyond this are not MMD's (its scenes are a few thousand units).
const MAX_COORDINATE: f32 = 1.0e5;

/// Non-zero floats smaller than this are integers misread as floats: a frame number or a count
/// of a few thousand has bits that read as 1e-41.
const MIN_MAGNITUDE: f32 = 1.0e-30;

/// What is wrong with one record.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Defect {
    /// A hard defect (a value no writer produces) rules an explanation out; a soft one (a
    /// frame far beyond the rest) only weighs against it.
    pub hard: bool,
    /// The field and its value, for the repair report.
    pub what: String,
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)
    }
}

/// The largest frame that is not suspicious in a file whose other records reach `seen`.
pub(crate) fn frame_limit(seen: Option<u32>) -> u64 {
    seen.map_or(0, |f| f as u64 * FRAME_SCALE).max(FRAME_FLOOR)
}

/// The largest frame among the records of `spans` (the file's first sections, in order).
pub(crate) fn last_frame(data: &[u8], spans: &[SectionSpan]) -> Option<u32> {
    spans.iter().enumerate().filter_map(|(i, span)| last_frame_of(data, span, i)).max()
}

/// The largest frame among the records of `span`, section number `index`.
pub(crate) fn last_frame_of(data: &[u8], span: &SectionSpan, index: usize) -> Option<u32> {
    let mut last = None;
    let mut pos = span.start;
    for _ in 0..span.count {
        last = last.max(Some(frame_of(Section::ALL[index], &data[pos..])));
        pos += Section::ALL[index]
            .record_size()
            .unwrap_or_else(|| property_record_len(&data[pos..]).expect("a scanned section"));
    }
    last
}

/// The first defect of the record `bytes` of `section`, if any.
pub(crate) fn defect(section: Section, bytes: &[u8], frame_limit: u64) -> Option<Defect> {
    let hard = |what: String| Some(Defect { hard: true, what });
    let reason = match section {
        Section::Bone => name_defect::<15>(&bytes[..15])
            .or_else(|| coordinates("translation", &bytes[19..31]))
            .or_else(|| quaternion_defect(&bytes[31..47])),
        Section::Morph => name_defect::<15>(&bytes[..15]).or_else(|| {
            let w = f32_at(bytes, 19);
            (!w.is_finite() || w.abs() > 100.0).then(|| format!("weight {w:e}"))
        }),
        Section::Camera => coordinates("distance", &bytes[4..8])
            .or_else(|| coordinates("target", &bytes[8..20]))
            .or_else(|| coordinates("rotation", &bytes[20..32]))
            .or_else(|| control_points(&bytes[32..56]))
            .or_else(|| {
                let angle = u32_at(bytes, 56);
                (angle > 180).then(|| format!("view angle {angle}"))
            })
            .or_else(|| flag("perspective", bytes[60])),
        Section::Light => bounded("colour", &bytes[4..16], 2.0)
            .or_else(|| bounded("direction", &bytes[16..28], 1.5)),
        Section::SelfShadow => {
            let mode = bytes[4];
            (mode > 2)
                .then(|| format!("mode {mode}"))
                .or_else(|| bounded("distance", &bytes[5..9], 10.0))
        }
        Section::Property => property_defect(bytes),
    };
    if let Some(what) = reason {
        return hard(what);
    }
    let frame = frame_of(section, bytes) as u64;
    (frame > frame_limit).then(|| Defect {
        hard: false,
        what: format!("frame {frame}, far beyond the rest of the file (limit {frame_limit})"),
    })
}

/// The frame number of the record at the start of `bytes`: named records put it after the name.
fn frame_of(section: Section, bytes: &[u8]) -> u32 {
    match section {
        Section::Bone | Section::Morph => u32_at(bytes, 15),
        _ => u32_at(bytes, 0),
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// A name that is empty, holds control characters or decodes in none of the encodings real
/// files use.
fn name_defect<const N: usize>(field: &[u8]) -> Option<String> {
    let name = RawName::<N>::from_ref(field.try_into().unwrap());
    let (bytes, fills) = name.for_detection();
    if bytes.is_empty() {
        return Some("empty name".to_owned());
    }
    if bytes.iter().any(|&b| b < 0x20 || b == 0x7f) {
        return Some(format!("name bytes {bytes:02x?}"));
    }
    let decodes = [TextEncoding::ShiftJis, TextEncoding::Gbk, TextEncoding::Utf8]
        .iter()
        .any(|e| e.decode(bytes, fills).status != DecodeStatus::Invalid);
    (!decodes).then(|| format!("name bytes {bytes:02x?} decode in no known encoding"))
}

/// Floats that are not finite or beyond any MMD scene.
fn coordinates(what: &str, bytes: &[u8]) -> Option<String> {
    bounded(what, bytes, MAX_COORDINATE)
}

/// Floats that are not finite, larger than `limit` in magnitude, or so small that they are
/// small integers or flag bytes read as floats (no tool writes 1e-30 for a value).
fn bounded(what: &str, bytes: &[u8], limit: f32) -> Option<String> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .find(|x| !x.is_finite() || x.abs() > limit || (*x != 0.0 && x.abs() < MIN_MAGNITUDE))
        .map(|x| format!("{what} {x:e}"))
}

/// A rotation that is no rotation: not finite, or far from unit length (zero is allowed, as
/// some tools write it for "no rotation").
fn quaternion_defect(bytes: &[u8]) -> Option<String> {
    bounded("rotation", bytes, 2.0).or_else(|| {
        let q: Vec<f32> = (0..4).map(|i| f32_at(bytes, 4 * i)).collect();
        let norm2: f32 = q.iter().map(|x| x * x).sum();
        (norm2 != 0.0 && !(0.25..=4.0).contains(&norm2))
            .then(|| format!("rotation of length {:.3e}", norm2.sqrt()))
    })
}

/// Bézier control points are 0..=127 in MMD.
fn control_points(bytes: &[u8]) -> Option<String> {
    bytes.iter().find(|&&b| b > 127).map(|b| format!("curve control point {b}"))
}

/// A flag byte other than 0 or 1.
fn flag(what: &str, byte: u8) -> Option<String> {
    (byte > 1).then(|| format!("{what} byte {byte}"))
}

fn property_defect(bytes: &[u8]) -> Option<String> {
    flag("visible", bytes[4]).or_else(|| {
        let len = property_record_len(bytes).ok()?;
        bytes[PROPERTY_HEAD_LEN..len].chunks_exact(IK_ENTRY_LEN).find_map(|entry| {
            name_defect::<20>(&entry[..20]).or_else(|| flag("IK enabled", entry[20]))
        })
    })
}

/// How well an explanation's records look like keys: the first hard defect, or else the
/// number of soft ones and the first of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Verdict {
    /// Records judged.
    pub records: u64,
    /// The first hard defect and the record's offset.
    pub hard: Option<(usize, Defect)>,
    /// Records with a soft defect.
    pub soft: u64,
    /// The first soft defect and the record's offset.
    pub first_soft: Option<(usize, Defect)>,
}

impl Verdict {
    /// Judges `count` records of `section` from `start` (all known to be complete).
    pub fn add_section(
        &mut self,
        data: &[u8],
        section: Section,
        start: usize,
        count: u32,
        frame_limit: u64,
    ) {
        let mut pos = start;
        for _ in 0..count {
            if self.hard.is_some() {
                return;
            }
            let len = match section.record_size() {
                Some(size) => size,
                None => property_record_len(&data[pos..]).expect("complete records"),
            };
            let record = &data[pos..pos + len];
            self.records += 1;
            match defect(section, record, frame_limit) {
                Some(d) if d.hard => self.hard = Some((pos, d)),
                Some(d) => {
                    self.soft += 1;
                    self.first_soft.get_or_insert((pos, d));
                }
                None => {}
            }
            pos += len;
        }
    }

    /// The reason to print for rejecting an explanation judged so.
    pub fn reason(&self) -> Option<String> {
        let (offset, defect) = self.hard.as_ref().or(self.first_soft.as_ref())?;
        Some(format!("the record at byte {offset} has {defect}"))
    }
}

#[cfg(test)]
mod tests;
