//! `vmdkit shift`: move every key in time (see `vmdkit::edit::shift`), and move or turn the
//! whole motion in space through its root bones (see `vmdkit::edit::place`).

use super::InOut;
use crate::error::usage;
use crate::input::read_model;
use glam::{Quat, Vec3};
use std::path::PathBuf;
use vmdkit::edit::{place, EditError, PlaceRoot, RigidTransform};
use vmdkit::skeleton::Skeleton;
use vmdkit::{KeyName, Motion};

const AFTER_HELP: &str = "\
--frames N adds N (which may be negative) to every key's frame. A shift that would move a key
before frame 0 is an error, unless --clip first trims away what would fall off (inserting exact
keys at the new frame 0). Curves are unchanged.

--offset X,Y,Z moves and --rotate YAW[,PITCH,ROLL] turns the whole motion about the model's
origin (degrees as MMD's bone panel shows a rotation: YAW is its Y, PITCH its X, ROLL its Z),
by rewriting the keys of the bone everything hangs from: 全ての親
(\"parent of all\"), which gets a key at frame 0 if the motion has none. Which bone:
  with --model MODEL: 全ての親 when the model has it, else every root bone of the model
    (センター and the leg IK bones of older models), with their rest positions;
  without --model: 全ての親 when the motion keys it; else, when it keys センター (a motion for a
    model without 全ての親), センター and the leg IK bones it keys (--rotate then needs --model
    for their rest positions); else 全ての親, added.
Rotation curves are kept; translation curves too, except where a turn mixes axes whose curves
differ (counted on stderr). --camera moves and turns the camera with the model (the target
like a bone, the yaw added to its Y angle; pitch and roll cannot be applied to a camera).

Examples:
  vmdkit shift dance.vmd late.vmd --frames 30
  vmdkit shift dance.vmd early.vmd --frames -120 --clip
  vmdkit shift dance.vmd moved.vmd --offset 0,0,-10 --rotate 90
  vmdkit shift dance.vmd moved.vmd --rotate 45 --model old-model.pmd --camera";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
#[command(group(clap::ArgGroup::new("change").required(true).multiple(true)
    .args(["frames", "offset", "rotate"])))]
#[command(group(clap::ArgGroup::new("change_in_space").multiple(true).args(["offset", "rotate"])))]
pub struct ShiftArgs {
    #[command(flatten)]
    pub io: InOut,
    /// Frames to add (negative moves earlier)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub frames: Option<i64>,
    /// With a negative N, drop what would fall before frame 0 instead of failing
    #[arg(long, requires = "frames")]
    pub clip: bool,
    /// Move the whole motion by X,Y,Z model units (1 unit ≈ 8 cm), after any --rotate
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true, value_parser = parse_offset)]
    pub offset: Option<Vec3>,
    /// Turn the whole motion about the origin: YAW[,PITCH,ROLL] in degrees
    #[arg(long, value_name = "YAW[,PITCH,ROLL]", allow_hyphen_values = true, value_parser = parse_angles)]
    pub rotate: Option<Vec3>,
    /// The model the motion is for: picks the root bones and gives their rest positions
    #[arg(long, value_name = "MODEL", requires = "change_in_space")]
    pub model: Option<PathBuf>,
    /// Move and turn the camera with the model
    #[arg(long, requires = "change_in_space")]
    pub camera: bool,
}

fn numbers(text: &str, min: usize, what: &str) -> Result<Vec3, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() < min || parts.len() > 3 {
        return Err(format!("expected {what}, not {text:?}"));
    }
    let mut v = [0.0f32; 3];
    for (slot, part) in v.iter_mut().zip(&parts) {
        *slot =
            part.parse::<f32>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                format!("{part:?} is not a number (in {text:?}; expected {what})")
            })?;
    }
    Ok(Vec3::from(v))
}

fn parse_offset(text: &str) -> Result<Vec3, String> {
    numbers(text, 3, "X,Y,Z")
}

fn parse_angles(text: &str) -> Result<Vec3, String> {
    numbers(text, 1, "YAW[,PITCH,ROLL] in degrees")
}

pub fn run(args: &ShiftArgs) -> anyhow::Result<()> {
    let mut motion = args.io.read()?;
    let mut said = Vec::new();
    if let Some(frames) = args.frames {
        motion = shift_frames(motion, frames, args.clip)?;
        said.push(format!("shifted by {frames} frames"));
    }
    if args.offset.is_some() || args.rotate.is_some() {
        let angles = args.rotate.unwrap_or(Vec3::ZERO);
        let transform = RigidTransform::from_degrees(
            angles.x,
            angles.y,
            angles.z,
            args.offset.unwrap_or(Vec3::ZERO),
        );
        let (roots, labels) = roots(&motion, args, transform.rotation != Quat::IDENTITY)?;
        let (placed, report) = place(&motion, &roots, transform, args.camera)?;
        motion = placed;
        said.push(format!(
            "moved and turned through {} ({} bone keys rewritten, {} added{})",
            labels.join(", "),
            report.bone_keys,
            report.added_keys,
            if args.camera {
                format!(", {} camera keys", report.camera_keys)
            } else {
                String::new()
            }
        ));
        if report.approximated_segments > 0 {
            say!(
                "warning: {} segments turn translation axes with different curves into one \
                 another; each new axis keeps the curve of the axis that moves it most",
                report.approximated_segments
            );
        }
    }
    args.io.write(&motion)?;
    say!("{} {}", args.io.summary(&motion), said.join("; "));
    Ok(())
}

/// `motion` moved by `frames`, trimmed first with `clip`.
fn shift_frames(mut motion: Motion, frames: i64, clip: bool) -> anyhow::Result<Motion> {
    if clip && frames >= 0 {
        return Err(usage(format!(
            "--clip drops what a shift to earlier frames would move before frame 0; \
             --frames {frames} moves nothing there"
        )));
    }
    if clip && frames < 0 {
        // `unsigned_abs`: `-i64::MIN` overflows.
        let from = u32::try_from(frames.unsigned_abs()).map_err(|_| {
            usage(format!(
                "--frames {frames} --clip would drop every frame: no VMD frame is that far from 0"
            ))
        })?;
        let last = motion.frame_range().map_or(0, |(_, last)| last).max(from);
        motion = vmdkit::edit::trim(&motion, from, last)?.0;
    }
    vmdkit::edit::shift(&motion, frames).map_err(|e| match e {
        EditError::BeforeFrameZero { .. } => {
            usage(format!("{e}; add --clip to drop what would fall before frame 0"))
        }
        e => e.into(),
    })
}

const ALL_PARENT: &str = "全ての親";
const CENTER: &str = "センター";
const LEG_IKS: [&str; 2] = ["左足ＩＫ", "右足ＩＫ"];

/// The bones to move (see the help), and their names for the message.
fn roots(
    motion: &Motion,
    args: &ShiftArgs,
    turning: bool,
) -> anyhow::Result<(Vec<PlaceRoot>, Vec<String>)> {
    let key = |name: &str| KeyName::encode(name).0;
    let root = |name: &str, rest: Vec3| PlaceRoot { name: key(name), rest };
    if let Some(path) = &args.model {
        let skeleton = Skeleton::new(&read_model(path)?);
        let bones: Vec<usize> = match skeleton.bone_index(ALL_PARENT) {
            Some(b) => vec![b],
            None => (0..skeleton.bone_count()).filter(|&b| skeleton.parent(b).is_none()).collect(),
        };
        let roots = bones
            .iter()
            .map(|&b| PlaceRoot {
                name: *skeleton.bone_key_name(b),
                rest: skeleton.rest_position(b),
            })
            .collect();
        return Ok((roots, bones.iter().map(|&b| skeleton.bone_name(b).to_string()).collect()));
    }
    let keyed = |name: &str| motion.bones.iter().any(|k| k.name.bytes() == key(name).bytes());
    if keyed(ALL_PARENT) || !keyed(CENTER) {
        if !keyed(ALL_PARENT) {
            say!(
                "note: the motion keys neither {ALL_PARENT} nor {CENTER}: a {ALL_PARENT} key is \
                 added (for a model without {ALL_PARENT}, give --model)"
            );
        }
        return Ok((vec![root(ALL_PARENT, Vec3::ZERO)], vec![ALL_PARENT.to_string()]));
    }
    if turning {
        return Err(usage(format!(
            "the motion keys {CENTER} but not {ALL_PARENT}: turning it through {CENTER} and the \
             leg IK bones needs their rest positions; give --model MODEL"
        )));
    }
    let names: Vec<&str> =
        std::iter::once(CENTER).chain(LEG_IKS.into_iter().filter(|n| keyed(n))).collect();
    // A move does not depend on the rest positions.
    Ok((
        names.iter().map(|n| root(n, Vec3::ZERO)).collect(),
        names.iter().map(|n| n.to_string()).collect(),
    ))
}
