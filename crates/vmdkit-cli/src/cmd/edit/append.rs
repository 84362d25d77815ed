//! `vmdkit append`: motions one after another in time (see `vmdkit::edit::append`).

use super::{load_all, save, warn_model_names};
use crate::shared::messages::counts;
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Each motion's frame 0 lands on the previous one's last key frame + 1 + --gap, as loading it at
that frame in MMD would place it: its own timing (a lead-in before its first key included) is
kept, and every section moves (bones, morphs, camera, light, self-shadow, IK/visibility), curves
and camera cuts included.

Each part plays as it did alone: keys are added at each seam so that a track holds its last
value to the end of its motion, starts its next motion at that motion's first value, and is at
rest (no translation or rotation, weight 0) in a motion that does not key it. Over the gap,
bones and morphs blend from one pose to the next (by the curve of the next motion's key at its
frame 0, linear where vmdkit added that key; --gap 0: none). The camera, light
and self-shadow cut instead: the earlier motion's last camera is held to the frame before the
next motion's first camera key, so MMD jumps there rather than gliding across the seam.

The output carries the first motion's model name (a warning names the others). Frames past the
largest VMD frame number are an error, as for `shift`.

Examples:
  vmdkit append intro.vmd dance.vmd outro.vmd -o show.vmd
  vmdkit append dance1.vmd dance2.vmd --gap 10 -o both.vmd";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct AppendArgs {
    /// The motions, in playing order
    #[arg(value_name = "FILE", required = true, num_args = 2..)]
    pub inputs: Vec<PathBuf>,
    /// The joined motion; its extension picks the format: .vmd, .json or .csv
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Frames between one motion's last key and the next one's frame 0
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub gap: u32,
    /// Read damaged VMDs leniently
    #[arg(long)]
    pub lenient: bool,
}

pub fn run(args: &AppendArgs) -> anyhow::Result<()> {
    let motions = load_all(&args.inputs, args.lenient, &args.output)?;
    let (joined, report) = vmdkit::edit::append(&motions, args.gap)?;
    save(&args.output, &joined)?;
    say!("{}: {}", args.output.display(), counts(&joined));
    for (path, start) in args.inputs.iter().zip(&report.starts) {
        say!("{}: frame 0 at frame {start}", path.display());
    }
    say!("{} keys added at the seams, {} camera cuts", report.inserted, report.camera_cuts);
    warn_model_names(&report.model_name, &report.other_model_names);
    Ok(())
}
