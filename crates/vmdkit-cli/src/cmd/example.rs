//! `vmdkit example`: the built-in example motion as a file, to try the other commands on.

use crate::error::{usage, Outcome};
use crate::input::Format;
use crate::output;
use crate::output::OutArg;

const AFTER_HELP: &str = "\
The example is made in code (vmdkit::example::example_motion): a two-second wave of the right
arm with a blink, a camera move, light and self-shadow keys and an IK switch, so every section
has keys. The format is --to's, else OUT's extension's, else VMD for - (stdout).

Examples:
  vmdkit example example.vmd && vmdkit info example.vmd
  vmdkit example --pretty -o example.json
  vmdkit example --to csv -";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(flatten)]
    out: OutArg,
    /// Output format (default: from OUT's extension; VMD for -)
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Indent JSON output
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let output = args.out.path();
    let format = Format::of_output_to(output, args.to, "--to")?;
    if args.pretty && format != Format::Json {
        return Err(usage(format!("--pretty indents JSON, and the output is {}", format.name())));
    }
    let motion = vmdkit::example::example_motion();
    output::save_motion(output, &motion, format, args.pretty, output::TEXT_TRAILING_CAP)?;
    Ok(Outcome::Success)
}
