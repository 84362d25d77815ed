//! The motion file formats (VMD, JSON, CSV) and what the command line says of a file that is
//! not the kind a command takes.

use clap::ValueEnum;
use std::path::Path;
use vmdkit::{Expected, FileKind, WrongKind};

/// A motion file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Vmd,
    Json,
    Csv,
}

impl Format {
    /// The format's name in messages: "VMD".
    pub fn name(self) -> &'static str {
        match self {
            Format::Vmd => "VMD",
            Format::Json => "JSON",
            Format::Csv => "CSV",
        }
    }

    /// The format a file name's extension names, if any.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "vmd" => Some(Format::Vmd),
            "json" => Some(Format::Json),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }
}

/// The motion format of a file of `kind`, if it is a motion.
pub fn motion_format(kind: FileKind) -> Option<Format> {
    match kind {
        FileKind::Vmd => Some(Format::Vmd),
        // JSON whose first bytes do not tell: the motion reader says what is wrong with it.
        FileKind::JsonMotion | FileKind::Json => Some(Format::Json),
        FileKind::CsvMotion => Some(Format::Csv),
        _ => None,
    }
}

/// What the command line adds to the library's "this is X; Y are Z": where a file of `kind`
/// does go, when some command takes it.
pub fn kind_hint(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Bvh => "; `vmdkit retarget` takes BVH",
        kind if kind.is_model() => "; `vmdkit info` reads models, and --model takes one",
        FileKind::Vpd => "; `vmdkit info`, `pose` and `render` take poses",
        kind if kind.is_keypoints() => "; `vmdkit retarget` takes keypoints",
        _ => "",
    }
}

/// The message of a file of `found` given where `expected` was: the library's words and the
/// command line's hint.
pub fn wrong_kind(label: &str, found: FileKind, expected: Expected) -> String {
    format!("{label}: {}{}", WrongKind { found, expected }, kind_hint(found))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_motions_have_a_motion_format() {
        assert_eq!(motion_format(FileKind::JsonMotion), Some(Format::Json));
        assert_eq!(motion_format(FileKind::Pmx), None);
        let message = wrong_kind("a.bvh", FileKind::Bvh, Expected::Motion);
        assert_eq!(
            message,
            "a.bvh: this is a BVH file; motions are VMD, JSON or CSV; `vmdkit retarget` takes BVH"
        );
    }
}
