//! The baseline key reduction: errno-mmd/smoothvmd's recursive split (`reduce_bone_frame`,
//! `reduce_morph_frame`), implemented from its description for comparison.
//!
//! For a segment between two keys, play it with linear curves (lerp for translations and
//! morphs, slerp with the linear weight for rotations); if the frame of largest translation
//! error is over the tolerance, keep a key there and recurse on both halves; otherwise do the
//! same with the largest rotation error; otherwise the segment stands. All curves stay linear.
//! smoothvmd splits at a position error first, then at a rotation error, and so does this. The
//! camera, which smoothvmd does not reduce, splits at its worst frame by the same measures as
//! [`camera`](super::camera). Errors are measured exactly as the fitted reduction measures
//! them, and the result goes through the same verification, so the two are compared at the
//! same bound.

use super::segment::{breaks, Track};

/// The recursive-split plan of `track`, with `split(a, b)` the frame to split a..b at (or
/// `None` when a..b is within tolerance with linear curves).
pub(crate) fn plan<T: Track>(
    track: &T,
    split: impl Fn(usize, usize) -> Option<usize>,
) -> Vec<(usize, T::Curves)> {
    let mut plan = vec![(0, track.linear())];
    for pair in breaks(track).windows(2) {
        // An explicit stack (right half below left) instead of recursion: a noisy track can
        // split thousands of times in a row.
        let mut stack = vec![(pair[0], pair[1])];
        while let Some((a, b)) = stack.pop() {
            match split(a, b).filter(|&k| a < k && k < b) {
                Some(k) => {
                    stack.push((k, b));
                    stack.push((a, k));
                }
                None => plan.push((b, track.linear())),
            }
        }
    }
    plan
}
