//! `vmdkit filter`: keep or drop bones and morphs by name (see `vmdkit::edit::filter`).

use super::InOut;
use crate::shared::messages::list;
use vmdkit::edit::FilterMode;

const AFTER_HELP: &str = "\
NAMES are bone or morph names; * matches any run of characters and ? one character (quote
them for the shell). Camera, light, self-shadow and property keys are kept.

Examples:
  vmdkit filter dance.vmd arms.vmd --keep '右*' '左*'
  vmdkit filter dance.vmd body.vmd --drop '*指*'
  vmdkit filter dance.json -o - --format json --keep センター | jq .bones";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct FilterArgs {
    #[command(flatten)]
    pub io: InOut,
    /// Keep only the bones and morphs matching NAMES
    #[arg(long, value_name = "NAMES", num_args = 1.., required_unless_present = "drop", conflicts_with = "drop")]
    pub keep: Vec<String>,
    /// Drop the bones and morphs matching NAMES
    #[arg(long, value_name = "NAMES", num_args = 1..)]
    pub drop: Vec<String>,
}

pub fn run(args: &FilterArgs) -> anyhow::Result<()> {
    let motion = args.io.read()?;
    let (mode, names) = if args.keep.is_empty() {
        (FilterMode::Drop, &args.drop)
    } else {
        (FilterMode::Keep, &args.keep)
    };
    let (out, report) = vmdkit::edit::filter(&motion, mode, names);
    args.io.write(&out)?;
    say!("{}; {} keys dropped", args.io.summary(&out), report.dropped_keys);
    if !report.dropped_names.is_empty() {
        say!("dropped: {}", list(&report.dropped_names, 10));
    }
    for pattern in &report.unmatched {
        say!("warning: {pattern} matched no bone or morph");
    }
    Ok(())
}
