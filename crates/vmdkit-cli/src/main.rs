//! `vmdkit`: inspect, check and convert MikuMikuDance VMD motion files.
//!
//! This file only parses arguments and maps results to exit statuses (see [`error`]); each
//! command lives in `cmd/<name>.rs` (or `cmd/<name>/`), on a layer of arguments several
//! commands share ([`args`]), reading inputs ([`input`]) and writing outputs ([`output`]).

/// `eprintln!` for a person: the line with its control characters escaped
/// (`vmdkit::shown::escape_controls`), since names, paths and values from files may hold any
/// (an escape sequence in a bone name would otherwise reach the terminal). Every line the
/// command line prints on stderr goes through here.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", vmdkit::shown::escape_controls(&format!($($arg)*)))
    };
}

/// `eprint!` for a person, as [`say!`] is `eprintln!`.
macro_rules! say_part {
    ($($arg:tt)*) => {
        eprint!("{}", vmdkit::shown::escape_controls(&format!($($arg)*)))
    };
}

mod args;
mod batch;
mod cmd;
mod error;
mod input;
mod output;
mod report;
mod shared;
mod signals;
mod terminal;

use clap::{CommandFactory, FromArgMatches, Parser};
use std::process::ExitCode;

const AFTER_HELP: &str = "\
Examples:
  vmdkit info --example                 summarise the built-in example motion
  vmdkit info dance.vmd motions/        summarise files and every *.vmd under a folder
  vmdkit dump --euler --name 右腕 dance.vmd
  vmdkit convert dance.vmd -o dance.json
                                        convert by extension (.vmd, .json, .csv)
  vmdkit mirror dance.vmd -o - | vmdkit info -
                                        - is stdin (format told by its bytes) or stdout
  vmdkit check --strict-warnings motions/

Every command that writes a file takes -o OUT (convert, example and the edits also take OUT
after the input). Progress bars show on stderr for long work when it is a terminal;
VMDKIT_PROGRESS=always shows them for short work too, =never hides them.

Exit status: 0 success, 1 a file is damaged or unreadable (or an output could not be
written), 2 bad usage, 130 and 143 stopped by SIGINT and SIGTERM (outputs in progress are
abandoned, their temporary files removed).";

/// Inspect, check and convert MikuMikuDance VMD motion files.
#[derive(Parser)]
#[command(name = "vmdkit", version, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: cmd::Command,
}

/// The command line's definition. Every option value may be negative (`--fps -30`, `--frames
/// -120`), so that it reaches the command's own check and its message, not clap's "unexpected
/// argument '-3'"; no option is a number itself, so nothing is lost.
pub fn command() -> clap::Command {
    Cli::command().mut_subcommands(|sub| {
        sub.mut_args(|arg| {
            if arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
    })
}

fn main() -> ExitCode {
    // clap exits with status 2 on bad usage and 0 for --help and --version.
    let cli = Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    signals::remove_temporary_files_on_signals();
    match cli.command.run() {
        Ok(outcome) => outcome.into(),
        Err(err) => error::report(&err),
    }
}
