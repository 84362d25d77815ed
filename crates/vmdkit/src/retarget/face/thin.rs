//! The face's per-frame keys thinned by the library's own reduction (`edit::reduce`, as the
//! body's keys are in `retarget/keys.rs`), within the face's tolerances: the weights and turns
//! played back from the file's stored values stay within [`WEIGHT_TOLERANCE`] and
//! [`ANGLE_TOLERANCE_DEGREES`] of every frame's. Its greedy segmentation grows each segment by
//! doubling and bisection, so a track costs O(n log n) however long it stays flat (the face's
//! own thinning it replaced grew segments a frame at a time and rechecked every frame of the
//! segment at each step: O(n²) on a flat track, 14% of a holistic clip's time).
//!
//! [`WEIGHT_TOLERANCE`]: super::WEIGHT_TOLERANCE
//! [`ANGLE_TOLERANCE_DEGREES`]: super::ANGLE_TOLERANCE_DEGREES

use super::{ANGLE_TOLERANCE_DEGREES, WEIGHT_TOLERANCE};
use crate::edit::{reduce_unmeasured, ReduceMethod, ReduceOptions, Tolerance};
use crate::eval::MotionSampler;
use crate::format::Motion;

/// `dense` (morph and rotation keys, one per frame with a face) thinned. Morphs by the
/// fitted method: a morph has no curve to fit, so that is the greedy line fit and its prune of
/// keys two neighbouring segments make unnecessary, cheap for a line and a few keys fewer.
/// Rotations by the fast method, made for dense, smooth input such as a retargeting's, as the
/// body's are.
pub(super) fn thin(dense: Motion) -> Motion {
    let tolerance = Tolerance {
        // The face keys no translation.
        position: Tolerance::default().position,
        angle_degrees: ANGLE_TOLERANCE_DEGREES,
        morph: WEIGHT_TOLERANCE,
    };
    let reduce = |keys: Motion, method| {
        let options = ReduceOptions { tolerance, method, threads: 1 };
        reduce_unmeasured(&keys, &MotionSampler::new(&keys), &options, &mut Vec::new())
    };
    let mut out = dense.without_keys();
    let (morphs, bones) = (dense.without_keys(), dense.without_keys());
    out.morphs = reduce(Motion { morphs: dense.morphs, ..morphs }, ReduceMethod::Fitted).morphs;
    out.bones = reduce(Motion { bones: dense.bones, ..bones }, ReduceMethod::Fast).bones;
    out
}
