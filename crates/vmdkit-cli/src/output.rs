//! OUT, the same way in every command that writes a file: `-o OUT` (or `--output OUT`), or in
//! the commands that always took it so, OUT after the input. `-` is stdout.

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
        crate::io::output_label(self.path())
    }
}
