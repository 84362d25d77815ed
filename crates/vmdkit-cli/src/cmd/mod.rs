//! One module per subcommand. To add a command: add `name.rs` with an `Args` (clap `Args`)
//! and a `run(Args) -> anyhow::Result<Outcome>`, then a variant and a `run` arm below.

use crate::error::Outcome;
use clap::Subcommand;

pub mod check;
pub mod completions;
pub mod convert;
pub mod dump;
pub mod example;
pub mod info;

#[derive(Subcommand)]
pub enum Command {
    /// Summarise motions: version, model name, key counts, frame range, bones, morphs, warnings
    Info(info::Args),
    /// List every keyframe of a motion, readable, or as JSON
    Dump(dump::Args),
    /// Convert between VMD, JSON and CSV, or rewrite (repair) a VMD
    Convert(convert::Args),
    /// Validate and lint motions; exit 1 when one is damaged
    Check(check::Args),
    /// Write the built-in example motion to a file
    Example(example::Args),
    /// Print a shell completion script
    Completions(completions::Args),
}

impl Command {
    pub fn run(self) -> anyhow::Result<Outcome> {
        match self {
            Command::Info(args) => info::run(args),
            Command::Dump(args) => dump::run(args),
            Command::Convert(args) => convert::run(args),
            Command::Check(args) => check::run(args),
            Command::Example(args) => example::run(args),
            Command::Completions(args) => completions::run(args),
        }
    }
}
