//! Standing on the floor: the origin under the first frame's pelvis, the floor from the feet's
//! heights, no foot below it, and feet that stay put while they bear weight.
//!
//! The floor is a low percentile of each frame's lowest foot point (ankles, toes, heels as the
//! solved pose places them), so a few frames of noise below it do not sink the motion and a
//! jump does not lift it. Frames whose feet would still go below it are raised by the
//! difference. A foot is in contact while its lowest point is within a contact height of the
//! floor and moves slower than a contact speed; over each contact span its ankle is held at the
//! span's mean horizontal position by turning the thigh and shin (two-bone IK in the limb's own
//! bend plane), so the foot stops sliding without moving anything above the hip.

use super::lm::State;
use super::options::FloorMode;
use super::rig::{KeyedRig, Limb};
use super::solve::Observed;
use super::RetargetOptions;
use crate::roles::Role;
use glam::{DQuat, DVec3};

/// Where the motion was put.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Floor {
    /// The input's floor height, model units, before it was moved to the model's.
    pub height: f64,
    /// Frames raised because a foot was still below the floor.
    pub raised_frames: usize,
    /// Frames in which a foot was held for contact, both feet counted.
    pub contact_frames: usize,
    /// Deepest foot point below the floor after placement, units (0 when none is below).
    pub penetration: f64,
}

/// Moves the first frame's pelvis over the origin (horizontally).
pub(crate) fn place_origin(observed: &mut [Observed], options: &RetargetOptions) {
    if options.floor == FloorMode::Keep {
        return;
    }
    let Some(first) = observed.iter().find(|o| o[Role::Pelvis as usize].1 > 0.0) else {
        return;
    };
    let p = first[Role::Pelvis as usize].0;
    let shift = DVec3::new(-p.x, 0.0, -p.z);
    for o in observed.iter_mut() {
        for (p, _) in o.iter_mut() {
            *p += shift;
        }
    }
}

/// The lowest foot point of a solved frame.
pub(crate) fn lowest_foot(rig: &KeyedRig, state: &State) -> f64 {
    foot_points(rig).iter().map(|&a| state.point(rig, a).y).fold(f64::INFINITY, f64::min)
}

fn foot_points(rig: &KeyedRig) -> Vec<super::rig::Anchor> {
    use Role::*;
    [LeftAnkle, RightAnkle, LeftToe, RightToe, LeftHeel, RightHeel]
        .iter()
        .filter_map(|r| rig.anchor(*r))
        .collect()
}

/// A contact is within 0.5 % of the model's height of the floor…
const CONTACT_HEIGHT: f64 = 0.005;
/// …moving less than 0.4 % of the height per frame (about 0.2 m/s at 30 fps: estimator noise
/// on a planted foot, not a step).
const CONTACT_SPEED: f64 = 0.004;
/// A held foot is moved at most 2 % of the height from where the solve put it: beyond that the
/// span was not a contact after all, and holding would drag the leg.
const MAX_HOLD: f64 = 0.02;

pub(crate) fn ground(rig: &KeyedRig, states: &mut [State], options: &RetargetOptions) -> Floor {
    let rest_floor = foot_points(rig).iter().map(|a| a.rest.y).fold(f64::INFINITY, f64::min);
    let mut floor = Floor::default();
    if options.floor == FloorMode::Keep || states.is_empty() || !rest_floor.is_finite() {
        return floor;
    }
    let mut lows: Vec<f64> = states.iter().map(|s| lowest_foot(rig, s)).collect();
    lows.sort_by(f64::total_cmp);
    floor.height = lows[(lows.len() - 1) / 10];
    let lift = rest_floor - floor.height;
    for s in states.iter_mut() {
        s.translation.y += lift;
        s.place(rig);
    }
    // Contacts first: holding a foot turns the leg, which can lower the foot a little, and the
    // raise below then covers that too.
    for side in 0..2 {
        floor.contact_frames += hold_contacts(rig, states, side, rest_floor);
    }
    let deficit: Vec<f64> =
        states.iter().map(|s| (rest_floor - lowest_foot(rig, s)).max(0.0)).collect();
    // Raised smoothly: a step up on one frame would be a jolt of the whole body. A running
    // maximum over ±R frames, then a triangular mean over ±R, is never below the deficit
    // (every value the mean takes at a frame is a maximum over a window containing it).
    for (s, raise) in states.iter_mut().zip(smooth_envelope(&deficit, RAISE_RADIUS)) {
        if raise > 0.0 {
            s.translation.y += raise;
            s.place(rig);
            floor.raised_frames += 1;
        }
    }
    floor.penetration =
        states.iter().map(|s| (rest_floor - lowest_foot(rig, s)).max(0.0)).fold(0.0, f64::max);
    floor
}

/// Frames over which a raise is spread: a sixth of a second each way.
const RAISE_RADIUS: usize = 5;

/// A smooth curve never below `values`: the running maximum over ±`r`, then a triangular mean
/// over ±`r`.
fn smooth_envelope(values: &[f64], r: usize) -> Vec<f64> {
    let n = values.len();
    let max: Vec<f64> = (0..n)
        .map(|i| {
            values[i.saturating_sub(r)..(i + r + 1).min(n)].iter().copied().fold(0.0, f64::max)
        })
        .collect();
    (0..n)
        .map(|i| {
            let start = i.saturating_sub(r);
            let (mut sum, mut weights) = (0.0, 0.0);
            for (j, m) in max.iter().enumerate().take((i + r + 1).min(n)).skip(start) {
                let w = (r + 1 - i.abs_diff(j)) as f64;
                sum += w * m;
                weights += w;
            }
            sum / weights
        })
        .collect()
}

/// Finds one foot's contact spans and holds its ankle still over each; returns the frames held.
fn hold_contacts(rig: &KeyedRig, states: &mut [State], side: usize, floor: f64) -> usize {
    let leg = rig.legs[side];
    let h = rig.height;
    let points: Vec<_> =
        foot_points(rig).into_iter().filter(|a| rig.is_ancestor(leg.upper, a.bone)).collect();
    let ankle = |s: &State| s.pivot[leg.end];
    let low = |s: &State| points.iter().map(|&a| s.point(rig, a).y).fold(f64::INFINITY, f64::min);
    let contact: Vec<bool> = (0..states.len())
        .map(|f| {
            let near = low(&states[f]) - floor < CONTACT_HEIGHT * h;
            let prev = ankle(&states[f.saturating_sub(1)]);
            let next = ankle(&states[(f + 1).min(states.len() - 1)]);
            let speed = ((next - prev) * DVec3::new(1.0, 0.0, 1.0)).length() / 2.0;
            near && speed < CONTACT_SPEED * h
        })
        .collect();
    let mut held = 0;
    let mut f = 0;
    while f < contact.len() {
        if !contact[f] {
            f += 1;
            continue;
        }
        let start = f;
        while f < contact.len() && contact[f] {
            f += 1;
        }
        if f - start < 3 {
            continue;
        }
        let mean = states[start..f].iter().map(ankle).sum::<DVec3>() / (f - start) as f64;
        for s in &mut states[start..f] {
            let goal = DVec3::new(mean.x, s.pivot[leg.end].y, mean.z);
            if (goal - s.pivot[leg.end]).length() <= MAX_HOLD * h {
                reach(rig, s, leg, goal);
                held += 1;
            }
        }
    }
    held
}

/// Turns the limb's upper and lower bones so its end reaches `goal` (as near as the lengths
/// allow), keeping the bend plane and the end bone's world rotation.
pub(crate) fn reach(rig: &KeyedRig, s: &mut State, limb: Limb, goal: DVec3) {
    s.place(rig);
    let (hip, knee, ankle) = (s.pivot[limb.upper], s.pivot[limb.lower], s.pivot[limb.end]);
    let l1 = (rig.rest(limb.lower) - rig.rest(limb.upper)).length();
    let l2 = (rig.rest(limb.end) - rig.rest(limb.lower)).length();
    let to_goal = goal - hip;
    let d = to_goal.length().clamp((l1 - l2).abs() + 1e-9, l1 + l2 - 1e-9);
    let axis = to_goal.normalize_or(DVec3::NEG_Y);
    // The knee stays in the plane of hip, knee and goal, on the side it was.
    let old_axis = (ankle - hip).normalize_or(axis);
    let mut side = (knee - hip) - old_axis * (knee - hip).dot(old_axis);
    side = DQuat::from_rotation_arc(old_axis, axis) * side;
    let side = (side - axis * side.dot(axis)).normalize_or(axis.any_orthonormal_vector());
    let along = (l1 * l1 - l2 * l2 + d * d) / (2.0 * d);
    let out = (l1 * l1 - along * along).max(0.0).sqrt();
    let new_knee = hip + axis * along + side * out;
    let new_ankle = hip + axis * d;
    let turn_upper = DQuat::from_rotation_arc(
        (knee - hip).normalize_or(axis),
        (new_knee - hip).normalize_or(axis),
    );
    s.world[limb.upper] = (turn_upper * s.world[limb.upper]).normalize();
    let moved_ankle = new_knee + turn_upper * (ankle - knee);
    let turn_lower = DQuat::from_rotation_arc(
        (moved_ankle - new_knee).normalize_or(axis),
        (new_ankle - new_knee).normalize_or(axis),
    );
    s.world[limb.lower] = (turn_lower * turn_upper * s.world[limb.lower]).normalize();
    s.place(rig);
}
