//! Warnings about motions that read correctly but hold something worth knowing: names cut
//! mid-character or not decodable, duplicate or unsorted keys, physics-off keys, odd quaternions,
//! out-of-range bytes, trailing bytes, and what lenient reading repaired.
//!
//! Warnings are summaries, one per kind and section, never one per key: a 200 MB file with a
//! million duplicate keys gives one line with a count and an example. [`analyse`] also returns
//! the per-name tracks (key counts and frame ranges) it had to build anyway, so a summary of a
//! file costs one pass.
//!
//! ```
//! let motion = vmdkit::example::example_motion();
//! let analysis = vmdkit::lint::analyse(&motion, &[]);
//! assert!(analysis.warnings.is_empty());
//! assert_eq!(analysis.bones.len(), 2);
//! assert_eq!(analysis.frame_range, Some((0, 60)));
//! ```

use crate::format::{Motion, PhysicsToggle, Repair, Section};
use crate::text::{DecodeStatus, KeyName, TextEncoding};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

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
    /// Several keys for the same name (or, in camera/light/shadow/property, the same frame).
    DuplicateKeys,
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
}

impl WarningKind {
    /// The snake_case name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::Repaired => "repaired",
            WarningKind::NameCutMidCharacter => "name_cut_mid_character",
            WarningKind::NameUndecodable => "name_undecodable",
            WarningKind::DuplicateKeys => "duplicate_keys",
            WarningKind::UnsortedKeys => "unsorted_keys",
            WarningKind::PhysicsOff => "physics_off",
            WarningKind::NonUnitQuaternion => "non_unit_quaternion",
            WarningKind::ZeroQuaternion => "zero_quaternion",
            WarningKind::NonFinite => "non_finite",
            WarningKind::OutOfRange => "out_of_range",
            WarningKind::TrailingBytes => "trailing_bytes",
        }
    }
}

/// One warning: a kind, where, how many keys (or bytes, for trailing bytes) it concerns, and a
/// sentence that says it with an example.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Warning {
    pub kind: WarningKind,
    /// `None` for the header (model name) and for what lies outside the sections.
    pub section: Option<Section>,
    pub count: u64,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The keys of one bone or morph name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    /// The field of the name's first key (padding included).
    pub name: KeyName,
    pub keys: usize,
    pub first_frame: u32,
    pub last_frame: u32,
}

/// What [`analyse`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The encoding names were decoded with (see [`Motion::detect_encoding`]).
    pub encoding: TextEncoding,
    /// Bone names in order of first appearance, with their keys.
    pub bones: Vec<Track>,
    /// Morph names in order of first appearance, with their keys.
    pub morphs: Vec<Track>,
    /// The lowest and highest frame over every section, `None` for a motion without keys.
    pub frame_range: Option<(u32, u32)>,
    pub warnings: Vec<Warning>,
}

/// Lints `motion`; `repairs` (from a lenient read) become warnings first.
pub fn analyse(motion: &Motion, repairs: &[Repair]) -> Analysis {
    let encoding = motion.detect_encoding();
    let mut warnings: Vec<Warning> = repairs.iter().map(repair_warning).collect();
    model_name_warnings(motion, encoding, &mut warnings);

    let mut frames = FrameRange::default();
    let bones = named_section(
        Section::Bone,
        motion.bones.iter().map(|k| (&k.name, k.frame)),
        encoding,
        &mut frames,
        &mut warnings,
    );
    bone_value_warnings(motion, encoding, &mut warnings);
    let morphs = named_section(
        Section::Morph,
        motion.morphs.iter().map(|k| (&k.name, k.frame)),
        encoding,
        &mut frames,
        &mut warnings,
    );
    let bad_weight = motion.morphs.iter().find(|k| !k.weight.is_finite());
    if let Some(first) = bad_weight {
        let n = motion.morphs.iter().filter(|k| !k.weight.is_finite()).count();
        let example = format!("{:?} at frame {}", first.name.decode(encoding).text, first.frame);
        warnings.push(non_finite(Section::Morph, n, &example));
    }

    frame_section(
        Section::Camera,
        motion.cameras.iter().map(|k| k.frame),
        &mut frames,
        &mut warnings,
    );
    frame_section(
        Section::Light,
        motion.lights.iter().map(|k| k.frame),
        &mut frames,
        &mut warnings,
    );
    frame_section(
        Section::SelfShadow,
        motion.shadows.iter().map(|k| k.frame),
        &mut frames,
        &mut warnings,
    );
    frame_section(
        Section::Property,
        motion.properties.iter().map(|k| k.frame),
        &mut frames,
        &mut warnings,
    );
    unnamed_value_warnings(motion, &mut warnings);
    ik_name_warnings(motion, encoding, &mut warnings);

    if !motion.trailing.is_empty() {
        warnings.push(trailing_warning(&motion.trailing));
    }
    Analysis { encoding, bones, morphs, frame_range: frames.0, warnings }
}

/// Only the warnings of [`analyse`].
pub fn lint(motion: &Motion, repairs: &[Repair]) -> Vec<Warning> {
    analyse(motion, repairs).warnings
}

#[derive(Default)]
struct FrameRange(Option<(u32, u32)>);

impl FrameRange {
    fn add(&mut self, frame: u32) {
        self.0 = Some(match self.0 {
            None => (frame, frame),
            Some((lo, hi)) => (lo.min(frame), hi.max(frame)),
        });
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn repair_warning(repair: &Repair) -> Warning {
    let section = match repair {
        Repair::UnknownSignature { .. } => None,
        Repair::Undercounted { section, .. }
        | Repair::Truncated { section, .. }
        | Repair::CutCount { section, .. } => Some(*section),
    };
    Warning {
        kind: WarningKind::Repaired,
        section,
        count: 1,
        message: format!("lenient reading: {repair}"),
    }
}

fn model_name_warnings(motion: &Motion, encoding: TextEncoding, out: &mut Vec<Warning>) {
    // Version 1 names are 10 bytes: decode only the field the file has, so that a name filling
    // it counts as possibly cut.
    let field = motion.header.model_name_field();
    let len = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let decoded = encoding.decode(&field[..len], len == field.len());
    let (kind, what) = match decoded.status {
        DecodeStatus::Ok => return,
        DecodeStatus::CutMidCharacter => (
            WarningKind::NameCutMidCharacter,
            format!("was cut mid-character at {} bytes", field.len()),
        ),
        DecodeStatus::Invalid => {
            (WarningKind::NameUndecodable, format!("is not valid {}", encoding.label()))
        }
    };
    let message = format!("model name {:?} {what} (bytes {})", decoded.text, hex(&field[..len]));
    out.push(Warning { kind, section: None, count: 1, message });
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

/// Accumulates one name's keys in file order.
struct TrackAcc<'a> {
    name: &'a KeyName,
    frames: Vec<u32>,
    /// Keys whose frame is below the one before them (of the same name).
    backwards: u64,
    first_backwards: Option<(u32, u32)>,
}

/// Groups a bone or morph section by name, warns about names, duplicates and order, and
/// returns the tracks in order of first appearance.
fn named_section<'a>(
    section: Section,
    keys: impl Iterator<Item = (&'a KeyName, u32)>,
    encoding: TextEncoding,
    frames: &mut FrameRange,
    out: &mut Vec<Warning>,
) -> Vec<Track> {
    let mut index: HashMap<&[u8], usize> = HashMap::new();
    let mut tracks: Vec<TrackAcc<'a>> = Vec::new();
    for (name, frame) in keys {
        frames.add(frame);
        let i = *index.entry(name.bytes()).or_insert_with(|| {
            tracks.push(TrackAcc { name, frames: Vec::new(), backwards: 0, first_backwards: None });
            tracks.len() - 1
        });
        let track = &mut tracks[i];
        if let Some(&prev) = track.frames.last() {
            if frame < prev {
                track.backwards += 1;
                track.first_backwards.get_or_insert((frame, prev));
            }
        }
        track.frames.push(frame);
    }

    let text = |name: &KeyName| format!("{:?}", name.decode(encoding).text);
    let mut cut = Tally::default();
    let mut invalid = Tally::default();
    let mut duplicates = Tally::default();
    let mut unsorted = Tally::default();
    let mut result = Vec::with_capacity(tracks.len());
    for mut track in tracks {
        let keys = track.frames.len() as u64;
        match track.name.decode(encoding).status {
            DecodeStatus::Ok => {}
            DecodeStatus::CutMidCharacter => cut.add(keys, || text(track.name)),
            DecodeStatus::Invalid => invalid
                .add(keys, || format!("{} (bytes {})", text(track.name), hex(track.name.bytes()))),
        }
        if let Some((frame, prev)) = track.first_backwards {
            unsorted.add(track.backwards, || {
                format!("{}: frame {frame} after frame {prev}", text(track.name))
            });
        }
        if track.backwards > 0 {
            track.frames.sort_unstable();
        }
        let mut dup_keys = 0;
        let mut first_dup = None;
        for pair in track.frames.windows(2) {
            if pair[0] == pair[1] {
                dup_keys += 1;
                first_dup.get_or_insert(pair[0]);
            }
        }
        if let Some(frame) = first_dup {
            duplicates.add(dup_keys, || {
                // Distinct long names cut to the same 15 bytes collide; say so when it may be that.
                let cut =
                    if track.name.fills_field() { ", a name filling its whole field" } else { "" };
                format!("{} at frame {frame}{cut}", text(track.name))
            });
        }
        let (first_frame, last_frame) = match (track.frames.iter().min(), track.frames.iter().max())
        {
            (Some(&lo), Some(&hi)) => (lo, hi),
            _ => (0, 0),
        };
        result.push(Track { name: *track.name, keys: track.frames.len(), first_frame, last_frame });
    }

    let s = section.name();
    out.extend(cut.warning(WarningKind::NameCutMidCharacter, section, |t| {
        format!(
            "{s} section: {} ({}) cut mid-character at the 15-byte field width, e.g. {}; \
             they still bind by bytes",
            plural(t.items, "name", "names"),
            plural(t.keys, "key", "keys"),
            t.example
        )
    }));
    out.extend(invalid.warning(WarningKind::NameUndecodable, section, |t| {
        format!(
            "{s} section: {} ({}) not valid {}, e.g. {}",
            plural(t.items, "name is", "names are"),
            plural(t.keys, "key", "keys"),
            encoding.label(),
            t.example
        )
    }));
    out.extend(duplicates.warning(WarningKind::DuplicateKeys, section, |t| {
        format!(
            "{s} section: {} a name and frame already keyed ({}, e.g. {}); players \
             disagree on which key wins",
            plural(t.keys, "key repeats", "keys repeat"),
            plural(t.items, "name", "names"),
            t.example
        )
    }));
    out.extend(unsorted.warning(WarningKind::UnsortedKeys, section, |t| {
        format!(
            "{s} section: {} out of frame order ({}, e.g. {}); players sort them",
            plural(t.keys, "key is", "keys are"),
            plural(t.items, "name", "names"),
            t.example
        )
    }));
    result
}

/// Counts affected keys and items (names or keys) and keeps the first example.
#[derive(Default)]
struct Tally {
    keys: u64,
    items: u64,
    example: String,
}

impl Tally {
    fn add(&mut self, keys: u64, example: impl FnOnce() -> String) {
        if self.items == 0 {
            self.example = example();
        }
        self.items += 1;
        self.keys += keys;
    }

    fn warning(
        &self,
        kind: WarningKind,
        section: Section,
        message: impl FnOnce(&Self) -> String,
    ) -> Option<Warning> {
        (self.items > 0).then(|| Warning {
            kind,
            section: Some(section),
            count: self.keys,
            message: message(self),
        })
    }
}

/// Physics toggles, quaternions, non-finite numbers and curve bytes of bone keys.
fn bone_value_warnings(motion: &Motion, encoding: TextEncoding, out: &mut Vec<Warning>) {
    let mut physics_off = Tally::default();
    let mut physics_names: HashMap<&[u8], ()> = HashMap::new();
    let mut zero = Tally::default();
    let mut non_unit = Tally::default();
    let mut worst = 0.0f32;
    let mut bad = Tally::default();
    let mut curves = Tally::default();
    for key in &motion.bones {
        let example = || format!("{:?} at frame {}", key.name.decode(encoding).text, key.frame);
        if key.interpolation.physics() == PhysicsToggle::Off {
            physics_off.add(1, example);
            physics_names.insert(key.name.bytes(), ());
        }
        let q = key.rotation;
        if !(q.is_finite() && key.translation.is_finite()) {
            bad.add(1, example);
        } else if q.x == 0.0 && q.y == 0.0 && q.z == 0.0 && q.w == 0.0 {
            zero.add(1, example);
        } else {
            let off = (q.length() - 1.0).abs();
            if off > QUAT_LENGTH_TOLERANCE {
                worst = worst.max(off);
                non_unit.add(1, example);
            }
        }
        if key.interpolation.curves().iter().any(|c| c.x1.max(c.y1).max(c.x2).max(c.y2) > 127) {
            curves.add(1, example);
        }
    }
    let s = Section::Bone;
    let keys = |t: &Tally| plural(t.keys, "key", "keys");
    out.extend(physics_off.warning(WarningKind::PhysicsOff, s, |t| {
        format!(
            "bone section: {} turn physics off for {} (e.g. {}); the rigid bodies follow the \
             animation there",
            keys(t),
            plural(physics_names.len() as u64, "bone", "bones"),
            t.example
        )
    }));
    out.extend(non_unit.warning(WarningKind::NonUnitQuaternion, s, |t| {
        format!(
            "bone section: {} a rotation quaternion whose length is off 1 by up to {worst:.4} \
             (e.g. {}); players normalise it",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
    out.extend(zero.warning(WarningKind::ZeroQuaternion, s, |t| {
        format!(
            "bone section: {} an all-zero rotation quaternion (e.g. {}); players read it as no \
             rotation",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
    out.extend(bad.warning(WarningKind::NonFinite, s, |t| {
        format!(
            "bone section: {} NaN or infinite numbers (e.g. {})",
            plural(t.keys, "key holds", "keys hold"),
            t.example
        )
    }));
    out.extend(curves.warning(WarningKind::OutOfRange, s, |t| {
        format!(
            "bone section: {} interpolation points above 127 (e.g. {}); players clamp them",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
}

fn non_finite(section: Section, n: usize, example: &str) -> Warning {
    Warning {
        kind: WarningKind::NonFinite,
        section: Some(section),
        count: n as u64,
        message: format!(
            "{} section: {} NaN or infinite numbers (e.g. {example})",
            section.name(),
            plural(n as u64, "key holds", "keys hold")
        ),
    }
}

/// Duplicate frames and frame order in a section with one track (camera, light, ...).
fn frame_section(
    section: Section,
    keys: impl Iterator<Item = u32>,
    frames: &mut FrameRange,
    out: &mut Vec<Warning>,
) {
    let mut all: Vec<u32> = Vec::new();
    let mut backwards = Tally::default();
    for frame in keys {
        frames.add(frame);
        if let Some(&prev) = all.last() {
            if frame < prev {
                backwards.add(1, || format!("frame {frame} after frame {prev}"));
            }
        }
        all.push(frame);
    }
    let s = section.name();
    out.extend(backwards.warning(WarningKind::UnsortedKeys, section, |t| {
        format!(
            "{s} section: {} out of frame order (e.g. {}); players sort them",
            plural(t.keys, "key is", "keys are"),
            t.example
        )
    }));
    all.sort_unstable();
    let mut dups = Tally::default();
    for pair in all.windows(2) {
        if pair[0] == pair[1] {
            dups.add(1, || format!("frame {}", pair[0]));
        }
    }
    out.extend(dups.warning(WarningKind::DuplicateKeys, section, |t| {
        format!(
            "{s} section: {} a frame already keyed (e.g. {}); players disagree on which \
             key wins",
            plural(t.keys, "key repeats", "keys repeat"),
            t.example
        )
    }));
}

/// Non-finite numbers and out-of-range bytes in the camera, light and self-shadow sections.
fn unnamed_value_warnings(motion: &Motion, out: &mut Vec<Warning>) {
    let frame = |f: u32| format!("frame {f}");
    let mut bad = Tally::default();
    let mut range = Tally::default();
    for k in &motion.cameras {
        if !(k.distance.is_finite() && k.target.is_finite() && k.rotation.is_finite()) {
            bad.add(1, || frame(k.frame));
        }
        let curve_high = k.interpolation.0.iter().any(|&b| b > 127);
        if curve_high || k.perspective_byte > 1 {
            range.add(1, || frame(k.frame));
        }
    }
    if bad.items > 0 {
        out.push(non_finite(Section::Camera, bad.keys as usize, &bad.example));
    }
    out.extend(range.warning(WarningKind::OutOfRange, Section::Camera, |t| {
        format!(
            "camera section: {} interpolation points above 127 or a perspective byte above 1 \
             (e.g. {})",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));

    let mut bad = Tally::default();
    for k in &motion.lights {
        if !(k.color.is_finite() && k.direction.is_finite()) {
            bad.add(1, || frame(k.frame));
        }
    }
    if bad.items > 0 {
        out.push(non_finite(Section::Light, bad.keys as usize, &bad.example));
    }

    let mut bad = Tally::default();
    let mut mode = Tally::default();
    for k in &motion.shadows {
        if !k.distance.is_finite() {
            bad.add(1, || frame(k.frame));
        }
        if k.mode > 2 {
            mode.add(1, || format!("mode {} at frame {}", k.mode, k.frame));
        }
    }
    if bad.items > 0 {
        out.push(non_finite(Section::SelfShadow, bad.keys as usize, &bad.example));
    }
    out.extend(mode.warning(WarningKind::OutOfRange, Section::SelfShadow, |t| {
        format!(
            "self_shadow section: {} a mode other than 0, 1 or 2 (e.g. {}); some readers stop \
             there",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
}

/// IK names in property keys: cut or undecodable, counted per distinct name.
fn ik_name_warnings(motion: &Motion, encoding: TextEncoding, out: &mut Vec<Warning>) {
    // Distinct names in order of first appearance, with how many entries use each.
    let mut index: HashMap<&[u8], usize> = HashMap::new();
    let mut names: Vec<(&crate::text::LongName, u64)> = Vec::new();
    for ik in motion.properties.iter().flat_map(|p| &p.ik) {
        let i = *index.entry(ik.name.bytes()).or_insert_with(|| {
            names.push((&ik.name, 0));
            names.len() - 1
        });
        names[i].1 += 1;
    }
    let mut cut = Tally::default();
    let mut invalid = Tally::default();
    for (name, uses) in names {
        let decoded = name.decode(encoding);
        let example = || format!("{:?} (bytes {})", decoded.text, hex(name.bytes()));
        match decoded.status {
            DecodeStatus::Ok => {}
            DecodeStatus::CutMidCharacter => cut.add(uses, example),
            DecodeStatus::Invalid => invalid.add(uses, example),
        }
    }
    out.extend(cut.warning(WarningKind::NameCutMidCharacter, Section::Property, |t| {
        format!(
            "property section: {} cut mid-character at the 20-byte field width, e.g. {}",
            plural(t.items, "IK name", "IK names"),
            t.example
        )
    }));
    out.extend(invalid.warning(WarningKind::NameUndecodable, Section::Property, |t| {
        format!(
            "property section: {} not valid {}, e.g. {}",
            plural(t.items, "IK name is", "IK names are"),
            encoding.label(),
            t.example
        )
    }));
}

fn trailing_warning(trailing: &[u8]) -> Warning {
    let head = &trailing[..trailing.len().min(32)];
    let text = String::from_utf8_lossy(head);
    let preview = if head.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("{text:?}")
    } else {
        hex(&head[..head.len().min(16)])
    };
    let more = if trailing.len() > head.len() { "…" } else { "" };
    Warning {
        kind: WarningKind::TrailingBytes,
        section: None,
        count: trailing.len() as u64,
        message: format!(
            "{} after the last section ({preview}{more}); kept when rewriting, ignored by players",
            plural(trailing.len() as u64, "byte", "bytes")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{BoneInterpolation, BoneKey, CameraKey, MorphKey, ShadowKey};
    use crate::text::{KeyName, LongName, RawName};
    use glam::Quat;

    fn kinds(warnings: &[Warning]) -> Vec<(WarningKind, Option<Section>, u64)> {
        warnings.iter().map(|w| (w.kind, w.section, w.count)).collect()
    }

    #[test]
    fn the_example_is_clean() {
        let motion = crate::example::example_motion();
        let a = analyse(&motion, &[]);
        assert_eq!(a.warnings, vec![]);
        assert_eq!(a.encoding, TextEncoding::ShiftJis);
        let arm = &a.bones[0];
        assert_eq!(
            (arm.name.to_string_lossy().as_str(), arm.keys, arm.first_frame, arm.last_frame),
            ("右腕", 5, 0, 60)
        );
        assert_eq!(a.morphs.len(), 1);
    }

    #[test]
    fn duplicates_order_physics_and_quaternions() {
        let mut motion = Motion::new(LongName::encode("m").0);
        let arm = KeyName::encode("右腕").0;
        for frame in [10, 0, 10, 20] {
            motion.bones.push(BoneKey::new(arm, frame));
        }
        let mut zero = BoneKey::new(KeyName::encode("頭").0, 5);
        zero.rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        let mut long = BoneKey::new(KeyName::encode("首").0, 5);
        long.rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 1.1);
        long.interpolation =
            BoneInterpolation::canonical(BoneInterpolation::DEFAULT.curves(), PhysicsToggle::Off);
        motion.bones.extend([zero, long]);
        motion.cameras.push(CameraKey { frame: 3, ..crate::example::example_motion().cameras[0] });
        motion.cameras.push(CameraKey { frame: 3, ..crate::example::example_motion().cameras[0] });
        motion.shadows.push(ShadowKey { frame: 0, mode: 7, distance: f32::NAN });
        motion.trailing = b"Nuthouse01".to_vec();
        let a = analyse(&motion, &[]);
        assert_eq!(
            kinds(&a.warnings),
            vec![
                (WarningKind::DuplicateKeys, Some(Section::Bone), 1),
                (WarningKind::UnsortedKeys, Some(Section::Bone), 1),
                (WarningKind::PhysicsOff, Some(Section::Bone), 1),
                (WarningKind::NonUnitQuaternion, Some(Section::Bone), 1),
                (WarningKind::ZeroQuaternion, Some(Section::Bone), 1),
                (WarningKind::DuplicateKeys, Some(Section::Camera), 1),
                (WarningKind::NonFinite, Some(Section::SelfShadow), 1),
                (WarningKind::OutOfRange, Some(Section::SelfShadow), 1),
                (WarningKind::TrailingBytes, None, 10),
            ]
        );
        assert!(a.warnings[0].message.contains("\"右腕\" at frame 10"), "{}", a.warnings[0]);
        assert!(a.warnings[1].message.contains("frame 0 after frame 10"), "{}", a.warnings[1]);
        assert!(a.warnings[8].message.contains("\"Nuthouse01\""), "{}", a.warnings[8]);
        assert_eq!(a.frame_range, Some((0, 20)));
        assert_eq!(a.bones[0].keys, 4);
    }

    #[test]
    fn cut_and_undecodable_names() {
        let mut motion = Motion::new(RawName::from_bytes_mmd(b"\x83\x5a\xff"));
        // Seven two-byte characters and the lead byte of an eighth fill the 15-byte field.
        let mut cut = [0x83u8; 15];
        for i in 0..7 {
            cut[2 * i + 1] = 0x5a;
        }
        for frame in [0, 1] {
            motion.morphs.push(MorphKey { name: RawName(cut), frame, weight: 0.5 });
        }
        let a = analyse(&motion, &[]);
        assert_eq!(
            kinds(&a.warnings),
            vec![
                (WarningKind::NameUndecodable, None, 1),
                (WarningKind::NameCutMidCharacter, Some(Section::Morph), 2),
            ]
        );
        assert!(a.warnings[0].message.contains("83 5a ff"), "{}", a.warnings[0]);
        assert!(a.warnings[1].message.contains("\"セセセセセセセ\""), "{}", a.warnings[1]);
    }

    #[test]
    fn repairs_come_first() {
        let motion = Motion::default();
        let repair = Repair::CutCount { section: Section::Light, offset: 99, dropped_bytes: 2 };
        let warnings = lint(&motion, &[repair]);
        assert_eq!(kinds(&warnings), vec![(WarningKind::Repaired, Some(Section::Light), 1)]);
        assert!(warnings[0].message.contains("byte 99"));
    }
}
