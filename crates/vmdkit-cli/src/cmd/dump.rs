//! `vmdkit dump`: every keyframe of a motion, one per line, as text or JSON.
//!
//! Keys are listed in file order with their index in the section (`#3` is the record an error
//! message calls "record 3"). Curves are shown as MMD's (x1, y1, x2, y2) control points, read
//! from each curve's own row of the interpolation block.

use crate::error::{usage, Outcome};
use crate::io::{self, Format, Loaded};
use clap::ValueEnum;
use serde::Serialize;
use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use vmdkit::angles::quat_to_mmd_euler_deg;
use vmdkit::curve::Curve;
use vmdkit::format::{
    BoneKey, CameraKey, LightKey, MorphKey, PhysicsToggle, PropertyKey, Section, ShadowKey,
};
use vmdkit::text::{KeyName, TextEncoding};
use vmdkit::Motion;

const AFTER_HELP: &str = "\
Text output: one line per key, in file order, with its index in the section. Curves are
(x1, y1, x2, y2) control points (0-127) for X, Y, Z and rotation (R); camera keys add
distance (D) and view angle (V). Rotations are quaternions (x, y, z, w) as stored; with
--euler they are the X, Y, Z degrees MMD's bone panel shows. Camera angles are stored as
Euler angles: --euler shows them in degrees instead of radians, signs as stored.

--json prints one JSON object {path, version, model_name, encoding, sections: {bone: [...],
...}} with one key per line. Only sections with keys are listed unless --section asks.

--name keeps bone and morph keys whose decoded name is NAME exactly.

Examples:
  vmdkit dump --example
  vmdkit dump dance.vmd | less
  vmdkit dump --euler --name 右腕 dance.vmd
  vmdkit dump --json --section camera camera.vmd > camera.json";

/// A section on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SectionArg {
    Bone,
    Morph,
    Camera,
    Light,
    #[value(name = "self_shadow", alias = "shadow", alias = "self-shadow")]
    SelfShadow,
    Property,
}

impl SectionArg {
    fn section(self) -> Section {
        match self {
            SectionArg::Bone => Section::Bone,
            SectionArg::Morph => Section::Morph,
            SectionArg::Camera => Section::Camera,
            SectionArg::Light => Section::Light,
            SectionArg::SelfShadow => Section::SelfShadow,
            SectionArg::Property => Section::Property,
        }
    }
}

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// One JSON object, one key per line
    #[arg(long)]
    json: bool,
    /// Show rotations as the X, Y, Z degrees MMD's panel shows
    #[arg(long)]
    euler: bool,
    /// Only these sections (repeat or separate with commas)
    #[arg(long, value_enum, value_delimiter = ',', value_name = "SECTION")]
    section: Vec<SectionArg>,
    /// Only bone and morph keys with this name
    #[arg(long)]
    name: Option<String>,
    /// Read a damaged file leniently; repairs are reported on stderr
    #[arg(long)]
    lenient: bool,
    /// Dump the built-in example motion instead of a file
    #[arg(long, conflicts_with = "file")]
    example: bool,
    /// A motion file (.vmd, or .json/.csv as written by `vmdkit convert`), or - for a VMD on stdin
    #[arg(value_name = "FILE", required_unless_present = "example")]
    file: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let sections: Vec<Section> = if !args.section.is_empty() {
        let named = [Section::Bone, Section::Morph];
        let chosen: Vec<Section> = args.section.iter().map(|s| s.section()).collect();
        if args.name.is_some() && chosen.iter().any(|s| !named.contains(s)) {
            return Err(usage("--name applies to the bone and morph sections only"));
        }
        chosen
    } else if args.name.is_some() {
        vec![Section::Bone, Section::Morph]
    } else {
        Vec::new()
    };
    let loaded = match &args.file {
        Some(path) if !args.example => {
            let format = Format::from_path(path).unwrap_or(Format::Vmd);
            io::read_motion(path, format, args.lenient)?
        }
        _ => io::example(),
    };
    for repair in &loaded.repairs {
        eprintln!("warning: {}: repaired by lenient reading: {repair}", loaded.label);
    }
    let ctx = Context {
        encoding: loaded.motion.detect_encoding(),
        euler: args.euler,
        name: args.name.clone(),
    };
    // Without --section, sections with keys; with it, exactly those asked for.
    let explicit = !sections.is_empty();
    let sections: Vec<Section> = if explicit {
        sections
    } else {
        Section::ALL.into_iter().filter(|&s| loaded.motion.count(s) > 0).collect()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let shown = if args.json {
        write_json(&mut out, &loaded, &sections, &ctx)?
    } else {
        write_text(&mut out, &loaded, &sections, &ctx)?
    };
    out.flush()?;
    if let (Some(name), 0) = (&args.name, shown) {
        eprintln!("note: no bone or morph keys named {name:?} in {}", loaded.label);
    }
    Ok(Outcome::Success)
}

struct Context {
    encoding: TextEncoding,
    euler: bool,
    name: Option<String>,
}

impl Context {
    fn text<'a>(&self, name: &'a KeyName) -> Cow<'a, str> {
        name.decode(self.encoding).text
    }

    fn keep(&self, name: &KeyName) -> bool {
        self.name.as_deref().is_none_or(|wanted| self.text(name) == wanted)
    }
}

/// Keys of a bone or morph section that pass the name filter, with their indexes.
fn filtered<'a, K>(
    keys: &'a [K],
    ctx: &'a Context,
    name: impl Fn(&K) -> &KeyName + 'a,
) -> impl Iterator<Item = (usize, &'a K)> + 'a {
    keys.iter().enumerate().filter(move |(_, k)| ctx.keep(name(k)))
}

fn write_text(
    out: &mut impl Write,
    loaded: &Loaded,
    sections: &[Section],
    ctx: &Context,
) -> anyhow::Result<usize> {
    let m = &loaded.motion;
    writeln!(
        out,
        "{}: version {}, model {:?} ({})",
        loaded.label,
        m.header.version() as u8,
        m.header.model_name.decode(ctx.encoding).text,
        ctx.encoding.label()
    )?;
    writeln!(out, "curves are (x1, y1, x2, y2), 0-127")?;
    let mut shown = 0;
    for &section in sections {
        let total = m.count(section);
        writeln!(out)?;
        // Lines are written as they are made: a 200 MB motion has millions of them.
        let mut lines = |out: &mut dyn Write, keys: &mut dyn Iterator<Item = (usize, String)>| {
            for (i, line) in keys {
                writeln!(out, "  #{i} {line}")?;
                shown += 1;
            }
            std::io::Result::Ok(())
        };
        match section {
            Section::Bone | Section::Morph => {
                let named = |k: &KeyName| ctx.keep(k);
                let matching = match section {
                    Section::Bone => m.bones.iter().filter(|k| named(&k.name)).count(),
                    _ => m.morphs.iter().filter(|k| named(&k.name)).count(),
                };
                match &ctx.name {
                    Some(name) => {
                        writeln!(out, "{section}: {matching} of {total} keys named {name:?}")?
                    }
                    None => writeln!(out, "{section}: {}", plural_keys(total))?,
                }
                if section == Section::Bone {
                    let mut keys =
                        filtered(&m.bones, ctx, |k| &k.name).map(|(i, k)| (i, bone_text(k, ctx)));
                    lines(out, &mut keys)?;
                } else {
                    let mut keys =
                        filtered(&m.morphs, ctx, |k| &k.name).map(|(i, k)| (i, morph_text(k, ctx)));
                    lines(out, &mut keys)?;
                }
            }
            Section::Camera => {
                writeln!(out, "{section}: {}", plural_keys(total))?;
                lines(out, &mut m.cameras.iter().map(|k| camera_text(k, ctx)).enumerate())?;
            }
            Section::Light => {
                writeln!(out, "{section}: {}", plural_keys(total))?;
                lines(out, &mut m.lights.iter().map(light_text).enumerate())?;
            }
            Section::SelfShadow => {
                writeln!(out, "{section}: {}", plural_keys(total))?;
                lines(out, &mut m.shadows.iter().map(shadow_text).enumerate())?;
            }
            Section::Property => {
                writeln!(out, "{section}: {}", plural_keys(total))?;
                lines(out, &mut m.properties.iter().map(|k| property_text(k, ctx)).enumerate())?;
            }
            // A section this version does not know has nothing to show.
            _ => {}
        }
    }
    Ok(shown)
}

fn plural_keys(n: usize) -> String {
    format!("{n} key{}", if n == 1 { "" } else { "s" })
}

/// Shortest exact f32 forms: the text shows the stored numbers, not rounded ones.
fn v3(v: glam::Vec3) -> String {
    format!("({}, {}, {})", v.x, v.y, v.z)
}

/// Degrees to a thousandth, without "-0.000".
fn deg(v: f64) -> f64 {
    let r = (v * 1000.0).round() / 1000.0;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

fn deg3(v: [f64; 3]) -> String {
    format!("({:.3}, {:.3}, {:.3})", deg(v[0]), deg(v[1]), deg(v[2]))
}

fn curve(c: Curve) -> String {
    format!("({}, {}, {}, {})", c.x1, c.y1, c.x2, c.y2)
}

fn euler_of(q: glam::Quat) -> [f64; 3] {
    quat_to_mmd_euler_deg(q).as_dvec3().to_array().map(deg)
}

/// The physics toggle worth showing: off, or bytes that are neither on nor the unmodified
/// curve copy older writers leave (which players read as on).
fn physics_note(k: &BoneKey) -> Option<PhysicsToggle> {
    let block = &k.interpolation.0;
    match k.interpolation.physics() {
        PhysicsToggle::On => None,
        PhysicsToggle::Unknown(a, b) if (a, b) == (block[17], block[18]) => None,
        other => Some(other),
    }
}

fn bone_text(k: &BoneKey, ctx: &Context) -> String {
    let q = k.rotation;
    let rot = if ctx.euler {
        format!("rot° {}", deg3(euler_of(q)))
    } else {
        format!("rot ({}, {}, {}, {})", q.x, q.y, q.z, q.w)
    };
    let [x, y, z, r] = k.interpolation.curves().map(curve);
    let physics = match physics_note(k) {
        None => String::new(),
        Some(PhysicsToggle::Off) => " physics off".to_string(),
        // The toggle is bytes 2-3 of the block, whatever variant they read as.
        Some(_) => format!(" physics bytes {:?}", (k.interpolation.0[2], k.interpolation.0[3])),
    };
    format!(
        "frame {} {:?} pos {} {rot} X {x} Y {y} Z {z} R {r}{physics}",
        k.frame,
        ctx.text(&k.name),
        v3(k.translation)
    )
}

fn morph_text(k: &MorphKey, ctx: &Context) -> String {
    format!("frame {} {:?} weight {}", k.frame, ctx.text(&k.name), k.weight)
}

fn camera_text(k: &CameraKey, ctx: &Context) -> String {
    let rot = if ctx.euler {
        format!("rot° {}", deg3(k.rotation.as_dvec3().to_array().map(f64::to_degrees)))
    } else {
        format!("rot {}", v3(k.rotation))
    };
    let [x, y, z, r, d, v] = k.interpolation.curves().map(curve);
    let projection = if k.is_perspective() { "perspective" } else { "orthographic" };
    format!(
        "frame {} distance {} target {} {rot} view_angle {} {projection} X {x} Y {y} Z {z} R {r} D {d} V {v}",
        k.frame,
        k.distance,
        v3(k.target),
        k.view_angle
    )
}

fn light_text(k: &LightKey) -> String {
    // The UI's 0-255 colour is the stored value × 256.
    let ui = (k.color * 256.0).round();
    format!(
        "frame {} color {} (UI {}, {}, {}) direction {}",
        k.frame,
        v3(k.color),
        ui.x,
        ui.y,
        ui.z,
        v3(k.direction)
    )
}

fn shadow_text(k: &ShadowKey) -> String {
    let mode = match k.mode {
        0 => "off".to_string(),
        1 => "mode 1".to_string(),
        2 => "mode 2".to_string(),
        n => format!("mode {n} (unknown)"),
    };
    // Stored as (10000 − L) / 100000 for the UI's shadow range L.
    let range = 10000.0 - k.distance as f64 * 100000.0;
    format!("frame {} {mode} distance {} (range {:.0})", k.frame, k.distance, range)
}

fn property_text(k: &PropertyKey, ctx: &Context) -> String {
    let mut line =
        format!("frame {} {}", k.frame, if k.is_visible() { "visible" } else { "hidden" });
    for ik in &k.ik {
        let state = if ik.is_enabled() { "on" } else { "off" };
        line += &format!(" {:?} {state}", ik.name.decode(ctx.encoding).text);
    }
    line
}

// ---- JSON ----

#[derive(Serialize)]
struct Curves4 {
    x: [u8; 4],
    y: [u8; 4],
    z: [u8; 4],
    rotation: [u8; 4],
}

fn c4(c: Curve) -> [u8; 4] {
    [c.x1, c.y1, c.x2, c.y2]
}

#[derive(Serialize)]
struct BoneJson<'a> {
    index: usize,
    frame: u32,
    name: Cow<'a, str>,
    translation: [f32; 3],
    rotation: [f32; 4],
    #[serde(skip_serializing_if = "Option::is_none")]
    euler_deg: Option<[f64; 3]>,
    curves: Curves4,
    physics: PhysicsToggle,
}

#[derive(Serialize)]
struct MorphJson<'a> {
    index: usize,
    frame: u32,
    name: Cow<'a, str>,
    weight: f32,
}

#[derive(Serialize)]
struct CameraCurves {
    x: [u8; 4],
    y: [u8; 4],
    z: [u8; 4],
    rotation: [u8; 4],
    distance: [u8; 4],
    view_angle: [u8; 4],
}

#[derive(Serialize)]
struct CameraJson {
    index: usize,
    frame: u32,
    distance: f32,
    target: [f32; 3],
    rotation: [f32; 3],
    #[serde(skip_serializing_if = "Option::is_none")]
    rotation_deg: Option<[f64; 3]>,
    curves: CameraCurves,
    view_angle: u32,
    perspective: bool,
}

#[derive(Serialize)]
struct LightJson {
    index: usize,
    frame: u32,
    color: [f32; 3],
    direction: [f32; 3],
}

#[derive(Serialize)]
struct ShadowJson {
    index: usize,
    frame: u32,
    mode: u8,
    distance: f32,
}

#[derive(Serialize)]
struct IkJson<'a> {
    name: Cow<'a, str>,
    enabled: bool,
}

#[derive(Serialize)]
struct PropertyJson<'a> {
    index: usize,
    frame: u32,
    visible: bool,
    ik: Vec<IkJson<'a>>,
}

/// Streams the JSON document key by key, so a large motion is never built as one value.
fn write_json(
    out: &mut impl Write,
    loaded: &Loaded,
    sections: &[Section],
    ctx: &Context,
) -> anyhow::Result<usize> {
    let m: &Motion = &loaded.motion;
    #[derive(Serialize)]
    struct Head<'a> {
        path: &'a str,
        version: u8,
        model_name: Cow<'a, str>,
        encoding: &'static str,
    }
    let head = serde_json::to_string(&Head {
        path: &loaded.label,
        version: m.header.version() as u8,
        model_name: m.header.model_name.decode(ctx.encoding).text,
        encoding: ctx.encoding.label(),
    })?;
    // Reopen the object to append the sections, which are streamed.
    write!(out, "{},\"sections\":{{", &head[..head.len() - 1])?;
    let mut shown = 0;
    for (n, &section) in sections.iter().enumerate() {
        write!(out, "{}\n\"{section}\":[", if n == 0 { "" } else { "," })?;
        let mut first = true;
        let mut item = |out: &mut dyn Write, value: &dyn erased::Json| -> anyhow::Result<()> {
            out.write_all(if first { b"\n" } else { b",\n" })?;
            first = false;
            value.write(out)?;
            shown += 1;
            Ok(())
        };
        match section {
            Section::Bone => {
                for (index, k) in filtered(&m.bones, ctx, |k| &k.name) {
                    let [x, y, z, r] = k.interpolation.curves().map(c4);
                    let q = k.rotation;
                    let json = BoneJson {
                        index,
                        frame: k.frame,
                        name: ctx.text(&k.name),
                        translation: k.translation.to_array(),
                        rotation: [q.x, q.y, q.z, q.w],
                        euler_deg: ctx.euler.then(|| euler_of(q)),
                        curves: Curves4 { x, y, z, rotation: r },
                        physics: k.interpolation.physics(),
                    };
                    item(out, &json)?;
                }
            }
            Section::Morph => {
                for (index, k) in filtered(&m.morphs, ctx, |k| &k.name) {
                    item(
                        out,
                        &MorphJson {
                            index,
                            frame: k.frame,
                            name: ctx.text(&k.name),
                            weight: k.weight,
                        },
                    )?;
                }
            }
            Section::Camera => {
                for (index, k) in m.cameras.iter().enumerate() {
                    let [x, y, z, rotation, distance, view_angle] =
                        k.interpolation.curves().map(c4);
                    let json = CameraJson {
                        index,
                        frame: k.frame,
                        distance: k.distance,
                        target: k.target.to_array(),
                        rotation: k.rotation.to_array(),
                        rotation_deg: ctx
                            .euler
                            .then(|| k.rotation.as_dvec3().to_array().map(|r| deg(r.to_degrees()))),
                        curves: CameraCurves { x, y, z, rotation, distance, view_angle },
                        view_angle: k.view_angle,
                        perspective: k.is_perspective(),
                    };
                    item(out, &json)?;
                }
            }
            Section::Light => {
                for (index, k) in m.lights.iter().enumerate() {
                    let json = LightJson {
                        index,
                        frame: k.frame,
                        color: k.color.to_array(),
                        direction: k.direction.to_array(),
                    };
                    item(out, &json)?;
                }
            }
            Section::SelfShadow => {
                for (index, k) in m.shadows.iter().enumerate() {
                    item(
                        out,
                        &ShadowJson { index, frame: k.frame, mode: k.mode, distance: k.distance },
                    )?;
                }
            }
            Section::Property => {
                for (index, k) in m.properties.iter().enumerate() {
                    let ik =
                        k.ik.iter()
                            .map(|ik| IkJson {
                                name: ik.name.decode(ctx.encoding).text,
                                enabled: ik.is_enabled(),
                            })
                            .collect();
                    item(
                        out,
                        &PropertyJson { index, frame: k.frame, visible: k.is_visible(), ik },
                    )?;
                }
            }
            // A section this version does not know has no keys to list.
            _ => {}
        }
        write!(out, "{}]", if first { "" } else { "\n" })?;
    }
    writeln!(out, "}}}}")?;
    Ok(shown)
}

/// Serialising different record types through one closure.
mod erased {
    pub trait Json {
        fn write(&self, out: &mut dyn std::io::Write) -> serde_json::Result<()>;
    }

    impl<T: serde::Serialize> Json for T {
        fn write(&self, out: &mut dyn std::io::Write) -> serde_json::Result<()> {
            serde_json::to_writer(out, self)
        }
    }
}
