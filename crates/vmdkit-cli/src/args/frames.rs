//! FILE and `--frame` of the commands that evaluate a motion at a time, and the checks of
//! `--frame`, `--fps` and frame-number options.

use std::path::PathBuf;

/// A motion and a time in it: the FILE and `--frame` of `sample` and `pose`.
#[derive(clap::Args)]
pub struct MotionAt {
    /// The motion: .vmd, or a .json/.csv written by `vmdkit convert`; - for stdin
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The time, as a frame number at 30 fps (fractions allowed)
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub frame: f64,
}

/// A usage error unless `--frame` is a number (clap accepts `nan` and `inf` as floats).
pub fn check_frame(frame: f64) -> anyhow::Result<()> {
    if frame.is_finite() {
        return Ok(());
    }
    Err(crate::error::usage(format!("--frame must be a number, not {frame}")))
}

/// A frame number option (`trim --from`): a whole number from 0, as a VMD stores them.
pub fn frame_number(text: &str) -> Result<u32, String> {
    match text.parse::<i64>() {
        Ok(n) if n < 0 => Err(format!("frame numbers start at 0, not {n}")),
        _ => {
            text.parse().map_err(|_| format!("expected a whole frame number from 0, not {text:?}"))
        }
    }
}

/// A usage error unless `--fps` is a positive number.
pub fn check_fps(fps: f64) -> anyhow::Result<()> {
    if fps.is_finite() && fps > 0.0 {
        return Ok(());
    }
    Err(crate::error::usage(format!("--fps must be a positive number, not {fps}")))
}
