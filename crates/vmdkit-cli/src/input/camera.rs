//! Reading `--camera`: a motion whose camera track a command draws through.

use crate::input::motion::{load_motion, NO_TRAILING};
use std::path::Path;
use vmdkit::eval::MotionSampler;

/// The camera motion at `path`, sampled; an error when it has no camera keys.
pub fn camera_sampler(path: &Path, lenient: bool) -> anyhow::Result<MotionSampler> {
    let loaded = load_motion(path, lenient, NO_TRAILING)?;
    let sampler = MotionSampler::new(&loaded.motion);
    if sampler.camera_track().is_none() {
        anyhow::bail!("{}: has no camera keys to draw through", loaded.label);
    }
    Ok(sampler)
}
