//! `vmdkit bake --model`: every bone's world position and rotation at every sample, as NumPy
//! `.npz`, CSV or JSON (see `vmdkit::bake::world`); with `--physics`, of the motion with the
//! model's physics baked in first.

use super::BakeArgs;
use crate::args::ik::IkMode;
use crate::args::limit::{too_large, OutputLimit};
use crate::args::physics::PhysicsArgs;
use crate::batch::progress_bar;
use crate::input::{self, read_model};
use crate::output;
use crate::shared::eval::bind;
use crate::shared::physics::{with_physics, PhysicsRun};
use std::path::Path;
use vmdkit::bake::{bake_world, world_bake_size, BakeError, BakeSettings};
use vmdkit::eval::MotionSampler;
use vmdkit::skeleton::Skeleton;
use vmdkit::skeleton::{Axes, METRES_PER_UNIT};

/// Bakes shorter than this finish before a progress bar would help.
const PROGRESS_MIN_SAMPLES: usize = 2_000;

/// The up axis of a right-handed output frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum UpAxis {
    /// Y up, Z mirrored (glTF, three.js); the model faces +Z
    Y,
    /// Z up (Blender, as mmd_tools imports); the model faces -Y
    Z,
}

/// Units and axes of a world-space bake (`bake --model`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct WorldBakeOptions {
    /// Positions in metres: MMD units × 0.08 (one unit is about 8 cm)
    #[arg(long, conflicts_with = "scale")]
    pub metres: bool,
    /// Multiply positions by FACTOR instead (0.08 gives metres, 8 centimetres)
    #[arg(long, value_name = "FACTOR")]
    pub scale: Option<f64>,
    /// Convert to a right-handed frame with this axis up (default: MMD's own left-handed frame,
    /// Y up, as Python's Model.pose)
    #[arg(long, value_enum, value_name = "AXIS")]
    pub up: Option<UpAxis>,
    /// Convert to right-handed, Y up (the same as --up y)
    #[arg(long)]
    pub right_handed: bool,
    /// IK solver of the original's pose (with --model) [default: mmd]
    #[arg(long, value_enum, value_name = "MODE")]
    pub ik: Option<IkMode>,
}

impl WorldBakeOptions {
    /// The flags given, as typed: each does nothing without a model.
    pub fn given(&self) -> Vec<&'static str> {
        let flags = [
            (self.metres, "--metres"),
            (self.scale.is_some(), "--scale"),
            (self.up.is_some(), "--up"),
            (self.right_handed, "--right-handed"),
            (self.ik.is_some(), "--ik"),
        ];
        flags.into_iter().filter(|&(given, _)| given).map(|(_, flag)| flag).collect()
    }

    /// The library settings these options ask for, at `fps`, refusing arrays above `limit`.
    pub fn settings(&self, fps: f64, limit: OutputLimit) -> anyhow::Result<BakeSettings> {
        let scale = match (self.metres, self.scale) {
            (_, Some(s)) if !(s.is_finite() && s > 0.0) => {
                return Err(crate::error::usage(format!(
                    "--scale must be a positive number, not {s}"
                )))
            }
            (_, Some(s)) => s,
            (true, None) => METRES_PER_UNIT,
            (false, None) => 1.0,
        };
        let axes = match (self.up, self.right_handed) {
            (Some(UpAxis::Z), _) => Axes::RightHandedZUp,
            (Some(UpAxis::Y), _) | (None, true) => Axes::RightHandedYUp,
            (None, false) => Axes::Mmd,
        };
        Ok(BakeSettings {
            fps,
            scale,
            axes,
            pose: self.ik.unwrap_or_default().options(),
            max_output_bytes: limit.bytes(),
            // The command line bakes physics itself first (`crate::shared::physics`), for its
            // progress bar and summary; the library's route is the same.
            physics: None,
        })
    }
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Output {
    Npz,
    Csv,
    Json,
}

/// The world bake's output format, from `out`'s extension; a usage error naming both bakes.
pub(super) fn output_format(out: &Path) -> anyhow::Result<Output> {
    let ext = out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("npz") => Ok(Output::Npz),
        Some("csv") => Ok(Output::Csv),
        Some("json") => Ok(Output::Json),
        _ => Err(crate::error::usage(format!(
            "with --model, the output's extension picks the bake: .vmd (IK baked into keys), or \
             .npz, .csv or .json (world-space joints), not {}",
            out.display()
        ))),
    }
}

/// Bakes `args.file` on the model at `model_path` at `fps` samples per second of source time
/// (after --from-fps) into `args.output` (`.npz`, `.csv` or `.json`, written atomically; `-` is
/// stdout), refusing arrays larger than `--max-output-size`.
pub fn run(
    args: &BakeArgs,
    model_path: &Path,
    fps: f64,
    opts: &WorldBakeOptions,
    physics: &PhysicsArgs,
) -> anyhow::Result<()> {
    let (out, limit) = (args.output.as_path(), args.limit);
    let format = output_format(out)?;
    let settings = opts.settings(fps, limit)?;
    let physics = physics.settings()?;
    let model = read_model(model_path)?;
    let loaded = input::load_motion(&args.file, args.lenient, input::NO_TRAILING)?;
    let sampler = MotionSampler::new(&loaded.motion);
    if sampler.bone_tracks().is_empty() {
        return Err(anyhow::anyhow!("{}: {}", loaded.label, BakeError::NoBoneKeys));
    }
    let skeleton = Skeleton::new(&model);
    let refused = |e: BakeError| match e {
        BakeError::TooLarge(e) => too_large(&loaded.label, &e),
        e => e.into(),
    };
    // Before binding, so that a refused bake prints only why.
    let size = world_bake_size(&skeleton, &sampler, fps)
        .and_then(|size| Ok(size.within(limit.bytes())?))
        .map_err(refused)?;
    drop(sampler);
    let run =
        PhysicsRun { settings: physics, pose: settings.pose, max_output_bytes: limit.bytes() };
    let model_label = model_path.display().to_string();
    let motion = with_physics(&loaded.label, &loaded.motion, &model_label, &model, &skeleton, run)?;
    let sampler = MotionSampler::new(&motion);
    let binding = bind(&loaded.label, &skeleton, &sampler);

    let total = usize::try_from(size.frames).unwrap_or(usize::MAX);
    let bar = progress_bar(total, total >= PROGRESS_MIN_SAMPLES, "samples");
    let bake = bake_world(&skeleton, &sampler, &binding, &settings, |done, _| {
        bar.set_position(done as u64)
    });
    bar.finish_and_clear();
    let mut bake = bake.map_err(refused)?;
    // Sampled at the source's rate; the file states the rate asked for.
    bake.fps = args.fps.unwrap_or(fps);

    match format {
        Output::Npz => output::write_seekable_output(out, |w| bake.write_npz(w))?,
        Output::Csv => output::write_output(out, |w| bake.write_csv(w))?,
        Output::Json => output::write_output(out, |w| bake.write_json(w))?,
    }
    say!(
        "{}: {} samples × {} bones at {} fps, {}, {}",
        out.display(),
        bake.frame_count(),
        bake.bone_count(),
        bake.fps,
        bake.units(),
        bake.axes.label()
    );
    Ok(())
}
