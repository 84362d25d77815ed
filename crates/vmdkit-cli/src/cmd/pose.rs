//! `vmdkit pose`: every bone of a model in model space at one time of a motion (see
//! `vmdkit::skeleton`).

use crate::io::{self, Format};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Binding, IkVariant, Pose, PoseOptions, Poser, Skeleton};

const AFTER_HELP: &str = "\
Positions are model space in MMD units (1 unit is about 8 cm), rotations quaternions
(x, y, z, w) from the bind pose, all in MMD's left-handed axes (Y up, the model faces -Z).
Bones are evaluated as MMD does: morphs, then deform order with append (付与), fixed axes and
CCD IK, IK switched by the motion's property keys. Physics is not simulated: bones that rigid
bodies would move follow their keys or rest.

Examples:
  vmdkit pose --model miku.pmx dance.vmd --frame 120
  vmdkit pose --model mei.pmd greeting.vmd --frame 12.5 --json";

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
    pub fn options(self) -> PoseOptions {
        match self {
            IkMode::Mmd => PoseOptions { ik_variant: IkVariant::Mmd, solve_ik: true },
            IkMode::Plain => PoseOptions { ik_variant: IkVariant::Plain, solve_ik: true },
            IkMode::Off => PoseOptions { solve_ik: false, ..PoseOptions::default() },
        }
    }
}

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct PoseArgs {
    /// The model: .pmx or .pmd
    #[arg(long, value_name = "MODEL")]
    pub model: PathBuf,
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The time, as a frame number at 30 fps (fractions allowed)
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub frame: f64,
    /// Print JSON: {"frame", "bones": [{"name", "position", "rotation"}]}
    #[arg(long)]
    pub json: bool,
    /// IK solver
    #[arg(long, value_enum, value_name = "MODE", default_value_t)]
    pub ik: IkMode,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
}

#[derive(Serialize)]
struct BoneOut<'a> {
    name: &'a str,
    position: [f32; 3],
    rotation: [f32; 4],
}

#[derive(Serialize)]
struct PoseOut<'a> {
    frame: f64,
    bones: Vec<BoneOut<'a>>,
}

/// Reads a model. The error names the file (and, for damage, the section, record and offset)
/// once: it is flattened to its message so that the cause is not printed twice.
pub fn read_model(path: &Path) -> anyhow::Result<Model> {
    Model::read_file(path).map_err(|e| anyhow::anyhow!("cannot read the model: {e}"))
}

/// Prints what did not bind, briefly: the model and the motion may be meant for each other
/// only in part (a dance made for another model, facial morphs the reader does not keep).
pub fn warn_binding(label: &str, skeleton: &Skeleton, binding: &Binding) {
    for note in skeleton.notes() {
        eprintln!("warning: model: {note}");
    }
    let report = binding.report();
    let list = |names: Vec<String>| {
        let shown: Vec<_> = names.iter().take(8).cloned().collect();
        let more = names.len().saturating_sub(shown.len());
        format!(
            "{}{}",
            shown.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        )
    };
    if !report.unbound_bone_tracks.is_empty() {
        let names =
            report.unbound_bone_tracks.iter().map(|n| n.to_string_lossy()).collect::<Vec<_>>();
        eprintln!(
            "warning: {label}: {} bone tracks name no bone of the model: {}",
            names.len(),
            list(names)
        );
    }
    if !report.unbound_ik_tracks.is_empty() {
        let names =
            report.unbound_ik_tracks.iter().map(|n| n.to_string_lossy()).collect::<Vec<_>>();
        eprintln!("warning: {label}: {} IK switches name no IK bone: {}", names.len(), list(names));
    }
    if !report.shadowed_bone_tracks.is_empty() {
        eprintln!(
            "warning: {label}: {} bone tracks name a bone another track already drives; ignored",
            report.shadowed_bone_tracks.len()
        );
    }
}

pub fn run(args: &PoseArgs) -> anyhow::Result<()> {
    if !args.frame.is_finite() {
        return Err(crate::error::usage(format!("--frame must be a number, not {}", args.frame)));
    }
    let model = read_model(&args.model)?;
    let format = Format::from_path(&args.file).unwrap_or(Format::Vmd);
    let loaded = io::read_motion(&args.file, format, args.lenient)?;
    for repair in &loaded.repairs {
        eprintln!("warning: {}: repaired by lenient reading: {repair}", loaded.label);
    }
    let skeleton = Skeleton::new(&model);
    let sampler = MotionSampler::new(&loaded.motion);
    let binding = Binding::new(&skeleton, &sampler);
    warn_binding(&loaded.label, &skeleton, &binding);
    let mut poser = Poser::with_options(&skeleton, &sampler, &binding, args.ik.options());
    let mut pose = Pose::new(&skeleton);
    poser.pose_at(args.frame, &mut pose);

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.json {
        let doc = PoseOut {
            frame: args.frame,
            bones: (0..skeleton.bone_count())
                .map(|b| BoneOut {
                    name: skeleton.bone_name(b),
                    position: pose.position(b).to_array(),
                    rotation: pose.rotation(b).normalize().to_array(),
                })
                .collect(),
        };
        serde_json::to_writer(&mut out, &doc).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "frame {} of {}: {} bones, model space, MMD units, left-handed Y up",
            args.frame,
            loaded.label,
            skeleton.bone_count()
        )?;
        writeln!(
            out,
            "{:>4} {:>10} {:>10} {:>10}  {:>9} {:>9} {:>9} {:>9}  name",
            "#", "x", "y", "z", "qx", "qy", "qz", "qw"
        )?;
        for b in 0..skeleton.bone_count() {
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
    }
    out.flush()?;
    Ok(())
}
