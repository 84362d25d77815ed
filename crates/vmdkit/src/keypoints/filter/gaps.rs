//! [`fill_gaps`]: missing and unconfident samples interpolated or held.

use crate::keypoints::Keypoints;
use glam::{DVec3, Vec3};

/// What [`fill_gaps`] did, per joint (indices are joint indices).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GapReport {
    /// Per joint, the samples interpolated inside gaps of at most `max_gap` frames.
    pub filled: Vec<usize>,
    /// Per joint, the samples held at the nearest present value: in longer gaps, and before
    /// the first or after the last present sample.
    pub held: Vec<usize>,
    /// Joints missing in every frame, left NaN throughout.
    pub empty_joints: Vec<usize>,
}

impl GapReport {
    /// Samples interpolated, over all joints.
    pub fn total_filled(&self) -> usize {
        self.filled.iter().sum()
    }

    /// Samples held, over all joints.
    pub fn total_held(&self) -> usize {
        self.held.iter().sum()
    }
}

/// Replaces every missing sample of `kp` by a value from its joint's present samples.
///
/// A sample is missing when it is not finite or its confidence is not above `min_confidence`
/// (as [`Keypoints::is_present`] decides). A gap of at most `max_gap` frames between two
/// present samples is filled with the cubic through those two and the present samples just
/// outside them (the frame before the first and after the second); where one of those outer
/// samples is missing too the curve is a quadratic, and with neither it is a straight line. Longer gaps take, frame by frame, the nearer of the
/// two present values (the earlier one on a tie); samples before the first and after the last
/// present one hold those. Joints with no present sample become NaN in every frame.
///
/// Confidences are left as they were, so a filled sample still reads as unconfident to
/// [`Keypoints::is_present`]: callers can tell measured from made-up values.
pub fn fill_gaps(kp: &mut Keypoints, min_confidence: f32, max_gap: usize) -> GapReport {
    let (frames, joints) = (kp.frame_count, kp.joint_count);
    let mut report =
        GapReport { filled: vec![0; joints], held: vec![0; joints], empty_joints: Vec::new() };
    let mut present = vec![false; frames];
    // Joints present throughout, the common case, need nothing: found in one sweep over the
    // frames in memory order. The others' presence is read 64 joints at a time, a bit each.
    let mut everywhere = vec![true; joints];
    for (f, row) in kp.positions.chunks_exact(joints.max(1)).enumerate() {
        match &kp.confidence {
            Some(c) => {
                let c = &c[f * joints..(f + 1) * joints];
                for ((e, p), &c) in everywhere.iter_mut().zip(row).zip(c) {
                    *e &= p.is_finite() & (c > min_confidence);
                }
            }
            None => {
                for (e, p) in everywhere.iter_mut().zip(row) {
                    *e &= p.is_finite();
                }
            }
        }
    }
    let mut bits = vec![0u64; frames];
    for first_joint in (0..joints).step_by(64) {
        let block = first_joint..(first_joint + 64).min(joints);
        if everywhere[block.clone()].iter().all(|&e| e) {
            continue;
        }
        for (f, word) in bits.iter_mut().enumerate() {
            let row = f * joints;
            let positions = &kp.positions[row + block.start..row + block.end];
            *word = match &kp.confidence {
                Some(c) => (positions.iter().zip(&c[row + block.start..row + block.end]))
                    .enumerate()
                    .fold(0, |w, (k, (p, &c))| {
                        w | (((p.is_finite() && c > min_confidence) as u64) << k)
                    }),
                None => (positions.iter().enumerate())
                    .fold(0, |w, (k, p)| w | ((p.is_finite() as u64) << k)),
            };
        }
        let everywhere = bits.iter().fold(!0u64, |all, w| all & w);
        for (k, j) in block.enumerate().filter(|&(k, _)| everywhere >> k & 1 == 0) {
            for (p, w) in present.iter_mut().zip(&bits) {
                *p = w >> k & 1 == 1;
            }
            fill_joint(kp, j, &present, max_gap, &mut report);
        }
    }
    report
}

/// [`fill_gaps`] for joint `j`, present in the frames `present` says.
fn fill_joint(
    kp: &mut Keypoints,
    j: usize,
    present: &[bool],
    max_gap: usize,
    report: &mut GapReport,
) {
    let (frames, joints) = (kp.frame_count, kp.joint_count);
    let (Some(first), Some(last)) =
        (present.iter().position(|&p| p), present.iter().rposition(|&p| p))
    else {
        for f in 0..frames {
            kp.positions[f * joints + j] = Vec3::NAN;
        }
        if frames > 0 {
            report.empty_joints.push(j);
        }
        return;
    };
    let at = |kp: &Keypoints, f: usize| kp.positions[f * joints + j].as_dvec3();

    let (head, tail) = (at(kp, first).as_vec3(), at(kp, last).as_vec3());
    for f in (0..first).chain(last + 1..frames) {
        kp.positions[f * joints + j] = if f < first { head } else { tail };
    }
    report.held[j] += first + (frames - 1 - last);

    let mut a = first;
    while a < last {
        let b = a + 1 + present[a + 1..].iter().position(|&p| p).unwrap_or(0);
        let gap = b - a - 1;
        if gap == 0 {
            a = b;
            continue;
        }
        let (pa, pb) = (at(kp, a), at(kp, b));
        if gap <= max_gap {
            // The outer neighbours, where present, bend the curve to the motion around
            // the gap; without them the polynomial drops to a quadratic or a line.
            let mut knots = [(0.0, DVec3::ZERO); 4];
            let mut n = 0;
            let before = a.checked_sub(1).filter(|&o| present[o]);
            let after = Some(b + 1).filter(|&o| o < frames && present[o]);
            for o in [before, Some(a), Some(b), after].into_iter().flatten() {
                knots[n] = (o as f64, at(kp, o));
                n += 1;
            }
            for f in a + 1..b {
                kp.positions[f * joints + j] = lagrange(&knots[..n], f as f64).as_vec3();
            }
            report.filled[j] += gap;
        } else {
            for f in a + 1..b {
                let p = if f - a <= b - f { pa } else { pb };
                kp.positions[f * joints + j] = p.as_vec3();
            }
            report.held[j] += gap;
        }
        a = b;
    }
}

/// The polynomial through `knots` (time, value), at `t`.
fn lagrange(knots: &[(f64, DVec3)], t: f64) -> DVec3 {
    knots
        .iter()
        .enumerate()
        .map(|(i, &(ti, pi))| {
            let weight: f64 = knots
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .map(|(_, &(tk, _))| (t - tk) / (ti - tk))
                .product();
            pi * weight
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(values: &[Option<f32>]) -> Keypoints {
        let mut kp = Keypoints::missing(values.len(), 1);
        for (f, v) in values.iter().enumerate() {
            if let Some(v) = v {
                kp.positions[f] = Vec3::new(*v, 2.0 * v, 0.0);
            }
        }
        kp
    }

    #[test]
    fn linear_data_is_filled_exactly() {
        let values: Vec<_> = (0..10).map(|f| (!(3..6).contains(&f)).then_some(f as f32)).collect();
        let mut kp = track(&values);
        let report = fill_gaps(&mut kp, 0.0, 5);
        assert_eq!((report.filled, report.held), (vec![3], vec![0]));
        for f in 0..10 {
            assert!((kp.positions[f].x - f as f32).abs() < 1e-5, "{f}");
        }
    }

    #[test]
    fn cubic_follows_a_curve() {
        let truth = |f: usize| (f as f32 * 0.2).sin();
        let values: Vec<_> = (0..20).map(|f| (!(8..11).contains(&f)).then_some(truth(f))).collect();
        let mut kp = track(&values);
        fill_gaps(&mut kp, 0.0, 3);
        let linear_error = (truth(9) - (truth(7) + truth(11)) / 2.0).abs();
        let error = (kp.positions[9].x - truth(9)).abs();
        assert!(error < linear_error / 5.0, "{error} vs {linear_error}");
    }

    #[test]
    fn long_and_end_gaps_are_held() {
        let mut kp = track(&[None, Some(1.0), None, None, None, None, Some(5.0), None]);
        let report = fill_gaps(&mut kp, 0.0, 2);
        let x: Vec<f32> = kp.positions.iter().map(|p| p.x).collect();
        assert_eq!(x, [1.0, 1.0, 1.0, 1.0, 5.0, 5.0, 5.0, 5.0]);
        assert_eq!((report.filled, report.held), (vec![0], vec![6]));
    }

    #[test]
    fn unconfident_samples_count_as_missing_and_empty_joints_are_listed() {
        let mut kp = Keypoints::missing(4, 2);
        for f in 0..4 {
            kp.positions[f * 2] = Vec3::splat(f as f32);
            kp.positions[f * 2 + 1] = Vec3::splat(9.0);
        }
        kp.positions[2] = Vec3::splat(100.0);
        kp.confidence = Some(vec![0.9, 0.1, 0.2, 0.1, 0.9, 0.1, 0.9, 0.1]);
        let report = fill_gaps(&mut kp, 0.5, 3);
        assert!((kp.positions[2].x - 1.0).abs() < 1e-5);
        assert_eq!(report.empty_joints, vec![1]);
        assert!(kp.positions[1].is_nan() && kp.positions[7].is_nan());
        assert_eq!(report.total_filled(), 1);
    }
}
