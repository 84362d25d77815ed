//! `vmdkit pose`: every bone of a model in model space at one time of a motion (see
//! `vmdkit::skeleton`).

use crate::args::frames::check_frame;
use crate::args::ik::IkMode;
use crate::args::physics::PhysicsArgs;
use crate::error::usage;
use crate::input::{self, pose_as_motion, read_model, read_pose, InputKind};
use crate::output;
use crate::report::PoseDoc;
use crate::shared::eval::bind;
use crate::shared::physics::{with_physics, PhysicsRun};
use std::io::Write;
use std::path::PathBuf;
use vmdkit::eval::MotionSampler;
use vmdkit::limit::DEFAULT_MAX_OUTPUT_BYTES;
use vmdkit::skeleton::{Pose, Poser, Skeleton};

const AFTER_HELP: &str = "\
Positions are model space in MMD units (1 unit is about 8 cm), rotations quaternions
(x, y, z, w) from the bind pose, all in MMD's left-handed axes (Y up, the model faces -Z).
Bones are evaluated as MMD does: morphs, then deform order with append (付与), fixed axes and
CCD IK, IK switched by the motion's property keys. Physics is simulated only with --physics:
then the model's rigid bodies are played from frame 0 through the motion's last key (a VPD
pose: held, the bodies settled on it) and baked into keys at every frame, and the bones they
move (hair, skirts) are posed from those keys, blending linearly between whole frames; the
summary goes to stderr. Without it bones that rigid bodies would move follow their keys or
rest. A frame outside the motion's keys (before 0,
after the last key) is posed as MMD does, holding the first or last key; stderr says so.

FILE may be a VPD pose (.vpd): its bones and morphs are applied as keys at one frame, so
--frame is not given. --json prints {\"frame\", \"bones\": [{\"name\", \"parent\", \"position\",
\"rotation\"}]}, bones in model order, parent the index of the parent bone in that list (null
for a root), as the NPZ of `bake --model` holds it.

Examples:
  vmdkit pose --model miku.pmx dance.vmd --frame 120
  vmdkit pose --model mei.pmd greeting.vmd --frame 12.5 --json
  vmdkit pose --model miku.pmx pose.vpd --json
  vmdkit pose --model miku.pmx dance.vmd --frame 120 --physics";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct PoseArgs {
    /// The model: .pmx or .pmd
    #[arg(long, value_name = "MODEL")]
    pub model: PathBuf,
    /// The motion (.vmd, or a .json/.csv written by `vmdkit convert`), or a VPD pose
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The time, as a frame number at 30 fps (fractions allowed); not for a VPD pose
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub frame: Option<f64>,
    /// Print JSON: {"frame", "bones": [{"name", "parent", "position", "rotation"}]}
    #[arg(long)]
    pub json: bool,
    /// IK solver
    #[arg(long, value_enum, value_name = "MODE", default_value_t)]
    pub ik: IkMode,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
    #[command(flatten)]
    pub physics: PhysicsArgs,
}

pub fn run(args: &PoseArgs) -> anyhow::Result<()> {
    let is_pose = InputKind::of(&args.file) == InputKind::Pose;
    let frame = match (args.frame, is_pose) {
        (Some(frame), false) => frame,
        (None, true) => 0.0,
        (None, false) => {
            return Err(usage("--frame F is required: the time of the motion to pose"))
        }
        (Some(_), true) => {
            return Err(usage(
                "--frame does nothing with a VPD pose, which is the same at every time",
            ))
        }
    };
    check_frame(frame)?;
    let model = read_model(&args.model)?;
    let loaded = if is_pose {
        if args.lenient {
            return Err(usage("--lenient reads damaged VMDs; it does nothing with a VPD pose"));
        }
        pose_as_motion(&args.file, &read_pose(&args.file)?, 0)
    } else {
        input::load_motion(&args.file, args.lenient, input::NO_TRAILING)?
    };
    if !is_pose {
        crate::shared::eval::note_outside(&loaded.label, &loaded.motion, frame, frame);
    }
    let skeleton = Skeleton::new(&model);
    let run = PhysicsRun {
        settings: args.physics.settings()?,
        pose: args.ik.options(),
        max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
    };
    let model_label = args.model.display().to_string();
    let motion = with_physics(&loaded.label, &loaded.motion, &model_label, &model, &skeleton, run)?;
    let sampler = MotionSampler::new(&motion);
    let binding = bind(&loaded.label, &skeleton, &sampler);
    let mut poser = Poser::with_options(&skeleton, &sampler, &binding, args.ik.options());
    let mut pose = Pose::new(&skeleton);
    poser.pose_at(frame, &mut pose);

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json {
        output::write_json_line(&mut out, &PoseDoc::new(frame, &skeleton, &pose))?;
    } else {
        let mut text = crate::terminal::Escaping::new(&mut out);
        write_table(&mut text, frame, &loaded.label, &skeleton, &pose)?;
        text.flush()?;
    }
    out.flush()?;
    Ok(())
}

/// One line per bone: index, parent index, position, rotation and name, in aligned columns.
fn write_table(
    out: &mut impl Write,
    frame: f64,
    label: &str,
    skeleton: &Skeleton,
    pose: &Pose,
) -> std::io::Result<()> {
    let bones = skeleton.bone_count();
    writeln!(
        out,
        "frame {frame} of {label}: {bones} bones, model space, MMD units, left-handed Y up"
    )?;
    writeln!(
        out,
        "{:>4} {:>6} {:>10} {:>10} {:>10}  {:>9} {:>9} {:>9} {:>9}  name",
        "#", "parent", "x", "y", "z", "qx", "qy", "qz", "qw"
    )?;
    for b in 0..bones {
        let (p, q) = (pose.position(b), pose.rotation(b).normalize());
        let parent = skeleton.parent(b).map_or("-".to_string(), |p| p.to_string());
        writeln!(
            out,
            "{b:>4} {parent:>6} {:>10.4} {:>10.4} {:>10.4}  {:>9.6} {:>9.6} {:>9.6} {:>9.6}  {}",
            p.x,
            p.y,
            p.z,
            q.x,
            q.y,
            q.z,
            q.w,
            skeleton.bone_name(b)
        )?;
    }
    Ok(())
}
