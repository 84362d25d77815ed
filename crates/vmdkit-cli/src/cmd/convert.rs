//! `vmdkit convert`: between VMD, JSON and CSV, or VMD to VMD to rewrite or repair a file.

use crate::batch::{is_long, spinner};
use crate::error::{usage, Outcome};
use crate::io::{self, Format, TextStyle};
use crate::output::OutArg;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Formats: --from, else IN's extension (.vmd, .json, .csv), else what IN's bytes show (so
`-`, stdin, needs no --from); --to, else OUT's extension, else VMD for `-` (stdout; refused
on a terminal). VMD to VMD rewrites a file; with --lenient it repairs what lenient reading
can and reports each repair on stderr. JSON and CSV hold every byte of the VMD, so VMD ->
JSON -> VMD and VMD -> CSV -> VMD give back the same file, except that of the bytes after the
last section (padding some tools leave) they hold the first 64 KiB unless --keep-trailing is
given: the output then records their full length, and a warning says the VMD made from it
will lack the rest. CSV starts without a byte-order mark, as most programs want; --bom adds
one for spreadsheets (Excel garbles Japanese names without it).

The input is read completely before anything is written, and the output goes to a temporary
file renamed into place, so a failure leaves no partial output and never touches an existing
file, even when IN and OUT are the same file. Options that do not apply to the formats chosen
(--pretty for VMD or CSV, --bom for VMD or JSON, --keep-trailing for VMD) are refused.

Examples:
  vmdkit convert dance.vmd -o dance.json
  vmdkit convert --pretty dance.vmd dance.json
  vmdkit convert dance.csv dance.vmd
  vmdkit convert --lenient broken.vmd -o fixed.vmd
  vmdkit convert --keep-trailing padded.vmd padded.json
  vmdkit convert --bom dance.vmd -o for-excel.csv
  cat dance.vmd | vmdkit convert --to json - - | jq .";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Input file, or - for stdin
    #[arg(value_name = "IN")]
    input: PathBuf,
    #[command(flatten)]
    out: OutArg,
    /// Input format (default: from IN's extension, else from its bytes)
    #[arg(long, value_enum)]
    from: Option<Format>,
    /// Output format (default: from OUT's extension; VMD for -)
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Read a damaged VMD leniently, keeping every complete record; repairs go to stderr
    #[arg(long)]
    lenient: bool,
    /// Indent JSON output
    #[arg(long)]
    pretty: bool,
    /// Start CSV output with a byte-order mark, for spreadsheets
    #[arg(long)]
    bom: bool,
    /// Hold every byte after the VMD's last section in JSON or CSV output, not the first 64 KiB
    #[arg(long)]
    keep_trailing: bool,
}

/// Inputs from this size (a 30 MB VMD, a 100 MB JSON) take a second or more to read.
const BIG_INPUT: u64 = 32 << 20;

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let output = args.out.path();
    let to = Format::of_output_to(output, args.to, "--to")?;
    refuse_idle_options(&args, to)?;
    let max_trailing = match to {
        Format::Json | Format::Csv if !args.keep_trailing => io::TEXT_TRAILING_CAP,
        _ => io::ALL_TRAILING,
    };
    // Decoded in full (and the input unmapped) before the output is opened; a VMD's trailing
    // bytes that the output will not hold are not read at all.
    let big = std::fs::metadata(&args.input).is_ok_and(|m| m.len() >= BIG_INPUT);
    let bar = spinner(&format!("reading {}", args.input.display()), big);
    let loaded = io::read_motion(&args.input, args.from, args.lenient, max_trailing);
    bar.finish_and_clear();
    let loaded = loaded?;
    loaded.warn_repairs();
    let style = TextStyle { pretty: args.pretty, bom: args.bom, max_trailing };
    let bar = spinner(&format!("writing {}", io::output_label(output)), is_long(&loaded.motion));
    let saved = io::save_motion_styled(output, &loaded.motion, to, style);
    bar.finish_and_clear();
    saved?;
    Ok(Outcome::Success)
}

/// A usage error for an option that would do nothing with output in `to`.
fn refuse_idle_options(args: &Args, to: Format) -> anyhow::Result<()> {
    let idle = if args.pretty && to != Format::Json {
        "--pretty indents JSON"
    } else if args.bom && to != Format::Csv {
        "--bom is for CSV"
    } else if args.keep_trailing && to == Format::Vmd {
        "--keep-trailing is for JSON and CSV (a VMD output keeps every byte)"
    } else {
        return Ok(());
    };
    Err(usage(format!("{idle}, and the output is {}", to.name())))
}
