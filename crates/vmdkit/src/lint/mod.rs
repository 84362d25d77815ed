//! Warnings about motions that read correctly but hold something worth knowing: names cut
//! mid-character or not decodable, duplicate or unsorted keys, physics-off keys, odd quaternions,
//! out-of-range bytes, trailing bytes, frame numbers far beyond the rest, and what lenient
//! reading repaired.
//!
//! Warnings are summaries, one per kind and section, never one per key: a 200 MB file with a
//! million duplicate keys gives one line with a count and an example. [`analyse`] also returns
//! a [`NameSummary`] per bone and morph name (key count and frame range), built anyway while
//! grouping keys into tracks the way the sampler does, so a summary of a file costs one pass.
//!
//! ```
//! let motion = vmdkit::example::example_motion();
//! let analysis = vmdkit::lint::analyse(&motion, &[]);
//! assert!(analysis.warnings.is_empty());
//! assert_eq!(analysis.bones.len(), 2);
//! assert_eq!(analysis.frame_range, Some((0, 60)));
//! ```

mod far;
mod names;
mod order;
mod tally;
#[cfg(test)]
mod tests;
mod values;

use crate::format::{Motion, Repair, Section};
use crate::text::{KeyName, TextEncoding};
use serde::Serialize;
use std::fmt;
use tally::{hex, plural};

pub use far::{FAR_GAP, FAR_RATIO};

/// Quaternions whose length differs from 1 by more than this are reported. Files written by
/// MMD carry f32 round-off around 1e-7; anything near this bound was not normalised at all.
pub const QUAT_LENGTH_TOLERANCE: f32 = 1e-3;

/// What a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum WarningKind {
    /// Lenient reading repaired damage or a writer quirk.
    Repaired,
    /// A name filled its field and ends inside a multibyte character.
    NameCutMidCharacter,
    /// A name is not valid in the file's encoding.
    NameUndecodable,
    /// Several keys that differ for the same name and frame (or, in camera/light/shadow/
    /// property, the same frame): players disagree on which one wins.
    DuplicateKeys,
    /// Several keys with the same values for the same name and frame: whichever a player keeps,
    /// the motion plays the same.
    IdenticalKeys,
    /// A name's keys are not in frame order in the file.
    UnsortedKeys,
    /// Bone keys with the physics toggle off.
    PhysicsOff,
    /// Rotation quaternions whose length is not 1.
    NonUnitQuaternion,
    /// All-zero rotation quaternions.
    ZeroQuaternion,
    /// NaN or infinite numbers.
    NonFinite,
    /// Bytes outside their documented range (curve points above 127, shadow mode above 2,
    /// perspective byte above 1).
    OutOfRange,
    /// Bytes after the last section.
    TrailingBytes,
    /// Keys at frames far beyond the rest of the motion (see [`FAR_RATIO`]): usually a
    /// damaged frame number, and a span that bakes and frame-by-frame edits must cover.
    FarFrames,
}

impl WarningKind {
    /// The snake_case name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::Repaired => "repaired",
            WarningKind::NameCutMidCharacter => "name_cut_mid_character",
            WarningKind::NameUndecodable => "name_undecodable",
            WarningKind::DuplicateKeys => "duplicate_keys",
            WarningKind::IdenticalKeys => "identical_keys",
            WarningKind::UnsortedKeys => "unsorted_keys",
            WarningKind::PhysicsOff => "physics_off",
            WarningKind::NonUnitQuaternion => "non_unit_quaternion",
            WarningKind::ZeroQuaternion => "zero_quaternion",
            WarningKind::NonFinite => "non_finite",
            WarningKind::OutOfRange => "out_of_range",
            WarningKind::TrailingBytes => "trailing_bytes",
            WarningKind::FarFrames => "far_frames",
        }
    }
}

impl WarningKind {
    /// Every kind, in the order warnings are listed.
    pub const ALL: [WarningKind; 13] = [
        WarningKind::Repaired,
        WarningKind::NameCutMidCharacter,
        WarningKind::NameUndecodable,
        WarningKind::DuplicateKeys,
        WarningKind::IdenticalKeys,
        WarningKind::UnsortedKeys,
        WarningKind::PhysicsOff,
        WarningKind::NonUnitQuaternion,
        WarningKind::ZeroQuaternion,
        WarningKind::NonFinite,
        WarningKind::OutOfRange,
        WarningKind::TrailingBytes,
        WarningKind::FarFrames,
    ];

    /// The kind with this [`name`](WarningKind::name).
    pub fn from_name(name: &str) -> Option<WarningKind> {
        WarningKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the kind is about how a file is written rather than how it plays: every player
    /// plays the motion the same with or without what it reports. `vmdkit check
    /// --strict-warnings` fails only on the other kinds unless told otherwise.
    ///
    /// These are: unsorted keys (players sort them), identical repeated keys (any one of them
    /// gives the same motion), physics-off keys (a setting MMD's own panel writes), trailing
    /// bytes (ignored by players) and names cut mid-character at the field width (MMD itself
    /// cuts long names so, and they bind by bytes).
    pub fn is_harmless(self) -> bool {
        matches!(
            self,
            WarningKind::UnsortedKeys
                | WarningKind::IdenticalKeys
                | WarningKind::PhysicsOff
                | WarningKind::TrailingBytes
                | WarningKind::NameCutMidCharacter
        )
    }
}

/// One warning: a kind, where, how many keys (or bytes, for trailing bytes) it concerns, and a
/// sentence that says it with an example.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Warning {
    /// What the warning is about.
    pub kind: WarningKind,
    /// `None` for the header (model name), for what lies outside the sections, and for far
    /// frames in several sections.
    pub section: Option<Section>,
    /// The keys it concerns (bytes, for trailing bytes; 1 for a repair).
    pub count: u64,
    /// The sentence shown to users, with an example.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The keys of one bone or morph name: how many, and the frames they span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameSummary {
    /// The field of the name's first key (padding included).
    pub name: KeyName,
    /// Keys with this name, duplicates included.
    pub keys: usize,
    /// The lowest frame keyed.
    pub first_frame: u32,
    /// The highest frame keyed.
    pub last_frame: u32,
}

/// What [`analyse`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The encoding names were decoded with (see [`Motion::detect_encoding`]).
    pub encoding: TextEncoding,
    /// Bone names in order of first appearance, with their keys.
    pub bones: Vec<NameSummary>,
    /// Morph names in order of first appearance, with their keys.
    pub morphs: Vec<NameSummary>,
    /// The lowest and highest frame over every section, `None` for a motion without keys.
    pub frame_range: Option<(u32, u32)>,
    /// The warnings, repairs first; each kind comes at most once per section.
    pub warnings: Vec<Warning>,
}

/// Lints `motion`; `repairs` (from a lenient read) become warnings first.
pub fn analyse(motion: &Motion, repairs: &[Repair]) -> Analysis {
    let encoding = motion.detect_encoding();
    let mut warnings: Vec<Warning> = repairs.iter().map(repair_warning).collect();
    names::model_name_warnings(motion, encoding, &mut warnings);

    let mut order = order::OrderLint::new(encoding);
    motion.for_each_section(&mut order);
    let [bones, morphs, camera, light, shadow, property] = order.warnings;
    // Each named section's value warnings follow its own; the unnamed sections' come after
    // all four of theirs.
    warnings.extend(bones);
    values::bone_value_warnings(motion, encoding, &mut warnings);
    warnings.extend(morphs);
    values::morph_value_warnings(motion, encoding, &mut warnings);
    warnings.extend([camera, light, shadow, property].into_iter().flatten());
    values::unnamed_value_warnings(motion, &mut warnings);
    names::ik_name_warnings(motion, encoding, &mut warnings);
    if let Some((start, rest)) = far::far_start(motion) {
        warnings.push(far::far_frames_warning(motion, start, rest));
    }

    if !motion.trailing.is_empty() || motion.trailing_omitted > 0 {
        warnings.push(trailing_warning(&motion.trailing, motion.trailing_omitted));
    }
    let [bones, morphs] = order.names;
    Analysis { encoding, bones, morphs, frame_range: order.frames.0, warnings }
}

/// Only the warnings of [`analyse`].
pub fn lint(motion: &Motion, repairs: &[Repair]) -> Vec<Warning> {
    analyse(motion, repairs).warnings
}

fn repair_warning(repair: &Repair) -> Warning {
    Warning {
        kind: WarningKind::Repaired,
        section: repair.section(),
        count: 1,
        message: format!("lenient reading: {repair}"),
    }
}

/// The most trailing bytes a warning shows. Reading a file only to lint it needs no more of
/// them ([`ReadOptions::max_trailing`](crate::ReadOptions::max_trailing)); the count still
/// covers every byte.
pub const TRAILING_PREVIEW: usize = 32;

fn trailing_warning(trailing: &[u8], omitted: u64) -> Warning {
    let head = &trailing[..trailing.len().min(TRAILING_PREVIEW)];
    let text = String::from_utf8_lossy(head);
    let preview = if head.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("{text:?}")
    } else {
        hex(&head[..head.len().min(16)])
    };
    let count = trailing.len() as u64 + omitted;
    let more = if count > head.len() as u64 { "…" } else { "" };
    Warning {
        kind: WarningKind::TrailingBytes,
        section: None,
        count,
        message: format!(
            "{} after the last section ({preview}{more}); kept when rewriting, ignored by players",
            plural(count, "byte", "bytes")
        ),
    }
}
