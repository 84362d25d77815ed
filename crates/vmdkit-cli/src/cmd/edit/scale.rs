//! `vmdkit scale`: scale translations (see `vmdkit::edit::scale`).

use super::InOut;
use crate::error::usage;

const AFTER_HELP: &str = "\
Multiplies every bone translation by K, and the camera's target and distance too unless
--no-camera: for a model K times the size. Rotations and morphs are unchanged; curves are
kept, so the result is the original times K at every time.

Examples:
  vmdkit scale dance.vmd dance_big.vmd --translation 1.2
  cat dance.vmd | vmdkit scale - -o small.vmd --translation 0.8";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct ScaleArgs {
    #[command(flatten)]
    pub io: InOut,
    /// The factor
    #[arg(long, value_name = "K")]
    pub translation: f32,
    /// Leave camera keys unchanged
    #[arg(long)]
    pub no_camera: bool,
}

pub fn run(args: &ScaleArgs) -> anyhow::Result<()> {
    // Fail on a bad OUT before doing the work.
    args.io.check_output()?;
    if !args.translation.is_finite() {
        return Err(usage(format!(
            "--translation must be a finite number, not {}",
            args.translation
        )));
    }
    let motion = args.io.load()?;
    let out = vmdkit::edit::scale(&motion, args.translation, !args.no_camera);
    args.io.write(&out)?;
    say!("{}; translations × {}", args.io.summary(&out), args.translation);
    Ok(())
}
