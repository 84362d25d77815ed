//! `vmdkit convert`: between VMD, JSON and CSV, or VMD to VMD to rewrite or repair a file;
//! VPD poses to motions and motions at a frame to VPD poses.
//! `.glb` outputs go to `gltf.rs`.

mod bvh;
mod gltf;

use crate::batch::{is_long, spinner};
use crate::error::{usage, Outcome};
use crate::input::{self, is_stdio, pose_as_motion, read_pose, Format, InputKind};
use crate::output::OutArg;
use crate::output::{self, TextStyle};
use std::path::{Path, PathBuf};
use vmdkit::model::VpdPose;

const AFTER_HELP: &str = "\
Formats: --from, else IN's extension (.vmd, .json, .csv), else what IN's bytes show (so
`-`, stdin, needs no --from); --to, else OUT's extension, else VMD for `-` (stdout; refused
on a terminal). VMD to VMD rewrites a file; with --lenient it repairs what lenient reading
can and reports each repair on stderr. JSON and CSV hold every byte of the VMD, so VMD ->
JSON -> VMD and VMD -> CSV -> VMD give back the same file, except that of the bytes after the
last section (padding some tools leave) they hold the first 64 KiB unless --keep-trailing is
given: the output then records their full length, and a warning says the VMD made from it
will lack the rest. CSV starts without a byte-order mark, as most programs want; --bom adds
one for spreadsheets (Excel garbles Japanese names without it).

The input is read completely before anything is written, and the output goes to a temporary
file renamed into place, so a failure leaves no partial output and never touches an existing
file. OUT may not be IN (nor --model or --camera), through links too: write elsewhere, then
rename. Options that do not apply to the formats chosen
(--pretty for VMD or CSV, --bom for VMD or JSON, --keep-trailing for VMD) are refused.

VPD poses: a .vpd IN becomes a motion with one key per bone and morph at frame 0 (or at
--frame F), linear curves, the model name from the pose's model file. A .vpd OUT is the pose
of IN at --frame F (fractions allowed), as MMD plays it (curves, the later of duplicate
keys): every bone track's translation and rotation and every morph's weight, the model file
named after the motion's model, written in Shift-JIS as MMD writes VPDs. VPD to VPD rewrites
the pose as read. --frame is an error in other conversions.

Examples:
  vmdkit convert dance.vmd -o dance.json
  vmdkit convert --pretty dance.vmd dance.json
  vmdkit convert dance.csv dance.vmd
  vmdkit convert --lenient broken.vmd -o fixed.vmd
  vmdkit convert --keep-trailing padded.vmd padded.json
  vmdkit convert --bom dance.vmd -o for-excel.csv
  cat dance.vmd | vmdkit convert --to json - - | jq .
  vmdkit convert dance.vmd -o pose.vpd --frame 120
  vmdkit convert pose.vpd -o pose.vmd
  vmdkit convert pose.vpd -o pose.json --frame 30

OUT.bvh plays the motion on --model (IK and append transforms baked into the joints' rotations)
and writes every bone as a joint named after it: offsets from the model's rest pose, right-handed
Y up (Z mirrored), MMD units unless --metres, roots with 6 channels and the others 3 (6 where a
bone moves). See docs/bvh.md. A .bvh or .glb OUT prints one line on stderr (frames, rate, time
span, joints, size) unless -q.
  vmdkit convert dance.vmd -o dance.bvh --model miku.pmx
  vmdkit convert dance.vmd -o dance.bvh --model miku.pmx --fps 60 --metres --order zyx --english-names

An OUT ending in .glb writes glTF 2.0 (docs/gltf.md): the model's skeleton, skin and mesh
with the motion baked at 30 fps (IK and append included), right-handed Y-up metres (0.08 m per
unit). IN is a motion played on --model, or a PMX/PMD alone for its rest pose. Textures are
referred to by relative path (--embed-textures copies them in); missing ones are reported and
left out. A model's texture paths are not trusted: only regular files inside the model's
folder (links followed) are read, unless --allow-outside-textures; an embedded texture over
--max-texture-size (default 64 MiB) is left out with a warning.
  vmdkit convert dance.vmd -o dance.glb --model miku.pmx
  vmdkit convert dance.vmd -o dance.glb --model miku.pmx --camera camera.vmd --embed-textures
  vmdkit convert dance.vmd -o bones.glb --model miku.pmx --skeleton-only
  vmdkit convert miku.pmx -o miku.glb

With --physics a .bvh or .glb output plays the model's rigid bodies (hair, skirts,
accessories) as MMD does, simulated from frame 0 through the motion's last key and baked into
the bones they move (`vmdkit bake --physics` writes the same as a VMD); a summary goes to
stderr. A model without rigid bodies: a warning, and nothing moves.
  vmdkit convert dance.vmd -o dance.glb --model miku.pmx --physics";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Input file, or - for stdin
    #[arg(value_name = "IN")]
    input: PathBuf,
    #[command(flatten)]
    out: OutArg,
    /// Input format (default: from IN's extension, else from its bytes)
    #[arg(long, value_enum)]
    from: Option<Format>,
    /// Output format (default: from OUT's extension; VMD for -)
    #[arg(long, value_enum)]
    to: Option<Format>,
    /// Read a damaged VMD leniently, keeping every complete record; repairs go to stderr
    #[arg(long)]
    lenient: bool,
    /// Indent JSON output
    #[arg(long)]
    pretty: bool,
    /// Start CSV output with a byte-order mark, for spreadsheets
    #[arg(long)]
    bom: bool,
    /// Hold every byte after the VMD's last section in JSON or CSV output, not the first 64 KiB
    #[arg(long)]
    keep_trailing: bool,
    /// For a .vpd OUT, the time of IN to pose (frames at 30 fps, fractions allowed); for a .vpd
    /// IN, the frame its keys get (default 0)
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    frame: Option<f64>,
    /// BVH and glTF: the model the motion is played on, .pmx or .pmd (required for OUT.bvh;
    /// for OUT.glb unless IN is the model)
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    #[command(flatten)]
    bvh: bvh::ExportArgs,
    #[command(flatten)]
    gltf: gltf::GltfArgs,
    #[command(flatten)]
    limit: crate::args::limit::OutputLimit,
    #[command(flatten)]
    physics: crate::args::physics::PhysicsArgs,
    /// Print no summary line for a .bvh or .glb output (warnings still go to stderr)
    #[arg(short, long)]
    quiet: bool,
}

/// Whether an output path names a VPD pose file (by its extension: an output has no bytes yet).
fn is_vpd_output(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("vpd"))
}

/// Conversions from or to a VPD pose; `None` when neither side is one.
fn convert_pose(args: &Args) -> Option<anyhow::Result<Outcome>> {
    let pose_in = !is_stdio(&args.input) && InputKind::of(&args.input) == InputKind::Pose;
    let pose_out = is_vpd_output(args.out.path());
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
    if (args.keep_trailing || args.pretty || args.bom) && pose_out {
        return Err(usage("--keep-trailing, --pretty and --bom do nothing with a .vpd output"));
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
            let output = args.out.path();
            let to = Format::of_output_to(output, args.to, "--to")?;
            refuse_idle_options(args, to)?;
            let style =
                TextStyle { pretty: args.pretty, bom: args.bom, max_trailing: input::ALL_TRAILING };
            output::save_motion_styled(output, &loaded.motion, to, style)?;
            return Ok(Outcome::Success);
        }
    } else {
        let Some(frame) = args.frame else {
            return Err(usage(
                "a .vpd OUT needs --frame F: the time of the motion to write as a pose",
            ));
        };
        crate::args::frames::check_frame(frame)?;
        let loaded = input::read_motion(&args.input, args.from, args.lenient, input::NO_TRAILING)?;
        loaded.warn_repairs();
        let pose = VpdPose::from_motion(&loaded.motion, frame);
        if pose.bones.is_empty() && pose.morphs.is_empty() {
            anyhow::bail!("{}: no bone or morph keys to make a pose of", loaded.label);
        }
        pose
    };
    output::write_output(args.out.path(), |out| out.write_all(&pose.to_bytes()))?;
    Ok(Outcome::Success)
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

/// Inputs from this size (a 30 MB VMD, a 100 MB JSON) take a second or more to read.
const BIG_INPUT: u64 = 32 << 20;

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let output = args.out.path();
    let exported = [(bvh::is_bvh(output), "a .bvh"), (gltf::is_glb(output), "a .glb")];
    if let Some((_, what)) = exported.iter().find(|(is, _)| *is && args.to.is_none()) {
        if args.frame.is_some() || args.pretty || args.bom || args.keep_trailing {
            return Err(usage(format!(
                "--frame, --pretty, --bom and --keep-trailing do nothing with {what} output"
            )));
        }
        let model = args.model.as_deref();
        if bvh::is_bvh(output) {
            args.gltf.refuse_unless_glb(output)?;
            let (input, quiet) = (&args.input, args.quiet);
            let (limit, physics) = (args.limit, &args.physics);
            bvh::convert(input, output, args.lenient, model, limit, physics, &args.bvh, quiet)?;
        } else {
            args.bvh.refuse_unless_bvh(output)?;
            let (input, quiet) = (&args.input, args.quiet);
            let (limit, physics) = (args.limit, &args.physics);
            gltf::run(input, output, args.lenient, model, limit, physics, &args.gltf, quiet)?;
        }
        return Ok(Outcome::Success);
    }
    args.bvh.refuse_unless_bvh(output)?;
    args.gltf.refuse_unless_glb(output)?;
    if let Some(flag) = args.physics.given() {
        return Err(usage(format!(
            "{flag} is for a .bvh or .glb output played on --model, and {} is neither",
            output.display()
        )));
    }
    if args.model.is_some() {
        return Err(usage(format!(
            "--model is for a .bvh or .glb output, and {} is neither",
            output::output_label(output)
        )));
    }
    if let Some(done) = convert_pose(&args) {
        return done;
    }
    if let Some(frame) = args.frame {
        return Err(usage(format!(
            "--frame {frame} applies only to a .vpd IN or OUT; use `vmdkit trim` or `sample` \
             for a time of a motion"
        )));
    }
    let output = args.out.path();
    let to = Format::of_output_to(output, args.to, "--to")?;
    refuse_idle_options(&args, to)?;
    let max_trailing = match to {
        Format::Json | Format::Csv if !args.keep_trailing => output::TEXT_TRAILING_CAP,
        _ => input::ALL_TRAILING,
    };
    // Decoded in full (and the input unmapped) before the output is opened; a VMD's trailing
    // bytes that the output will not hold are not read at all.
    let big = std::fs::metadata(&args.input).is_ok_and(|m| m.len() >= BIG_INPUT);
    let bar = spinner(&format!("reading {}", args.input.display()), big);
    let loaded = input::read_motion(&args.input, args.from, args.lenient, max_trailing);
    bar.finish_and_clear();
    let loaded = loaded?;
    loaded.warn_repairs();
    let style = TextStyle { pretty: args.pretty, bom: args.bom, max_trailing };
    let bar =
        spinner(&format!("writing {}", output::output_label(output)), is_long(&loaded.motion));
    let saved = output::save_motion_styled(output, &loaded.motion, to, style);
    bar.finish_and_clear();
    saved?;
    Ok(Outcome::Success)
}

/// A usage error for an option that would do nothing with output in `to`.
fn refuse_idle_options(args: &Args, to: Format) -> anyhow::Result<()> {
    let idle = if args.pretty && to != Format::Json {
        "--pretty indents JSON"
    } else if args.bom && to != Format::Csv {
        "--bom is for CSV"
    } else if args.keep_trailing && to == Format::Vmd {
        "--keep-trailing is for JSON and CSV (a VMD output keeps every byte)"
    } else {
        return Ok(());
    };
    Err(usage(format!("{idle}, and the output is {}", to.name())))
}
