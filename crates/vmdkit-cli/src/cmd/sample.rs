//! `vmdkit sample`: what a motion says at one time, as MMD plays it (see `vmdkit::eval`).

use crate::args::frames::{check_frame, MotionAt};
use crate::input;
use crate::output::write_json_line;
use crate::report::{BoneDoc, CameraDoc, LightDoc, MorphDoc, SampleDoc};
use crate::shared::eval::warn_duplicates;
use anyhow::Context;
use std::io::Write;
use vmdkit::eval::{BoneSample, CameraSample, LightSample, MotionSampler};
use vmdkit::TextEncoding;

const AFTER_HELP: &str = "\
Times are frames at 30 fps and may have fractions (--frame 12.5). Before a track's first key
and after its last, the end key's value holds. Bone translations are offsets from the rest
position, rotations quaternions (x, y, z, w) in MMD's left-handed axes.

Examples:
  vmdkit sample dance.vmd --frame 120
  vmdkit sample dance.vmd --frame 12.5 --bone 右腕 --json
  vmdkit sample camera.vmd --frame 300 --camera
  vmdkit mirror dance.vmd -o - | vmdkit sample - --frame 120 --bone 左腕";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct SampleArgs {
    #[command(flatten)]
    pub at: MotionAt,
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
    check_frame(args.at.frame)?;
    let loaded =
        crate::input::load_motion_or_pose(&args.at.file, args.lenient, input::NO_TRAILING)?;
    let sampler = MotionSampler::new(&loaded.motion);
    warn_duplicates(&loaded.label, &sampler);
    let stdout = std::io::stdout();
    // Text names bones and morphs as the file does: escaped for the terminal.
    let mut out: Box<dyn Write> = if args.json {
        Box::new(stdout.lock())
    } else {
        Box::new(crate::terminal::Escaping::new(stdout.lock()))
    };
    let encoding = loaded.motion.detect_encoding();
    let request = Request {
        label: &loaded.label,
        sampler: &sampler,
        encoding,
        t: args.at.frame,
        json: args.json,
    };
    if let Some(name) = &args.bone {
        request.bone(&mut out, name)?;
    } else if let Some(name) = &args.morph {
        request.morph(&mut out, name)?;
    } else if args.camera || args.light {
        request.camera_and_light(&mut out, args.camera, args.light)?;
    } else {
        request.all(&mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// What to sample: a motion's tracks, the time, and whether to print JSON.
struct Request<'a> {
    /// The motion as named in messages.
    label: &'a str,
    sampler: &'a MotionSampler,
    /// The encoding of the motion's names.
    encoding: TextEncoding,
    t: f64,
    json: bool,
}

impl Request<'_> {
    /// The message for a name the motion has no track of.
    fn no_track(&self, what: &str, name: &str) -> String {
        format!("{}: no {what} named {name:?} (`vmdkit info` lists them)", self.label)
    }

    fn bone(&self, out: &mut impl Write, name: &str) -> anyhow::Result<()> {
        let track = self
            .sampler
            .bone_track_named(name, self.encoding)
            .with_context(|| self.no_track("bone", name))?;
        let s = track.sample(self.t);
        if self.json {
            write_json_line(out, &BoneDoc::new(self.t, name, &s))?;
        } else {
            writeln!(out, "frame {}", self.t)?;
            write_bone(out, name, &s)?;
        }
        Ok(())
    }

    fn morph(&self, out: &mut impl Write, name: &str) -> anyhow::Result<()> {
        let track = self
            .sampler
            .morph_track_named(name, self.encoding)
            .with_context(|| self.no_track("morph", name))?;
        let (frame, weight) = (self.t, track.sample(self.t));
        if self.json {
            write_json_line(out, &MorphDoc { frame, morph: name, weight })?;
        } else {
            writeln!(out, "frame {frame}\n{name}  weight {weight}")?;
        }
        Ok(())
    }

    fn camera_and_light(
        &self,
        out: &mut impl Write,
        camera: bool,
        light: bool,
    ) -> anyhow::Result<()> {
        let camera = camera.then(|| self.sampler.sample_camera(self.t));
        let light = light.then(|| self.sampler.sample_light(self.t));
        if self.json {
            let doc = SampleDoc {
                frame: self.t,
                camera: camera.map(|c| c.map(CameraDoc::from)),
                light: light.map(|l| l.map(LightDoc::from)),
                ..SampleDoc::default()
            };
            write_json_line(out, &doc)?;
            return Ok(());
        }
        writeln!(out, "frame {}", self.t)?;
        match camera {
            Some(Some(c)) => write_camera(out, &c)?,
            Some(None) => writeln!(out, "camera: no camera keys")?,
            None => {}
        }
        match light {
            Some(Some(l)) => write_light(out, &l)?,
            Some(None) => writeln!(out, "light: no light keys")?,
            None => {}
        }
        Ok(())
    }

    /// Every track at the time.
    fn all(&self, out: &mut impl Write) -> anyhow::Result<()> {
        let (sampler, t) = (self.sampler, self.t);
        let mut s = sampler.new_sample();
        sampler.sample_into(&mut sampler.playhead(), t, &mut s);
        let labels = sampler.track_labels(self.encoding);
        if self.json {
            write_json_line(out, &SampleDoc::of_sample(t, &labels, &s))?;
            return Ok(());
        }
        writeln!(out, "frame {t}")?;
        for (name, b) in labels.bones.iter().zip(&s.bones) {
            write_bone(out, name, b)?;
        }
        for (name, w) in labels.morphs.iter().zip(&s.morphs) {
            writeln!(out, "{name}  weight {w}")?;
        }
        if let Some(c) = &s.camera {
            write_camera(out, c)?;
        }
        if let Some(l) = &s.light {
            write_light(out, l)?;
        }
        if let Some(sh) = &s.shadow {
            let (mode, distance, range) = (sh.mode, sh.distance, sh.range());
            writeln!(out, "self-shadow  mode {mode}  distance {distance} (range {range})")?;
        }
        if let Some(v) = s.visible {
            writeln!(out, "visible {v}")?;
        }
        for (name, on) in labels.ik.iter().zip(&s.ik) {
            writeln!(out, "IK {name} {}", if *on { "on" } else { "off" })?;
        }
        Ok(())
    }
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

fn write_light(out: &mut impl Write, l: &LightSample) -> std::io::Result<()> {
    let (color, direction) = (l.color.to_array(), l.direction.to_array());
    writeln!(out, "light  color {color:?}  direction {direction:?}")
}
