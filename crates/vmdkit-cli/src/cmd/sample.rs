//! `vmdkit sample`: what a motion says at one time, as MMD plays it (see `vmdkit::eval`).

use crate::io::{self, Format};
use anyhow::Context;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use vmdkit::eval::{BoneSample, CameraSample, LightSample, MotionSampler};
use vmdkit::text::{KeyName, RawName, TextEncoding};

const AFTER_HELP: &str = "\
Times are frames at 30 fps and may have fractions (--frame 12.5). Before a track's first key
and after its last, the end key's value holds. Bone translations are offsets from the rest
position, rotations quaternions (x, y, z, w) in MMD's left-handed axes.

Examples:
  vmdkit sample dance.vmd --frame 120
  vmdkit sample dance.vmd --frame 12.5 --bone 右腕 --json
  vmdkit sample camera.vmd --frame 300 --camera";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct SampleArgs {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The time, as a frame number at 30 fps (fractions allowed)
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub frame: f64,
    /// Only this bone (its name as `vmdkit info` shows it)
    #[arg(long, value_name = "NAME", conflicts_with_all = ["morph", "camera", "light"])]
    pub bone: Option<String>,
    /// Only this morph
    #[arg(long, value_name = "NAME", conflicts_with_all = ["camera", "light"])]
    pub morph: Option<String>,
    /// Only the camera, with its eye position and viewing directions
    #[arg(long, conflicts_with = "light")]
    pub camera: bool,
    /// Only the light
    #[arg(long)]
    pub light: bool,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
}

pub fn run(args: &SampleArgs) -> anyhow::Result<()> {
    if !args.frame.is_finite() {
        return Err(crate::error::usage(format!("--frame must be a number, not {}", args.frame)));
    }
    let format = Format::from_path(&args.file).unwrap_or(Format::Vmd);
    let loaded = io::read_motion(&args.file, format, args.lenient)?;
    for repair in &loaded.repairs {
        eprintln!("warning: {}: repaired by lenient reading: {repair}", loaded.label);
    }
    let motion = &loaded.motion;
    let sampler = MotionSampler::new(motion);
    if !sampler.duplicates().is_empty() {
        eprintln!(
            "warning: {}: {} keys share a name and frame with a later key; the later one is used",
            loaded.label,
            sampler.duplicates().len()
        );
    }
    let names = Names { encoding: motion.detect_encoding() };
    let t = args.frame;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    if let Some(name) = &args.bone {
        let track = names
            .find(sampler.bone_tracks().iter().map(|t| t.name()), name)
            .map(|i| &sampler.bone_tracks()[i])
            .with_context(|| {
                format!("{}: no bone named {name:?} (`vmdkit info` lists them)", loaded.label)
            })?;
        let s = track.sample(t);
        if args.json {
            let doc = BoneDoc {
                frame: t,
                bone: name,
                translation: s.translation.to_array(),
                rotation: s.rotation.to_array(),
            };
            write_json(&mut out, &doc)?;
        } else {
            writeln!(out, "frame {t}")?;
            write_bone(&mut out, name, &s)?;
        }
    } else if let Some(name) = &args.morph {
        let track = names
            .find(sampler.morph_tracks().iter().map(|t| t.name()), name)
            .map(|i| &sampler.morph_tracks()[i])
            .with_context(|| {
                format!("{}: no morph named {name:?} (`vmdkit info` lists them)", loaded.label)
            })?;
        let weight = track.sample(t);
        if args.json {
            write_json(&mut out, &MorphDoc { frame: t, morph: name, weight })?;
        } else {
            writeln!(out, "frame {t}\n{name}  weight {weight}")?;
        }
    } else if args.camera || args.light {
        let camera = args.camera.then(|| sampler.sample_camera(t));
        let light = args.light.then(|| sampler.sample_light(t));
        if args.json {
            let doc = AllDoc {
                frame: t,
                camera: camera.map(|c| c.map(CameraDoc::from)),
                light: light.map(|l| l.map(LightDoc::from)),
                ..AllDoc::default()
            };
            write_json(&mut out, &doc)?;
        } else {
            writeln!(out, "frame {t}")?;
            match camera {
                Some(Some(c)) => write_camera(&mut out, &c)?,
                Some(None) => writeln!(out, "camera: no camera keys")?,
                None => {}
            }
            match light {
                Some(Some(l)) => writeln!(
                    out,
                    "light  color {:?}  direction {:?}",
                    l.color.to_array(),
                    l.direction.to_array()
                )?,
                Some(None) => writeln!(out, "light: no light keys")?,
                None => {}
            }
        }
    } else {
        write_all(&mut out, &sampler, &names, t, args.json)?;
    }
    out.flush()?;
    Ok(())
}

/// Every track at `t`.
fn write_all(
    out: &mut impl Write,
    sampler: &MotionSampler,
    names: &Names,
    t: f64,
    json: bool,
) -> anyhow::Result<()> {
    let mut playhead = sampler.playhead();
    let mut s = sampler.new_sample();
    sampler.sample_into(&mut playhead, t, &mut s);
    let bone_names = names.unique(sampler.bone_tracks().iter().map(|t| t.name()));
    let morph_names = names.unique(sampler.morph_tracks().iter().map(|t| t.name()));
    let ik_names = names.unique(sampler.ik_tracks().iter().map(|t| t.name()));
    if json {
        let doc = AllDoc {
            frame: t,
            bones: Some(Ordered(
                bone_names
                    .iter()
                    .zip(&s.bones)
                    .map(|(n, b)| (n.as_str(), BoneValue::from(b)))
                    .collect(),
            )),
            morphs: Some(Ordered(
                morph_names.iter().map(String::as_str).zip(s.morphs.iter().copied()).collect(),
            )),
            camera: Some(s.camera.map(CameraDoc::from)),
            light: Some(s.light.map(LightDoc::from)),
            self_shadow: Some(
                s.shadow.map(|sh| ShadowDoc { mode: sh.mode, distance: sh.distance }),
            ),
            visible: Some(s.visible),
            ik: Some(Ordered(
                ik_names.iter().map(String::as_str).zip(s.ik.iter().copied()).collect(),
            )),
        };
        write_json(out, &doc)?;
        return Ok(());
    }
    writeln!(out, "frame {t}")?;
    for (name, b) in bone_names.iter().zip(&s.bones) {
        write_bone(out, name, b)?;
    }
    for (name, w) in morph_names.iter().zip(&s.morphs) {
        writeln!(out, "{name}  weight {w}")?;
    }
    if let Some(c) = &s.camera {
        write_camera(out, c)?;
    }
    if let Some(l) = &s.light {
        writeln!(
            out,
            "light  color {:?}  direction {:?}",
            l.color.to_array(),
            l.direction.to_array()
        )?;
    }
    if let Some(sh) = &s.shadow {
        writeln!(
            out,
            "self-shadow  mode {}  distance {} (range {})",
            sh.mode,
            sh.distance,
            sh.range()
        )?;
    }
    if let Some(v) = s.visible {
        writeln!(out, "visible {v}")?;
    }
    for (name, on) in ik_names.iter().zip(&s.ik) {
        writeln!(out, "IK {name} {}", if *on { "on" } else { "off" })?;
    }
    Ok(())
}

/// One JSON document and a newline. Errors stay `io::Error`s, so that a closed pipe
/// (`vmdkit sample … | head`) is recognised as such.
fn write_json(out: &mut impl Write, doc: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, doc).map_err(std::io::Error::from)?;
    writeln!(out)
}

fn write_bone(out: &mut impl Write, name: &str, s: &BoneSample) -> std::io::Result<()> {
    let e = vmdkit::angles::quat_to_mmd_euler_deg(s.rotation);
    writeln!(
        out,
        "{name}  translation {:?}  rotation {:?}  (MMD panel X {:.3}° Y {:.3}° Z {:.3}°){}",
        s.translation.to_array(),
        s.rotation.to_array(),
        e.x,
        e.y,
        e.z,
        if s.physics.is_on() { "" } else { "  physics off" }
    )
}

fn write_camera(out: &mut impl Write, c: &CameraSample) -> std::io::Result<()> {
    let v = c.view();
    writeln!(
        out,
        "camera  target {:?}  distance {}  rotation {:?} rad  fov {}°  {}\n        eye {:?}  forward {:?}  up {:?}",
        c.target.to_array(),
        c.distance,
        c.rotation.to_array(),
        c.fov,
        if c.perspective { "perspective" } else { "orthographic" },
        v.eye.to_array(),
        v.forward.to_array(),
        v.up.to_array()
    )
}

/// Track names as text in the motion's encoding.
struct Names {
    encoding: TextEncoding,
}

impl Names {
    fn text<const N: usize>(&self, name: &RawName<N>) -> String {
        name.decode(self.encoding).text.into_owned()
    }

    /// The index of the name that reads as `wanted`, or whose bytes are `wanted` encoded (which
    /// also finds a name cut at 15 bytes from its full text).
    fn find<'a>(
        &self,
        names: impl Iterator<Item = &'a KeyName> + Clone,
        wanted: &str,
    ) -> Option<usize> {
        names.clone().position(|n| self.text(n) == wanted).or_else(|| {
            let encoded = KeyName::encode_as(wanted, self.encoding).0;
            names.clone().position(|n| n.bytes() == encoded.bytes())
        })
    }

    /// The names as text, made unique where two raw names read the same (undecodable bytes).
    fn unique<'a, const N: usize>(
        &self,
        names: impl Iterator<Item = &'a RawName<N>>,
    ) -> Vec<String> {
        let mut seen = HashSet::new();
        names
            .map(|n| {
                let text = self.text(n);
                if seen.insert(text.clone()) {
                    return text;
                }
                let hex: String = n.bytes().iter().map(|b| format!("{b:02x}")).collect();
                let unique = format!("{text} [{hex}]");
                seen.insert(unique.clone());
                unique
            })
            .collect()
    }
}

#[derive(serde::Serialize)]
struct BoneDoc<'a> {
    frame: f64,
    bone: &'a str,
    translation: [f32; 3],
    rotation: [f32; 4],
}

#[derive(serde::Serialize)]
struct MorphDoc<'a> {
    frame: f64,
    morph: &'a str,
    weight: f32,
}

#[derive(serde::Serialize)]
struct BoneValue {
    translation: [f32; 3],
    rotation: [f32; 4],
}

impl From<&BoneSample> for BoneValue {
    fn from(s: &BoneSample) -> Self {
        BoneValue { translation: s.translation.to_array(), rotation: s.rotation.to_array() }
    }
}

#[derive(serde::Serialize)]
struct CameraDoc {
    target: [f32; 3],
    distance: f32,
    /// Radians, as stored.
    rotation: [f32; 3],
    fov: f32,
    perspective: bool,
    eye: [f32; 3],
    forward: [f32; 3],
    up: [f32; 3],
}

impl From<CameraSample> for CameraDoc {
    fn from(c: CameraSample) -> Self {
        let v = c.view();
        CameraDoc {
            target: c.target.to_array(),
            distance: c.distance,
            rotation: c.rotation.to_array(),
            fov: c.fov,
            perspective: c.perspective,
            eye: v.eye.to_array(),
            forward: v.forward.to_array(),
            up: v.up.to_array(),
        }
    }
}

#[derive(serde::Serialize)]
struct LightDoc {
    color: [f32; 3],
    direction: [f32; 3],
}

impl From<LightSample> for LightDoc {
    fn from(l: LightSample) -> Self {
        LightDoc { color: l.color.to_array(), direction: l.direction.to_array() }
    }
}

#[derive(serde::Serialize)]
struct ShadowDoc {
    mode: u8,
    distance: f32,
}

/// The whole-motion document; absent members are left out (a present member may be `null`).
#[derive(serde::Serialize, Default)]
struct AllDoc<'a> {
    frame: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    bones: Option<Ordered<'a, BoneValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    morphs: Option<Ordered<'a, f32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    camera: Option<Option<CameraDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    light: Option<Option<LightDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    self_shadow: Option<Option<ShadowDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    visible: Option<Option<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ik: Option<Ordered<'a, bool>>,
}

/// A JSON object keyed by name, in track order (the order names first appear in the file).
struct Ordered<'a, T>(Vec<(&'a str, T)>);

impl<T: Serialize> Serialize for Ordered<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
