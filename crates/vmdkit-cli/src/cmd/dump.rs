//! `vmdkit dump`: every keyframe of a motion, one per line, as text or JSON.
//!
//! Keys are listed in file order with their index in the section (`#3` is the record an error
//! message calls "record 3"). Curves are shown as MMD's (x1, y1, x2, y2) control points, read
//! from each curve's own row of the interpolation block.

use crate::error::{usage, Outcome};
use crate::input::{self, Loaded};
use crate::output::Num;
use crate::report::{entries, kept, panel_euler_deg, round_deg, KeyOptions, ListingHead};
use clap::ValueEnum;
use std::io::Write;
use std::path::PathBuf;
use vmdkit::Curve;
use vmdkit::Motion;
use vmdkit::{
    BoneKey, CameraKey, LightKey, MorphKey, PhysicsToggle, PropertyKey, Section, ShadowKey,
};

const AFTER_HELP: &str = "\
Text output: one line per key, in file order, with its index in the section. Curves are
(x1, y1, x2, y2) control points (0-127) for X, Y, Z and rotation (R); camera keys add
distance (D) and view angle (V). Rotations are quaternions (x, y, z, w) as stored; with
--euler they are the X, Y, Z degrees MMD's bone panel shows. Camera angles are stored as
Euler angles: --euler shows them in degrees instead of radians, signs as stored.

--json prints one JSON object {path, version, model_name, encoding, sections: {bone: [...],
...}} with one key per line. Only sections with keys are listed unless --section asks.

--name keeps bone and morph keys whose decoded name is NAME exactly.

A VPD pose (.vpd) is listed as the motion it makes: one bone key per bone and one morph key
per morph, at frame 0, with linear curves.

Examples:
  vmdkit dump --example
  vmdkit dump dance.vmd | less
  vmdkit dump --euler --name 右腕 dance.vmd
  vmdkit dump --json --section camera camera.vmd > camera.json
  vmdkit dump --euler pose.vpd
  vmdkit convert dance.vmd -o - --to csv | vmdkit dump -";

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
    #[arg(long, conflicts_with = "example")]
    lenient: bool,
    /// Dump the built-in example motion instead of a file
    #[arg(long, conflicts_with = "file")]
    example: bool,
    /// A motion file (.vmd, or .json/.csv as written by `vmdkit convert`), a VPD pose, or - for
    /// stdin
    #[arg(value_name = "FILE", required_unless_present = "example")]
    file: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let sections = asked_sections(&args)?;
    let loaded = match &args.file {
        Some(path) if !args.example => {
            crate::input::load_motion_or_pose(path, args.lenient, input::NO_TRAILING)?
        }
        _ => input::example(),
    };
    let options = KeyOptions {
        euler: args.euler,
        name: args.name.as_deref(),
        ..KeyOptions::new(loaded.motion.detect_encoding())
    };
    // Without --section, sections with keys; with it, exactly those asked for.
    let sections: Vec<Section> = if !sections.is_empty() {
        sections
    } else {
        Section::ALL.into_iter().filter(|&s| loaded.motion.count(s) > 0).collect()
    };
    let listing = Listing { loaded: &loaded, sections: &sections, options: &options };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let shown = if args.json {
        listing.json(&mut out)?
    } else {
        let mut text = crate::terminal::Escaping::new(&mut out);
        let shown = listing.text(&mut text)?;
        text.flush()?;
        shown
    };
    out.flush()?;
    if let (Some(name), 0) = (&args.name, shown) {
        say!("note: no bone or morph keys named {name:?} in {}", loaded.label);
    }
    Ok(Outcome::Success)
}

/// The sections `--section` names (none: every section with keys), or with only `--name` the
/// bone and morph sections.
fn asked_sections(args: &Args) -> anyhow::Result<Vec<Section>> {
    if args.section.is_empty() {
        let named = args.name.is_some();
        return Ok(if named { vec![Section::Bone, Section::Morph] } else { Vec::new() });
    }
    let chosen: Vec<Section> = args.section.iter().map(|s| s.section()).collect();
    if args.name.is_some() && chosen.iter().any(|s| !matches!(s, Section::Bone | Section::Morph)) {
        return Err(usage("--name applies to the bone and morph sections only"));
    }
    if args.euler && !chosen.iter().any(|s| matches!(s, Section::Bone | Section::Camera)) {
        return Err(usage(
            "--euler shows bone and camera rotations, and the sections asked for have none",
        ));
    }
    Ok(chosen)
}

/// What to list; each writer returns how many keys it showed.
struct Listing<'a> {
    loaded: &'a Loaded,
    sections: &'a [Section],
    options: &'a KeyOptions<'a>,
}

impl Listing<'_> {
    /// The readable listing: a head line, then per section a title and one line per key.
    fn text(&self, out: &mut impl Write) -> anyhow::Result<usize> {
        let (loaded, sections, options) = (self.loaded, self.sections, self.options);
        let m = &loaded.motion;
        writeln!(
            out,
            "{}: version {}, model {:?} ({})",
            loaded.label,
            m.header.version() as u8,
            m.header.model_name.decode(options.encoding).text,
            options.encoding.label()
        )?;
        writeln!(out, "curves are (x1, y1, x2, y2), 0-127")?;
        let mut shown = 0;
        for &section in sections {
            writeln!(out)?;
            writeln!(out, "{section}: {}", section_title(m, section, options))?;
            // Lines are written as they are made: a 200 MB motion has millions of them.
            for (i, line) in key_lines(m, section, options) {
                writeln!(out, "  #{i} {line}")?;
                shown += 1;
            }
        }
        Ok(shown)
    }

    /// Streams the JSON document key by key, so a large motion is never built as one value:
    /// the head's members, then `sections` with one key per line.
    fn json(&self, out: &mut impl Write) -> anyhow::Result<usize> {
        let (loaded, sections, options) = (self.loaded, self.sections, self.options);
        let m = &loaded.motion;
        let head = serde_json::to_string(&ListingHead::new(&loaded.label, m, options.encoding))?;
        // Reopen the object to append the sections, which are streamed.
        write!(out, "{},\"sections\":{{", &head[..head.len() - 1])?;
        let mut shown = 0;
        for (n, &section) in sections.iter().enumerate() {
            write!(out, "{}\n\"{section}\":[", if n == 0 { "" } else { "," })?;
            let mut first = true;
            for entry in entries(m, section, options) {
                out.write_all(if first { b"\n" } else { b",\n" })?;
                first = false;
                serde_json::to_writer(&mut *out, &entry)?;
                shown += 1;
            }
            write!(out, "{}]", if first { "" } else { "\n" })?;
        }
        writeln!(out, "}}}}")?;
        Ok(shown)
    }
}

/// Each kept key of `section` as its index and text line.
fn key_lines<'a>(
    m: &'a Motion,
    section: Section,
    options: &'a KeyOptions<'a>,
) -> Box<dyn Iterator<Item = (usize, String)> + 'a> {
    match section {
        Section::Bone => {
            Box::new(kept(&m.bones, options, |k| &k.name).map(|(i, k)| (i, bone_text(k, options))))
        }
        Section::Morph => Box::new(
            kept(&m.morphs, options, |k| &k.name).map(|(i, k)| (i, morph_text(k, options))),
        ),
        Section::Camera => Box::new(m.cameras.iter().map(|k| camera_text(k, options)).enumerate()),
        Section::Light => Box::new(m.lights.iter().map(light_text).enumerate()),
        Section::SelfShadow => Box::new(m.shadows.iter().map(shadow_text).enumerate()),
        Section::Property => {
            Box::new(m.properties.iter().map(|k| property_text(k, options)).enumerate())
        }
        // A section this version does not know has nothing to show.
        _ => Box::new(std::iter::empty()),
    }
}

/// "3 keys", or with `--name` for bones and morphs "1 of 3 keys named "NAME"".
fn section_title(m: &Motion, section: Section, options: &KeyOptions) -> String {
    let total = m.count(section);
    let matching = match section {
        Section::Bone => kept(&m.bones, options, |k| &k.name).count(),
        Section::Morph => kept(&m.morphs, options, |k| &k.name).count(),
        _ => return plural_keys(total),
    };
    match options.name {
        Some(name) => format!("{matching} of {total} keys named {name:?}"),
        None => plural_keys(total),
    }
}

fn plural_keys(n: usize) -> String {
    format!("{n} key{}", if n == 1 { "" } else { "s" })
}

/// Shortest exact f32 forms: the text shows the stored numbers, not rounded ones.
fn v3(v: glam::Vec3) -> String {
    format!("({}, {}, {})", Num(v.x), Num(v.y), Num(v.z))
}

fn deg3(v: [f64; 3]) -> String {
    format!("({:.3}, {:.3}, {:.3})", round_deg(v[0]), round_deg(v[1]), round_deg(v[2]))
}

fn curve(c: Curve) -> String {
    format!("({}, {}, {}, {})", c.x1, c.y1, c.x2, c.y2)
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

fn bone_text(k: &BoneKey, options: &KeyOptions) -> String {
    let q = k.rotation;
    let rot = if options.euler {
        format!("rot° {}", deg3(panel_euler_deg(q)))
    } else {
        format!("rot ({}, {}, {}, {})", Num(q.x), Num(q.y), Num(q.z), Num(q.w))
    };
    let [x, y, z, r] = k.interpolation.curves().map(curve);
    let physics = match physics_note(k) {
        None => String::new(),
        Some(PhysicsToggle::Off) => " physics off".to_string(),
        Some(_) => format!(" physics bytes {:?}", (k.interpolation.0[2], k.interpolation.0[3])),
    };
    format!(
        "frame {} {:?} pos {} {rot} X {x} Y {y} Z {z} R {r}{physics}",
        k.frame,
        options.text(&k.name),
        v3(k.translation)
    )
}

fn morph_text(k: &MorphKey, options: &KeyOptions) -> String {
    format!("frame {} {:?} weight {}", k.frame, options.text(&k.name), Num(k.weight))
}

fn camera_text(k: &CameraKey, options: &KeyOptions) -> String {
    let rot = if options.euler {
        format!("rot° {}", deg3(k.rotation.as_dvec3().to_array().map(f64::to_degrees)))
    } else {
        format!("rot {}", v3(k.rotation))
    };
    let [x, y, z, r, d, v] = k.interpolation.curves().map(curve);
    let projection = if k.is_perspective() { "perspective" } else { "orthographic" };
    format!(
        "frame {} distance {} target {} {rot} view_angle {} {projection} X {x} Y {y} Z {z} R {r} D {d} V {v}",
        k.frame,
        Num(k.distance),
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
        Num(ui.x),
        Num(ui.y),
        Num(ui.z),
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
    format!("frame {} {mode} distance {} (range {:.0})", k.frame, Num(k.distance), range + 0.0)
}

fn property_text(k: &PropertyKey, options: &KeyOptions) -> String {
    let mut line =
        format!("frame {} {}", k.frame, if k.is_visible() { "visible" } else { "hidden" });
    for ik in &k.ik {
        let state = if ik.is_enabled() { "on" } else { "off" };
        line += &format!(" {:?} {state}", ik.name.decode(options.encoding).text);
    }
    line
}
