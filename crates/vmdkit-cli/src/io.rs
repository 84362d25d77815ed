//! Reading inputs and writing outputs, shared by every command.
//!
//! Inputs: the format is `--from`'s, else the extension's, else the one the first bytes show
//! (`vmdkit::FileKind`); a model or pose given for a motion, or a folder for a file, is told apart.
//! VMD files are memory-mapped through `Motion::read_file_with`, so a 200 MB file is never held
//! twice, and read only as far into their trailing bytes as the command needs; JSON and CSV are
//! read as they stream in; `-` reads stdin; folders are searched for `*.vmd`. Errors keep the
//! library's location (file, section, record, byte offset, or line, column and JSON path) and
//! say when `--lenient` would help.
//! Outputs: files are written through a temporary file and a rename (`vmdkit::io`), so a
//! failure never leaves a partial file and never touches an existing one. An output that is one
//! of the run's inputs is refused (`crate::output::refuse_input_as_output`). A symlink is written
//! through (its target replaced or created, the link kept), an existing file keeps its
//! permissions, and a device or FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written in
//! place, its errors (a full device) failing the command. Outputs that seek back as they are
//! written (NPZ) go through memory when written in place. `-` writes stdout (a motion as VMD
//! unless `--to` says otherwise, refused on a terminal). SIGINT and SIGTERM
//! remove the temporary files in progress (`crate::signals`). JSON and CSV outputs hold the first
//! 64 KiB of a VMD's trailing bytes unless asked for all, and say so.

use crate::error::usage;
use anyhow::Context;
use clap::ValueEnum;
use std::io::{self, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};
use vmdkit::Repair;
use vmdkit::{Expected, FileKind, WrongKind, DETECT_BYTES};
use vmdkit::{Motion, ReadError, ReadOptions};

/// The label commands show for the built-in example motion.
pub const EXAMPLE_LABEL: &str = "<example>";

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

    /// The format a motion output is written in: `to` (from `--to`), else OUT's extension, else
    /// for `-` (stdout) VMD; a usage error otherwise, and for binary VMD on a terminal.
    /// Commands check this before doing the work, so a bad OUT fails fast.
    /// `flag` is the option that names a format, for the message (`--to`, `--format`).
    pub fn of_output_to(path: &Path, to: Option<Format>, flag: &str) -> anyhow::Result<Format> {
        let format = match to {
            Some(format) => format,
            None if is_stdio(path) => Format::Vmd,
            None if flag.is_empty() => Format::named_by(path, "")?,
            None => Format::named_by(path, &format!("; use {flag}"))?,
        };
        refuse_binary_on_terminal(path, format)?;
        Ok(format)
    }

    /// [`Format::of_output_to`] without `--to`.
    pub fn of_output(path: &Path) -> anyhow::Result<Format> {
        Format::of_output_to(path, None, "")
    }

    /// The format `path`'s extension names; otherwise a usage error ending with `hint`.
    fn named_by(path: &Path, hint: &str) -> anyhow::Result<Format> {
        Format::from_path(path).ok_or_else(|| {
            crate::error::usage(format!(
                "cannot tell the format of {} from its extension (.vmd, .json or .csv){hint}",
                path.display()
            ))
        })
    }
}

/// Whether a file argument is `-` (stdin or stdout).
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How an output is named in messages: its path, or `stdout` for `-`.
pub fn output_label(path: &Path) -> String {
    if is_stdio(path) {
        "stdout".to_string()
    } else {
        path.display().to_string()
    }
}

/// A usage error for binary VMD bound for a terminal, where it would garble the screen.
pub fn refuse_binary_on_terminal(path: &Path, format: Format) -> anyhow::Result<()> {
    if format == Format::Vmd && is_stdio(path) && io::stdout().is_terminal() {
        return Err(usage(
            "refusing to write binary VMD to a terminal: redirect stdout (> out.vmd, | ...), \
             or pass --to json or --to csv",
        ));
    }
    Ok(())
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

/// Up to `n` bytes from the start of `r`, fewer only at its end, however it splits them.
fn read_head(r: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    r.take(n as u64).read_to_end(&mut head)?;
    Ok(head)
}

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
    crate::output::note_input(path);
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
        let read = vmdkit::convert::from_json_seekable_with_warnings(file);
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
    let mut stdin: Box<dyn Read> = match crate::inputs::stdin_if_read() {
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
        Format::Json => vmdkit::convert::from_json_reader_with_warnings(input),
        _ => vmdkit::convert::from_csv_reader_with_warnings(input),
    };
    finish_text(label, read, format, bytes)
}

fn finish_text(
    label: &str,
    read: Result<(Motion, Vec<String>), vmdkit::convert::ConvertError>,
    format: Format,
    bytes: u64,
) -> Result<Loaded, LoadError> {
    let (motion, notes) = read.map_err(|e| {
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

/// How many of a VMD's trailing bytes a JSON or CSV output holds unless `--keep-trailing` asks
/// for all: files padded with gigabytes would otherwise become twice that in hex.
pub const TEXT_TRAILING_CAP: usize = 64 * 1024;

/// Writes `motion` to `path` (or stdout) in `format`. A text format holds at most
/// `max_trailing` of the trailing bytes, with a warning when that leaves some out.
pub fn save_motion(
    path: &Path,
    motion: &Motion,
    format: Format,
    pretty: bool,
    max_trailing: usize,
) -> anyhow::Result<()> {
    let style = TextStyle { pretty, bom: false, max_trailing };
    save_motion_styled(path, motion, format, style)
}

/// How JSON and CSV outputs are written.
#[derive(Clone, Copy, Debug)]
pub struct TextStyle {
    /// Indent JSON (`--pretty`).
    pub pretty: bool,
    /// Start CSV with a byte-order mark (`--bom`), for spreadsheets.
    pub bom: bool,
    /// How many of the trailing bytes to hold (see [`TEXT_TRAILING_CAP`]).
    pub max_trailing: usize,
}

/// Like [`save_motion`], with every text option.
pub fn save_motion_styled(
    path: &Path,
    motion: &Motion,
    format: Format,
    style: TextStyle,
) -> anyhow::Result<()> {
    refuse_binary_on_terminal(path, format)?;
    if format != Format::Vmd {
        warn_cut_trailing(path, motion, style.max_trailing);
    }
    write_output(path, |w| write_motion(motion, format, style, w))
}

/// Writes `motion` in `format`, text as `style` says.
fn write_motion(
    motion: &Motion,
    format: Format,
    style: TextStyle,
    out: &mut dyn Write,
) -> io::Result<()> {
    let TextStyle { pretty, bom, max_trailing } = style;
    match format {
        Format::Vmd => motion.write_to(out),
        Format::Json => vmdkit::convert::write_json_with(motion, out, pretty, max_trailing),
        Format::Csv if bom => vmdkit::convert::write_csv_bom(motion, out, max_trailing),
        Format::Csv => vmdkit::convert::write_csv_with(motion, out, max_trailing),
    }
}

/// The warning of a text output that will not hold every trailing byte the VMD had (cut now,
/// or when the motion was read).
fn warn_cut_trailing(path: &Path, motion: &Motion, max_trailing: usize) {
    let kept = motion.trailing.len().min(max_trailing) as u64;
    let all = motion.trailing.len() as u64 + motion.trailing_omitted;
    if kept < all {
        let label = output_label(path);
        say!(
            "warning: {label}: holds the first {kept} of the {all} bytes after the last section \
             (convert --keep-trailing keeps them all); a VMD made from it lacks the other {}",
            all - kept
        );
    }
}

/// Writes to a file atomically (temporary file, then rename), to a device or FIFO in place, or
/// to stdout for `-`; refused (bad usage) when `path` is one of the run's inputs, the one check
/// every command's output goes through (`crate::output::refuse_input_as_output`).
pub fn write_output(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    crate::output::refuse_input_as_output(path)?;
    if is_stdio(path) {
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        fill(&mut out).and_then(|()| out.flush()).context("cannot write stdout")?;
        return Ok(());
    }
    vmdkit::io::write_atomic_with(path, |w| fill(w))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Like [`write_output`], for output that seeks back as it is written (an NPZ's zip fills
/// each member's sizes in afterwards): files directly; stdout, devices and FIFOs, which cannot
/// seek, through memory.
pub fn write_seekable_output(
    path: &Path,
    fill: impl FnOnce(&mut dyn WriteSeek) -> io::Result<()>,
) -> anyhow::Result<()> {
    crate::output::refuse_input_as_output(path)?;
    if !is_stdio(path) && !vmdkit::io::writes_in_place(path) {
        return vmdkit::io::write_atomic_with(path, |w| fill(w))
            .with_context(|| format!("cannot write {}", path.display()));
    }
    let mut buffer = io::Cursor::new(Vec::new());
    let label = output_label(path);
    fill(&mut buffer).with_context(|| format!("cannot write {label}"))?;
    write_output(path, |out| out.write_all(buffer.get_ref()))
}

/// A writer that can also seek, as one trait so that it can be a `dyn` argument.
pub trait WriteSeek: Write + io::Seek {}

impl<W: Write + io::Seek> WriteSeek for W {}

/// Expands folders to the `*.vmd` files under them (sorted, so output order is stable); files
/// are kept as given, whatever their extension. A folder without any VMD is an error, so that
/// `vmdkit check folder/` never passes by checking nothing.
pub fn expand_inputs(args: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    if args.iter().filter(|a| is_stdio(a)).count() > 1 {
        return Err(usage("- (stdin) can be given once"));
    }
    let mut files = Vec::new();
    for arg in args {
        if arg.is_dir() {
            let before = files.len();
            collect_vmds(arg, &mut files)?;
            files[before..].sort();
            anyhow::ensure!(
                files.len() > before,
                "{}: no .vmd files in this folder",
                arg.display()
            );
        } else {
            files.push(arg.clone());
        }
    }
    Ok(files)
}

fn collect_vmds(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        // The entry's own type: symlinked folders are not followed, so a link loop cannot
        // recurse forever; symlinked files are read.
        let kind = entry.file_type().with_context(|| format!("cannot read {}", path.display()))?;
        if kind.is_dir() {
            collect_vmds(&path, out)?;
        } else if Format::from_path(&path) == Some(Format::Vmd) && path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// One JSON document and a newline. Errors stay `io::Error`s, so that a closed pipe
/// (`vmdkit sample … | head`) is recognised as such.
pub fn write_json_line(out: &mut impl Write, doc: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, doc).map_err(io::Error::from)?;
    writeln!(out)
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
