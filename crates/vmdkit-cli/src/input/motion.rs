//! Reading a motion: the format is `--from`'s, else the extension's, else the one the first
//! bytes show (`vmdkit::FileKind`); a model or pose given for a motion, or a folder for a file,
//! is told apart. VMD files are memory-mapped through `Motion::read_file_with`, so a 200 MB
//! file is never held twice, and read only as far into their trailing bytes as the command
//! needs; JSON and CSV are read as they stream in; `-` reads stdin. Errors keep the library's
//! location (file, section, record, byte offset, or line, column and JSON path) and say when
//! `--lenient` would help.

use crate::input::format::{motion_format, wrong_kind, Format};
use crate::input::seen::note_input;
use crate::input::stdio::{is_stdio, read_head, stdin_if_read};
use std::io::{self, Read, Seek};
use std::path::Path;
use vmdkit::Repair;
use vmdkit::{Expected, FileKind, DETECT_BYTES};
use vmdkit::{Motion, ReadError, ReadOptions};

/// The label commands show for the built-in example motion.
pub const EXAMPLE_LABEL: &str = "<example>";

/// A motion read from somewhere, with what lenient reading repaired.
pub struct Loaded {
    /// The path as given, or [`EXAMPLE_LABEL`], or `-`.
    pub label: String,
    pub motion: Motion,
    pub repairs: Vec<Repair>,
    /// The input's size in bytes (0 for text read from stdin, which is not counted).
    pub bytes: u64,
}

impl Loaded {
    /// Prints what lenient reading repaired, one warning each: the one place this line is made.
    pub fn warn_repairs(&self) {
        for repair in &self.repairs {
            say!("warning: {}: repaired by lenient reading: {repair}", self.label);
        }
    }
}

/// Why a VMD could not be read. The message names the file and, for damage, the section, record
/// and byte offset.
#[derive(Debug, thiserror::Error)]
#[error("{message}{}", if *suggest_lenient { LENIENT_HINT } else { "" })]
pub struct LoadError {
    pub message: String,
    /// Whether reading with `--lenient` would get past the problem.
    pub suggest_lenient: bool,
}

/// The hint a [`LoadError`] ends with when `--lenient` would help.
const LENIENT_HINT: &str = " (--lenient reads what is intact and reports the repairs)";

impl LoadError {
    /// An error `--lenient` cannot help with.
    pub fn new(message: impl Into<String>) -> Self {
        LoadError { message: message.into(), suggest_lenient: false }
    }

    /// `context` ("cannot read x.json") and the cause, as one message.
    fn io(context: &str, err: io::Error) -> Self {
        LoadError::new(format!("{context}: {err}"))
    }

    fn from_read(err: ReadError, lenient: bool) -> Self {
        let Some(format) = err.format_error() else {
            return LoadError { message: err.to_string(), suggest_lenient: false };
        };
        // The library says what is wrong; the hint naming the flag is ours.
        let message = err.to_string();
        LoadError { message, suggest_lenient: !lenient && format.lenient_may_help() }
    }
}

/// `max_trailing` for commands that write the motion back: every byte after the last section.
pub const ALL_TRAILING: usize = usize::MAX;
/// `max_trailing` for commands that only look at or play the keys: a file padded with
/// gigabytes then costs nothing to read.
pub const NO_TRAILING: usize = 0;

fn options(lenient: bool, max_trailing: usize) -> ReadOptions {
    let options = if lenient { ReadOptions::LENIENT } else { ReadOptions::STRICT };
    options.with_max_trailing(max_trailing)
}

/// Reads a VMD file (memory-mapped), keeping at most `max_trailing` of its trailing bytes.
pub fn load_vmd(path: &Path, lenient: bool, max_trailing: usize) -> Result<Loaded, LoadError> {
    let parsed = Motion::read_file_with(path, options(lenient, max_trailing))
        .map_err(|e| LoadError::from_read(e, lenient))?;
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    Ok(Loaded {
        label: path.display().to_string(),
        motion: parsed.motion,
        repairs: parsed.repairs,
        bytes,
    })
}

/// Parses a VMD held in memory (stdin).
pub fn parse_vmd(
    label: &str,
    data: &[u8],
    lenient: bool,
    max_trailing: usize,
) -> Result<Loaded, LoadError> {
    let parsed = Motion::parse_with(data, options(lenient, max_trailing))
        .map_err(|e| LoadError::from_read(e.with_path(label), lenient))?;
    Ok(Loaded {
        label: label.to_string(),
        motion: parsed.motion,
        repairs: parsed.repairs,
        bytes: data.len() as u64,
    })
}

/// The built-in example motion, as if read from a file.
pub fn example() -> Loaded {
    let motion = vmdkit::example::example_motion();
    let bytes = motion.encoded_len() as u64;
    Loaded { label: EXAMPLE_LABEL.to_string(), motion, repairs: Vec::new(), bytes }
}

/// An error unless `path` is something other than a folder: reading one as a file gives "No
/// such device" (mapped) or "Is a directory (os error 21)" deep in a read.
pub fn refuse_folder(path: &Path, expected: &str) -> Result<(), LoadError> {
    if path.is_dir() {
        return Err(LoadError::new(format!("{}: is a directory, not {expected}", path.display())));
    }
    Ok(())
}

/// The motion format of an input whose first bytes are `head`, or why it is not a motion.
fn motion_format_of(label: &str, head: &[u8]) -> Result<Format, LoadError> {
    let kind = FileKind::detect(head);
    motion_format(kind).ok_or_else(|| LoadError::new(wrong_kind(label, kind, Expected::Motion)))
}

/// Reads a motion from a file or `-` (stdin), in `from`'s format if given (`--from`), else
/// the one `path`'s extension names, else the one its first bytes show (`vmdkit::FileKind`); a model or
/// pose named like a motion is refused as what it is. A VMD keeps at most `max_trailing` of its
/// trailing bytes; text documents hold what they hold.
pub fn read_motion(
    path: &Path,
    from: Option<Format>,
    lenient: bool,
    max_trailing: usize,
) -> Result<Loaded, LoadError> {
    if is_stdio(path) {
        return read_stdin(from, lenient, max_trailing);
    }
    let label = path.display().to_string();
    refuse_folder(path, "a motion file")?;
    note_input(path);
    let cannot_read = |e| LoadError::io(&format!("cannot read {label}"), e);
    let mut file = None;
    let format = match from {
        Some(format) => format,
        None => {
            let mut opened = std::fs::File::open(path).map_err(cannot_read)?;
            let head = read_head(&mut opened, DETECT_BYTES).map_err(cannot_read)?;
            file = Some(opened);
            let kind = FileKind::detect(&head);
            let unknown = matches!(kind, FileKind::Text | FileKind::Binary | FileKind::Empty);
            match Format::from_path(path) {
                // The extension wins over bytes of no known kind, so that a VMD with a damaged
                // signature is read as one and its error says where; bytes of a known kind
                // other than a motion are named as what they are.
                Some(format) if motion_format(kind).is_some() || unknown => format,
                _ => motion_format_of(&label, &head)?,
            }
        }
    };
    if format == Format::Vmd {
        return load_vmd(path, lenient, max_trailing);
    }
    let mut file = match file {
        Some(file) => file,
        None => std::fs::File::open(path).map_err(cannot_read)?,
    };
    file.rewind().map_err(cannot_read)?;
    let bytes = file.metadata().map_or(0, |m| m.len());
    if format == Format::Json {
        // A file can be read again after an error, which then names the field's whole path.
        let read = vmdkit::convert::from_json_seekable(file);
        return finish_text(&label, read, format, bytes);
    }
    read_text(&label, file, format, bytes)
}

/// [`read_motion`] of `-`: the first bytes tell the format unless `from` does.
fn read_stdin(
    from: Option<Format>,
    lenient: bool,
    max_trailing: usize,
) -> Result<Loaded, LoadError> {
    let label = "-";
    // A command that tells a model or pose from a motion has read stdin already.
    let mut stdin: Box<dyn Read> = match stdin_if_read() {
        Some(read) => Box::new(read),
        None => Box::new(io::stdin().lock()),
    };
    let head =
        read_head(&mut stdin, DETECT_BYTES).map_err(|e| LoadError::io("cannot read stdin", e))?;
    let format = match from {
        Some(format) => format,
        None => motion_format_of(label, &head)?,
    };
    let mut input = io::Cursor::new(head).chain(stdin);
    if format == Format::Vmd {
        // A VMD has to be parsed from memory.
        let mut data = Vec::new();
        input.read_to_end(&mut data).map_err(|e| LoadError::io("cannot read stdin", e))?;
        return parse_vmd(label, &data, lenient, max_trailing);
    }
    read_text(label, input, format, 0)
}

/// Reads a JSON or CSV motion as it streams in from `input`.
fn read_text(
    label: &str,
    input: impl Read,
    format: Format,
    bytes: u64,
) -> Result<Loaded, LoadError> {
    let read = match format {
        Format::Json => vmdkit::convert::from_json_reader(input),
        _ => vmdkit::convert::from_csv_reader(input),
    };
    finish_text(label, read, format, bytes)
}

fn finish_text(
    label: &str,
    read: Result<vmdkit::convert::Converted, vmdkit::convert::ConvertError>,
    format: Format,
    bytes: u64,
) -> Result<Loaded, LoadError> {
    let vmdkit::convert::Converted { motion, warnings: notes } = read.map_err(|e| {
        LoadError::new(format!("{label}: cannot read as a vmdkit {} motion: {e}", format.name()))
    })?;
    // Edits the text formats cannot store exactly (a name too long for its field, ...).
    for note in notes {
        say!("warning: {label}: {note}");
    }
    Ok(Loaded { label: label.to_string(), motion, repairs: Vec::new(), bytes })
}

/// Reads a motion as [`read_motion`] does without `--from`, reporting what lenient reading
/// repaired; see [`read_motion`] for `max_trailing`.
pub fn load_motion(path: &Path, lenient: bool, max_trailing: usize) -> anyhow::Result<Loaded> {
    let loaded = read_motion(path, None, lenient, max_trailing)?;
    loaded.warn_repairs();
    Ok(loaded)
}
