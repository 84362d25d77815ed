//! `vmdkit pose`: every bone of a model in model space at one time of a motion (see
//! `vmdkit::skeleton`).

use crate::eval_args::{bind, check_frame, read_model, IkMode, MotionAt};
use crate::io;
use std::io::Write;
use std::path::PathBuf;
use vmdkit::eval::MotionSampler;
use vmdkit::report::PoseDoc;
use vmdkit::skeleton::{Pose, Poser, Skeleton};

const AFTER_HELP: &str = "\
Positions are model space in MMD units (1 unit is about 8 cm), rotations quaternions
(x, y, z, w) from the bind pose, all in MMD's left-handed axes (Y up, the model faces -Z).
Bones are evaluated as MMD does: morphs, then deform order with append (付与), fixed axes and
CCD IK, IK switched by the motion's property keys. Physics is not simulated: bones that rigid
bodies would move follow their keys or rest.

Examples:
  vmdkit pose --model miku.pmx dance.vmd --frame 120
  vmdkit pose --model mei.pmd greeting.vmd --frame 12.5 --json";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct PoseArgs {
    /// The model: .pmx or .pmd
    #[arg(long, value_name = "MODEL")]
    pub model: PathBuf,
    #[command(flatten)]
    pub at: MotionAt,
    /// Print JSON: {"frame", "bones": [{"name", "parent", "position", "rotation"}]}
    #[arg(long)]
    pub json: bool,
    /// IK solver
    #[arg(long, value_enum, value_name = "MODE", default_value_t)]
    pub ik: IkMode,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
}

pub fn run(args: &PoseArgs) -> anyhow::Result<()> {
    check_frame(args.at.frame)?;
    let model = read_model(&args.model)?;
    let loaded = io::load_motion(&args.at.file, args.lenient, io::NO_TRAILING)?;
    let skeleton = Skeleton::new(&model);
    let sampler = MotionSampler::new(&loaded.motion);
    let binding = bind(&loaded.label, &skeleton, &sampler);
    let mut poser = Poser::with_options(&skeleton, &sampler, &binding, args.ik.options());
    let mut pose = Pose::new(&skeleton);
    poser.pose_at(args.at.frame, &mut pose);

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json {
        io::write_json_line(&mut out, &PoseDoc::new(args.at.frame, &skeleton, &pose))?;
    } else {
        write_table(&mut out, args.at.frame, &loaded.label, &skeleton, &pose)?;
    }
    out.flush()?;
    Ok(())
}

/// One line per bone: index, position, rotation and name, in aligned columns.
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
        "{:>4} {:>10} {:>10} {:>10}  {:>9} {:>9} {:>9} {:>9}  name",
        "#", "x", "y", "z", "qx", "qy", "qz", "qw"
    )?;
    for b in 0..bones {
        let (p, q) = (pose.position(b), pose.rotation(b).normalize());
        writeln!(
            out,
            "{b:>4} {:>10.4} {:>10.4} {:>10.4}  {:>9.6} {:>9.6} {:>9.6} {:>9.6}  {}",
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
