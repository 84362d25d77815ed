//! BVH in `vmdkit convert`: VMD → BVH on a model (see `vmdkit::bvh`); `vmdkit retarget` reads
//! BVH in its own `bvh.rs`.

use crate::args::limit::OutputLimit;
use crate::args::physics::PhysicsArgs;
use crate::error::usage;
use crate::input::{self, read_model};
use crate::output;
use crate::output::{print_export_summary, CountingWriter, ExportSummary};
use crate::shared::physics::{with_physics, PhysicsRun};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::path::Path;
use vmdkit::bvh::{from_motion, BvhExportError, BvhExportOptions, BvhUnits, EulerOrder, JointKind};
use vmdkit::eval::MotionSampler;

/// `--order`: the library's orders by name, each shown with the channels it writes.
fn order_parser() -> impl TypedValueParser<Value = EulerOrder> {
    let values = EulerOrder::NAMES.iter().map(|&name| {
        let channels: Vec<String> =
            name.chars().map(|axis| format!("{}rotation", axis.to_ascii_uppercase())).collect();
        let note = match name {
            "zxy" => " (the most common)",
            "zyx" => " (CMU's)",
            _ => "",
        };
        PossibleValue::new(name).help(format!("{}{note}", channels.join(" ")))
    });
    PossibleValuesParser::new(values).map(|name| name.parse().expect("a name the library gave"))
}

/// `convert`'s flags for a `.bvh` output.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "BVH output (OUT.bvh)")]
pub struct ExportArgs {
    /// BVH frames per second, sampled by time from MMD's 30 [default: 30]
    #[arg(long, value_name = "N")]
    fps: Option<f64>,
    /// Lengths in metres (0.08 m per MMD unit) instead of MMD units
    #[arg(long)]
    metres: bool,
    /// Rotation channel order of every joint
    #[arg(long, value_name = "ORDER", value_parser = order_parser())]
    order: Option<EulerOrder>,
    /// Name joints with the model's English bone names (its Japanese name where a bone has none)
    #[arg(long)]
    english_names: bool,
    /// Leave out IK controls (IK bones and the bones below them)
    #[arg(long)]
    deform_only: bool,
}

/// Whether `path` names a BVH file, by its extension.
pub fn is_bvh(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("bvh"))
}

impl ExportArgs {
    /// A usage error when BVH flags are given for another output.
    pub fn refuse_unless_bvh(&self, output: &Path) -> anyhow::Result<()> {
        let given = [
            (self.fps.is_some(), "--fps"),
            (self.metres, "--metres"),
            (self.order.is_some(), "--order"),
            (self.english_names, "--english-names"),
            (self.deform_only, "--deform-only"),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, flag)) => Err(usage(format!(
                "{flag} is for a .bvh output, and {} is not one",
                output.display()
            ))),
            None => Ok(()),
        }
    }
}

/// `vmdkit convert MOTION OUT.bvh --model MODEL …` (`--model`, `--max-output-size` and
/// `--physics` are `convert`'s own, shared with glTF outputs).
#[allow(clippy::too_many_arguments)]
pub fn convert(
    input: &Path,
    output: &Path,
    lenient: bool,
    model: Option<&Path>,
    limit: OutputLimit,
    physics: &PhysicsArgs,
    args: &ExportArgs,
    quiet: bool,
) -> anyhow::Result<()> {
    let Some(model_path) = model else {
        return Err(usage(format!(
            "{}: a BVH needs a skeleton: pass --model MODEL (.pmx or .pmd), the model to play \
             the motion on",
            output.display()
        )));
    };
    if is_bvh(input) {
        return Err(usage(format!(
            "{}: BVH to VMD goes through the retargeting: vmdkit retarget {} -o OUT.vmd --model \
             MODEL",
            input.display(),
            input.display()
        )));
    }
    let fps = args.fps.unwrap_or(30.0);
    crate::args::frames::check_fps(fps)?;
    let physics = physics.settings()?;
    let model = read_model(model_path)?;
    let loaded = input::load_motion(input, lenient, input::NO_TRAILING)?;
    loaded.warn_repairs();
    let skeleton = vmdkit::skeleton::Skeleton::new(&model);
    crate::shared::eval::bind(&loaded.label, &skeleton, &MotionSampler::new(&loaded.motion));
    let run = PhysicsRun {
        settings: physics,
        pose: BvhExportOptions::default().pose,
        max_output_bytes: limit.bytes(),
    };
    let model_label = model_path.display().to_string();
    let motion = with_physics(&loaded.label, &loaded.motion, &model_label, &model, &skeleton, run)?;
    let sampler = MotionSampler::new(&motion);
    let order = args.order.unwrap_or_default();
    let options = BvhExportOptions {
        fps,
        units: if args.metres { BvhUnits::Metres } else { BvhUnits::Mmd },
        order,
        english_names: args.english_names,
        deform_only: args.deform_only,
        max_output_bytes: limit.bytes(),
        ..BvhExportOptions::default()
    };
    let bvh = from_motion(&model, &sampler, &options).map_err(|e| match e {
        BvhExportError::TooLarge(e) => crate::args::limit::too_large(&loaded.label, &e),
        BvhExportError::BadFrameRate(_) => usage(e.to_string()),
        e => anyhow::anyhow!("{}: {e}", model_path.display()),
    })?;
    let mut bytes = 0;
    output::write_output(output, |w| {
        let mut counted = CountingWriter { inner: w, count: 0 };
        bvh.write_to(&mut counted)?;
        bytes = counted.count;
        Ok(())
    })?;
    if !quiet {
        let joints = bvh.joints.iter().filter(|j| j.kind != JointKind::EndSite).count();
        let summary = ExportSummary { frames: bvh.frame_count, fps, joints, bytes };
        print_export_summary(output, &summary);
    }
    Ok(())
}
