//! `vmdkit reduce`: few keys with fitted curves (see `vmdkit::edit::reduce`).

use super::InOut;
use crate::args::tolerance::ToleranceArgs;
use crate::batch::{is_long, progress_bar, spinner};
use crate::shared::messages::{errors, list};
use vmdkit::edit::{KeyCounts, ReduceMethod, ReduceOptions};

const AFTER_HELP: &str = "\
For dense motions (a bake, a pose estimate: a key every frame). Each bone, morph and camera
track is replaced by keys at some of its frames, with MMD curves fitted per translation axis
and for the rotation (handles 0-127), so that playing the result differs from playing the
input by at most the given errors at every frame: translation distance in model units,
rotation angle in degrees, morph weight. This is checked by playing both with vmdkit's
sampler; tracks that cannot be reduced within the bound keep their keys. Light, self-shadow
and property keys are kept. --baseline uses errno-mmd/smoothvmd's recursive split with linear
curves instead, for comparison; --compare runs both and reports both. --fast fits curves
the cheap way retarget does (a few fixed time handles, the value handles solved directly):
more keys, several times quicker, the same bound.

Examples:
  vmdkit reduce capture.vmd small.vmd
  vmdkit reduce capture.vmd small.vmd --max-position-error 0.02 --max-angle-error 0.25
  vmdkit reduce capture.vmd small.vmd --compare
  vmdkit reduce capture.vmd small.vmd --fast
  vmdkit reduce capture.vmd -o small.json";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct ReduceArgs {
    #[command(flatten)]
    pub io: InOut,
    #[command(flatten)]
    pub tolerance: ToleranceArgs,
    /// Use the smoothvmd-style recursive split (linear curves) instead of fitted curves
    #[arg(long, conflicts_with = "compare")]
    pub baseline: bool,
    /// Fit curves the cheap way (more keys, several times quicker, the same bound)
    #[arg(long, conflicts_with = "baseline")]
    pub fast: bool,
    /// Also run the baseline and report its key count (OUT gets the fitted or fast result)
    #[arg(long)]
    pub compare: bool,
}

fn describe(c: &KeyCounts) -> String {
    format!("{} keys ({} bone, {} morph, {} camera)", c.total(), c.bones, c.morphs, c.cameras)
}

pub fn run(args: &ReduceArgs) -> anyhow::Result<()> {
    // Fail on a bad OUT before doing the work.
    args.io.check_output()?;
    let tolerance = args.tolerance.tolerance()?;
    let motion = args.io.load()?;
    let method = match (args.baseline, args.fast) {
        (true, _) => ReduceMethod::Baseline,
        (false, true) => ReduceMethod::Fast,
        (false, false) => ReduceMethod::Fitted,
    };
    let options = ReduceOptions { tolerance, method, ..ReduceOptions::default() };
    // The library tells the number of tracks with each one done.
    let bar = progress_bar(0, is_long(&motion), "tracks");
    let (out, report) = vmdkit::edit::reduce_with_progress(&motion, &options, &|_, total| {
        bar.set_length(total as u64);
        bar.inc(1);
    });
    bar.finish_and_clear();
    args.io.write(&out)?;
    say!("{}: {} -> {}", args.io.out_label(), describe(&report.before), describe(&report.after));
    say!("largest error at any frame: {}", errors(&report.errors));
    if !report.kept_original.is_empty() {
        say!(
            "{} tracks kept their keys (no reduction within the bound could be verified): {}",
            report.kept_original.len(),
            list(&report.kept_original, 6)
        );
    }
    if args.compare {
        let bar = spinner("reducing again with the baseline", is_long(&motion));
        let (_, base) = vmdkit::edit::reduce(
            &motion,
            &ReduceOptions { method: ReduceMethod::Baseline, ..options },
        );
        bar.finish_and_clear();
        say!(
            "baseline (recursive split, linear curves): {}; largest error {}",
            describe(&base.after),
            errors(&base.errors)
        );
    }
    Ok(())
}
