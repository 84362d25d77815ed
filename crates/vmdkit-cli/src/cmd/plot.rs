//! `vmdkit plot`: a track's curves over time as a PNG, or one key's Bézier handles; several
//! motions overlay (see `vmdkit_draw`).

use crate::args::size::parse_size;
use crate::input;
use crate::output;
use crate::shared::fonts::say_script;
use std::path::PathBuf;
use vmdkit::eval::MotionSampler;
use vmdkit_draw::{
    bone_panels, camera_panels, draw_chart, draw_key_curves, morph_panels, Canvas, Font, KeyCurves,
    SampleRange, Size,
};

const AFTER_HELP: &str = "\
--bone draws the bone's translation (MMD units) and rotation as MMD's bone panel shows it
(degrees), --morph the morph's weight, --camera the camera's target, distance, angles and field
of view, all over time with each key marked by a dot. Several motions share the chart: the
first solid, the next dashed, dotted... With --key FRAME, the bone's key at that frame is drawn
as MMD's curve editor shows it: its X, Y, Z and rotation curves in the 0-127 box.

All text, tick numbers included, is in one system font (searched in the folders fontconfig's
configuration names): Japanese names when it has Japanese glyphs (Debian's fonts-noto-cjk or
fonts-ipafont give them), else the standard dictionary's English names (arm_R); stderr says
which. Without any font, tick numbers are drawn as seven-segment digits and names are left out.

Examples:
  vmdkit plot dance.vmd --bone 右腕 -o arm.png
  vmdkit plot dance.vmd retargeted.vmd --bone センター --from 0 --to 600 -o centre.png
  vmdkit plot dance.vmd --morph まばたき -o blink.png
  vmdkit plot camera.vmd --camera -o camera.png
  vmdkit plot dance.vmd --bone 右腕 --key 120 -o curves.png";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
#[command(group(clap::ArgGroup::new("track").required(true).args(["bone", "morph", "camera"])))]
pub struct Args {
    /// Motions: .vmd, or .json/.csv written by `vmdkit convert`
    #[arg(value_name = "MOTION", required = true)]
    pub motions: Vec<PathBuf>,
    /// Plot this bone's track
    #[arg(long, value_name = "NAME")]
    pub bone: Option<String>,
    /// Plot this morph's weight
    #[arg(long, value_name = "NAME")]
    pub morph: Option<String>,
    /// Plot the camera track
    #[arg(long)]
    pub camera: bool,
    /// Draw the interpolation curves of the bone's key at this frame
    #[arg(long, value_name = "FRAME", requires = "bone")]
    pub key: Option<u32>,
    /// First frame plotted (default 0)
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    pub from: Option<f64>,
    /// Last frame plotted (default: the last key of the plotted tracks)
    #[arg(long, value_name = "B", allow_negative_numbers = true)]
    pub to: Option<f64>,
    /// Output PNG
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Image size, WIDTHxHEIGHT (default 900x600, 520x400 with --key)
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<Size>,
    /// Read damaged VMDs leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    crate::output::require_extension(&args.output, &["png"], "a PNG image")?;
    let mut labels = Vec::new();
    let mut samplers = Vec::new();
    for path in &args.motions {
        let loaded = input::load_motion(path, args.lenient, input::NO_TRAILING)?;
        let encoding = loaded.motion.detect_encoding();
        samplers.push((MotionSampler::new(&loaded.motion), encoding));
        let name =
            path.file_name().map_or(loaded.label.clone(), |n| n.to_string_lossy().into_owned());
        labels.push(name);
    }
    let font = Font::find_system();
    say_script(font.as_ref());
    let missing = |label: &str, what: &str| anyhow::anyhow!("{label}: has no keys for {what}");
    let canvas: Canvas = if let Some(name) = &args.bone {
        let mut tracks = Vec::new();
        for ((sampler, encoding), label) in samplers.iter().zip(&labels) {
            tracks.push(
                sampler
                    .bone_track_named(name, *encoding)
                    .ok_or_else(|| missing(label, &format!("bone {name}")))?,
            );
        }
        if let Some(frame) = args.key {
            let mut sets = Vec::new();
            for (track, label) in tracks.iter().zip(&labels) {
                let Some(i) = track.frames().iter().position(|&f| f == frame) else {
                    anyhow::bail!(
                        "{label}: bone {name} has no key at frame {frame} (keys at {})",
                        list(track.frames())
                    );
                };
                let names = ["X", "Y", "Z", "rotation"].map(String::from);
                sets.push(KeyCurves {
                    label: label.clone(),
                    curves: names.into_iter().zip(track.curves(i)).collect(),
                });
            }
            let size = args.size.unwrap_or(Size::new(520, 400)?);
            draw_key_curves(&format!("{name} key at frame {frame}"), &sets, size, font.as_ref())
        } else {
            let last = tracks.iter().filter_map(|t| t.frames().last()).max().copied().unwrap_or(0);
            let chart = bone_panels(name, &labels, &tracks, range(args, last)?);
            draw_chart(&chart, chart_size(args)?, font.as_ref()).0
        }
    } else if let Some(name) = &args.morph {
        let mut tracks = Vec::new();
        for ((sampler, encoding), label) in samplers.iter().zip(&labels) {
            tracks.push(
                sampler
                    .morph_track_named(name, *encoding)
                    .ok_or_else(|| missing(label, &format!("morph {name}")))?,
            );
        }
        let last = tracks.iter().filter_map(|t| t.frames().last()).max().copied().unwrap_or(0);
        let chart = morph_panels(name, &labels, &tracks, range(args, last)?);
        draw_chart(&chart, chart_size(args)?, font.as_ref()).0
    } else {
        let mut tracks = Vec::new();
        for ((sampler, _), label) in samplers.iter().zip(&labels) {
            tracks.push(sampler.camera_track().ok_or_else(|| missing(label, "the camera"))?);
        }
        let last = tracks.iter().filter_map(|t| t.frames().last()).max().copied().unwrap_or(0);
        let chart = camera_panels(&labels, &tracks, range(args, last)?);
        draw_chart(&chart, chart_size(args)?, font.as_ref()).0
    };
    output::write_output(&args.output, |out| canvas.write_png(out).map_err(std::io::Error::other))
}

fn chart_size(args: &Args) -> anyhow::Result<Size> {
    Ok(args.size.unwrap_or(Size::new(900, 600)?))
}

/// `--from`/`--to`, defaulting to 0 and the last key.
fn range(args: &Args, last: u32) -> anyhow::Result<SampleRange> {
    let (from, to) = (args.from.unwrap_or(0.0), args.to.unwrap_or(f64::from(last)));
    crate::args::frames::check_frame(from)?;
    crate::args::frames::check_frame(to)?;
    if to < from {
        return Err(crate::error::usage(format!("--to {to} is before --from {from}")));
    }
    Ok(SampleRange { from, to })
}

/// The first few key frames, for an error message.
fn list(frames: &[u32]) -> String {
    let shown: Vec<String> = frames.iter().take(8).map(u32::to_string).collect();
    let more =
        if frames.len() > 8 { format!(" and {} more", frames.len() - 8) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}
