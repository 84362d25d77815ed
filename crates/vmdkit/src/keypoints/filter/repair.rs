//! [`repair_swaps`] and [`reject_outliers`]: label swaps and spikes of pose estimators.

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
    let mut steps = Vec::with_capacity(frames);
    let mut swapped = 0;
    for &(l, r) in pairs {
        assert!(l < joints && r < joints, "joint pair ({l}, {r}) out of range");
        let at =
            |kp: &Keypoints, f: usize| (kp.positions[f * joints + l], kp.positions[f * joints + r]);

        steps.clear();
        steps.extend((1..frames).filter_map(|f| {
            let ((l0, r0), (l1, r1)) = (at(kp, f - 1), at(kp, f));
            let step = (l1.distance(l0) + r1.distance(r0)) / 2.0;
            step.is_finite().then_some(step)
        }));
        let Some(typical) = median(&mut steps) else {
            continue;
        };

        let mut f = 1;
        while f + 1 < frames {
            let run = (1..=MAX_SWAP).take_while(|k| f + k < frames).find(|&k| {
                let ((lb, rb), (la, ra)) = (at(kp, f - 1), at(kp, f + k));
                let (mut keep, mut swap) = (0.0, 0.0);
                for i in 0..k {
                    let w = (i + 1) as f32 / (k + 1) as f32;
                    let (pl, pr) = (lb.lerp(la, w), rb.lerp(ra, w));
                    let (lf, rf) = at(kp, f + i);
                    keep += lf.distance(pl) + rf.distance(pr);
                    swap += rf.distance(pl) + lf.distance(pr);
                }
                // NaN anywhere makes both comparisons false.
                swap < SWAP_RATIO * keep && keep - swap > 2.0 * k as f32 * typical
            });
            match run {
                Some(k) => {
                    for g in f..f + k {
                        kp.positions.swap(g * joints + l, g * joints + r);
                        if let Some(c) = kp.confidence.as_mut() {
                            c.swap(g * joints + l, g * joints + r);
                        }
                    }
                    swapped += k;
                    f += k;
                }
                None => f += 1,
            }
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
    let (frames, joints) = (kp.frame_count, kp.joint_count);
    let mut steps: Vec<f32> = (0..joints)
        .flat_map(|j| (1..frames).map(move |f| (f, j)))
        .map(|(f, j)| kp.positions[f * joints + j].distance(kp.positions[(f - 1) * joints + j]))
        .filter(|d| d.is_finite())
        .collect();
    let mean = steps.iter().sum::<f32>() / steps.len().max(1) as f32;
    let clip_scale = match median(&mut steps) {
        Some(m) if m > 0.0 => m,
        _ => mean,
    };
    if !(clip_scale > 0.0 && threshold.is_finite()) {
        return 0;
    }

    let mut track = vec![Vec3::NAN; frames];
    let mut rejected = 0;
    for j in 0..joints {
        for (f, p) in track.iter_mut().enumerate() {
            *p = kp.positions[f * joints + j];
        }
        for f in 0..frames {
            if !track[f].is_finite() {
                continue;
            }
            let lo = f.saturating_sub(WINDOW);
            let hi = (f + WINDOW).min(frames - 1);
            let mut around = [(0, Vec3::ZERO); 2 * WINDOW];
            let mut n = 0;
            for g in (lo..=hi).filter(|&g| g != f && track[g].is_finite()) {
                around[n] = (g, track[g]);
                n += 1;
            }
            if n < 2 {
                continue;
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
            if track[f].distance(centre) > threshold * clip_scale.max(local) {
                kp.positions[f * joints + j] = Vec3::NAN;
                rejected += 1;
            }
        }
    }
    rejected
}

/// The median of `values` (the mean of the middle two for an even count), reordering them;
/// `None` when empty. Non-finite values must have been left out.
fn median(values: &mut [f32]) -> Option<f32> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let (below, &mut upper, _) = values.select_nth_unstable_by(n / 2, f32::total_cmp);
    Some(if n % 2 == 1 {
        upper
    } else {
        let lower = below.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (lower + upper) / 2.0
    })
}

#[cfg(test)]
mod tests;
