//! `vmdkit bake --model MODEL -o OUT.vmd`: IK baked into forward keys (see
//! `vmdkit::bake::bake_ik`).

use super::BakeArgs;
use crate::args::ik::IkMode;
use crate::args::limit::too_large;
use crate::batch::FrameProgress;
use crate::input::Format;
use crate::output;
use crate::shared::messages::{counts, errors, list};
use std::path::Path;
use vmdkit::bake::{bake_ik, BakeError, IkBakeOptions};

/// Bakes shorter than this many frames finish before a progress bar would help.
const PROGRESS_MIN_FRAMES: u64 = 2_000;

/// Bakes the IK of `args.file` posed on `model_path` with `ik` into `args.output` (a .vmd),
/// resampled to `fps` (the sampling rate, after --from-fps) when given.
pub fn run(args: &BakeArgs, model_path: &Path, fps: Option<f64>, ik: IkMode) -> anyhow::Result<()> {
    let reduce = args.reduce_options()?;
    let (_, loaded, skeleton) = super::load_on_model(args, model_path)?;

    let options =
        IkBakeOptions { pose: ik.options(), fps, reduce, max_output_bytes: args.limit.bytes() };
    let mut bar = FrameProgress::new(PROGRESS_MIN_FRAMES);
    let baked = bake_ik(&loaded.motion, &skeleton, &options, |done, total| bar.set(done, total));
    bar.finish();
    let (out, report) = match baked {
        Err(BakeError::TooLarge(e)) => return Err(too_large(&loaded.label, &e)),
        Err(e) => return Err(anyhow::anyhow!("{}: {e}", loaded.label)),
        Ok(baked) => baked,
    };
    output::save_motion(&args.output, &out, Format::Vmd, false, output::TEXT_TRAILING_CAP)?;

    let names: Vec<&str> = report.baked_bones.iter().map(|&b| skeleton.bone_name(b)).collect();
    if !report.unkeyable_bones.is_empty() {
        let names: Vec<&str> =
            report.unkeyable_bones.iter().map(|&b| skeleton.bone_name(b)).collect();
        say!(
            "warning: {} bones IK moves share their 15-byte key name with an earlier bone, so \
             no key can reach them; they keep their keys: {}",
            names.len(),
            list(&names, 8)
        );
    }
    say!("{}: {}", args.output.display(), counts(&out));
    say!(
        "IK baked into {} bones ({}) over {} frames{}; {} IK chains switched off; with IK off \
         every bone is within {:.1e} units and {:.1e}° of the original's IK pose",
        names.len(),
        list(&names, 8),
        report.frames,
        match args.fps {
            Some(rate) => format!(" (frame numbers count at {rate} fps)"),
            None => String::new(),
        },
        report.chains_switched_off,
        report.max_position_error,
        report.max_rotation_error_degrees,
    );
    if let Some(reduced) = &report.reduce {
        say!(
            "reduced {} bone keys to {}; largest error at any frame: {}",
            reduced.before.bones,
            reduced.after.bones,
            errors(&reduced.errors)
        );
    }
    Ok(())
}
