//! One module per subcommand. To add a command: add `name.rs` (or `name/mod.rs` when it needs
//! files of its own) with an `Args` (clap `Args`) and a `run(Args) -> anyhow::Result<Outcome>`,
//! then a variant and a `run` arm below. No command imports another: arguments several
//! commands take are `crate::args`' argument groups, other shared helpers `crate::shared`'s.

use crate::error::Outcome;
use clap::Subcommand;

pub mod bake;
pub mod check;
pub mod completions;
pub mod convert;
pub mod dump;
pub mod edit;
pub mod example;
pub mod info;
pub mod keypoints;
pub mod plot;
pub mod pose;
pub mod render;
pub mod retarget;
pub mod sample;
pub mod view;

#[derive(Subcommand)]
pub enum Command {
    /// Summarise motions (version, model name, key counts, frame range, bones, morphs, warnings),
    /// PMX/PMD models (bones, IK, morphs) and VPD poses
    Info(info::Args),
    /// List every keyframe of a motion, readable, or as JSON
    Dump(dump::Args),
    /// Convert between VMD, JSON and CSV, rewrite (repair) a VMD, write a BVH on a model, or export glTF (.glb)
    Convert(convert::Args),
    /// Validate and lint motions; exit 1 when one is damaged
    Check(check::Args),
    /// Evaluate a motion at any (fractional) frame, as MMD plays it
    Sample(sample::SampleArgs),
    /// Resample a motion at a new frame rate; with --model, bake IK into FK keys or world joints
    Bake(bake::BakeCommand),
    /// Pose a model's skeleton: every bone's model-space position and rotation at a frame
    Pose(pose::PoseArgs),
    /// Retarget 3D keypoints, or a motion made for another model, onto a model as a VMD
    Retarget(retarget::Args),
    /// Play a motion on a model and write a keypoint layout's joints (.npy, .csv, .json)
    Keypoints(keypoints::Args),
    /// Draw the pose as a stick figure: a PNG of one frame, a GIF or numbered PNGs of a range
    Render(render::Args),
    /// Plot a bone's, a morph's or the camera's curves over time, or one key's Bézier curves
    Plot(plot::Args),
    /// Write one offline HTML file that plays the motion as a stick figure in a browser
    View(view::Args),
    #[command(flatten)]
    Edit(edit::EditCommand),
    /// Write the built-in example motion to a file
    Example(example::Args),
    /// Print a shell completion script
    Completions(completions::Args),
}

impl Command {
    pub fn run(self) -> anyhow::Result<Outcome> {
        match self {
            Command::Info(args) => info::run(args),
            Command::Dump(args) => dump::run(args),
            Command::Convert(args) => convert::run(args),
            Command::Check(args) => check::run(args),
            Command::Sample(args) => sample::run(&args).map(|()| Outcome::Success),
            Command::Bake(cmd) => cmd.run().map(|()| Outcome::Success),
            Command::Pose(args) => pose::run(&args).map(|()| Outcome::Success),
            Command::Retarget(args) => retarget::run(&args).map(|()| Outcome::Success),
            Command::Keypoints(args) => keypoints::run(&args).map(|()| Outcome::Success),
            Command::Render(args) => render::run(&args).map(|()| Outcome::Success),
            Command::Plot(args) => plot::run(&args).map(|()| Outcome::Success),
            Command::View(args) => view::run(&args).map(|()| Outcome::Success),
            Command::Edit(cmd) => edit::run(&cmd).map(|()| Outcome::Success),
            Command::Example(args) => example::run(args),
            Command::Completions(args) => completions::run(args),
        }
    }
}
