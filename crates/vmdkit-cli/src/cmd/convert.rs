//! `vmdkit convert`: between VMD, JSON and CSV, or VMD to VMD to rewrite or repair a file;
//! `.glb` outputs go to `gltf.rs`.

use crate::error::{usage, Outcome};
use crate::io::{self, is_stdio, Format};
use std::io::IsTerminal;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Formats follow the extensions .vmd, .json and .csv; --from and --to override them and are
required for `-` (stdin or stdout). VMD to VMD rewrites a file; with --lenient it repairs
what lenient reading can and reports each repair on stderr. JSON and CSV hold every byte of
the VMD, so VMD -> JSON -> VMD and VMD -> CSV -> VMD give back the same file, except that of
the bytes after the last section (padding some tools leave) they hold the first 64 KiB unless
--keep-trailing is given: the output then records their full length, and a warning says the
VMD made from it will lack the rest.

The input is read completely before anything is written, and the output goes to a temporary
file renamed into place, so a failure leaves no partial output and never touches an existing
file, even when IN and OUT are the same file.

Examples:
  vmdkit convert dance.vmd dance.json
  vmdkit convert --pretty dance.vmd dance.json
  vmdkit convert dance.csv dance.vmd
  vmdkit convert --lenient broken.vmd fixed.vmd
  vmdkit convert --keep-trailing padded.vmd padded.json
  cat dance.vmd | vmdkit convert --from vmd --to json - - | jq .

An OUT ending in .glb writes glTF 2.0 (docs/gltf.md): the model's skeleton, skin and mesh
with the motion baked at 30 fps (IK and append included), right-handed Y-up metres (0.08 m per
unit). IN is a motion played on --model, or a PMX/PMD alone for its rest pose. Textures are
referred to by relative path (--embed-textures copies them in); missing ones are reported and
left out.
  vmdkit convert dance.vmd dance.glb --model miku.pmx
  vmdkit convert dance.vmd dance.glb --model miku.pmx --camera camera.vmd --embed-textures
  vmdkit convert dance.vmd bones.glb --model miku.pmx --skeleton-only
  vmdkit convert miku.pmx miku.glb";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Input file, or - for stdin (needs --from)
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output file, or - for stdout (needs --to)
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// Input format (default: from IN's extension)
    #[arg(long, value_enum)]
    from: Option<Format>,
    /// Output format (default: from OUT's extension)
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Read a damaged VMD leniently, keeping every complete record; repairs go to stderr
    #[arg(long)]
    lenient: bool,
    /// Indent JSON output
    #[arg(long)]
    pretty: bool,
    /// Hold every byte after the VMD's last section in JSON or CSV output, not the first 64 KiB
    #[arg(long)]
    keep_trailing: bool,
    #[command(flatten)]
    gltf: super::gltf::GltfArgs,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    if super::gltf::is_glb(&args.output) {
        super::gltf::run(&args.input, &args.output, args.lenient, &args.gltf)?;
        return Ok(Outcome::Success);
    }
    let from = Format::resolve(args.from, &args.input, "--from")?;
    let to = Format::resolve(args.to, &args.output, "--to")?;
    if to == Format::Vmd && is_stdio(&args.output) && std::io::stdout().is_terminal() {
        return Err(usage(
            "refusing to write binary VMD to a terminal; redirect stdout or name a file",
        ));
    }
    let max_trailing = match to {
        Format::Json | Format::Csv if !args.keep_trailing => io::TEXT_TRAILING_CAP,
        _ => io::ALL_TRAILING,
    };
    // Decoded in full (and the input unmapped) before the output is opened; a VMD's trailing
    // bytes that the output will not hold are not read at all.
    let loaded = io::read_motion(&args.input, from, args.lenient, max_trailing)?;
    loaded.warn_repairs();
    io::save_motion(&args.output, &loaded.motion, to, args.pretty, max_trailing)?;
    Ok(Outcome::Success)
}
