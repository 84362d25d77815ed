//! `vmdkit retime`: a new frame rate or speed (see `vmdkit::edit::retime`).

use super::InOut;
use crate::args::tolerance::ToleranceArgs;
use crate::error::usage;
use crate::shared::messages::{counts, errors, list};

const AFTER_HELP: &str = "\
--fps N makes the frame numbers count at N frames per second (the input counting at
--from-fps, 30 by default, as MMD plays every VMD); --speed K plays the motion K times as fast.
Keys land on whole frames. Where a key's new time is already whole, the segment keeps its
curves exactly (pure scaling changes no curve). Where it must be rounded, the segments around
it are refitted from the ideal motion at every output frame, and split where one curve
cannot follow, so that every output frame is within the tolerances below of the ideal
(reported). Camera cuts (keys one frame apart) stay one frame apart.

Examples:
  vmdkit retime dance.vmd dance60.vmd --fps 60
  vmdkit retime dance60.vmd dance.vmd --from-fps 60 --fps 30
  vmdkit retime dance.vmd fast.vmd --speed 1.25
  vmdkit retime dance.vmd -o - --fps 60 > dance60.vmd";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct RetimeArgs {
    #[command(flatten)]
    pub io: InOut,
    /// Output frame rate: frame numbers count at N per second
    #[arg(long, value_name = "N", required_unless_present = "speed", conflicts_with = "speed")]
    pub fps: Option<f64>,
    /// The rate the input's frame numbers count at
    #[arg(long, value_name = "M", default_value_t = 30.0, requires = "fps")]
    pub from_fps: f64,
    /// Play K times as fast (0.5: half speed)
    #[arg(long, value_name = "K")]
    pub speed: Option<f64>,
    #[command(flatten)]
    pub tolerance: ToleranceArgs,
}

pub fn run(args: &RetimeArgs) -> anyhow::Result<()> {
    // Fail on a bad OUT before doing the work.
    args.io.check_output()?;
    let factor = match (args.fps, args.speed) {
        (Some(fps), _) => fps / args.from_fps,
        (None, Some(speed)) => 1.0 / speed,
        (None, None) => unreachable!("clap requires one"),
    };
    if !(factor.is_finite() && factor > 0.0) {
        return Err(usage("--fps, --from-fps and --speed must be positive numbers"));
    }
    let tolerance = args.tolerance.tolerance()?;
    let motion = args.io.load()?;
    let bar = crate::batch::spinner("retiming", crate::batch::is_long(&motion));
    let retimed = vmdkit::edit::retime(&motion, factor, &tolerance);
    bar.finish_and_clear();
    let (out, report) = retimed?;
    args.io.write(&out)?;
    let shown = format!("{factor:.6}");
    let shown = shown.trim_end_matches('0').trim_end_matches('.');
    say!("{}: frames × {shown}; {}", args.io.out_label(), counts(&out));
    say!(
        "{} segments kept their curves exactly, {} were refitted around rounded keys; largest error against the ideal motion at any frame: {}",
        report.segments_kept,
        report.segments_refitted,
        errors(&report.errors)
    );
    if !report.dense_tracks.is_empty() {
        say!(
            "{} tracks got a key at every frame (no fit could be verified): {}",
            report.dense_tracks.len(),
            list(&report.dense_tracks, 6)
        );
    }
    Ok(())
}
