//! `vmdkit shift`: move every key in time (see `vmdkit::edit::shift`).

use super::InOut;

const AFTER_HELP: &str = "\
Adds N (which may be negative) to every key's frame. A shift that would move a key before
frame 0 is an error, unless --clip first trims away what would fall off (inserting exact
keys at the new frame 0). Curves are unchanged.

Examples:
  vmdkit shift dance.vmd late.vmd --frames 30
  vmdkit shift dance.vmd early.vmd --frames -120 --clip";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct ShiftArgs {
    #[command(flatten)]
    pub io: InOut,
    /// Frames to add (negative moves earlier)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub frames: i64,
    /// With a negative N, drop what would fall before frame 0 instead of failing
    #[arg(long)]
    pub clip: bool,
}

pub fn run(args: &ShiftArgs) -> anyhow::Result<()> {
    let mut motion = args.io.read()?;
    if args.clip && args.frames < 0 {
        // `unsigned_abs`: `-i64::MIN` overflows.
        let from = u32::try_from(args.frames.unsigned_abs()).map_err(|_| {
            crate::error::usage(format!(
                "--frames {} --clip would drop every frame: no VMD frame is that far from 0",
                args.frames
            ))
        })?;
        let last = motion.frame_range().map_or(0, |(_, last)| last).max(from);
        motion = vmdkit::edit::trim(&motion, from, last)?.0;
    }
    let out = vmdkit::edit::shift(&motion, args.frames)?;
    args.io.write(&out)?;
    eprintln!("{} shifted by {} frames", args.io.summary(&out), args.frames);
    Ok(())
}
