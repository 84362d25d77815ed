//! Trajectory conditioning for [`Keypoints`](super::Keypoints): everything that cleans joint
//! positions before any rotation is solved from them.
//!
//! A typical order, for pose-estimator output:
//!
//! 1. [`resample`] to the rate the motion will be keyed at (MMD plays at 30 fps);
//! 2. [`repair_swaps`] for left/right label swaps of mirrored joints;
//! 3. [`reject_outliers`] to turn single-frame spikes into missing samples;
//! 4. [`fill_gaps`] to interpolate short gaps (and the spikes just removed);
//! 5. [`smooth`], a zero-phase low-pass that removes jitter without lagging the motion.
//!
//! Rotations solved later are never filtered as Euler angles or independent components of
//! unrelated quaternions: [`smooth_rotations`] first makes a quaternion track continuous
//! ([`quaternion_continuity`]), so that its components vary smoothly and can be low-passed.
//!
//! Every function here is O(frames × joints) and allocates its scratch buffers once per call.

mod gaps;
mod resample;

pub use gaps::{fill_gaps, GapReport};
pub use resample::resample;

/// Why a trajectory cannot be conditioned as asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FilterError {
    /// A frame rate that is not a positive finite number.
    #[error("a frame rate must be a positive finite number, not {0}")]
    BadRate(f64),
}
