//! `vmdkit convert`: between VMD, JSON and CSV, or VMD to VMD to rewrite or repair a file;
//! VPD poses to motions and motions at a frame to VPD poses.

use crate::error::{usage, Outcome};
use crate::inputs::{pose_as_motion, read_pose, InputKind};
use crate::io::{self, is_stdio, Format};
use std::io::IsTerminal;
use std::path::PathBuf;
use vmdkit::model::VpdPose;

const AFTER_HELP: &str = "\
Formats follow the extensions .vmd, .json and .csv; --from and --to override them and are
required for `-` (stdin or stdout). VMD to VMD rewrites a file; with --lenient it repairs
what lenient reading can and reports each repair on stderr. JSON and CSV hold every byte of
the VMD, so VMD -> JSON -> VMD and VMD -> CSV -> VMD give back the same file, except that of
the bytes after the last section (padding some tools leave) they hold the first 64 KiB unless
--keep-trailing is given: the output then records their full length, and a warning says the
VMD made from it will lack the rest.

The input is read completely before anything is written, and the output goes to a temporary
file renamed into place, so a failure leaves no partial output and never touches an existing
file, even when IN and OUT are the same file.

VPD poses: a .vpd IN becomes a motion with one key per bone and morph at frame 0 (or at
--frame F), linear curves, the model name from the pose's model file. A .vpd OUT is the pose
of IN at --frame F (fractions allowed), as MMD plays it (curves, the later of duplicate
keys): every bone track's translation and rotation and every morph's weight, the model file
named after the motion's model, written in Shift-JIS as MMD writes VPDs. VPD to VPD rewrites
the pose as read. --frame is an error in other conversions.

Examples:
  vmdkit convert dance.vmd dance.json
  vmdkit convert --pretty dance.vmd dance.json
  vmdkit convert dance.csv dance.vmd
  vmdkit convert --lenient broken.vmd fixed.vmd
  vmdkit convert --keep-trailing padded.vmd padded.json
  cat dance.vmd | vmdkit convert --from vmd --to json - - | jq .
  vmdkit convert dance.vmd pose.vpd --frame 120
  vmdkit convert pose.vpd pose.vmd
  vmdkit convert pose.vpd pose.json --frame 30";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Input file, or - for stdin (needs --from)
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// Output file, or - for stdout (needs --to)
    #[arg(value_name = "OUT")]
    output: PathBuf,
    /// Input format (default: from IN's extension)
    #[arg(long, value_enum)]
    from: Option<Format>,
    /// Output format (default: from OUT's extension)
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Read a damaged VMD leniently, keeping every complete record; repairs go to stderr
    #[arg(long)]
    lenient: bool,
    /// Indent JSON output
    #[arg(long)]
    pretty: bool,
    /// Hold every byte after the VMD's last section in JSON or CSV output, not the first 64 KiB
    #[arg(long)]
    keep_trailing: bool,
    /// For a .vpd OUT, the time of IN to pose (frames at 30 fps, fractions allowed); for a .vpd
    /// IN, the frame its keys get (default 0)
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    frame: Option<f64>,
}

/// Whether an output path names a VPD pose file (by its extension: an output has no bytes yet).
fn is_vpd_output(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("vpd"))
}

/// Conversions from or to a VPD pose; `None` when neither side is one.
fn convert_pose(args: &Args) -> Option<anyhow::Result<Outcome>> {
    let pose_in = !is_stdio(&args.input) && InputKind::of(&args.input) == InputKind::Pose;
    let pose_out = is_vpd_output(&args.output);
    if !pose_in && !pose_out {
        return None;
    }
    Some(convert_with_pose(args, pose_in, pose_out))
}

/// A conversion where IN (`pose_in`), OUT (`pose_out`) or both are VPD poses.
fn convert_with_pose(args: &Args, pose_in: bool, pose_out: bool) -> anyhow::Result<Outcome> {
    if args.from.is_some() && pose_in {
        return Err(usage("--from does not apply to a .vpd input"));
    }
    if args.to.is_some() && pose_out {
        return Err(usage("--to does not apply to a .vpd output"));
    }
    if args.lenient && pose_in {
        return Err(usage("--lenient reads damaged VMDs; it does nothing with a .vpd input"));
    }
    if (args.keep_trailing || args.pretty) && pose_out {
        return Err(usage("--keep-trailing and --pretty do nothing with a .vpd output"));
    }
    let pose = if pose_in {
        if pose_out && args.frame.is_some() {
            return Err(usage("--frame does nothing when both IN and OUT are poses"));
        }
        let pose = read_pose(&args.input)?;
        if pose_out {
            pose
        } else {
            let frame = key_frame(args.frame)?;
            let loaded = pose_as_motion(&args.input, &pose, frame);
            let to = Format::resolve(args.to, &args.output, "--to")?;
            refuse_binary_to_terminal(to, &args.output)?;
            io::save_motion(&args.output, &loaded.motion, to, args.pretty, io::ALL_TRAILING)?;
            return Ok(Outcome::Success);
        }
    } else {
        let Some(frame) = args.frame else {
            return Err(usage(
                "a .vpd OUT needs --frame F: the time of the motion to write as a pose",
            ));
        };
        crate::eval_args::check_frame(frame)?;
        let from = Format::resolve(args.from, &args.input, "--from")?;
        let loaded = io::read_motion(&args.input, from, args.lenient, io::NO_TRAILING)?;
        loaded.warn_repairs();
        let pose = VpdPose::from_motion(&loaded.motion, frame);
        if pose.bones.is_empty() && pose.morphs.is_empty() {
            anyhow::bail!("{}: no bone or morph keys to make a pose of", loaded.label);
        }
        pose
    };
    io::write_output(&args.output, |out| out.write_all(&pose.to_bytes()))?;
    Ok(Outcome::Success)
}

/// A usage error for a binary VMD about to be written to a terminal.
fn refuse_binary_to_terminal(to: Format, output: &std::path::Path) -> anyhow::Result<()> {
    if to == Format::Vmd && is_stdio(output) && std::io::stdout().is_terminal() {
        return Err(usage(
            "refusing to write binary VMD to a terminal; redirect stdout or name a file",
        ));
    }
    Ok(())
}

/// `--frame` as the frame of a pose's keys: a whole number from 0.
fn key_frame(frame: Option<f64>) -> anyhow::Result<u32> {
    match frame {
        None => Ok(0),
        Some(f) if f >= 0.0 && f <= u32::MAX as f64 && f.fract() == 0.0 => Ok(f as u32),
        Some(f) => Err(usage(format!(
            "--frame for a .vpd IN is the frame its keys get: a whole number from 0, not {f}"
        ))),
    }
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    if let Some(done) = convert_pose(&args) {
        return done;
    }
    if let Some(frame) = args.frame {
        return Err(usage(format!(
            "--frame {frame} applies only to a .vpd IN or OUT; use `vmdkit trim` or `sample` \
             for a time of a motion"
        )));
    }
    let from = Format::resolve(args.from, &args.input, "--from")?;
    let to = Format::resolve(args.to, &args.output, "--to")?;
    refuse_binary_to_terminal(to, &args.output)?;
    let max_trailing = match to {
        Format::Json | Format::Csv if !args.keep_trailing => io::TEXT_TRAILING_CAP,
        _ => io::ALL_TRAILING,
    };
    // Decoded in full (and the input unmapped) before the output is opened; a VMD's trailing
    // bytes that the output will not hold are not read at all.
    let loaded = io::read_motion(&args.input, from, args.lenient, max_trailing)?;
    loaded.warn_repairs();
    io::save_motion(&args.output, &loaded.motion, to, args.pretty, max_trailing)?;
    Ok(Outcome::Success)
}
