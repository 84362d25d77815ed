//! Writing an output: files through a temporary file and a rename (`vmdkit::io`), so a
//! failure never leaves a partial file and never touches an existing one; `-` to stdout. A
//! symlink is written through (its target replaced or created, the link kept), an existing
//! file keeps its permissions, and a device or FIFO (`/dev/null`, `/dev/stdout`, a named pipe)
//! is written in place, its errors (a full device) failing the command. Outputs that seek back
//! as they are written (NPZ) go through memory when written in place. SIGINT and SIGTERM
//! remove the temporary files in progress (`crate::signals`).

use crate::input::is_stdio;
use crate::output::out_arg::{output_label, refuse_input_as_output};
use anyhow::Context;
use std::io::{self, Write};
use std::path::Path;

/// Writes to a file atomically (temporary file, then rename), to a device or FIFO in place, or
/// to stdout for `-`; refused (bad usage) when `path` is one of the run's inputs, the one check
/// every command's output goes through (`crate::output::refuse_input_as_output`).
pub fn write_output(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    refuse_input_as_output(path)?;
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
    refuse_input_as_output(path)?;
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

/// One JSON document and a newline. Errors stay `io::Error`s, so that a closed pipe
/// (`vmdkit sample … | head`) is recognised as such.
pub fn write_json_line(out: &mut impl Write, doc: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, doc).map_err(io::Error::from)?;
    writeln!(out)
}
