//! `vmdkit bake`: a key at every 1/N second (see `vmdkit::edit::bake`).

use crate::eval_args::{check_fps, too_large, warn_duplicates, OutputLimit};
use crate::io::{self, Format};
use std::path::PathBuf;
use vmdkit::edit::{bake_sampler, BakeError};
use vmdkit::eval::MotionSampler;

const AFTER_HELP: &str = "\
MMD plays every VMD at 30 fps and a VMD has no frame-rate field, so the output's frame numbers
count at the new rate: in a 60 fps bake, frame 120 is two seconds in (MMD itself would play
it at half speed; tell your player the rate). JSON and CSV outputs use `vmdkit convert`'s
schemas, which have no frame-rate field yet, so the rate travels only in the frame numbers.
Camera cuts stay cuts: dense camera keys are one frame apart, which MMD holds, not blends.
Every track gets a key at every frame from its first key to its last, so the output's size
follows the frame numbers: it is worked out first, and a bake larger than --max-output-size
(VMD records, or with --model the arrays) fails before any work, naming the frame span.

Examples:
  vmdkit bake dance.vmd --fps 60 -o dance60.vmd
  vmdkit bake dance.vmd --fps 24 -o dance24.json";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct BakeArgs {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Keys per second of the output: any positive number (60, 24, 29.97, ...)
    #[arg(long, value_name = "N")]
    pub fps: f64,
    /// The output file; its extension picks the format: .vmd, .json or .csv
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
    /// Indent JSON output
    #[arg(long)]
    pub pretty: bool,
    #[command(flatten)]
    pub limit: OutputLimit,
}

pub fn run(args: &BakeArgs) -> anyhow::Result<()> {
    check_fps(args.fps)?;
    let format = Format::of_output(&args.output)?;
    let loaded = io::load_motion(&args.file, args.lenient, io::NO_TRAILING)?;
    let sampler = MotionSampler::new(&loaded.motion);
    warn_duplicates(&loaded.label, &sampler);
    let baked = match bake_sampler(&sampler, loaded.motion.header, args.fps, args.limit.bytes()) {
        Err(BakeError::TooLarge(e)) => return Err(too_large(&loaded.label, &e)),
        baked => baked?,
    };
    io::save_motion(&args.output, &baked, format, args.pretty, io::TEXT_TRAILING_CAP)?;
    let keys = baked.bones.len()
        + baked.morphs.len()
        + baked.cameras.len()
        + baked.lights.len()
        + baked.shadows.len();
    eprintln!("{}: {keys} keys; frame numbers count at {} fps", args.output.display(), args.fps);
    Ok(())
}
