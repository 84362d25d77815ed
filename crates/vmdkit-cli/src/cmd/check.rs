//! `vmdkit check`: validate and lint motion files; the exit status says whether all are sound.

use crate::batch::for_each_ordered;
use crate::error::Outcome;
use crate::io::{expand_inputs, read_motion, LoadError};
use std::io::Write;
use std::path::PathBuf;
use vmdkit::lint::{lint, Warning, TRAILING_PREVIEW};

const AFTER_HELP: &str = "\
Prints one line per file: `ok` or `FAIL` with the reason (file, section, record and byte
offset), then the file's warnings indented (the kinds `vmdkit info --help` lists, among them
far_frames: keys far beyond the rest, usually a damaged frame number), then a summary line.

Exit status: 1 when any file is damaged or unreadable; warnings alone do not fail unless
--strict-warnings is given. With --lenient a file whose damage lenient reading can repair
passes, and each repair is reported as a warning.

Examples:
  vmdkit check dance.vmd
  vmdkit check --strict-warnings motions/
  vmdkit check --lenient broken.vmd";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Accept damage that lenient reading repairs; the repairs become warnings
    #[arg(long)]
    lenient: bool,
    /// Exit 1 when any file has warnings, too
    #[arg(long)]
    strict_warnings: bool,
    /// Print only files that fail or have warnings, and the summary
    #[arg(long, short)]
    quiet: bool,
    /// Motion files (.vmd, or .json/.csv from `vmdkit convert`; - for stdin), or folders
    /// searched recursively for *.vmd
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let files = expand_inputs(&args.files)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut ok, mut failed, mut warned) = (0usize, 0usize, 0usize);
    for_each_ordered(
        &files,
        |path| {
            read_motion(path, None, args.lenient, TRAILING_PREVIEW)
                .map(|loaded| lint(&loaded.motion, &loaded.repairs))
        },
        |path, result: Result<Vec<Warning>, LoadError>| {
            match result {
                Ok(warnings) => {
                    ok += 1;
                    if !warnings.is_empty() {
                        warned += 1;
                    }
                    if !(args.quiet && warnings.is_empty()) {
                        let note = match warnings.len() {
                            0 => String::new(),
                            1 => " (1 warning)".to_string(),
                            n => format!(" ({n} warnings)"),
                        };
                        writeln!(out, "ok    {}{note}", path.display())?;
                    }
                    for w in &warnings {
                        writeln!(out, "      warning: {}: {}", w.kind.name(), w.message)?;
                    }
                }
                Err(err) => {
                    failed += 1;
                    // The message starts with the file's path.
                    writeln!(out, "FAIL  {err}")?;
                }
            }
            out.flush()?;
            Ok(())
        },
    )?;
    writeln!(
        out,
        "{} checked: {ok} ok, {failed} damaged or unreadable, {warned} with warnings",
        if files.len() == 1 { "1 file".to_string() } else { format!("{} files", files.len()) }
    )?;
    out.flush()?;
    let fails = failed > 0 || (args.strict_warnings && warned > 0);
    Ok(if fails { Outcome::Failed } else { Outcome::Success })
}
