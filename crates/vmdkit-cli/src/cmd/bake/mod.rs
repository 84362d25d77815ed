//! `vmdkit bake`: a key at every 1/N second (see `vmdkit::bake::bake`); with `--model`, IK
//! baked into forward keys (`ik.rs`), physics baked into keys (`physics.rs`) or world-space
//! joints (`world.rs`). This file
//! picks the mode and refuses the options that would do nothing in it.

mod ik;
mod physics;
mod world;

use crate::args::frames::check_fps;
use crate::args::limit::{too_large, OutputLimit};
use crate::args::physics::PhysicsArgs;
use crate::args::tolerance::ToleranceArgs;
use crate::batch::{is_long, spinner};
use crate::error::usage;
use crate::input::Loaded;
use crate::input::{self, Format};
use crate::output;
use crate::shared::eval::{bind, warn_duplicates};
use std::path::{Path, PathBuf};
use vmdkit::bake::{bake_sampler, BakeError};
use vmdkit::edit::ReduceOptions;
use vmdkit::edit::Tolerance;
use vmdkit::eval::MotionSampler;
use vmdkit::math::FPS;
use vmdkit::model::Model;
use vmdkit::skeleton::Skeleton;
use world::WorldBakeOptions;

const AFTER_HELP: &str = "\
Three bakes, picked by --model and the output's extension:

  bake FILE --fps N -o OUT.vmd|.json|.csv          every track resampled, a key every 1/N s
  bake FILE --model MODEL -o OUT.vmd [--fps N]     IK baked into forward (FK) keys
  bake FILE --model MODEL --fps N -o OUT.npz|.csv|.json   world-space joints of every bone
  bake FILE --model MODEL --physics -o OUT.vmd     physics (hair, skirts) baked into keys

MMD plays every VMD at 30 fps and a VMD has no frame-rate field, so the output's frame numbers
count at the new rate: in a 60 fps bake, frame 120 is two seconds in (MMD itself would play
it at half speed; tell your player the rate). --from-fps M says the input's frame numbers count
at M (a motion authored at 60 fps: --from-fps 60), as `vmdkit retime` has it. JSON and CSV
outputs use `vmdkit convert`'s schemas, which have no frame-rate field yet, so the rate travels
only in the frame numbers. Camera cuts stay cuts: dense camera keys are one frame apart, which
MMD holds, not blends. Every track gets a key at every frame from its first key to its last, so
the output's size follows the frame numbers: it is worked out first, and a bake larger than
--max-output-size (VMD records, or the world bake's arrays) fails before any work.

IK bake (.vmd with --model): every bone an IK chain rotates (knees, legs, ankles, and any
other chain some key leaves on) gets a key at every frame from the motion's first to its last
bone/morph/IK key, holding what reproduces, with IK off, the pose MMD's IK gives (within 1e-4
units; the largest difference is reported). Every other track keeps its keys and curves exactly;
--fps N resamples the whole motion too, and --reduce thins the baked keys with `vmdkit
reduce`'s fitter and tolerances. Every IK chain of the model is switched off in the property
(IK/visibility) section: at frame 0 and in every existing key. Append (付与) bones are not
baked: MMD and engines without IK still apply append from the source bone on playback, so a
D bone (足D, ひざD) follows its baked source by itself, and keys of its own would apply the
append twice. A motion without bone keys (a camera motion) is an error: there is nothing to pose.

Physics bake (.vmd with --model --physics): the model's rigid bodies and joints are simulated
as MMD does, from frame 0 (settled on the first frame's pose) through the motion's last key,
and every bone a body moves (hair, skirts, accessories) gets a key at every frame holding, in
its own local frame, what reproduces with physics off (MMD's physics switch off, engines and
Blender without a rigid-body world) the pose the physics gave, within 1e-4 units (the largest
difference is reported). Every other track is kept exactly and IK still solves on playback;
an IK chain that rotates those bones (a hair IK) is switched off in the property section, since
physics overwrites it. --reduce thins the baked keys: its tolerances hold per bone, on local
rotation and offset, so the tip of a chain of n bones may move up to n times as far. With
--physics, a world-space bake (.npz, .csv, .json) poses the physics-baked motion. A model
without rigid bodies has nothing to simulate: a warning, and the motion as it is.
--physics-step, --physics-settle and --physics-reset tune the simulation (see their help).

Options that do nothing in the chosen mode are errors: --metres, --scale, --up and
--right-handed belong to the world bake, --ik to the --model bakes, --reduce to the IK and
physics bakes, --fps to all but the physics bake to .vmd, --physics to a bake on a model,
--pretty to a .json output.

Examples:
  vmdkit bake dance.vmd --fps 60 -o dance60.vmd
  vmdkit bake dance60.vmd --from-fps 60 --fps 30 -o dance30.vmd
  vmdkit bake dance.vmd --model miku.pmx -o dance-fk.vmd
  vmdkit bake dance.vmd --model miku.pmx -o dance-fk.vmd --reduce --max-angle-error 0.2
  vmdkit bake dance.vmd --model miku.pmx --fps 30 --metres --up z -o joints.npz
  vmdkit bake dance.vmd --model miku.pmx --physics -o dance-physics.vmd
  vmdkit bake dance.vmd --model miku.pmx --physics --fps 30 -o joints-with-hair.npz";

/// `bake`: key frames at a new rate, or with `--model` IK baked into forward keys (.vmd) or the
/// world-space joints of every frame.
#[derive(clap::Args)]
pub struct BakeCommand {
    #[command(flatten)]
    keys: BakeArgs,
    /// Pose this PMX/PMD model (or PmxEditor bone CSV): with a .vmd output, bake IK (with
    /// --physics, physics) into keys; with .npz, .csv or .json, bake world positions and
    /// rotations
    #[arg(long, value_name = "MODEL")]
    model: Option<std::path::PathBuf>,
    #[command(flatten)]
    world: WorldBakeOptions,
    #[command(flatten)]
    physics: PhysicsArgs,
}

impl BakeCommand {
    /// Runs the bake the arguments ask for.
    pub fn run(&self) -> anyhow::Result<()> {
        run(&self.keys, self.model.as_deref(), &self.world, &self.physics)
    }
}

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct BakeArgs {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Keys per second of the output: any positive number (60, 24, 29.97, ...); required
    /// except for the IK bake, which keeps the frame numbers without it
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub fps: Option<f64>,
    /// The rate the input's frame numbers count at (default 30, MMD's)
    #[arg(long, value_name = "M", requires = "fps", allow_negative_numbers = true)]
    pub from_fps: Option<f64>,
    /// The output file; its extension picks the format: .vmd, .json or .csv (with --model:
    /// .vmd for the IK bake, .npz, .csv or .json for world-space joints)
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
    /// Indent JSON output
    #[arg(long)]
    pub pretty: bool,
    /// IK and physics bakes: thin the baked keys to fitted curves within the tolerances below
    #[arg(long)]
    pub reduce: bool,
    /// With --reduce: largest bone translation error at any frame, model units [default: 0.05]
    #[arg(long, value_name = "E", requires = "reduce", allow_negative_numbers = true)]
    pub max_position_error: Option<f64>,
    /// With --reduce: largest bone rotation error at any frame, degrees [default: 0.5]
    #[arg(long, value_name = "D", requires = "reduce", allow_negative_numbers = true)]
    pub max_angle_error: Option<f64>,
    /// With --reduce: largest morph weight error at any frame [default: 0.01]
    #[arg(long, value_name = "M", requires = "reduce", allow_negative_numbers = true)]
    pub max_morph_error: Option<f64>,
    #[command(flatten)]
    pub limit: OutputLimit,
}

impl BakeArgs {
    /// The rate the source is sampled at for an output of `fps`: the input's frame numbers
    /// counting at --from-fps, a key every 1/fps s is a key every 30/(fps·from/30) source frames.
    fn sampling_fps(&self, fps: f64) -> anyhow::Result<f64> {
        check_fps(fps)?;
        match self.from_fps {
            Some(from) if !(from.is_finite() && from > 0.0) => {
                Err(usage(format!("--from-fps must be a positive number, not {from}")))
            }
            Some(from) => Ok(fps * FPS / from),
            None => Ok(fps),
        }
    }

    /// --fps, or a usage error saying which bake needs it.
    fn required_fps(&self, bake: &str) -> anyhow::Result<f64> {
        match self.fps {
            Some(fps) => self.sampling_fps(fps),
            None => Err(usage(format!("{bake} needs --fps N (keys per second of the output)"))),
        }
    }

    /// What --reduce asks of a bake on a model: its tolerances, or nothing without it.
    pub fn reduce_options(&self) -> anyhow::Result<Option<ReduceOptions>> {
        Ok(match self.reduce {
            true => {
                Some(ReduceOptions { tolerance: self.tolerance()?, ..ReduceOptions::default() })
            }
            false => None,
        })
    }

    /// The --reduce tolerances, defaults for those not given.
    pub fn tolerance(&self) -> anyhow::Result<Tolerance> {
        let default = Tolerance::default();
        ToleranceArgs {
            max_position_error: self.max_position_error.unwrap_or(default.position),
            max_angle_error: self.max_angle_error.unwrap_or(default.angle_degrees),
            max_morph_error: self.max_morph_error.unwrap_or(default.morph),
        }
        .tolerance()
    }
}

/// The model at `model_path`, the motion `args.file` and the model's skeleton, for the bakes
/// that key a model's bones (IK, physics): a motion without bone keys is refused, and what
/// binds to nothing (which is not baked) is warned about.
fn load_on_model(args: &BakeArgs, model_path: &Path) -> anyhow::Result<(Model, Loaded, Skeleton)> {
    let model = input::read_model(model_path)?;
    let loaded = input::load_motion(&args.file, args.lenient, input::NO_TRAILING)?;
    let skeleton = Skeleton::new(&model);
    let sampler = MotionSampler::new(&loaded.motion);
    if sampler.bone_tracks().is_empty() {
        return Err(anyhow::anyhow!("{}: {}", loaded.label, BakeError::NoBoneKeys));
    }
    warn_duplicates(&loaded.label, &sampler);
    bind(&loaded.label, &skeleton, &sampler);
    drop(sampler);
    Ok((model, loaded, skeleton))
}

/// A usage error for `flag`, which does nothing in this mode.
fn refuse(flag: &str, why: &str) -> anyhow::Error {
    usage(format!("{flag} {why}"))
}

/// Runs the bake `args` and `model` ask for (see the help).
fn run(
    args: &BakeArgs,
    model: Option<&Path>,
    world: &WorldBakeOptions,
    physics: &PhysicsArgs,
) -> anyhow::Result<()> {
    let is_vmd = Format::from_path(&args.output) == Some(Format::Vmd);
    if args.pretty && Format::from_path(&args.output) != Some(Format::Json) {
        return Err(refuse("--pretty", "indents JSON: it needs a .json output"));
    }
    match model {
        None => {
            if let Some(flag) = world.given().first() {
                return Err(refuse(flag, "needs --model: it applies to a bake on a model"));
            }
            if let Some(flag) = physics.given() {
                return Err(refuse(flag, "needs --model: physics plays a model's rigid bodies"));
            }
            if args.reduce {
                return Err(refuse(
                    "--reduce",
                    "needs --model and a .vmd output (it thins an IK bake's keys; to thin \
                     another motion, use `vmdkit reduce`)",
                ));
            }
            let fps = args.required_fps("a bake without --model")?;
            run_keys(args, fps)
        }
        Some(model) if is_vmd => {
            if let Some(flag) = world.given().iter().find(|&&f| f != "--ik") {
                return Err(refuse(
                    flag,
                    "applies to a world-space bake (.npz, .csv or .json), not to a .vmd output",
                ));
            }
            if physics.physics {
                if args.fps.is_some() {
                    return Err(refuse(
                        "--fps",
                        "does nothing in a physics bake to .vmd, which keys every frame at 30 \
                         fps (resample its output with `vmdkit bake --fps N`)",
                    ));
                }
                return physics::run(args, model, world.ik.unwrap_or_default(), physics);
            }
            let fps = args.fps.map(|fps| args.sampling_fps(fps)).transpose()?;
            ik::run(args, model, fps, world.ik.unwrap_or_default())
        }
        Some(model) => {
            world::output_format(&args.output)?;
            if args.reduce {
                return Err(refuse("--reduce", "applies to the IK bake, a .vmd output"));
            }
            let fps = args.required_fps("a world-space bake")?;
            world::run(args, model, fps, world, physics)
        }
    }
}

/// Every track resampled at `fps` (the sampling rate, after --from-fps).
fn run_keys(args: &BakeArgs, fps: f64) -> anyhow::Result<()> {
    let format = Format::of_output(&args.output)?;
    let loaded = input::load_motion(&args.file, args.lenient, input::NO_TRAILING)?;
    let sampler = MotionSampler::new(&loaded.motion);
    warn_duplicates(&loaded.label, &sampler);
    let bar = spinner(&format!("baking {}", loaded.label), is_long(&loaded.motion));
    let baked = bake_sampler(&sampler, loaded.motion.header, fps, args.limit.bytes());
    bar.finish_and_clear();
    let baked = match baked {
        Err(BakeError::TooLarge(e)) => return Err(too_large(&loaded.label, &e)),
        baked => baked?,
    };
    let bar = spinner(&format!("writing {}", output::output_label(&args.output)), is_long(&baked));
    let saved =
        output::save_motion(&args.output, &baked, format, args.pretty, output::TEXT_TRAILING_CAP);
    bar.finish_and_clear();
    saved?;
    let keys = baked.bones.len()
        + baked.morphs.len()
        + baked.cameras.len()
        + baked.lights.len()
        + baked.shadows.len();
    let rate = args.fps.unwrap_or(fps);
    say!("{}: {keys} keys; frame numbers count at {rate} fps", args.output.display());
    Ok(())
}
