//! What an input file holds, where a command takes a motion, a model or a pose.
//!
//! The kind comes from the extension (`.pmx`, `.pmd`: a model; `.vpd`: a pose; `.vmd`,
//! `.json`: a motion), else from the first bytes as `vmdkit::FileKind` tells them (a PMX, PMD
//! or bone CSV is a model, a VPD a pose), else it is a motion, whose reader names any other
//! kind. For `-`, the kind comes from the bytes of stdin, read into memory once
//! (`crate::input::stdio::stdin_bytes`), which the readers then read again.

use crate::input::stdio::{is_stdio, read_head, stdin_bytes};
use std::path::Path;
use vmdkit::FileKind;

/// What an input file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A VMD, or a JSON or CSV motion.
    Motion,
    /// A PMX or PMD model.
    Model,
    /// A VPD pose.
    Pose,
}

impl InputKind {
    /// The kind of `path`, by extension, else by its first bytes; `-` by the first bytes of
    /// stdin (read into memory, see [`stdin_bytes`]; unreadable stdin is left to the motion
    /// reader to report).
    pub fn of(path: &Path) -> InputKind {
        if is_stdio(path) {
            return stdin_bytes().map_or(InputKind::Motion, InputKind::of_bytes);
        }
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("pmx" | "pmd") => return InputKind::Model,
            Some("vpd") => return InputKind::Pose,
            // A CSV may be a model's bone table; its first bytes tell.
            Some("vmd" | "json") => return InputKind::Motion,
            _ => {}
        }
        let head = std::fs::File::open(path).and_then(|mut f| read_head(&mut f, 32));
        InputKind::of_bytes(&head.unwrap_or_default())
    }

    /// The kind the first bytes of a file say, as [`FileKind`] tells them apart; anything else
    /// is left to the motion reader, which names what it is.
    pub fn of_bytes(head: &[u8]) -> InputKind {
        match FileKind::detect(head) {
            kind if kind.is_model() => InputKind::Model,
            FileKind::Vpd => InputKind::Pose,
            _ => InputKind::Motion,
        }
    }
}
