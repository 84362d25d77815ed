//! Models and VPD poses where a command takes a file: which kind of file an input is, and
//! reading poses (motions are read by `crate::io`, models by `crate::eval_args::read_model`).
//!
//! The kind comes from the extension (`.pmx`, `.pmd`: a model; `.vpd`: a pose; `.vmd`,
//! `.json`: a motion), else from the first bytes as `vmdkit::FileKind` tells them (a PMX, PMD
//! or bone CSV is a model, a VPD a pose), else it is a motion, whose reader names any other
//! kind. A pose is played as a motion with one key per bone and morph
//! at frame 0 (`VpdPose::to_motion`). For `-`, commands that take several kinds read stdin
//! into memory once ([`stdin_bytes`]) and tell the kind from its bytes; the motion readers
//! then read that copy (`crate::io`), so a model, pose or motion can all come through a pipe.

use crate::io::{is_stdio, Loaded};
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;
use vmdkit::model::VpdPose;
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
        let mut head = [0u8; 32];
        let n = std::fs::File::open(path).and_then(|mut f| read_up_to(&mut f, &mut head));
        InputKind::of_bytes(&head[..n.unwrap_or(0)])
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

/// Standard input once read: its bytes, or why it could not be read.
static STDIN: OnceLock<Result<Vec<u8>, String>> = OnceLock::new();

/// Standard input, read completely the first time it is asked for and kept for the process.
pub fn stdin_bytes() -> anyhow::Result<&'static [u8]> {
    let read = STDIN.get_or_init(|| {
        let mut data = Vec::new();
        std::io::stdin().lock().read_to_end(&mut data).map(|_| data).map_err(|e| e.to_string())
    });
    match read {
        Ok(data) => Ok(data),
        Err(e) => Err(anyhow::anyhow!("cannot read stdin: {e}")),
    }
}

/// Standard input if [`stdin_bytes`] has already read it (and could).
pub fn stdin_if_read() -> Option<&'static [u8]> {
    STDIN.get().and_then(|read| read.as_deref().ok())
}

/// The size of an input in bytes: of stdin when it has been read, else of the file (0 when
/// unknown).
pub fn input_size(path: &Path) -> u64 {
    match stdin_if_read() {
        Some(data) if is_stdio(path) => data.len() as u64,
        _ => std::fs::metadata(path).map_or(0, |m| m.len()),
    }
}

/// Reads into `buf` until it is full or the input ends.
fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..])? {
            0 => break,
            read => n += read,
        }
    }
    Ok(n)
}

/// Reads a VPD pose; the error names the file and line.
pub fn read_pose(path: &Path) -> anyhow::Result<VpdPose> {
    if is_stdio(path) {
        return VpdPose::parse(stdin_bytes()?)
            .map_err(|e| anyhow::anyhow!("cannot read the pose from stdin: {e}"));
    }
    crate::output::note_input(path);
    VpdPose::read_file(path).map_err(|e| anyhow::anyhow!("cannot read the pose: {e}"))
}

/// A pose as a motion with its keys at `frame`, warning about names it could not store.
pub fn pose_as_motion(path: &Path, pose: &VpdPose, frame: u32) -> Loaded {
    let label = path.display().to_string();
    let (motion, notes) = pose.to_motion(frame);
    for (kind, name) in notes.names {
        say!(
            "warning: {label}: the {kind} name {:?} does not fit a VMD's name field in \
             Shift-JIS; it is stored cut or with ? for what Shift-JIS lacks",
            vmdkit::shown::shown(&name)
        );
    }
    let bytes = input_size(path);
    Loaded { label, motion, repairs: Vec::new(), bytes }
}

/// Reads a motion, or a pose as a motion at frame 0: what commands that list or play keys
/// take. See `crate::io::load_motion` for `lenient` and `max_trailing`.
pub fn load_motion_or_pose(
    path: &Path,
    lenient: bool,
    max_trailing: usize,
) -> anyhow::Result<Loaded> {
    match InputKind::of(path) {
        InputKind::Pose => Ok(pose_as_motion(path, &read_pose(path)?, 0)),
        // A model is named as such by the motion reader, as where only motions are read.
        InputKind::Motion | InputKind::Model => crate::io::load_motion(path, lenient, max_trailing),
    }
}
