//! A motion played with physics on a model, for every command that takes `--physics`: the
//! simulation baked into keys (`vmdkit::bake::bake_physics`), with a progress bar over frames and
//! a summary on stderr, so that each command then plays the baked motion as it plays any other.

use crate::args::figure::{FigureModel, FigureOptions};
use crate::args::limit::too_large;
use crate::batch::FrameProgress;
use crate::error::usage;
use crate::shared::messages::list;
use std::borrow::Cow;
use vmdkit::bake::{bake_physics, BakeError, PhysicsBakeOptions};
use vmdkit::limit::DEFAULT_MAX_OUTPUT_BYTES;
use vmdkit::model::Model;
use vmdkit::physics::PhysicsSettings;
use vmdkit::skeleton::{PoseOptions, Skeleton};
use vmdkit::Motion;

/// Bakes shorter than this many frames finish before a progress bar would help.
const PROGRESS_MIN_FRAMES: u64 = 600;

/// What a physics bake needs besides the motion and the model.
#[derive(Clone, Copy, Debug)]
pub struct PhysicsRun {
    /// The simulation's settings; `None`: no physics, the motion as it is.
    pub settings: Option<PhysicsSettings>,
    /// How the skeleton is posed around the simulation.
    pub pose: PoseOptions,
    /// The largest output allowed, in bytes of VMD records.
    pub max_output_bytes: u64,
}

/// `motion` (read from `label`) with the physics of `model` (read from `model_label`) baked in,
/// or `motion` itself without `--physics`. A model without rigid bodies has no physics to play:
/// a warning, and the motion as it is.
pub fn with_physics<'m>(
    label: &str,
    motion: &'m Motion,
    model_label: &str,
    model: &Model,
    skeleton: &Skeleton,
    run: PhysicsRun,
) -> anyhow::Result<Cow<'m, Motion>> {
    let Some(settings) = run.settings else { return Ok(Cow::Borrowed(motion)) };
    if model.rigid_bodies.is_empty() {
        say!("warning: {model_label}: the model has no rigid bodies; --physics moves nothing");
        return Ok(Cow::Borrowed(motion));
    }
    let options = PhysicsBakeOptions {
        physics: settings,
        pose: run.pose,
        reduce: None,
        max_output_bytes: run.max_output_bytes,
    };
    bake(label, motion, model, skeleton, &options).map(|(baked, _)| Cow::Owned(baked))
}

/// Bakes `motion` with `options`, showing progress and printing the summary; the errors in the
/// command line's words.
pub fn bake(
    label: &str,
    motion: &Motion,
    model: &Model,
    skeleton: &Skeleton,
    options: &PhysicsBakeOptions,
) -> anyhow::Result<(Motion, vmdkit::bake::PhysicsBakeReport)> {
    let mut bar = FrameProgress::new(PROGRESS_MIN_FRAMES);
    let baked = bake_physics(motion, model, skeleton, options, |done, total| bar.set(done, total));
    bar.finish();
    let (out, report) = match baked {
        Err(BakeError::TooLarge(e)) => return Err(too_large(label, &e)),
        Err(e) => return Err(anyhow::anyhow!("{label}: {e}")),
        Ok(baked) => baked,
    };
    let names: Vec<&str> = report.baked_bones.iter().map(|&b| skeleton.bone_name(b)).collect();
    let stats = report.physics;
    say!(
        "physics: {} bodies, {} joints, {} frames, {} steps, largest joint error {:.3} units; \
         {} bones baked{}{}",
        stats.bodies,
        stats.joints,
        report.frames,
        stats.steps,
        stats.max_joint_error,
        names.len(),
        match names.is_empty() {
            true => String::new(),
            false => format!(" ({})", list(&names, 8)),
        },
        match report.chains_switched_off {
            0 => String::new(),
            n => format!("; {n} IK chains on those bones switched off"),
        }
    );
    if !report.unkeyable_bones.is_empty() {
        let names: Vec<&str> =
            report.unkeyable_bones.iter().map(|&b| skeleton.bone_name(b)).collect();
        say!(
            "warning: {} bones the bodies move share their 15-byte key name with an earlier \
             bone, so no key can reach them; they keep their keys: {}",
            names.len(),
            list(&names, 8)
        );
    }
    Ok((out, report))
}

/// The motion a drawing command plays: with `--physics`, the physics of the model given with
/// `--model` baked in. `--physics` without `--model` is a usage error: the built-in standard
/// skeleton has no rigid bodies.
pub fn figure_motion<'m>(
    label: &str,
    motion: &'m Motion,
    figure: &FigureModel,
    options: &FigureOptions,
    model: &Model,
) -> anyhow::Result<Cow<'m, Motion>> {
    let settings = options.physics.settings()?;
    let Some(path) = &figure.model else {
        return match options.physics.given() {
            Some(flag) => Err(usage(format!(
                "{flag} needs --model MODEL: the built-in standard skeleton has no rigid bodies"
            ))),
            None => Ok(Cow::Borrowed(motion)),
        };
    };
    let run = PhysicsRun {
        settings,
        pose: options.ik.options(),
        max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
    };
    let skeleton = Skeleton::new(model);
    with_physics(label, motion, &path.display().to_string(), model, &skeleton, run)
}
