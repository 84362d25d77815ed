//! `vmdkit render`: the pose as a stick figure, one frame as a PNG, a range as an animated GIF
//! or as numbered PNG frames (see `vmdkit_draw`).

use crate::args::figure::parse_view;
use crate::args::figure::FigureModel;
use crate::args::figure::FigureOptions;
use crate::args::frames::{check_fps, check_frame};
use crate::args::size::parse_size;
use crate::batch::progress_bar;
use crate::input::camera_sampler;
use crate::input::{self, load_motion_or_pose, InputKind};
use crate::output;
use crate::shared::eval::note_outside;
use crate::shared::eval::range_times;
use crate::shared::physics::figure_motion;
use std::path::{Path, PathBuf};
use vmdkit_draw::{FigureRenderer, Font, GifWriter, Projection, Size, View};

const AFTER_HELP: &str = "\
The figure: bones as lines from each bone's head to its parent's, joints as dots, the model's
left side blue and right side red (by 左/右 or _L/_R in the names), IK goals as orange squares,
on MMD's 5-unit floor grid. As MMD, bones whose visible flag is off (センター先, toe-IK tips)
are not drawn (their children are); --bones body (the default) draws the standard and
semi-standard bones, fingers included, --bones visible adds hair, skirt and other visible
extras (physics chains thinner and lighter), --bones all draws every bone, hidden ones too.
A frame outside the motion's keys is drawn as MMD does (the last key held); stderr says so. Orthographic views are fitted to the figure (over the whole range
for an animation) and centred; --view front looks at the model's face (models face -Z), side
from the model's left, top from above, a number orbits by that many degrees as MMD's camera Y
angle does. --camera draws through MMD's camera at each frame instead (perspective, its field
of view, distance and angles). Without --model the built-in standard skeleton is posed.
--physics simulates the model's rigid bodies (hair, skirts, accessories) as MMD does, from
frame 0 through the motion's last key, and draws the bones they move (`vmdkit bake --physics`
bakes the same into keys; a summary goes to stderr); it needs --model.

-o decides the output: .png one frame (--frame), .gif an animation (--from/--to, at --fps),
a folder (ending in / or existing) numbered PNG frames 00000.png, 00001.png...; - writes
the PNG (with --frame) or the GIF to stdout.

Examples:
  vmdkit render dance.vmd --frame 120 -o pose.png
  vmdkit render dance.vmd --model miku.pmx --frame 120 --view side --size 800x600 -o side.png
  vmdkit render dance.vmd --from 0 --to 300 --fps 15 -o dance.gif
  vmdkit render dance.vmd --model miku.pmx --from 0 --to 300 --bones visible --physics -o hair.gif
  vmdkit render dance.vmd --camera camera.vmd --from 0 --to 300 -o frames/
  vmdkit render pose.vpd --model miku.pmx -o pose.png";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`; or a VPD pose (drawn at
    /// frame 0 unless --frame)
    #[arg(value_name = "MOTION")]
    pub motion: PathBuf,
    #[command(flatten)]
    pub model: FigureModel,
    /// The frame of a still image (30 fps frames; fractions allowed)
    #[arg(long, value_name = "F", allow_negative_numbers = true, conflicts_with_all = ["from", "to"])]
    pub frame: Option<f64>,
    /// First frame of an animation
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    pub from: Option<f64>,
    /// Last frame of an animation (default: the motion's last key)
    #[arg(long, value_name = "B", allow_negative_numbers = true)]
    pub to: Option<f64>,
    /// Frames per second of an animation; the motion plays at its own speed (30 fps)
    #[arg(long, value_name = "N", default_value_t = 30.0)]
    pub fps: f64,
    /// Output: .png, .gif, or a folder for numbered PNG frames
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// front, side, top, or an orbit angle in degrees
    #[arg(long, value_name = "VIEW", default_value = "front", value_parser = parse_view)]
    pub view: View,
    /// Image size, WIDTHxHEIGHT
    #[arg(long, value_name = "WxH", default_value = "512x512", value_parser = parse_size)]
    pub size: Size,
    /// Draw through the camera of this VMD (it may be MOTION itself)
    #[arg(long, value_name = "CAMERA")]
    pub camera: Option<PathBuf>,
    /// Name the head, elbows, wrists, knees and IK goals (Japanese with a Japanese
    /// font, else the model's English names; stderr says which); labels never overlap
    #[arg(long)]
    pub labels: bool,
    #[command(flatten)]
    pub figure: FigureOptions,
}

/// What -o asks for.
enum Output {
    Png,
    Gif,
    Frames,
}

fn output_kind(path: &Path, still: bool) -> anyhow::Result<Output> {
    if input::is_stdio(path) {
        return Ok(if still { Output::Png } else { Output::Gif });
    }
    let text = path.to_string_lossy();
    if text.ends_with('/') || path.is_dir() {
        return Ok(Output::Frames);
    }
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("png") => Ok(Output::Png),
        Some("gif") => Ok(Output::Gif),
        _ => Err(crate::error::usage(format!(
            "-o {}: say .png, .gif, or a folder ending in / for numbered frames",
            path.display()
        ))),
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    check_fps(args.fps)?;
    // A VPD pose is one frame: drawn at frame 0 unless --frame says otherwise.
    let is_pose = InputKind::of(&args.motion) == InputKind::Pose;
    let frame = args.frame.or(is_pose.then_some(0.0));
    let kind = output_kind(&args.output, frame.is_some())?;
    let loaded = load_motion_or_pose(&args.motion, args.figure.lenient, input::NO_TRAILING)?;
    let model = args.model.read()?;
    let motion = figure_motion(&loaded.label, &loaded.motion, &args.model, &args.figure, &model)?;
    let times = frame_times(args, frame, &kind, &loaded.motion, &loaded.label)?;
    if !is_pose {
        note_outside(&loaded.label, &loaded.motion, times[0], times[times.len() - 1]);
    }
    let camera = match &args.camera {
        Some(path) => Some(camera_sampler(path, args.figure.lenient)?),
        None => None,
    };
    let mut renderer =
        FigureRenderer::with_options(&model, &motion, args.size, args.figure.ik.options());
    for message in
        crate::report::binding_warnings(&loaded.label, renderer.skeleton(), renderer.binding())
    {
        say!("warning: {message}");
    }
    renderer.set_bones(args.figure.bones);
    let font = Font::find_system();
    if args.labels {
        crate::shared::fonts::say_script(font.as_ref());
        renderer.set_labels(true);
    }
    renderer.set_font(font);
    let fitted = renderer.fit(args.view, &times);
    let projection = |t: f64| match &camera {
        Some(sampler) => {
            sampler.sample_camera(t).map_or(fitted, |c| Projection::camera(&c, args.size))
        }
        None => fitted,
    };
    let counter = |t: f64| if matches!(kind, Output::Png) { None } else { Some(frame_label(t)) };

    let bar = progress_bar(times.len(), times.len() > 30, "frames");
    match kind {
        Output::Png => {
            let t = times[0];
            let canvas = renderer.draw(&projection(t), t, None);
            output::write_output(&args.output, |out| {
                canvas.write_png(out).map_err(std::io::Error::other)
            })?;
        }
        Output::Gif => {
            let (w, h) = (args.size.width(), args.size.height());
            output::write_output(&args.output, |out| {
                let mut gif = GifWriter::new(out, w, h, args.fps).map_err(std::io::Error::other)?;
                for &t in &times {
                    let label = counter(t);
                    gif.add(renderer.draw(&projection(t), t, label.as_deref()))
                        .map_err(std::io::Error::other)?;
                    bar.inc(1);
                }
                gif.finish().map(drop).map_err(std::io::Error::other)
            })?;
        }
        Output::Frames => {
            std::fs::create_dir_all(&args.output)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", args.output.display()))?;
            for (i, &t) in times.iter().enumerate() {
                let label = counter(t);
                let canvas = renderer.draw(&projection(t), t, label.as_deref());
                let path = args.output.join(format!("{i:05}.png"));
                output::write_output(&path, |out| {
                    canvas.write_png(out).map_err(std::io::Error::other)
                })?;
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// The motion times to draw: `frame` (`--frame`, or 0 for a pose) for a PNG, `--from`..`--to` at `--fps` otherwise.
fn frame_times(
    args: &Args,
    frame: Option<f64>,
    kind: &Output,
    motion: &vmdkit::Motion,
    label: &str,
) -> anyhow::Result<Vec<f64>> {
    if let Output::Png = kind {
        let frame = frame.ok_or_else(|| crate::error::usage("a .png output needs --frame F"))?;
        check_frame(frame)?;
        return Ok(vec![frame]);
    }
    if let Some(frame) = frame {
        check_frame(frame)?;
        return Ok(vec![frame]);
    }
    range_times(args.from, args.to, args.fps, motion, label)
}

/// The frame counter: whole frames without a fraction.
fn frame_label(t: f64) -> String {
    if t.fract() == 0.0 {
        format!("{t}")
    } else {
        format!("{t:.1}")
    }
}
