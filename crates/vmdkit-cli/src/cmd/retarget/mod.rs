//! `vmdkit retarget`: 3D keypoints, or a motion made for another model, onto a model's
//! skeleton as a VMD (see `vmdkit::retarget`), with what the fit left measured
//! ([`summary`] words the report).

mod bvh;
mod summary;

use crate::args::axes::parse_units;
use crate::args::axes::parse_up;
use crate::args::layout::target_model;
use crate::args::layout::{layout_message, named_layout, HandArg};
use crate::args::limit::OutputLimit;
use crate::input::{self, read_model};
use crate::output;
use crate::shared::retarget::explain;
use anyhow::Context;
use clap::ValueEnum;
use std::io::Read;
use std::path::{Path, PathBuf};
use vmdkit::edit::Tolerance;
use vmdkit::keypoints::{
    JointLayout, KeypointFormat, Keypoints, LayoutJoint, Smoothing, Units, UpAxis,
};
use vmdkit::retarget::{
    retarget_with_progress, FloorMode, InputAxes, KeyMode, KeypointOptions, RetargetOptions,
    ScaleMode,
};
use vmdkit::roles::Role;
use vmdkit::skeleton::Skeleton;
use vmdkit::{Expected, FileKind};

const AFTER_HELP: &str = "\
INPUT is a keypoint file (.npy, .npz, wide .csv, .json, OpenSim .trc or pose-format .pose,
told apart by their bytes), a BVH (its joints' world positions by FK, mapped by name for CMU,
Mixamo/bvh-toolbox and MMD skeletons, or by --layout FILE of `joint = role` lines; its frame
time gives the rate; see docs/bvh.md), or, with --source-model, a motion (.vmd, or vmdkit's .json/.csv):
the motion is played on the source model by vmdkit's FK (IK and appends included), read off
as every joint vmdkit can place, in metres at 30 fps, then retargeted like keypoints.

The output is 30 fps whatever the input's rate. The scale comes from the input's segment
lengths against the model's, so --units only matters for the report's metres. Positions are
placed on the model's floor and feet held still while in contact. The summary's
self-consistency error is measured by playing the written motion back on the model.

Examples:
  vmdkit retarget joints.npy -o dance.vmd --model miku.pmx --layout h36m --fps 50 --up z
  vmdkit retarget posfile.csv -o dance.vmd --layout lftd17 --left-handed --units mm --smooth strong
  vmdkit retarget capture.pose -o sign.vmd --json > report.json
  vmdkit retarget dance.vmd --source-model mei.pmd --model miku.pmx -o dance_miku.vmd
  vmdkit retarget walk.bvh -o walk.vmd --model miku.pmx
  estimator --json | vmdkit retarget - --layout coco17 -o - > dance.vmd";

/// `--smooth`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SmoothArg {
    /// No filtering
    None,
    /// 8 Hz: removes frame-to-frame jitter only
    Light,
    /// 5 Hz: for typical pose-estimator output
    #[default]
    Normal,
    /// 3 Hz: for noisy monocular estimates
    Strong,
}

impl SmoothArg {
    /// The library's smoothing of this level, read by its name.
    fn smoothing(self) -> Smoothing {
        let value = self.to_possible_value().expect("every level has a name");
        value.get_name().parse().expect("the levels are the library's names")
    }
}

/// `--ik`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOff {
    /// Legs through 足ＩＫ/つま先ＩＫ keys
    #[default]
    On,
    /// Leg rotations keyed directly, IK switched off in the property section
    Off,
}

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Keypoints, or a motion with --source-model; - for stdin
    #[arg(value_name = "INPUT")]
    input: PathBuf,
    /// Output: .vmd, .json or .csv by extension, or - for stdout (VMD)
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Target model, .pmx or .pmd (default: vmdkit's built-in standard model)
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// The keypoints' joint order: auto (from joint names or count), a built-in name, or a
    /// mapping file
    #[arg(long, value_name = "NAME|auto|FILE", default_value = "auto")]
    layout: String,
    /// The side of a lone hand whose joint names do not say it (MediaPipe's unprefixed
    /// `wrist`, `thumb_cmc`, …, or 21 unnamed joints)
    #[arg(long, value_enum, value_name = "left|right")]
    hand: Option<HandArg>,
    /// INPUT is a motion for this model (.pmx or .pmd)
    #[arg(long, value_name = "MODEL", conflicts_with_all = ["fps", "units", "up", "left_handed", "keep_handedness"])]
    source_model: Option<PathBuf>,
    /// Input frames per second (default: the file's, else 30)
    #[arg(long, value_name = "N")]
    fps: Option<f64>,
    /// Input units: mm, cm, m, or metres per unit (default: the file's, else unknown)
    #[arg(long, value_name = "U", value_parser = parse_units)]
    units: Option<Units>,
    /// Input up axis: y, -y, z or -z (default: the file's, else y)
    #[arg(long, value_name = "AXIS", value_parser = parse_up, allow_hyphen_values = true)]
    up: Option<UpAxis>,
    /// The input is left-handed, as MMD is (default: right-handed, as estimators write)
    #[arg(long)]
    left_handed: bool,
    /// Take the handedness and up axis as given even when the input's anatomy says it is
    /// mirrored or upside down (by default such an input is corrected, with a warning)
    #[arg(long)]
    keep_handedness: bool,
    /// Smoothing of the joint positions before solving [default: normal; none for BVH motion
    /// capture, which is clean]
    #[arg(long, value_enum, value_name = "LEVEL")]
    smooth: Option<SmoothArg>,
    /// Leg IK keys
    #[arg(long, value_enum, value_name = "on|off", default_value_t)]
    ik: OnOff,
    /// One key per frame and bone, no thinning
    #[arg(long, conflicts_with_all = ["max_position_error", "max_angle_error"])]
    dense: bool,
    /// Thinning: largest bone translation error at any frame, model units
    #[arg(long, value_name = "E", default_value_t = Tolerance::default().position)]
    max_position_error: f64,
    /// Thinning: largest bone rotation error at any frame, degrees
    #[arg(long, value_name = "DEG", default_value_t = Tolerance::default().angle_degrees)]
    max_angle_error: f64,
    /// Print the report as one JSON object on stdout instead of the summary
    #[arg(long)]
    json: bool,
    /// Read a damaged VMD leniently, keeping every complete record (with --source-model)
    #[arg(long, requires = "source_model")]
    lenient: bool,
    #[command(flatten)]
    limit: OutputLimit,
}

/// What the summary says of where an input setting came from.
struct Sourced<T> {
    value: T,
    from: &'static str,
}

/// The retargeting's input, whichever kind INPUT was.
struct Input {
    keypoints: Keypoints,
    layout: JointLayout,
    /// How the layout was chosen.
    layout_from: &'static str,
    fps: Sourced<f64>,
    units: Option<Units>,
    axes: InputAxes,
    /// The source model's label, for a motion.
    source: Option<String>,
    /// Smoothing unless `--smooth` says.
    smooth: SmoothArg,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    if args.json && input::is_stdio(&args.output) {
        return Err(crate::error::usage("--json and -o - would both write stdout"));
    }
    let format = input::Format::of_output(&args.output)?;
    let keys = key_mode(args)?;
    let (model, model_label) = target_model(args.model.as_deref())?;
    let input = match &args.source_model {
        Some(source) => from_motion(args, source)?,
        None => from_keypoints(args)?,
    };
    let skeleton = Skeleton::new(&model);
    let options = RetargetOptions {
        fps: input.fps.value,
        axes: input.axes,
        units: input.units,
        scale: ScaleMode::Estimate,
        smoothing: args.smooth.unwrap_or(input.smooth).smoothing(),
        ik: args.ik == OnOff::On,
        keys,
        floor: FloorMode::Estimate,
        model_name: model.name.clone(),
        detect_handedness: !args.keep_handedness,
        max_output_bytes: args.limit.bytes(),
        ..RetargetOptions::default()
    };
    let label = args.input.display().to_string();
    // A step per frame solved, then thinning and checking: a few hundred frames take a second.
    let bar = crate::batch::progress_bar(0, input.keypoints.frame_count >= 300, "steps");
    let out = retarget_with_progress(
        &input.keypoints,
        &input.layout,
        &skeleton,
        &options,
        &|done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let out = out.map_err(|e| explain(e, &label, &model_label, &input.layout))?;
    output::save_motion(&args.output, &out.motion, format, false, output::TEXT_TRAILING_CAP)?;
    if args.json {
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        output::write_json_line(&mut lock, &out.report)?;
    } else {
        say_part!("{}", summary::summary(args, &input, &model_label, &options, &out.report));
    }
    Ok(())
}

fn key_mode(args: &Args) -> anyhow::Result<KeyMode> {
    if args.dense {
        return Ok(KeyMode::Dense);
    }
    for (v, flag) in [
        (args.max_position_error, "--max-position-error"),
        (args.max_angle_error, "--max-angle-error"),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(crate::error::usage(format!("{flag} must be a number ≥ 0, not {v}")));
        }
    }
    Ok(KeyMode::Thinned(Tolerance {
        position: args.max_position_error,
        angle_degrees: args.max_angle_error,
        ..Tolerance::default()
    }))
}

fn from_keypoints(args: &Args) -> anyhow::Result<Input> {
    let bytes = read_input(&args.input)?;
    let kind = FileKind::detect(&bytes);
    if kind.is_motion() {
        return Err(crate::error::usage(format!(
            "{} is {kind}: pass --source-model MODEL, the model it was made for, to \
             retarget it",
            args.input.display()
        )));
    }
    if kind == FileKind::Bvh {
        return from_bvh(args, &bytes);
    }
    // Bytes of no known kind are left to the reader the extension names (CSV has no
    // signature); anything else that is no capture is named as what it is.
    let unknown = matches!(kind, FileKind::Text | FileKind::Binary | FileKind::Json);
    let named = input::is_stdio(&args.input)
        || args
            .input
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| KeypointFormat::from_name(e).is_some());
    if !(Expected::Capture.accepts(kind) || unknown && named) {
        let label = args.input.display().to_string();
        return Err(anyhow::anyhow!(input::wrong_kind(&label, kind, Expected::Capture)));
    }
    let format = KeypointFormat::guess(&bytes, Some(&args.input));
    let keypoints = Keypoints::parse(&bytes, format)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.input.display()))?;
    drop(bytes);
    let (layout, layout_from) = if args.layout.eq_ignore_ascii_case("auto") {
        let (names, count) = (keypoints.names.as_deref(), keypoints.joint_count);
        let hand = args.hand.map(HandArg::side);
        let layout = JointLayout::detect_with(names, count, hand)
            .map_err(|e| anyhow::anyhow!("{}: {}", args.input.display(), layout_message(&e)))?;
        let from = if keypoints.names.is_some() { "detected" } else { "by joint count" };
        (layout, from)
    } else {
        (named_layout(&args.layout, args.hand, Some(keypoints.joint_count))?, "given")
    };
    let fps = match (args.fps, keypoints.fps) {
        (Some(fps), _) => Sourced { value: fps, from: "given" },
        (None, Some(fps)) => Sourced { value: fps, from: "from the file" },
        (None, None) => Sourced { value: 30.0, from: "default" },
    };
    crate::args::frames::check_fps(fps.value)?;
    let axes = InputAxes {
        up: args.up.or(keypoints.up).unwrap_or(UpAxis::Y),
        left_handed: args.left_handed,
    };
    let units = args.units.or(keypoints.units);
    Ok(Input {
        keypoints,
        layout,
        layout_from,
        fps,
        units,
        axes,
        source: None,
        smooth: SmoothArg::Normal,
    })
}

/// A BVH: its joints' world positions by FK, mapped by name or by a mapping file (`bvh.rs`).
fn from_bvh(args: &Args, bytes: &[u8]) -> anyhow::Result<Input> {
    let bvh = bvh::keypoints(&args.input, bytes, &args.layout)?;
    let fps = match args.fps {
        Some(fps) => Sourced { value: fps, from: "given" },
        None => Sourced { value: bvh.keypoints.fps.unwrap_or(30.0), from: "from the frame time" },
    };
    crate::args::frames::check_fps(fps.value)?;
    let axes = InputAxes { up: args.up.unwrap_or(UpAxis::Y), left_handed: args.left_handed };
    Ok(Input {
        keypoints: bvh.keypoints,
        layout: bvh.layout,
        layout_from: bvh.layout_from,
        fps,
        units: args.units,
        axes,
        source: None,
        smooth: SmoothArg::None,
    })
}

/// The keypoint file's bytes, or stdin's for `-`.
fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    if input::is_stdio(path) {
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes).context("cannot read stdin")?;
        return Ok(bytes);
    }
    input::refuse_folder(path, "a keypoint file")?;
    crate::input::note_input(path);
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// A layout of every role the retargeting knows, one joint each: what a motion played on a
/// model gives, so nothing the source skeleton can place is thrown away.
fn every_role() -> JointLayout {
    let joints = Role::ALL
        .iter()
        .map(|&role| LayoutJoint { name: role.name().to_string(), role: Some(role) })
        .collect();
    JointLayout { name: "every joint".to_string(), joints, synthetic: Vec::new(), face: None }
}

fn from_motion(args: &Args, source: &Path) -> anyhow::Result<Input> {
    if !args.layout.eq_ignore_ascii_case("auto") {
        return Err(crate::error::usage(
            "--layout is for keypoints; a motion is read off as every joint vmdkit can place",
        ));
    }
    let model = read_model(source)?;
    let loaded = input::load_motion(&args.input, args.lenient, input::NO_TRAILING)?;
    let layout = every_role();
    let options =
        KeypointOptions { max_output_bytes: args.limit.bytes(), ..KeypointOptions::default() };
    let keypoints = crate::shared::eval::pose_keypoints(&loaded.motion, &model, &layout, &options)
        .map_err(|e| explain(e, &loaded.label, &source.display().to_string(), &layout))?;
    Ok(Input {
        keypoints,
        layout,
        layout_from: "played on the source model",
        fps: Sourced { value: options.fps, from: "played" },
        units: Some(options.units),
        axes: options.axes,
        source: Some(source.display().to_string()),
        smooth: SmoothArg::Normal,
    })
}
