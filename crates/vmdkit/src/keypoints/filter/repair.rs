//! [`repair_swaps`] and [`reject_outliers`]: label swaps and spikes of pose estimators.

use super::median::{median, StreamMedian};
use crate::keypoints::Keypoints;
use glam::Vec3;

/// The longest left/right swap, in frames, that [`repair_swaps`] looks for.
const MAX_SWAP: usize = 3;

/// How much better the swapped labelling must fit the neighbouring frames: its distance to
/// the prediction at most this fraction of the unswapped one's.
const SWAP_RATIO: f32 = 0.25;

/// Swaps back short runs of frames (1 to 3) in which a pose estimator exchanged a left joint
/// with its right counterpart; returns the number of frame-pairs swapped.
///
/// `pairs` are `(left, right)` joint indices of mirrored roles (see
/// [`Role::mirrored`](crate::roles::Role::mirrored)). For a candidate run of frames, each
/// joint of the pair is predicted by linear interpolation between the frame before the run and
/// the frame after it; the run is swapped when the swapped labels are at most a quarter as far
/// from those predictions as the labels given, and nearer by more than two typical per-frame
/// steps of the pair per frame. Comparing both labellings with both neighbouring frames, not the
/// joints' order along some axis, is what leaves legs alone when they really cross, as in a
/// walk or a cross step: there both labellings are about equally far from the prediction.
///
/// Frames are examined in order and a repaired run becomes the "before" frame of the next
/// candidate. The first and last frame of the clip, and frames next to a missing (non-finite)
/// sample of the pair, have no neighbour on one side and are not changed. Confidences are
/// swapped with their positions.
///
/// # Panics
///
/// When a pair names a joint beyond `kp.joint_count`.
pub fn repair_swaps(kp: &mut Keypoints, pairs: &[(usize, usize)]) -> usize {
    let (frames, joints) = (kp.frame_count, kp.joint_count);
    // The pairs' tracks are gathered side by side, a group at a time in one sweep over the
    // frames, rather than read a frame apart each. Pairs sharing a joint must see each other's
    // repairs, so then each is gathered after the one before it is done.
    let mut seen = vec![false; joints];
    let shared = pairs
        .iter()
        .flat_map(|&(l, r)| [l, r])
        .any(|j| j < joints && std::mem::replace(&mut seen[j], true));
    let group = if shared { 1 } else { GROUP };
    let mut tracks = Vec::new();
    let mut steps = Vec::with_capacity(frames);
    let mut swapped = 0;
    for pairs in pairs.chunks(group) {
        for &(l, r) in pairs {
            assert!(l < joints && r < joints, "joint pair ({l}, {r}) out of range");
        }
        tracks.clear();
        tracks.resize(pairs.len() * frames, [Vec3::ZERO; 2]);
        for (f, row) in kp.positions.chunks_exact(joints.max(1)).enumerate() {
            for (p, &(l, r)) in pairs.iter().enumerate() {
                tracks[p * frames + f] = [row[l], row[r]];
            }
        }
        for (track, &(l, r)) in tracks.chunks_exact_mut(frames.max(1)).zip(pairs) {
            for g in repair_pair(track, &mut steps) {
                kp.positions.swap(g * joints + l, g * joints + r);
                if let Some(c) = kp.confidence.as_mut() {
                    c.swap(g * joints + l, g * joints + r);
                }
                swapped += 1;
            }
        }
    }
    swapped
}

/// Pairs [`repair_swaps`] gathers at a time.
const GROUP: usize = 16;

/// [`repair_swaps`] on one pair's track (left, right per frame), which it repairs; returns the
/// frames it swapped.
fn repair_pair(track: &mut [[Vec3; 2]], steps: &mut Vec<f32>) -> Vec<usize> {
    let frames = track.len();
    steps.clear();
    steps.extend(track.windows(2).filter_map(|w| {
        let ([l0, r0], [l1, r1]) = (w[0], w[1]);
        let step = (l1.distance(l0) + r1.distance(r0)) / 2.0;
        step.is_finite().then_some(step)
    }));
    let mut swapped = Vec::new();
    let Some(typical) = median(steps) else {
        return swapped;
    };
    let mut f = 1;
    while f + 1 < frames {
        let run = (1..=MAX_SWAP).take_while(|k| f + k < frames).find(|&k| {
            let ([lb, rb], [la, ra]) = (track[f - 1], track[f + k]);
            let mut predicted = [[Vec3::ZERO; 2]; MAX_SWAP];
            let (mut kept, mut apart) = (0.0, 0.0);
            for (i, p) in predicted.iter_mut().enumerate().take(k) {
                let w = (i + 1) as f32 / (k + 1) as f32;
                *p = [lb.lerp(la, w), rb.lerp(ra, w)];
                let [lf, rf] = track[f + i];
                kept += lf.distance_squared(p[0]) + rf.distance_squared(p[1]);
                apart += p[0].distance_squared(p[1]);
            }
            // By the triangle inequality the swapped labels are at least 2·Σ|pl − pr| − keep
            // from the predictions, so swapping needs keep > 1.6·Σ|pl − pr|; and keep is at
            // most √(2k · Σ of its squares) while Σ|pl − pr| ≥ √(Σ of theirs). Runs that fail
            // this (by far, allowing for rounding) are the usual ones, and need no roots.
            if apart.is_finite() && 2.0 * k as f32 * kept <= 0.99 * 2.56 * apart {
                return false;
            }
            let (mut keep, mut swap) = (0.0, 0.0);
            for (i, [pl, pr]) in predicted.iter().enumerate().take(k) {
                let [lf, rf] = track[f + i];
                keep += lf.distance(*pl) + rf.distance(*pr);
                swap += rf.distance(*pl) + lf.distance(*pr);
            }
            // NaN anywhere makes both comparisons false.
            swap < SWAP_RATIO * keep && keep - swap > 2.0 * k as f32 * typical
        });
        match run {
            Some(k) => {
                for (g, labels) in track.iter_mut().enumerate().skip(f).take(k) {
                    labels.swap(0, 1);
                    swapped.push(g);
                }
                f += k;
            }
            None => f += 1,
        }
    }
    swapped
}

/// How many frames either side [`reject_outliers`] compares a sample with.
const WINDOW: usize = 2;

/// Marks single-frame spikes as missing (NaN), for [`fill_gaps`](super::fill_gaps) to repair;
/// returns how many samples it marked.
///
/// A sample is a spike when its distance from the component-wise median of the same joint in
/// the two frames either side exceeds `threshold` times the motion expected there: the larger
/// of the clip's typical per-frame step (the median over all joints and frames) and the
/// joint's largest per-frame step between those neighbours. The local term keeps fast joints, a wrist in a
/// swing, from being mistaken for spikes; the clip-wide term keeps still joints from being
/// judged on their noise alone. A threshold of about 5 to 10 suits pose-estimator output.
///
/// Decisions are made on the input values, so one spike does not hide or create another;
/// samples with fewer than two present neighbours in the window are kept. Spikes lasting two
/// frames or more are not what this looks for (they raise the median too).
pub fn reject_outliers(kp: &mut Keypoints, threshold: f32) -> usize {
    if !threshold.is_finite() {
        return 0;
    }
    let (frames, joints) = (kp.frame_count, kp.joint_count);
    let positions = &kp.positions;
    let row = |f: usize| &positions[f * joints..(f + 1) * joints];
    // One sweep over the frames, five rows at a time, in memory order. The clip-wide scale is
    // not known until the sweep ends, so it keeps the suspects: samples farther than
    // `threshold` times their local motion, the few that the clip-wide scale may still excuse.
    let mut steps = StreamMedian::new();
    let mut suspects = Vec::new();
    // The five rows of the window, as flat coordinates with their presence and squared steps
    // from the row before: the medians of four then run over plain arrays of floats.
    let mut window: [Row; 2 * WINDOW + 1] = std::array::from_fn(|_| Row::new(joints));
    let mut centre = vec![0.0; 3 * joints];
    let mut loaded = 0;
    for f in 0..frames {
        while loaded < frames && loaded <= f + WINDOW {
            let previous = loaded.checked_sub(1).map(row);
            window[loaded % window.len()].load(row(loaded), previous, &mut steps);
            loaded += 1;
        }
        if !(threshold >= 0.0 && f >= WINDOW && f + WINDOW < frames) {
            for j in 0..joints {
                suspects.extend(judge(positions, frames, joints, f, j, threshold));
            }
            continue;
        }
        let [a, b, x, c, d] = [f - 2, f - 1, f, f + 1, f + 2].map(|g| &window[g % window.len()]);
        // Where a value is missing this is wrong, and unused.
        for ((((m, &a), &b), &c), &d) in
            centre.iter_mut().zip(&a.xyz).zip(&b.xyz).zip(&c.xyz).zip(&d.xyz)
        {
            let ((a, b), (c, d)) = (min_max(a, b), min_max(c, d));
            m.clone_from(&((min_max(a, c).1 + min_max(b, d).0) / 2.0));
        }
        let presence = (a.present.iter().zip(&b.present))
            .zip(x.present.iter().zip(&c.present).zip(&d.present))
            .map(|((&a, &b), ((&x, &c), &d))| (x, a & b & c & d));
        let moves = (x.xyz.chunks_exact(3).zip(centre.chunks_exact(3)))
            .zip(b.xyz.chunks_exact(3).zip(c.xyz.chunks_exact(3)))
            .zip(b.step.iter().zip(&d.step));
        for (j, ((x_present, all), (((x, m), (b, c)), (&before, &after)))) in
            presence.zip(moves).enumerate()
        {
            if !x_present {
                continue;
            }
            if all {
                let far = squared_distance(x, m);
                let near = before.max(0.25 * squared_distance(c, b)).max(after);
                if cleared(far, near, threshold) {
                    continue;
                }
                let samples = [f - 2, f - 1, f, f + 1, f + 2].map(|g| positions[g * joints + j]);
                if let Some(suspect) = judge_interior(samples, threshold) {
                    suspects.push((f * joints + j, suspect.0, suspect.1));
                }
            } else {
                suspects.extend(judge(positions, frames, joints, f, j, threshold));
            }
        }
    }

    let again = (1..frames)
        .flat_map(|f| row(f).iter().zip(row(f - 1)).map(|(p, q)| p.distance_squared(*q)))
        .filter(|step| step.is_finite());
    let clip_scale = match steps.median(again, f32::sqrt) {
        Some(m) if m > 0.0 => m,
        // Rare (most of the clip still): the mean, summed in the order it always was.
        _ => {
            let steps = (0..joints)
                .flat_map(|j| (1..frames).map(move |f| (f, j)))
                .map(|(f, j)| positions[f * joints + j].distance(positions[(f - 1) * joints + j]))
                .filter(|d| d.is_finite());
            steps.clone().sum::<f32>() / steps.count().max(1) as f32
        }
    };
    // NaN is no scale either.
    if clip_scale.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return 0;
    }
    let mut rejected = 0;
    for (i, distance, local) in suspects {
        if distance > threshold * clip_scale.max(local) {
            kp.positions[i] = Vec3::NAN;
            rejected += 1;
        }
    }
    rejected
}

/// A sample at `f` and its window, judged as [`reject_outliers`] describes: `(index,
/// distance from the neighbours' median, local per-frame motion)` when it is a suspect
/// (farther than `threshold` times the local motion, or any with a negative threshold).
fn judge(
    positions: &[Vec3],
    frames: usize,
    joints: usize,
    f: usize,
    j: usize,
    threshold: f32,
) -> Option<(usize, f32, f32)> {
    let at = |g: usize| positions[g * joints + j];
    if !at(f).is_finite() {
        return None;
    }
    let lo = f.saturating_sub(WINDOW);
    let hi = (f + WINDOW).min(frames - 1);
    let mut around = [(0, Vec3::ZERO); 2 * WINDOW];
    let mut n = 0;
    for g in (lo..=hi).filter(|&g| g != f && at(g).is_finite()) {
        around[n] = (g, at(g));
        n += 1;
    }
    if n < 2 {
        return None;
    }
    let around = &around[..n];
    let mut centre = Vec3::ZERO;
    for axis in 0..3 {
        let mut values = [0.0; 2 * WINDOW];
        for (v, (_, p)) in values.iter_mut().zip(around) {
            *v = p[axis];
        }
        centre[axis] = median(&mut values[..n]).unwrap_or(0.0);
    }
    // Per frame, between neighbours only: a spike at `f` must not excuse itself.
    let local = around
        .windows(2)
        .map(|w| w[1].1.distance(w[0].1) / (w[1].0 - w[0].0) as f32)
        .fold(0.0, f32::max);
    let distance = at(f).distance(centre);
    (threshold < 0.0 || distance > threshold * local).then_some((f * joints + j, distance, local))
}

/// [`judge`] for a sample `x` with all four neighbours `a, b` (before) and `c, d` (after)
/// present and a threshold not negative, the common case, with the same result: the medians
/// of four by a sorting network, and almost every sample [`cleared`] before any square root.
fn judge_interior([a, b, x, c, d]: [Vec3; 5], threshold: f32) -> Option<(f32, f32)> {
    // The middle two of four are the larger of the pairs' minima and the smaller of their
    // maxima, in some order; their sum does not depend on which is which.
    let centre = (a.min(b).max(c.min(d)) + a.max(b).min(c.max(d))) / 2.0;
    let far = x.distance_squared(centre);
    let near = b.distance_squared(a).max(0.25 * c.distance_squared(b)).max(d.distance_squared(c));
    if cleared(far, near, threshold) {
        return None;
    }
    let local = b.distance(a).max(c.distance(b) / 2.0).max(d.distance(c));
    let distance = x.distance(centre);
    (distance > threshold * local).then_some((distance, local))
}

/// Whether a sample whose squared distance from its neighbours' median is `far`, and whose
/// neighbours' largest squared per-frame step is `near`, is surely no suspect: within
/// `threshold` times the local motion with a margin (10⁻⁴) far above the rounding of squares
/// and roots, and no subnormal or overflowing product to spoil that.
fn cleared(far: f32, near: f32, threshold: f32) -> bool {
    let clear = threshold * threshold * (1.0 - 1e-4) * near;
    far == 0.0 || ((1e-30..=f32::MAX).contains(&clear) && far <= clear)
}

/// The squared distance of two points given as three coordinates, as
/// [`Vec3::distance_squared`] computes it.
fn squared_distance(p: &[f32], q: &[f32]) -> f32 {
    let d = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
}

/// The smaller and the larger of two finite numbers.
fn min_max(a: f32, b: f32) -> (f32, f32) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// One frame of [`reject_outliers`]'s window.
struct Row {
    /// The joints' coordinates, x, y, z after each other.
    xyz: Vec<f32>,
    /// Whether each joint is finite.
    present: Vec<bool>,
    /// Each joint's squared distance from the frame before (anything at the first frame).
    step: Vec<f32>,
}

impl Row {
    fn new(joints: usize) -> Row {
        Row { xyz: vec![0.0; 3 * joints], present: vec![false; joints], step: vec![0.0; joints] }
    }

    /// Takes the frame `row`, after `previous`, counting its finite steps into `steps`.
    fn load(&mut self, row: &[Vec3], previous: Option<&[Vec3]>, steps: &mut StreamMedian) {
        for ((xyz, present), p) in self.xyz.chunks_exact_mut(3).zip(&mut self.present).zip(row) {
            xyz.copy_from_slice(&p.to_array());
            *present = p.is_finite();
        }
        if let Some(previous) = previous {
            for ((step, p), q) in self.step.iter_mut().zip(row).zip(previous) {
                *step = p.distance_squared(*q);
                if step.is_finite() {
                    steps.add(*step);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
