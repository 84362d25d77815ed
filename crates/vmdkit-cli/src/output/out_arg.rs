//! OUT, the same way in every command that writes a file: `-o OUT` (or `--output OUT`), or in
//! the commands that always took it so, OUT after the input. `-` is stdout. What every OUT is
//! checked for: named for what it holds ([`require_extension`], or the commands' own format
//! checks), and never one of the run's inputs ([`refuse_input_as_output`], which
//! `crate::output::write_output` applies to every output).

use crate::error::usage;
use crate::input::is_stdio;
use crate::input::seen::input_same_as;
use std::path::{Path, PathBuf};

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
        output_label(self.path())
    }
}

/// How an output is named in messages: its path, or `stdout` for `-`.
pub fn output_label(path: &Path) -> String {
    if is_stdio(path) {
        "stdout".to_string()
    } else {
        path.display().to_string()
    }
}

/// A usage error when `output` is the same file as an input the run has read
/// (`crate::input::note_input`; the same device and inode, through links and other spellings
/// of its path): `view in.vmd -o in.vmd` would replace the motion with HTML, and an edit or
/// conversion written over its input leaves nothing to go back to. Bad usage (exit 2) rather than a failed write (1): the
/// arguments are wrong, whatever the files hold, and the user fixes it by naming another OUT.
pub fn refuse_input_as_output(output: &Path) -> anyhow::Result<()> {
    match input_same_as(output) {
        Some(input) => Err(usage(format!(
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
    if is_stdio(output) || extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)) {
        return Ok(());
    }
    let named: Vec<String> = extensions.iter().map(|e| format!(".{e}")).collect();
    Err(usage(format!(
        "-o {}: the output is {what}; name it {} (or - for stdout)",
        output.display(),
        named.join(" or ")
    )))
}
