//! `--max-position-error`, `--max-angle-error` and `--max-morph-error`: the tolerances of the
//! commands that fit keys (`reduce`, `retime`, `bake --reduce`).

use crate::error::usage;

/// Tolerance flags shared by `reduce` and `retime`.
#[derive(clap::Args, Clone, Copy)]
pub struct ToleranceArgs {
    /// Largest bone translation (and camera position) error at any frame, model units
    #[arg(long, value_name = "E", default_value_t = vmdkit::edit::Tolerance::default().position)]
    pub max_position_error: f64,
    /// Largest bone rotation (and camera angle) error at any frame, degrees
    #[arg(long, value_name = "D", default_value_t = vmdkit::edit::Tolerance::default().angle_degrees)]
    pub max_angle_error: f64,
    /// Largest morph weight error at any frame
    #[arg(long, value_name = "M", default_value_t = vmdkit::edit::Tolerance::default().morph)]
    pub max_morph_error: f64,
}

impl ToleranceArgs {
    pub fn tolerance(&self) -> anyhow::Result<vmdkit::edit::Tolerance> {
        for (v, flag) in [
            (self.max_position_error, "--max-position-error"),
            (self.max_angle_error, "--max-angle-error"),
            (self.max_morph_error, "--max-morph-error"),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(usage(format!("{flag} must be a number ≥ 0, not {v}")));
            }
        }
        Ok(vmdkit::edit::Tolerance {
            position: self.max_position_error,
            angle_degrees: self.max_angle_error,
            morph: self.max_morph_error,
        })
    }
}
