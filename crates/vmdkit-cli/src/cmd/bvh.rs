//! BVH in `vmdkit convert` (VMD → BVH on a model) and `vmdkit retarget` (BVH → keypoints →
//! VMD), kept apart from those commands' own files: see `vmdkit::bvh`.

use crate::error::usage;
use crate::eval_args::{read_model, OutputLimit};
use crate::io;
use crate::output::{print_export_summary, CountingWriter, ExportSummary};
use anyhow::Context;
use std::path::Path;
use vmdkit::bvh::{
    detect_layout, from_motion, to_keypoints, Bvh, BvhExportError, BvhExportOptions, BvhUnits,
    EulerOrder, FkOptions, JointKind, PositionOffset,
};
use vmdkit::eval::MotionSampler;
use vmdkit::keypoints::{JointLayout, Keypoints};

/// `--order`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OrderArg {
    /// Xrotation Yrotation Zrotation
    Xyz,
    /// Xrotation Zrotation Yrotation
    Xzy,
    /// Yrotation Xrotation Zrotation
    Yxz,
    /// Yrotation Zrotation Xrotation
    Yzx,
    /// Zrotation Xrotation Yrotation (the most common)
    #[default]
    Zxy,
    /// Zrotation Yrotation Xrotation (CMU's)
    Zyx,
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
    #[arg(long, value_enum, value_name = "ORDER")]
    order: Option<OrderArg>,
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

/// `vmdkit convert MOTION OUT.bvh --model MODEL …` (`--model` and `--max-output-size` are
/// `convert`'s own, shared with glTF outputs).
pub fn convert(
    input: &Path,
    output: &Path,
    lenient: bool,
    model: Option<&Path>,
    limit: OutputLimit,
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
    crate::eval_args::check_fps(fps)?;
    let model = read_model(model_path)?;
    let loaded = io::load_motion(input, lenient, io::NO_TRAILING)?;
    loaded.warn_repairs();
    let sampler = MotionSampler::new(&loaded.motion);
    let skeleton = vmdkit::skeleton::Skeleton::new(&model);
    crate::eval_args::bind(&loaded.label, &skeleton, &sampler);
    let order = match args.order.unwrap_or_default() {
        OrderArg::Xyz => EulerOrder::Xyz,
        OrderArg::Xzy => EulerOrder::Xzy,
        OrderArg::Yxz => EulerOrder::Yxz,
        OrderArg::Yzx => EulerOrder::Yzx,
        OrderArg::Zxy => EulerOrder::Zxy,
        OrderArg::Zyx => EulerOrder::Zyx,
    };
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
        BvhExportError::TooLarge(e) => crate::eval_args::too_large(&loaded.label, &e),
        BvhExportError::BadFrameRate(_) => usage(e.to_string()),
        e => anyhow::anyhow!("{}: {e}", model_path.display()),
    })?;
    let mut bytes = 0;
    io::write_output(output, |w| {
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

/// A BVH as the retargeting's keypoints: every joint's world position per frame, with the
/// layout that says which joint is which, and how that layout was chosen.
pub struct BvhInput {
    /// The joints' positions, in the file's units, Y up, right-handed, at the file's rate.
    pub keypoints: Keypoints,
    /// Roles by joint name.
    pub layout: JointLayout,
    /// How the layout was chosen.
    pub layout_from: &'static str,
}

/// Reads `bytes` (from `path`) as a BVH and maps its joints: by name (`layout` is `auto`) or
/// by a mapping file of `joint = role` lines.
pub fn keypoints(path: &Path, bytes: &[u8], layout: &str) -> anyhow::Result<BvhInput> {
    let bvh = Bvh::parse(bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let (layout, layout_from) = if layout.eq_ignore_ascii_case("auto") {
        let layout = detect_layout(&bvh).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        (layout, "joint names")
    } else {
        let file = Path::new(layout);
        if !file.is_file() {
            return Err(usage(format!(
                "--layout {layout}: a BVH's joints are mapped by name (auto) or by a mapping \
                 file of `joint = role` lines, not by a keypoint layout"
            )));
        }
        crate::output::note_input(file);
        let layout = JointLayout::from_file(file).with_context(|| file.display().to_string())?;
        (layout, "mapping file")
    };
    let fk = FkOptions { position_offset: PositionOffset::Replace };
    let keypoints =
        to_keypoints(&bvh, &layout, fk).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(BvhInput { keypoints, layout, layout_from })
}
