//! Reading inputs and writing outputs, shared by every command.
//!
//! Inputs: VMD files are memory-mapped through `Motion::read_file_with`, so a 200 MB file is
//! never held twice, and read only as far into their trailing bytes as the command needs; JSON
//! and CSV are read as they stream in; `-` reads stdin; folders are searched for `*.vmd`. Errors
//! keep the library's location (file, section, record, byte offset, or line and column) and
//! say when `--lenient` would help.
//! Outputs: files are written through a temporary file and a rename (`vmdkit::io`), so a
//! failure never leaves a partial file and never touches an existing one. A symlink is written
//! through (its target replaced or created, the link kept), an existing file keeps its
//! permissions, and a device or FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written in
//! place, its errors (a full device) failing the command. Outputs that seek back as they are
//! written (NPZ) go through memory when written in place. `-` writes stdout. SIGINT and SIGTERM
//! remove the temporary files in progress (`crate::signals`). JSON and CSV outputs hold the first
//! 64 KiB of a VMD's trailing bytes unless asked for all, and say so.

use anyhow::Context;
use clap::ValueEnum;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use vmdkit::Repair;
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

    /// `given` (from `--from`/`--to`), else the extension of `path`; a usage error otherwise.
    pub fn resolve(given: Option<Format>, path: &Path, flag: &str) -> anyhow::Result<Format> {
        if let Some(format) = given {
            return Ok(format);
        }
        if is_stdio(path) {
            return Err(crate::error::usage(format!("`-` needs {flag} vmd|json|csv")));
        }
        Format::named_by(path, &format!("; use {flag}"))
    }

    /// The format OUT's extension names; a usage error otherwise. Commands check this before
    /// doing the work, so a bad OUT fails fast.
    pub fn of_output(path: &Path) -> anyhow::Result<Format> {
        Format::named_by(path, "")
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
            eprintln!("warning: {}: repaired by lenient reading: {repair}", self.label);
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
    fn from_read(err: ReadError, lenient: bool) -> Self {
        let Some(format) = err.format_error() else {
            return LoadError { message: err.to_string(), suggest_lenient: false };
        };
        // The library's message says "try lenient reading"; our own hint names the flag.
        let message = err.to_string().replace(" (try lenient reading)", "");
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

/// Reads a motion in any format from a file or `-` (stdin). A VMD keeps at most
/// `max_trailing` of its trailing bytes; text documents hold what they hold.
pub fn read_motion(
    path: &Path,
    format: Format,
    lenient: bool,
    max_trailing: usize,
) -> anyhow::Result<Loaded> {
    let label = path.display().to_string();
    if format == Format::Vmd && !is_stdio(path) {
        return Ok(load_vmd(path, lenient, max_trailing)?);
    }
    let input: Box<dyn Read> = if is_stdio(path) {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).with_context(|| format!("cannot read {label}"))?)
    };
    // Text is read as it streams in (the motion it makes is far smaller than a big document);
    // a VMD on stdin is held whole, as it has to be parsed from memory.
    let (motion, notes) = match format {
        Format::Vmd => {
            let mut data = Vec::new();
            let mut input = input;
            input.read_to_end(&mut data).context("cannot read stdin")?;
            return Ok(parse_vmd(&label, &data, lenient, max_trailing)?);
        }
        Format::Json => vmdkit::convert::from_json_reader_with_warnings(input)
            .with_context(|| format!("{label}: cannot read as a vmdkit JSON motion"))?,
        Format::Csv => vmdkit::convert::from_csv_reader_with_warnings(input)
            .with_context(|| format!("{label}: cannot read as a vmdkit CSV motion"))?,
    };
    // Edits the text formats cannot store exactly (a name too long for its field, ...).
    for note in notes {
        eprintln!("warning: {label}: {note}");
    }
    let bytes = if is_stdio(path) { 0 } else { std::fs::metadata(path).map_or(0, |m| m.len()) };
    Ok(Loaded { label, motion, repairs: Vec::new(), bytes })
}

/// Reads a motion in the format its extension names (VMD for any other), reporting what
/// lenient reading repaired; see [`read_motion`] for `max_trailing`.
pub fn load_motion(path: &Path, lenient: bool, max_trailing: usize) -> anyhow::Result<Loaded> {
    let format = Format::from_path(path).unwrap_or(Format::Vmd);
    let loaded = read_motion(path, format, lenient, max_trailing)?;
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
    if format != Format::Vmd {
        warn_cut_trailing(path, motion, max_trailing);
    }
    write_output(path, |w| write_motion(motion, format, pretty, max_trailing, w))
}

/// Writes `motion` in `format`; see [`save_motion`] for `max_trailing`.
fn write_motion(
    motion: &Motion,
    format: Format,
    pretty: bool,
    max_trailing: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Vmd => motion.write_to(out),
        Format::Json => vmdkit::convert::write_json_with(motion, out, pretty, max_trailing),
        Format::Csv => vmdkit::convert::write_csv_with(motion, out, max_trailing),
    }
}

/// The warning of a text output that will not hold every trailing byte the VMD had (cut now,
/// or when the motion was read).
fn warn_cut_trailing(path: &Path, motion: &Motion, max_trailing: usize) {
    let kept = motion.trailing.len().min(max_trailing) as u64;
    let all = motion.trailing.len() as u64 + motion.trailing_omitted;
    if kept < all {
        let label = if is_stdio(path) { "stdout".into() } else { path.display().to_string() };
        eprintln!(
            "warning: {label}: holds the first {kept} of the {all} bytes after the last section \
             (convert --keep-trailing keeps them all); a VMD made from it lacks the other {}",
            all - kept
        );
    }
}

/// Writes to a file atomically (temporary file, then rename), to a device or FIFO in place, or
/// to stdout for `-`.
pub fn write_output(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
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
    if !is_stdio(path) && !vmdkit::io::writes_in_place(path) {
        return vmdkit::io::write_atomic_with(path, |w| fill(w))
            .with_context(|| format!("cannot write {}", path.display()));
    }
    let mut buffer = io::Cursor::new(Vec::new());
    let label = if is_stdio(path) { "stdout".to_string() } else { path.display().to_string() };
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
