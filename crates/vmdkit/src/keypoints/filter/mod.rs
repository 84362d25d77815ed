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
mod median;
mod repair;
mod resample;
mod smooth;

pub use gaps::{fill_gaps, GapReport};
pub use repair::{reject_outliers, repair_swaps};
pub use resample::{resample, resample_owned};
pub use smooth::{quaternion_continuity, smooth, smooth_rotations, Smoothing};

/// Why a trajectory cannot be conditioned as asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FilterError {
    /// A frame rate that is not a positive finite number.
    #[error("a frame rate must be a positive finite number, not {0}")]
    BadRate(f64),
}

#[cfg(test)]
pub(crate) mod test_rng {
    /// A small deterministic generator, so the tests need no random-number crate and always
    /// see the same data.
    pub struct Rng(u64);

    impl Rng {
        pub fn new(seed: u64) -> Rng {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }

        /// Uniform in [0, 1).
        pub fn uniform(&mut self) -> f64 {
            // xorshift64*
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
        }

        /// Standard normal, by Box–Muller.
        pub fn normal(&mut self) -> f64 {
            let u = self.uniform().max(1e-300);
            let v = self.uniform();
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        }
    }
}
