//! `vmdkit info`: what a motion file holds, and what is odd about it.

mod model;

use crate::batch::for_each_ordered;
use crate::error::Outcome;
use crate::input::{expand_inputs, read_motion, read_pose, InputKind, LoadError, Loaded};
use crate::report::{ModelDoc, PoseFileDoc};
use model::{write_model, write_pose};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use vmdkit::lint::{analyse, NameSummary, Warning, TRAILING_PREVIEW};
use vmdkit::model::{Model, VpdPose};
use vmdkit::shown::{escape_controls, shown};
use vmdkit::Section;
use vmdkit::TextEncoding;

const AFTER_HELP: &str = "\
Output: for each file its version, model name (decoded, with the encoding used), key counts
per section and which sections the file has, the frame range and its length at 30 fps, every
bone and morph name with its key count, and warnings, one line per kind and section:
  repaired                damage or a writer quirk lenient reading (--lenient) repaired
  name_cut_mid_character  a name fills its field and ends inside a character (harmless)
  name_undecodable        a name that is not valid in the file's encoding
  duplicate_keys          keys for one name and frame that differ (players disagree)
  identical_keys          keys for one name and frame that are the same (harmless)
  unsorted_keys           keys out of frame order (harmless: players sort them)
  physics_off             bone keys with physics switched off (harmless: MMD's own setting)
  non_unit_quaternion     rotations whose length is not 1
  zero_quaternion         all-zero rotations
  non_finite              NaN or infinite numbers
  out_of_range            bytes outside their documented range
  trailing_bytes          bytes after the last section (harmless: players ignore them)
  far_frames              keys far beyond the rest (a damaged frame number, which bakes and
                          frame-by-frame edits would span)
`check --strict-warnings` fails on the kinds not marked harmless; see `vmdkit check --help`.

--json prints one JSON object per file, one per line (JSON Lines), in input order. Keys: path,
bytes, version (1 or 2), model_name, encoding (shift_jis, gbk or utf-8), camera_motion,
counts {bone, morph, camera, light, self_shadow, property}, sections_present, frame_range
([first, last] or null), duration_seconds, trailing_bytes, bones and morphs ([{name, keys,
frames: [first, last]}]), warnings ([{kind, section, count, message}]). A file that cannot
be read gives {path, error, lenient_may_help} instead, and the exit status is 1.

Models (.pmx, .pmd, or a file starting PMX / Pmd): format, version and text encoding, name,
English name and comment, counts (vertices, faces, materials, bones and IK chains, morphs,
rigid bodies, joints), every bone (index, parent, flags as letters, deform layer, name and
English name; append source and ratio; IK target, loop count, limit angle and each link with
its angle limits) and every morph (panel, kind, offsets, names). --json gives one object
{path, kind: \"model\", format, version, encoding, name, name_en, comment, comment_en, counts,
bones: [{index, name, name_en, parent, parent_name, position, deform_layer, flags: [names],
flag_bits, append, fixed_axis, ik}], morphs: [{index, name, name_en, panel, kind, offsets}],
rigid_bodies: [{index, name, name_en, bone, mode, shape, size, position, rotation, mass,
linear_damping, angular_damping, restitution, friction, group, mask}], joints: [{index, name,
name_en, kind, body_a, body_b, position, rotation, linear_min, linear_max, angular_min,
angular_max, linear_spring, angular_spring}], physics_problems: [messages]} (report/model.rs
and report/model_physics.rs in the vmdkit-cli source document every field). Rigid bodies and
joints a physics simulation cannot use (bad indices, sizes, masses, NaN values) are listed as
warnings.

VPD poses (.vpd, or a file starting \"Vocaloid Pose Data file\"): the model file, every bone's
translation and rotation and every morph's weight; --json {path, kind: \"pose\", bytes,
model_file, model_name, counts {bones, morphs}, bones: [{name, translation, rotation}],
morphs: [{name, weight}]}.

Folders are searched for *.vmd only; give models and poses by name. Files are read in
parallel; a progress bar shows on a terminal when there are many.

Examples:
  vmdkit info --example
  vmdkit info dance.vmd
  vmdkit info --json motions/ > motions.jsonl
  vmdkit info --json dance.vmd | jq '.counts.bone'
  vmdkit info miku.pmx
  vmdkit info --json miku.pmx | jq '.bones[] | select(.ik) | .name'
  vmdkit info pose.vpd";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// One JSON object per file, one per line (JSON Lines)
    #[arg(long)]
    json: bool,
    /// Read damaged files leniently: keep every complete record, report repairs as warnings
    #[arg(long, conflicts_with = "example")]
    lenient: bool,
    /// Summarise the built-in example motion instead of files
    #[arg(long, conflicts_with = "files")]
    example: bool,
    /// Motion files (.vmd, or .json/.csv from `vmdkit convert`; - for stdin), PMX/PMD models,
    /// VPD poses, or folders searched recursively for *.vmd
    #[arg(value_name = "FILE", required_unless_present = "example")]
    files: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.example {
        let info = Summary::Motion(summarise(crate::input::example()));
        emit(&mut out, &Ok(info), args.json, true)?;
        out.flush()?;
        return Ok(Outcome::Success);
    }
    let files = expand_inputs(&args.files)?;
    let mut outcome = Outcome::Success;
    let mut first = true;
    for_each_ordered(
        &files,
        |path| read_summary(path, args.lenient).map_err(|e| (path.display().to_string(), e)),
        |_, result| {
            if result.is_err() {
                outcome = Outcome::Failed;
            }
            emit(&mut out, &result, args.json, first)?;
            first = false;
            // Flush per file so output streams and interleaves sanely with stderr.
            out.flush()?;
            Ok(())
        },
    )?;
    Ok(outcome)
}

/// What `info` reports of one input.
pub enum Summary {
    Motion(Info),
    Model { path: String, model: Box<Model> },
    Pose { path: String, bytes: u64, pose: VpdPose },
}

/// Reads one input of any kind and summarises it.
fn read_summary(path: &std::path::Path, lenient: bool) -> Result<Summary, LoadError> {
    let label = path.display().to_string();
    let failed = |message: String| LoadError { message, suggest_lenient: false };
    match InputKind::of(path) {
        InputKind::Model => match crate::input::read_model(path) {
            Ok(model) => Ok(Summary::Model { path: label, model: Box::new(model) }),
            Err(e) => Err(failed(e.to_string())),
        },
        InputKind::Pose => match read_pose(path) {
            Ok(pose) => {
                let bytes = crate::input::input_size(path);
                Ok(Summary::Pose { path: label, bytes, pose })
            }
            Err(e) => Err(failed(e.to_string())),
        },
        // Only what the trailing-bytes warning shows: a file padded with gigabytes is
        // summarised without reading the padding.
        InputKind::Motion => read_motion(path, None, lenient, TRAILING_PREVIEW)
            .map(|l| Summary::Motion(summarise(l))),
    }
}

/// The summary of one motion; also the `--json` object.
#[derive(Serialize)]
pub struct Info {
    path: String,
    bytes: u64,
    version: u8,
    model_name: String,
    encoding: &'static str,
    /// Whether the model name is カメラ・照明, which makes MMD load the file as camera motion.
    camera_motion: bool,
    counts: Counts,
    sections_present: Vec<&'static str>,
    frame_range: Option<[u32; 2]>,
    duration_seconds: Option<f64>,
    trailing_bytes: u64,
    bones: Vec<TrackInfo>,
    morphs: Vec<TrackInfo>,
    warnings: Vec<Warning>,
}

#[derive(Serialize)]
struct Counts {
    bone: usize,
    morph: usize,
    camera: usize,
    light: usize,
    self_shadow: usize,
    property: usize,
}

#[derive(Serialize)]
struct TrackInfo {
    name: String,
    keys: usize,
    frames: [u32; 2],
}

fn track_info(track: &NameSummary, encoding: TextEncoding) -> TrackInfo {
    TrackInfo {
        name: track.name.decode(encoding).text.into_owned(),
        keys: track.keys,
        frames: [track.first_frame, track.last_frame],
    }
}

pub fn summarise(loaded: Loaded) -> Info {
    let Loaded { label, motion, repairs, bytes } = loaded;
    let analysis = analyse(&motion, &repairs);
    let encoding = analysis.encoding;
    let field = motion.header.model_name_field();
    let name_len = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let model_name = encoding.decode(&field[..name_len], name_len == field.len()).text.into_owned();
    let count = |s| motion.count(s);
    Info {
        path: label,
        bytes,
        version: motion.header.version() as u8,
        model_name,
        encoding: encoding.label(),
        camera_motion: motion.header.is_camera_motion(),
        counts: Counts {
            bone: count(Section::Bone),
            morph: count(Section::Morph),
            camera: count(Section::Camera),
            light: count(Section::Light),
            self_shadow: count(Section::SelfShadow),
            property: count(Section::Property),
        },
        sections_present: Section::ALL[..motion.sections_present]
            .iter()
            .map(|s| s.name())
            .collect(),
        frame_range: analysis.frame_range.map(|(a, b)| [a, b]),
        duration_seconds: analysis.frame_range.map(|(_, last)| last as f64 / vmdkit::math::FPS),
        trailing_bytes: motion.trailing.len() as u64 + motion.trailing_omitted,
        bones: analysis.bones.iter().map(|t| track_info(t, encoding)).collect(),
        morphs: analysis.morphs.iter().map(|t| track_info(t, encoding)).collect(),
        warnings: analysis.warnings,
    }
}

type FileResult = Result<Summary, (String, LoadError)>;

fn emit(out: &mut impl Write, result: &FileResult, json: bool, first: bool) -> anyhow::Result<()> {
    match (result, json) {
        (Ok(summary), true) => {
            match summary {
                Summary::Motion(info) => serde_json::to_writer(&mut *out, info)?,
                Summary::Model { path, model } => {
                    serde_json::to_writer(&mut *out, &ModelDoc::new(path, model))?
                }
                Summary::Pose { path, bytes, pose } => {
                    serde_json::to_writer(&mut *out, &PoseFileDoc::new(path, *bytes, pose))?
                }
            }
            writeln!(out)?;
        }
        (Ok(summary), false) => {
            if !first {
                writeln!(out)?;
            }
            // Written whole, then with every control character a file's names may hold
            // escaped, so that none reaches the terminal.
            let mut text = Vec::new();
            match summary {
                Summary::Motion(info) => write_text(&mut text, info)?,
                Summary::Model { path, model } => {
                    write_model(&mut text, &ModelDoc::new(path, model))?
                }
                Summary::Pose { path, bytes, pose } => {
                    write_pose(&mut text, &PoseFileDoc::new(path, *bytes, pose))?
                }
            }
            out.write_all(escape_controls(&String::from_utf8_lossy(&text)).as_bytes())?;
        }
        (Err((path, err)), json) => {
            if json {
                let line = serde_json::json!({
                    "path": path,
                    "error": err.message,
                    "lenient_may_help": err.suggest_lenient,
                });
                writeln!(out, "{line}")?;
            }
            say!("error: {err}");
        }
    }
    Ok(())
}

/// "bone 3, morph 1 (no camera, light sections)": the counts of the sections the file has,
/// then the ones it leaves out.
fn keys_line(info: &Info) -> String {
    let c = &info.counts;
    let counts = [
        ("bone", c.bone),
        ("morph", c.morph),
        ("camera", c.camera),
        ("light", c.light),
        ("self_shadow", c.self_shadow),
        ("property", c.property),
    ];
    let (present, absent) = counts.split_at(info.sections_present.len());
    let mut line = if present.is_empty() {
        "none".to_string()
    } else {
        present.iter().map(|(name, n)| format!("{name} {n}")).collect::<Vec<_>>().join(", ")
    };
    if !absent.is_empty() {
        let names: Vec<&str> = absent.iter().map(|(name, _)| *name).collect();
        let plural = if absent.len() == 1 { "" } else { "s" };
        line += &format!(" (no {} section{plural})", names.join(", "));
    }
    line
}

fn write_text(out: &mut impl Write, info: &Info) -> std::io::Result<()> {
    writeln!(out, "{}", info.path)?;
    writeln!(out, "  version   {} ({} bytes)", info.version, info.bytes)?;
    let camera = if info.camera_motion { ", a camera/light motion" } else { "" };
    writeln!(out, "  model     {:?} ({}{camera})", shown(&info.model_name), info.encoding)?;
    writeln!(out, "  keys      {}", keys_line(info))?;
    match (info.frame_range, info.duration_seconds) {
        (Some([first, last]), Some(secs)) => {
            writeln!(out, "  frames    {first} to {last} ({secs:.2} s at 30 fps)")?
        }
        _ => writeln!(out, "  frames    none")?,
    }
    if info.trailing_bytes > 0 {
        writeln!(out, "  trailing  {} bytes", info.trailing_bytes)?;
    }
    for (what, tracks) in [("bones", &info.bones), ("morphs", &info.morphs)] {
        if tracks.is_empty() {
            continue;
        }
        let names = if tracks.len() == 1 { "name" } else { "names" };
        writeln!(out, "  {what:<9} {} {names}", tracks.len())?;
        for t in tracks {
            // Names last: their display width varies (CJK), the numbers line up before them.
            let keys = format!("{} key{}", t.keys, if t.keys == 1 { "" } else { "s" });
            let frames = format!("{}..{}", t.frames[0], t.frames[1]);
            writeln!(out, "    {keys:>14}  {frames:<12}  {}", shown(&t.name))?;
        }
    }
    if info.warnings.is_empty() {
        writeln!(out, "  warnings  none")?;
    } else {
        writeln!(out, "  warnings ({}):", info.warnings.len())?;
        for w in &info.warnings {
            writeln!(out, "    {}: {}", w.kind.name(), w.message)?;
        }
    }
    Ok(())
}
