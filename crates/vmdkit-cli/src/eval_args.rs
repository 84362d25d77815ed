//! What the commands that evaluate a motion (`sample`, `bake`, `pose`, `bake --model`,
//! `keypoints`, `retarget`) share: FILE and the `--frame`, `--fps`, `--ik` and
//! `--max-output-size` flags, reading the model, and the warnings about what evaluation will
//! ignore.

use std::path::{Path, PathBuf};
use vmdkit::eval::MotionSampler;
use vmdkit::limit::{ByteSize, OutputTooLarge, DEFAULT_MAX_OUTPUT_BYTES};
use vmdkit::model::Model;
use vmdkit::skeleton::{Binding, IkVariant, PoseOptions, Skeleton};

/// A motion and a time in it: the FILE and `--frame` of `sample` and `pose`.
#[derive(clap::Args)]
pub struct MotionAt {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`; - for stdin
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The time, as a frame number at 30 fps (fractions allowed)
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub frame: f64,
}

/// A usage error unless `--frame` is a number (clap accepts `nan` and `inf` as floats).
pub fn check_frame(frame: f64) -> anyhow::Result<()> {
    if frame.is_finite() {
        return Ok(());
    }
    Err(crate::error::usage(format!("--frame must be a number, not {frame}")))
}

/// A frame number option (`trim --from`): a whole number from 0, as a VMD stores them.
pub fn frame_number(text: &str) -> Result<u32, String> {
    match text.parse::<i64>() {
        Ok(n) if n < 0 => Err(format!("frame numbers start at 0, not {n}")),
        _ => {
            text.parse().map_err(|_| format!("expected a whole frame number from 0, not {text:?}"))
        }
    }
}

/// A usage error unless `--fps` is a positive number.
pub fn check_fps(fps: f64) -> anyhow::Result<()> {
    if fps.is_finite() && fps > 0.0 {
        return Ok(());
    }
    Err(crate::error::usage(format!("--fps must be a positive number, not {fps}")))
}

/// `--max-output-size`, for the commands whose output holds a value at every frame.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct OutputLimit {
    /// Refuse outputs larger than SIZE (512M, 8G, 2.5GiB, 8GB or bytes): a dense output's
    /// size follows the frame numbers, and one damaged frame number can ask for terabytes
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(DEFAULT_MAX_OUTPUT_BYTES))]
    pub max_output_size: ByteSize,
}

impl OutputLimit {
    /// The limit in bytes.
    pub fn bytes(self) -> u64 {
        self.max_output_size.0
    }
}

/// The library's refusal of a dense output, about `label`, with its usual cause, the command
/// that finds it and the flag that lifts the limit.
pub fn too_large(label: &str, err: &OutputTooLarge) -> anyhow::Error {
    anyhow::anyhow!(
        "{label}: {err}; frame numbers far beyond the rest (`vmdkit check` warns of them) are \
         the usual cause, else raise the limit (--max-output-size)"
    )
}

/// Warns when keys were dropped because a later key has the same name and frame.
pub fn warn_duplicates(label: &str, sampler: &MotionSampler) {
    if !sampler.duplicates().is_empty() {
        say!(
            "warning: {label}: {} keys share a name and frame with a later key; the later one is used",
            sampler.duplicates().len()
        );
    }
}

/// The CCD solver to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum IkMode {
    /// MMD's (babylon-mmd's) CCD: per-link limit growing along the chain, knee snapping
    #[default]
    Mmd,
    /// Plain CCD clamp (three.js, saba, MMDAgent)
    Plain,
    /// No IK: the keyed (forward kinematics) pose
    Off,
}

impl IkMode {
    /// The library's posing options for this mode.
    pub fn options(self) -> PoseOptions {
        match self {
            IkMode::Mmd => PoseOptions { ik_variant: IkVariant::Mmd, solve_ik: true },
            IkMode::Plain => PoseOptions { ik_variant: IkVariant::Plain, solve_ik: true },
            IkMode::Off => PoseOptions { solve_ik: false, ..PoseOptions::default() },
        }
    }
}

/// Reads a model. The error names the file (and, for damage, the section, record and offset)
/// once: it is flattened to its message so that the cause is not printed twice.
pub fn read_model(path: &Path) -> anyhow::Result<Model> {
    if crate::io::is_stdio(path) {
        let data = crate::inputs::stdin_bytes()?;
        return Model::parse(data)
            .map_err(|e| anyhow::anyhow!("cannot read the model from stdin: {e}"));
    }
    crate::io::refuse_folder(path, "a model file")?;
    crate::output::note_input(path);
    Model::read_file(path).map_err(|e| anyhow::anyhow!("cannot read the model: {e}"))
}

/// Binds the motion's tracks to the model's bones and prints what did not bind (see
/// `vmdkit::report::binding`); `label` names the motion.
pub fn bind(label: &str, skeleton: &Skeleton, sampler: &MotionSampler) -> Binding {
    let binding = Binding::new(skeleton, sampler);
    for message in vmdkit::report::binding_warnings(label, skeleton, &binding) {
        say!("warning: {message}");
    }
    binding
}
