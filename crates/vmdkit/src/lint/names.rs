//! Names that are cut mid-character or not valid in the file's encoding: the model name and
//! the IK names of property keys (bone and morph names are checked with their tracks).

use super::tally::{hex, plural, Tally};
use super::{Warning, WarningKind};
use crate::eval::track::bucket_keys;
use crate::format::{IkState, Motion, Section};
use crate::text::{DecodeStatus, TextEncoding};

/// The model name field, decoded as far as the file's version has it.
pub(super) fn model_name_warnings(motion: &Motion, encoding: TextEncoding, out: &mut Vec<Warning>) {
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

/// IK names in property keys: cut or undecodable, counted per distinct name.
pub(super) fn ik_name_warnings(motion: &Motion, encoding: TextEncoding, out: &mut Vec<Warning>) {
    let entries: Vec<&IkState> = motion.properties.iter().flat_map(|p| &p.ik).collect();
    let mut cut = Tally::default();
    let mut invalid = Tally::default();
    // Distinct names in order of first appearance, with how many entries use each.
    for group in bucket_keys(entries.len(), |e| entries[e].name.bytes()) {
        let (name, uses) = (&entries[group.first].name, group.keys.len() as u64);
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
