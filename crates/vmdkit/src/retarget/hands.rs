//! The hands in the pipeline: every frame's fingers solved (`fingers/`), before the body, whose
//! 手首 takes the palm's turn where the body is solved too, frames without a hand held, and for a
//! hand-only input the scale and the input's hands placed on the model's.

use super::fingers::{self, solve_hand, FingerReport, HandPoints, HandPose};
use super::parts::Parts;
use super::rig::KeyedRig;
use super::scale::{self, median, Scale};
use super::solve::Observed;
use super::{RetargetError, RetargetOptions};
use crate::roles::{Role, Side};
use glam::{DQuat, DVec3};

/// The solved hands and the report's counts so far.
pub(crate) struct Hands {
    pub solved: fingers::Solved,
    pub report: FingerReport,
    /// Per frame, when the body is solved too: each side's palm where its hand was solved
    /// (not held), 手首's world rotation; keys.rs splits its twist off to 手捩.
    pub palms: Vec<[Option<DQuat>; 2]>,
}

/// The points of `side`'s hand in one frame.
fn hand_points(obs: &Observed, side: Side) -> HandPoints {
    Role::hand_points(side).map(|r| {
        let (p, w) = obs[r as usize];
        (w > 0.0).then_some(p)
    })
}

/// Every frame's hands: a hand whose points are too few holds the frame before's fingers.
/// `None` when no hand of the layout is on the model. The fingers need nothing of the body, so
/// this runs before it: where a hand was solved its palm is 手首's world rotation
/// ([`Hands::palms`]), which the body's solve then takes instead of fitting the hand itself.
pub(crate) fn solve(rig: &KeyedRig, observed: &[Observed], parts: Parts) -> Option<Hands> {
    let sides: Vec<usize> =
        (0..2).filter(|&s| parts.hands[s] && rig.fingers.has_hand(Side::BOTH[s])).collect();
    if sides.is_empty() {
        return None;
    }
    let mut report = FingerReport::default();
    let mut solved: fingers::Solved = Vec::with_capacity(observed.len());
    let mut palms = Vec::with_capacity(if parts.body { observed.len() } else { 0 });
    for obs in observed {
        let mut palm = [None, None];
        let mut frame: [Option<HandPose>; 2] = [None, None];
        for &s in &sides {
            match solve_hand(&rig.fingers, Side::BOTH[s], &hand_points(obs, Side::BOTH[s])) {
                Some(pose) => {
                    report.solved_frames[s] += 1;
                    report.clamps += pose.clamps;
                    palm[s] = Some(pose.palm);
                    frame[s] = Some(pose);
                }
                // Copied from the frame before only when held, not kept aside every frame.
                None => {
                    frame[s] = solved.last().and_then(|before| before[s].clone());
                    report.held_frames[s] += usize::from(frame[s].is_some());
                }
            }
        }
        solved.push(frame);
        if parts.body {
            palms.push(palm);
        }
    }
    Some(Hands { solved, report, palms })
}

/// The palm's size: wrist to the middle finger's MCP plus index MCP to little finger MCP.
fn palm_size(at: impl Fn(Role) -> Option<DVec3>, side: Side) -> Option<f64> {
    let p = Role::hand_points(side);
    let (w, i, m, l) = (at(p[0])?, at(p[5])?, at(p[9])?, at(p[17])?);
    Some((m - w).length() + (i - l).length())
}

/// The scale of a hand-only input: the model's palm size over the input's (median over frames
/// and hands).
pub(crate) fn scale(
    rig: &KeyedRig,
    frames: &[Observed],
    options: &RetargetOptions,
) -> Result<Scale, RetargetError> {
    if let Some(fixed) = scale::fixed(options) {
        return Ok(fixed);
    }
    let mut ratios = Vec::new();
    let mut sizes = Vec::with_capacity(frames.len());
    for side in Side::BOTH {
        let Some(model) = palm_size(|r| rig.fingers.rest(r), side) else { continue };
        sizes.clear();
        sizes.extend(frames.iter().filter_map(|f| {
            palm_size(|r| (f[r as usize].1 > 0.0).then_some(f[r as usize].0), side)
                .filter(|s| *s > 0.0)
        }));
        if let Some(input) = median(&mut sizes) {
            ratios.push(model / input);
        }
    }
    scale::from_ratios(ratios)
}

/// For a hand-only input: each frame's hands moved onto the model's hands at rest (their wrist
/// on 手首's head, their palm turned to the model's), where the motion leaves them, so that
/// the report compares like with like.
pub(crate) fn place_on_model(rig: &KeyedRig, observed: &mut [Observed], hands: &Hands) {
    for (obs, frame) in observed.iter_mut().zip(&hands.solved) {
        for side in Side::BOTH {
            let (Some(pose), Some(wrist)) =
                (&frame[side as usize], rig.fingers.rest(Role::hand_points(side)[0]))
            else {
                continue;
            };
            let points = Role::hand_points(side);
            let (from, present) = obs[points[0] as usize];
            if present <= 0.0 {
                continue;
            }
            let back = pose.palm.inverse();
            for r in points {
                let (p, w) = &mut obs[r as usize];
                if *w > 0.0 {
                    *p = wrist + back * (*p - from);
                }
            }
        }
    }
}
