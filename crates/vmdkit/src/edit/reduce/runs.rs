//! Long segments: where a track's keys are far apart, the track is left as it is.
//!
//! Reduction and retiming sample a track at every frame of its span, which costs the span, not
//! the keys: one key at frame 4,294,967,295 would mean four billion samples. A segment longer
//! than [`LONG_SEGMENT`] frames is never sampled. Its two keys are kept with the curve between
//! them, which is exact, and the keys on either side are reduced as separate runs. Real motions
//! key every few frames, so this changes nothing for them; for a damaged or sparse one it bounds
//! the work by the keys: at most `LONG_SEGMENT` samples per key.

use std::ops::Range;

/// Segments longer than this many frames (34 s at 30 fps) are kept as they are.
pub const LONG_SEGMENT: u32 = 1024;

/// The runs of a track's keys (`frames` in order): ranges of key indices, split where two
/// keys are more than [`LONG_SEGMENT`] frames apart.
pub(crate) fn runs(frames: &[u32]) -> Vec<Range<usize>> {
    scaled_runs(frames, 1.0)
}

/// [`runs`] of the keys at `frames` × `factor` (retiming works in output frames).
pub(crate) fn scaled_runs(frames: &[u32], factor: f64) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..frames.len() {
        if f64::from(frames[i] - frames[i - 1]) * factor > f64::from(LONG_SEGMENT) {
            runs.push(start..i);
            start = i;
        }
    }
    runs.push(start..frames.len());
    runs
}

/// `keys` (one per frame of `frames`, in order) reduced run by run with `reduce_run` (given
/// the run's first and last frame and its keys; it returns the keys and whether it had to keep
/// the originals). Runs of one or two keys have nothing to remove and are kept. A run after a
/// long segment starts with its original key, whose curve shapes that segment.
pub(crate) fn reduce_in_runs<K: Clone>(
    frames: &[u32],
    keys: &[&K],
    reduce_run: impl Fn(u32, u32, &[&K]) -> (Vec<K>, bool),
) -> (Vec<K>, bool) {
    let runs = runs(frames);
    if runs.len() == 1 {
        return reduce_run(frames[0], frames[frames.len() - 1], keys);
    }
    let mut out = Vec::with_capacity(keys.len());
    let mut fell_back = false;
    for (n, run) in runs.into_iter().enumerate() {
        let original = &keys[run.clone()];
        if run.len() <= 2 {
            out.extend(original.iter().map(|&k| k.clone()));
            continue;
        }
        let (mut reduced, kept) = reduce_run(frames[run.start], frames[run.end - 1], original);
        fell_back |= kept;
        if n > 0 {
            reduced[0] = original[0].clone();
        }
        out.extend(reduced);
    }
    (out, fell_back)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_split_only_at_long_segments() {
        assert_eq!(runs(&[5]), vec![0..1]);
        assert_eq!(runs(&[0, 10, 1034, 2059, 2060]), vec![0..3, 3..5]);
        assert_eq!(runs(&[0, 1, u32::MAX - 1, u32::MAX]), vec![0..2, 2..4]);
    }

    #[test]
    fn the_first_key_of_a_later_run_is_the_original() {
        let frames = [0, 1, 2, 5000, 5001, 5002];
        let keys: Vec<&u32> = frames.iter().collect();
        // A "reduction" that replaces every key, to see which survive.
        let (out, fell_back) = reduce_in_runs(&frames, &keys, |first, last, run| {
            assert!(last - first <= LONG_SEGMENT);
            (run.iter().map(|&&k| k + 100_000).collect(), false)
        });
        assert!(!fell_back);
        assert_eq!(out, vec![100_000, 100_001, 100_002, 5000, 105_001, 105_002]);
    }
}
