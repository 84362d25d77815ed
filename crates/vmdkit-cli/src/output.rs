//! OUT, the same way in every command that writes a file: `-o OUT` (or `--output OUT`), or in
//! the commands that always took it so, OUT after the input. `-` is stdout. What every OUT is
//! checked for: named for what it holds ([`require_extension`], or the commands' own format
//! checks), and never one of the run's inputs ([`refuse_input_as_output`], which
//! `crate::io::write_output` applies to every output).

use crate::error::usage;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// `-o OUT`, or OUT as the last positional argument: one of them, not both.
#[derive(clap::Args, Clone, Debug)]
pub struct OutArg {
    /// The output file, or - for stdout
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
    /// The output file, or - for stdout (the same as -o OUT)
    #[arg(
        id = "out_positional",
        value_name = "OUT",
        required_unless_present = "output",
        conflicts_with = "output"
    )]
    positional: Option<PathBuf>,
}

impl OutArg {
    /// OUT, however it was given.
    pub fn path(&self) -> &Path {
        match (&self.output, &self.positional) {
            (Some(path), _) | (None, Some(path)) => path,
            (None, None) => unreachable!("clap requires -o OUT or OUT"),
        }
    }

    /// OUT as messages name it: its path, or `stdout`.
    pub fn label(&self) -> String {
        crate::io::output_label(self.path())
    }
}

/// The files this run has read, to be kept from being written over (see [`note_input`]).
static INPUTS: Mutex<Vec<(same_file::Handle, PathBuf)>> = Mutex::new(Vec::new());

/// Notes that `path` is one of the command's inputs (a motion, model, pose, camera, keypoint
/// or mapping file), so that no output of the run replaces it: every reader of an input calls
/// this, every writer of an output calls [`refuse_input_as_output`], and no command has to
/// list its inputs itself (a list per command is one a new flag can miss).
///
/// Only regular files are noted: a device or FIFO is not replaced by writing to it, and
/// opening a FIFO to identify it would wait for a writer.
pub fn note_input(path: &Path) {
    if crate::io::is_stdio(path) || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return;
    }
    // The handle keeps the identity (device and inode, or the Windows file index) of the file
    // read, whatever its path names by the time the output is written.
    if let Ok(handle) = same_file::Handle::from_path(path) {
        let mut inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
        inputs.push((handle, path.to_path_buf()));
    }
}

/// A usage error when `output` is the same file as an input noted by [`note_input`] (the same
/// device and inode, through links and other spellings of its path): `view in.vmd -o in.vmd`
/// would replace the motion with HTML, and an edit or conversion written over its input
/// leaves nothing to go back to. Bad usage (exit 2) rather than a failed write (1): the
/// arguments are wrong, whatever the files hold, and the user fixes it by naming another OUT.
pub fn refuse_input_as_output(output: &Path) -> anyhow::Result<()> {
    if crate::io::is_stdio(output) || !std::fs::metadata(output).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let Ok(out) = same_file::Handle::from_path(output) else { return Ok(()) };
    let inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    match inputs.iter().find(|(input, _)| *input == out) {
        Some((_, input)) => Err(usage(format!(
            "refusing to write {}: it is the input {}; name another output",
            output.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// A usage error unless OUT's extension is one of `extensions` (or OUT is `-`): every command
/// checks that its output is named for what it writes, before any work, so that a slip such
/// as `plot in.vmd -o in.vmd` cannot put a PNG where a motion is expected.
pub fn require_extension(output: &Path, extensions: &[&str], what: &str) -> anyhow::Result<()> {
    let ext = output.extension().and_then(|e| e.to_str()).unwrap_or("");
    if crate::io::is_stdio(output) || extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)) {
        return Ok(());
    }
    let named: Vec<String> = extensions.iter().map(|e| format!(".{e}")).collect();
    Err(usage(format!(
        "-o {}: the output is {what}; name it {} (or - for stdout)",
        output.display(),
        named.join(" or ")
    )))
}

/// What an export wrote, for its one-line summary on stderr ([`print_export_summary`]).
pub struct ExportSummary {
    /// Samples written.
    pub frames: usize,
    /// Samples per second.
    pub fps: f64,
    /// Joints (BVH) or skinned bones (glTF).
    pub joints: usize,
    /// The output's size.
    pub bytes: u64,
}

/// Prints `OUT: N frames at F fps (S s), J joints, SIZE` (`rest pose` for no frames) on stderr: what `convert` wrote to a
/// `.bvh` or `.glb`, worded like `bake`'s and `retarget`'s summaries.
pub fn print_export_summary(output: &Path, s: &ExportSummary) {
    let size = vmdkit::limit::ByteSize(s.bytes);
    let out = output.display();
    if s.frames == 0 {
        eprintln!("{out}: rest pose, {} joints, {size}", s.joints);
        return;
    }
    let span = (s.frames - 1) as f64 / s.fps;
    eprintln!(
        "{out}: {} frames at {} fps ({span:.3} s), {} joints, {size}",
        s.frames, s.fps, s.joints
    );
}

/// A writer that counts the bytes through it, for a summary of output streamed to stdout.
pub struct CountingWriter<'a> {
    /// Where the bytes go.
    pub inner: &'a mut dyn std::io::Write,
    /// Bytes written so far.
    pub count: u64,
}

impl std::io::Write for CountingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A number as the text outputs print it: the shortest digits that read back as the stored
/// value (Rust's `Display`), with negative zero printed as 0. A sign on zero is noise to a
/// reader (`rot (0, 0, -0, 1)`); the stored bits stay exact in the JSON outputs.
#[derive(Clone, Copy)]
pub struct Num<T>(pub T);

impl std::fmt::Display for Num<f32> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // −0 + 0 is +0; every other value is unchanged.
        std::fmt::Display::fmt(&(self.0 + 0.0), f)
    }
}

impl std::fmt::Display for Num<f64> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&(self.0 + 0.0), f)
    }
}
