//! `vmdkit view`: one offline HTML file that plays the motion as a stick figure (see
//! `vmdkit_draw::write_viewer`).

use crate::args::figure::FigureModel;
use crate::args::figure::FigureOptions;
use crate::args::frames::check_fps;
use crate::input::camera_sampler;
use crate::input::{self};
use crate::output;
use crate::shared::eval::{note_outside, range_times};
use crate::shared::physics::figure_motion;
use std::path::PathBuf;
use vmdkit_draw::{write_viewer, FigureRenderer, Size, View};

const AFTER_HELP: &str = "\
The file holds everything: every joint's position at every frame (16-bit, delta-coded and
deflated), and a small player that opens offline in any browser: play and pause, a scrubber,
the frame number, drag to orbit, the wheel to zoom, a joint's bone name on hover, and a click
plots that joint's position over time. With --camera a checkbox switches to MMD's camera.
Without --model the built-in standard skeleton is posed. --bones chooses the bones drawn as
`vmdkit render` does (body by default; hidden helpers such as センター先 never unless all).
--physics simulates the model's rigid bodies (hair, skirts, accessories) as MMD does, from
frame 0 through the motion's last key, and draws the bones they move (`vmdkit bake --physics`
bakes the same into keys; a summary goes to stderr); it needs --model.

Examples:
  vmdkit view dance.vmd --model miku.pmx -o dance.html
  vmdkit view dance.vmd --model miku.pmx --bones visible --physics -o dance.html
  vmdkit view dance.vmd --camera camera.vmd --fps 15 -o dance.html";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`; or a VPD pose
    #[arg(value_name = "MOTION")]
    pub motion: PathBuf,
    #[command(flatten)]
    pub model: FigureModel,
    /// Include the camera of this VMD (it may be MOTION itself)
    #[arg(long, value_name = "CAMERA")]
    pub camera: Option<PathBuf>,
    /// Output .html
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Frames baked per second (the player plays at the motion's speed)
    #[arg(long, value_name = "N", default_value_t = 30.0)]
    pub fps: f64,
    /// First frame (default 0)
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    pub from: Option<f64>,
    /// Last frame (default: the motion's last key)
    #[arg(long, value_name = "B", allow_negative_numbers = true)]
    pub to: Option<f64>,
    #[command(flatten)]
    pub figure: FigureOptions,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    crate::output::require_extension(&args.output, &["html", "htm"], "an HTML page")?;
    check_fps(args.fps)?;
    let loaded =
        crate::input::load_motion_or_pose(&args.motion, args.figure.lenient, input::NO_TRAILING)?;
    let model = args.model.read()?;
    let motion = figure_motion(&loaded.label, &loaded.motion, &args.model, &args.figure, &model)?;
    let times = range_times(args.from, args.to, args.fps, &loaded.motion, &loaded.label)?;
    if crate::input::InputKind::of(&args.motion) != crate::input::InputKind::Pose {
        note_outside(&loaded.label, &loaded.motion, times[0], times[times.len() - 1]);
    }
    let camera = match &args.camera {
        Some(path) => Some(camera_sampler(path, args.figure.lenient)?),
        None => None,
    };
    let size = Size::new(1, 1)?;
    let mut renderer =
        FigureRenderer::with_options(&model, &motion, size, args.figure.ik.options());
    for message in
        crate::report::binding_warnings(&loaded.label, renderer.skeleton(), renderer.binding())
    {
        say!("warning: {message}");
    }
    renderer.set_bones(args.figure.bones);
    renderer.fit(View::Front, &times); // sizes the floor grid
    let title =
        args.motion.file_name().map_or(loaded.label.clone(), |n| n.to_string_lossy().into_owned());
    output::write_output(&args.output, |out| {
        write_viewer(&mut renderer, &times, args.fps, &title, camera.as_ref(), None, out)
            .map_err(std::io::Error::other)
    })
}
