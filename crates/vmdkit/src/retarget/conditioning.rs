//! The keypoints as the solver should see them: at 30 fps, without one-frame left/right swaps
//! or spikes, short gaps filled, and smoothed without lag. Everything works on positions, so no
//! rotation is ever filtered component by component.

use super::{RetargetError, RetargetOptions};
use crate::keypoints::{self, JointLayout, Keypoints};
use crate::math::FPS;

/// The conditioned keypoints and what conditioning changed, for the report.
pub(crate) struct Conditioned {
    pub keypoints: Keypoints,
    pub notes: ConditioningNotes,
}

/// What conditioning changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct ConditioningNotes {
    /// Input frames.
    pub input_frames: usize,
    /// Frames after resampling to 30 fps.
    pub frames: usize,
    /// Left/right pairs swapped back, frame by frame.
    pub swaps_repaired: usize,
    /// Single-frame spikes removed (then filled).
    pub outliers_removed: usize,
    /// Missing or unconfident samples filled by interpolation.
    pub samples_filled: usize,
    /// Samples held at the nearest present value (long or end gaps).
    pub samples_held: usize,
}

/// Gaps up to a third of a second are interpolated; longer ones are held.
const MAX_GAP: usize = 10;
/// A spike is this many times the clip's typical per-frame motion away from its neighbours.
const OUTLIER_THRESHOLD: f32 = 8.0;

pub(crate) fn condition(
    input: &Keypoints,
    layout: &JointLayout,
    options: &RetargetOptions,
) -> Result<Conditioned, RetargetError> {
    let mut notes = ConditioningNotes { input_frames: input.frame_count, ..Default::default() };
    let mut kp = input.clone();
    let pairs: Vec<(usize, usize)> = (layout.joints.iter().enumerate())
        .filter_map(|(i, j)| {
            let role = j.role?;
            if !role.name().starts_with("left_") {
                return None;
            }
            Some((i, layout.joint_of(role.mirrored())?))
        })
        .collect();
    let smoothing = options.smoothing.cutoff_hz().is_some();
    if smoothing {
        notes.swaps_repaired = keypoints::repair_swaps(&mut kp, &pairs);
        notes.outliers_removed = keypoints::reject_outliers(&mut kp, OUTLIER_THRESHOLD);
    }
    let gaps = keypoints::fill_gaps(&mut kp, options.min_confidence, MAX_GAP);
    // Filled and held samples are positions the solver should use, at a low weight: otherwise
    // a hand that drops below the threshold for a few frames would vanish and snap the arm.
    if let Some(confidence) = kp.confidence.as_mut() {
        let usable = options.min_confidence + 0.05;
        for (c, p) in confidence.iter_mut().zip(&kp.positions) {
            if p.is_finite() && *c <= options.min_confidence {
                *c = usable;
            }
        }
    }
    notes.samples_filled = gaps.total_filled();
    notes.samples_held = gaps.total_held();
    if smoothing {
        keypoints::smooth(&mut kp, options.fps, options.smoothing);
    }
    // At 30 fps already (the usual case) the clip is kept as it is, not copied again.
    let kp = keypoints::resample_owned(kp, options.fps, FPS)
        .map_err(|e| RetargetError::Option(e.to_string()))?;
    notes.frames = kp.frame_count;
    Ok(Conditioned { keypoints: kp, notes })
}
