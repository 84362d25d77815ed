//! `vmdkit example`: the built-in example motion as a file, to try the other commands on.

use crate::error::Outcome;
use crate::io::{self, Format};
use std::path::PathBuf;

const AFTER_HELP: &str = "\
The example is made in code (vmdkit::example::example_motion): a two-second wave of the right
arm with a blink, a camera move, light and self-shadow keys and an IK switch, so every section
has keys.

Examples:
  vmdkit example example.vmd && vmdkit info example.vmd
  vmdkit example --pretty example.json
  vmdkit example --to csv -";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Output file (.vmd, .json or .csv), or - for stdout (needs --to)
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// Output format (default: from OUT's extension)
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Indent JSON output
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let format = Format::resolve(args.to, &args.output, "--to")?;
    let motion = vmdkit::example::example_motion();
    io::save_motion(&args.output, &motion, format, args.pretty, io::TEXT_TRAILING_CAP)?;
    Ok(Outcome::Success)
}
