//! How closely the target's fingers follow the source's: each finger segment's world
//! direction on the target, played by the full evaluator, against the same segment of the
//! source motion played on the source model.

use super::fingers::{direction_error, posed_direction, End, HandPlan};
use crate::eval::MotionSampler;
use crate::format::Motion;
use crate::skeleton::{Binding, Pose, Poser, Skeleton};
use glam::DVec3;

/// Frames measured at most: evenly spread over the motion, so that a long dance costs no more
/// than a few seconds.
pub(super) const MAX_FRAMES: usize = 900;

/// The frames measured for a motion whose last frame is `last`.
pub(super) fn times(last: u32) -> Vec<f64> {
    let count = last as usize + 1;
    let stride = count.div_ceil(MAX_FRAMES).max(1);
    (0..count).step_by(stride).map(|f| f as f64).collect()
}

/// The segments measured on one hand, per model: the hand's (wrist to the middle finger's
/// base) first, then every finger bone whose segment both models can place.
fn segments(plan: &HandPlan, target: bool) -> Vec<(usize, End)> {
    let pick = |s: usize, t: usize| if target { t } else { s };
    let mut out =
        vec![(pick(plan.hand.0, plan.hand.1), End::Bone(pick(plan.hand_end.0, plan.hand_end.1)))];
    for b in &plan.bones {
        if let (Some(se), Some(te)) = b.ends {
            out.push((pick(b.source, b.target), if target { te } else { se }));
        }
    }
    out
}

/// Per time, per plan, the world direction of each segment in `motion` played on `skeleton`.
pub(super) fn directions(
    plans: &[HandPlan],
    skeleton: &Skeleton,
    motion: &Motion,
    times: &[f64],
    target: bool,
) -> Vec<Vec<Vec<DVec3>>> {
    let segments: Vec<Vec<(usize, End)>> = plans.iter().map(|p| segments(p, target)).collect();
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::new(skeleton, &sampler, &binding);
    let mut pose = Pose::new(skeleton);
    times
        .iter()
        .map(|&t| {
            poser.pose_at(t, &mut pose);
            segments
                .iter()
                .map(|s| s.iter().map(|&(b, e)| posed_direction(&pose, b, e)).collect())
                .collect()
        })
        .collect()
}

/// One hand's errors: the fingers' mean and largest, and the hand's own mean, degrees.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Errors {
    pub mean: f64,
    pub max: f64,
    pub hand_mean: f64,
}

/// Per plan, the errors of `target` directions against `source` ones.
pub(super) fn errors(
    source: &[Vec<Vec<DVec3>>],
    target: &[Vec<Vec<DVec3>>],
    plans: usize,
) -> Vec<Errors> {
    (0..plans)
        .map(|p| {
            let (mut sum, mut n, mut max, mut hand, mut hands) = (0.0, 0usize, 0.0f64, 0.0, 0usize);
            for (s, t) in source.iter().zip(target) {
                for (i, (a, b)) in s[p].iter().zip(&t[p]).enumerate() {
                    let Some(e) = direction_error(*a, *b) else { continue };
                    if i == 0 {
                        hand += e;
                        hands += 1;
                    } else {
                        sum += e;
                        n += 1;
                        max = max.max(e);
                    }
                }
            }
            Errors {
                mean: if n > 0 { sum / n as f64 } else { 0.0 },
                max,
                hand_mean: if hands > 0 { hand / hands as f64 } else { 0.0 },
            }
        })
        .collect()
}
