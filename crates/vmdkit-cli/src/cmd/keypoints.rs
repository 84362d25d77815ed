//! `vmdkit keypoints`: a motion played on a model, read off as a keypoint layout's joints (see
//! `vmdkit::retarget::keypoints_from_motion`) — the inverse of `vmdkit retarget`.

use crate::args::axes::{parse_units, parse_up};
use crate::args::frames::check_fps;
use crate::args::layout::{named_layout, target_model, HandArg};
use crate::args::limit::OutputLimit;
use crate::input;
use crate::output;
use crate::shared::eval::pose_keypoints;
use crate::shared::retarget::explain;
use std::io::{stdout, IsTerminal};
use std::path::PathBuf;
use vmdkit::keypoints::{KeypointFormat, Units, UpAxis};
use vmdkit::retarget::{InputAxes, KeypointOptions};

const AFTER_HELP: &str = "\
The motion is played by vmdkit's evaluator (IK, appends, morphs) and each joint of the layout
is read off the posed bones where `vmdkit retarget` places it; joints the model cannot place
are missing (NaN in .npy, empty in .csv, null in .json). Model units become metres at 8 cm per
unit before --units applies. The output is right-handed unless --left-handed, as pose
estimators write, so `vmdkit retarget` with the same flags reads it back.

Examples:
  vmdkit keypoints dance.vmd --model miku.pmx --layout h36m -o joints.npy
  vmdkit keypoints dance.vmd --layout coco17 --fps 60 --units mm --up z -o joints.csv
  vmdkit keypoints dance.vmd --layout blazepose33 -o joints.json
  cat dance.vmd | vmdkit keypoints - --layout h36m -o joints.npy
  vmdkit keypoints dance.vmd --layout coco17 -o - --to csv | head";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`
    #[arg(value_name = "MOTION")]
    motion: PathBuf,
    /// The model to play it on, .pmx or .pmd (default: vmdkit's built-in standard model)
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// The joints to write: a built-in layout's name or a mapping file
    #[arg(long, value_name = "NAME|FILE")]
    layout: String,
    /// The hand a one-hand layout (mediapipe_hand) writes
    #[arg(long, value_enum, value_name = "left|right")]
    hand: Option<HandArg>,
    /// Output: .npy, .csv or .json (by extension), written atomically; - for stdout (JSON)
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// The output's format (default: OUT's extension; JSON for -)
    #[arg(long, value_enum, value_name = "FORMAT")]
    to: Option<To>,
    /// Frames per second of the output
    #[arg(long, value_name = "N", default_value_t = 30.0)]
    fps: f64,
    /// Output units: mm, cm, m, or metres per unit
    #[arg(long, value_name = "U", value_parser = parse_units, default_value = "m")]
    units: Units,
    /// Output up axis: y, -y, z or -z
    #[arg(long, value_name = "AXIS", value_parser = parse_up, allow_hyphen_values = true,
          default_value = "y")]
    up: UpAxis,
    /// Write left-handed coordinates, as MMD's (default: right-handed)
    #[arg(long)]
    left_handed: bool,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    lenient: bool,
    #[command(flatten)]
    limit: OutputLimit,
}

/// `--to`: the formats keypoints are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum To {
    Npy,
    Csv,
    Json,
}

fn output_format(args: &Args) -> anyhow::Result<KeypointFormat> {
    let format = match args.to {
        Some(To::Npy) => KeypointFormat::Npy,
        Some(To::Csv) => KeypointFormat::Csv,
        Some(To::Json) => KeypointFormat::Json,
        // Text, which a terminal shows.
        None if input::is_stdio(&args.output) => KeypointFormat::Json,
        None => {
            let ext = args.output.extension().and_then(|e| e.to_str()).unwrap_or("");
            match KeypointFormat::from_name(ext) {
                Some(f @ (KeypointFormat::Npy | KeypointFormat::Csv | KeypointFormat::Json)) => f,
                _ => {
                    return Err(crate::error::usage(format!(
                        "the output's extension picks the format: .npy, .csv or .json (not {}); \
                         or use --to",
                        args.output.display()
                    )))
                }
            }
        }
    };
    if format == KeypointFormat::Npy && input::is_stdio(&args.output) && stdout().is_terminal() {
        return Err(crate::error::usage(
            "refusing to write binary .npy to a terminal: redirect stdout, or pass --to json",
        ));
    }
    Ok(format)
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    check_fps(args.fps)?;
    let format = output_format(args)?;
    let layout = named_layout(&args.layout, args.hand, None)?;
    let (model, model_label) = target_model(args.model.as_deref())?;
    let loaded = input::load_motion(&args.motion, args.lenient, input::NO_TRAILING)?;
    let options = KeypointOptions {
        fps: args.fps,
        axes: InputAxes { up: args.up, left_handed: args.left_handed },
        units: args.units,
        max_output_bytes: args.limit.bytes(),
    };
    let keypoints = pose_keypoints(&loaded.motion, &model, &layout, &options)
        .map_err(|e| explain(e, &loaded.label, &model_label, &layout))?;
    output::write_output(&args.output, |w| match format {
        KeypointFormat::Npy => keypoints.write_npy(w),
        KeypointFormat::Csv => keypoints.write_csv(w),
        _ => keypoints.write_json(w),
    })?;
    let placed = layout.joints.iter().filter(|j| j.role.is_some()).count();
    say!(
        "{}: {} frames × {} joints ({}, {placed} placed) of {} on {model_label} at {} fps, {}",
        output::output_label(&args.output),
        keypoints.frame_count,
        keypoints.joint_count,
        layout.name,
        loaded.label,
        args.fps,
        format
    );
    Ok(())
}
