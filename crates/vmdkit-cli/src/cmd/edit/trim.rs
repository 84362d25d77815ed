//! `vmdkit trim`: keep a range of frames (see `vmdkit::edit::trim`).

use super::InOut;

const AFTER_HELP: &str = "\
Keeps the keys from --from to --to (inclusive). Where a range end falls inside a segment, a
key holding the exact value there is inserted and the remaining piece of the segment keeps
the matching piece of its curve (de Casteljau). MMD stores curve handles as whole numbers
0-127, so a split curve is rounded: it stays within 0.003 of the exact piece (in progress
and in weight, as a fraction of the segment's length and change), more only when a handle
had to be clamped into range; both are reported. Frame numbers stay as they are unless
--rebase moves --from to frame 0.

--to is the last frame; --format picks the output's format where OUT's extension does not.

Examples:
  vmdkit trim dance.vmd chorus.vmd --from 900 --to 1500
  vmdkit trim dance.vmd chorus.vmd --from 900 --to 1500 --rebase
  vmdkit trim dance.vmd -o - --from 0 --to 300 --format csv";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct TrimArgs {
    #[command(flatten)]
    pub io: InOut,
    /// First frame kept
    #[arg(long, value_name = "A", value_parser = crate::args::frames::frame_number)]
    pub from: u32,
    /// Last frame kept
    #[arg(long, value_name = "B", value_parser = crate::args::frames::frame_number)]
    pub to: u32,
    /// Shift the result so that --from becomes frame 0
    #[arg(long)]
    pub rebase: bool,
}

pub fn run(args: &TrimArgs) -> anyhow::Result<()> {
    let motion = args.io.read()?;
    let (mut out, report) = vmdkit::edit::trim(&motion, args.from, args.to)?;
    if args.rebase {
        out = vmdkit::edit::shift(&out, -i64::from(args.from))?;
    }
    args.io.write(&out)?;
    say!(
        "{}; {} keys inserted at the cuts, {} dropped",
        args.io.summary(&out),
        report.inserted,
        report.dropped
    );
    if report.split_curves > 0 {
        say!(
            "{} curves split; each stored piece is within {:.5} of the exact piece (fraction of its segment){}",
            report.split_curves,
            report.max_curve_bound,
            if report.clamped_curves > 0 { format!("; {} had a handle clamped into 0-127", report.clamped_curves) } else { String::new() }
        );
    }
    Ok(())
}
