//! One hand's points → its palm rotation and every finger bone's local rotation (the module
//! documentation of `fingers` says how each joint is treated).

use super::bend::{bend_axis, plane};
use super::bones::{FingerBones, FingerRig, RestFinger};
use super::twist::Hinges;
use super::{MAX_HINGE_TILT_DEGREES, MAX_HYPEREXTENSION_DEGREES, MAX_THUMB_HYPEREXTENSION_DEGREES};
use crate::math::{frame_rotation, shortest_arc};
use crate::roles::{Finger, Side};
use glam::{DQuat, DVec3};

/// One hand's points in MMD's axes (any scale: only directions are used), in the order of
/// [`Role::hand_points`](crate::roles::Role::hand_points); `None` where a point is missing.
pub type HandPoints = [Option<DVec3>; 21];

/// One hand solved by [`solve_hand`].
#[derive(Clone, Debug, PartialEq)]
pub struct HandPose {
    /// The hand's rotation in model space: it takes the model's palm at rest onto the input's.
    /// The retargeting gives it to 手首 (as a world rotation) when it solves the body too.
    pub palm: DQuat,
    /// Every finger bone of the side, as [`FingerRig::bones`] lists them (skeleton index), and
    /// its local rotation (in its parent's frame, as a VMD key holds it). Fingers whose first
    /// segment is missing stay at rest.
    pub bones: Vec<(usize, DQuat)>,
    /// Joints held at a backward-bend limit (the fingers' or the thumb's).
    pub clamps: usize,
}

/// Index of the wrist and of the index, middle and little fingers' MCPs in a hand's points.
const WRIST: usize = 0;
const INDEX_MCP: usize = 5;
const MIDDLE_MCP: usize = 9;
const PINKY_MCP: usize = 17;

/// The hand of `side` posed after `points`: `None` when the model has no such hand or the
/// points lack the wrist, the index finger's MCP or the little finger's, without which the
/// palm has no frame.
pub fn solve_hand(rig: &FingerRig, side: Side, points: &HandPoints) -> Option<HandPose> {
    let hand = rig.hands[side as usize].as_ref()?;
    let (w, i, p) = (points[WRIST]?, points[INDEX_MCP]?, points[PINKY_MCP]?);
    let index = Finger::Index as usize;
    let rest_i = hand.fingers[index].points[0];
    let rest_m = hand.fingers[Finger::Middle as usize].points[0];
    let rest_p = hand.fingers[Finger::Pinky as usize].points[0];
    let rest_w = hand.wrist_rest;
    // The middle finger's MCP steadies the palm's long axis; without it, the MCPs' mean.
    let (m, rest_m) = match points[MIDDLE_MCP] {
        Some(m) => (m, rest_m),
        None => ((i + p) / 2.0, (rest_i + rest_p) / 2.0),
    };
    let palm = frame_rotation(rest_m - rest_w, rest_i - rest_p, m - w, i - p);
    let to_hand = palm.inverse();
    // The thumb flexes toward the little finger's base: the side its backward bend is limited on.
    let palm_target = to_hand * (p - w);
    let mut out = HandPose { palm, bones: Vec::with_capacity(15), clamps: 0 };
    for (f, (finger, rest)) in hand.fingers.iter().zip(&hand.rest).enumerate() {
        let observed: [Option<DVec3>; 4] =
            std::array::from_fn(|k| points[1 + 4 * f + k].map(|q| to_hand * (q - w)));
        let thumb = (f == Finger::Thumb as usize).then_some(palm_target);
        solve_finger(finger, rest, &observed, thumb, &mut out);
    }
    Some(out)
}

/// One finger's bones, appended to `out.bones`. `observed` are its points in the hand's frame
/// (the palm turned back to rest); `thumb` is the point the thumb flexes toward (the little
/// finger's MCP, hand's frame) when the finger is the thumb.
fn solve_finger(
    finger: &FingerBones,
    rest: &RestFinger,
    observed: &[Option<DVec3>; 4],
    thumb: Option<DVec3>,
    out: &mut HandPose,
) {
    let RestFinger { dir: rest_dir, first, axis: rest_axis } = *rest;
    let dir: [Option<DVec3>; 3] = std::array::from_fn(|k| {
        observed[k].zip(observed[k + 1]).and_then(|(a, b)| (b - a).try_normalize())
    });
    let Some(base_dir) = dir[first] else {
        out.bones.extend(finger.segments.iter().flatten().map(|&b| (b, DQuat::IDENTITY)));
        return;
    };
    let swung = shortest_arc(rest_dir[first], base_dir) * rest_axis;
    // The thumb's roll is left to the swing: four points show it only through the thumb's bend
    // plane, whose sign is a coin toss when that plane stands across the palm's bend direction
    // (the shared video's thumbs-up holds it there for 40 frames), and the wrong sign rolls the
    // whole thumb over by 180° between two frames. The thumb's bones are not hinges, so its
    // directions are still followed exactly by the swings below.
    let axis = match thumb {
        Some(_) => swung,
        None => bend_axis(swung, plane(&dir, first), base_dir),
    };
    let base = frame_rotation(rest_dir[first], rest_axis, base_dir, axis);
    let thumb = thumb.map(|target| ThumbFlexion { ip: observed[2], target });
    let chain = Chain { rest_dir, dir, first, rest_axis, thumb };
    // The base's twist is where the bend plane puts it; a finger's model segments are never
    // quite in one plane, so the twist that lets the hinges reach the input best may differ a
    // little (a straight finger's plane says nothing): searched near it, the plane's twist
    // winning ties (`twist`).
    let base = if chain.thumb.is_some() {
        base
    } else {
        // Most fingers keep the plane's twist: no turn to apply.
        match Hinges::new(base, &rest_dir, &dir, rest_axis).best_twist() {
            0.0 => base,
            twist => (DQuat::from_axis_angle(base_dir, twist) * base).normalize(),
        }
    };
    out.bones.push((finger.segments[first].unwrap(), base));
    let (locals, clamps) = chain.distal(base);
    out.clamps += clamps;
    for (bone, local) in finger.segments.iter().zip(locals).skip(first + 1) {
        if let (Some(bone), Some(local)) = (bone, local) {
            out.bones.push((*bone, local));
        }
    }
}

/// One finger's rest and observed segment directions (in the hand's frame), its first turning
/// segment and its bend axis at rest; for the thumb, where it flexes toward.
struct Chain {
    rest_dir: [DVec3; 3],
    dir: [Option<DVec3>; 3],
    first: usize,
    rest_axis: DVec3,
    thumb: Option<ThumbFlexion>,
}

/// Which way a thumb's IP joint flexes: toward the little finger's base (the palm's far side),
/// as the thumb folds across the palm. The thumb's roll is not known (see `solve_finger`), so
/// its flexion axis cannot come from the base's frame as a finger's does; the input's own
/// points give it. Only the IP is limited: it is a true hinge, while 親指１ on an MMD model
/// often does the CMC's work too (a model without 親指０, or a motion keyed for one) and
/// swings sideways well past any anatomical MCP limit (wavefile_v2 turns it 35° away from the
/// little finger on the trace model).
struct ThumbFlexion {
    /// The thumb's observed IP joint in the hand's frame.
    ip: Option<DVec3>,
    /// The little finger's MCP in the hand's frame.
    target: DVec3,
}

/// Below this sine of the angle between the thumb's end segment and the way to the little
/// finger's base (about 11°), the thumb points at it and its flexion side is noise: no limit.
const THUMB_SIDE_CONFIDENT: f64 = 0.2;

/// The thumb's end segment (IP to tip), the one [`ThumbFlexion`] limits.
const THUMB_END_SEGMENT: usize = 2;

impl ThumbFlexion {
    /// The local rotation that turns the thumb's segment `k` from `rest` toward `to` (both in
    /// the parent's frame, `world` taking that frame to the hand's); for the end segment, its
    /// backward bend held at [`MAX_THUMB_HYPEREXTENSION_DEGREES`]. Also whether it was held.
    fn turn(&self, k: usize, world: DQuat, rest: DVec3, to: DVec3) -> (DQuat, bool) {
        let free = (shortest_arc(rest, to), false);
        let Some(ip) = self.ip.filter(|_| k == THUMB_END_SEGMENT) else { return free };
        let toward = world.inverse() * (self.target - ip);
        let axis = rest.cross(toward);
        if axis.length_squared() <= (THUMB_SIDE_CONFIDENT * toward.length()).powi(2) {
            return free;
        }
        let axis = axis.normalize();
        let limit = -MAX_THUMB_HYPEREXTENSION_DEGREES.to_radians();
        if signed_angle(rest, to, axis) >= limit {
            return free;
        }
        // Held at the limit within the flexion plane, keeping the sideways part as it is.
        let side = to.dot(axis).clamp(-1.0, 1.0);
        let held = DQuat::from_axis_angle(axis, limit) * rest;
        (shortest_arc(rest, held * (1.0 - side * side).sqrt() + axis * side), true)
    }
}

impl Chain {
    /// The joints after the base, given the base's rotation: each one's local rotation (by
    /// segment) and the clamps.
    fn distal(&self, base: DQuat) -> ([Option<DQuat>; 3], usize) {
        let limit = -MAX_HYPEREXTENSION_DEGREES.to_radians();
        let (mut world, mut local, mut bend) = (base, base, 0.0);
        let (mut locals, mut clamps) = ([None; 3], 0);
        for (k, slot) in locals.iter_mut().enumerate().skip(self.first + 1) {
            let rest = self.rest_dir[k];
            local = if let Some(thumb) = &self.thumb {
                match self.dir[k] {
                    Some(d) => {
                        let (turn, held) = thumb.turn(k, world, rest, world.inverse() * d);
                        clamps += usize::from(held);
                        turn
                    }
                    // The thumb's IP follows half of its MCP's turn.
                    None => DQuat::IDENTITY.slerp(local, 0.5),
                }
            } else {
                let (hinge, angle) = match self.dir[k] {
                    Some(d) => hinge(self.rest_axis, rest, world.inverse() * d),
                    // The end joint bends with the middle one, by two thirds of its angle.
                    None if k == 2 => (self.rest_axis, bend * 2.0 / 3.0),
                    None => (self.rest_axis, 0.0),
                };
                bend = angle;
                if bend < limit {
                    bend = limit;
                    clamps += 1;
                }
                DQuat::from_axis_angle(hinge, bend)
            };
            world = (world * local).normalize();
            *slot = Some(local);
        }
        (locals, clamps)
    }
}

/// The axis (in the parent bone's frame) and angle that bend a segment from its rest direction
/// `rest` to `to`: the finger's bend axis `axis`, tilted as little as reaching `to` exactly
/// needs (an axis `h` reaches it when `h·rest = h·to`) — a model's finger segments are seldom
/// exactly square to any one axis, and an animator's bend axis is the model's, not the palm's.
/// A tilt beyond [`MAX_HINGE_TILT_DEGREES`] would be a sideways bend, not a hinge: then the
/// axis stays and the joint comes as near as the hinge allows.
fn hinge(axis: DVec3, rest: DVec3, to: DVec3) -> (DVec3, f64) {
    let h = match (to - rest).try_normalize() {
        Some(e) => (axis - e * axis.dot(e)).normalize_or(axis),
        None => axis,
    };
    let h = if h.dot(axis) < MAX_HINGE_TILT_DEGREES.to_radians().cos() { axis } else { h };
    (h, signed_angle(rest, to, h))
}

/// The angle about the unit `axis` from `from` to `to` (both seen along the axis).
fn signed_angle(from: DVec3, to: DVec3, axis: DVec3) -> f64 {
    let f = from - axis * from.dot(axis);
    let t = to - axis * to.dot(axis);
    f.cross(t).dot(axis).atan2(f.dot(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed-seed LCG's next value in [-1, 1).
    fn noise(state: &mut u64) -> f64 {
        *state =
            state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (*state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    fn jitter(state: &mut u64, v: DVec3, size: f64) -> DVec3 {
        (v + size * DVec3::new(noise(state), noise(state), noise(state))).normalize()
    }

    /// Fingers of a model whose segments are a little out of one plane, bent any way with
    /// some out-of-plane noise (the hard cases of the twist), and their untwisted base.
    fn fingers(n: usize) -> Vec<(Chain, DQuat, DVec3)> {
        let mut state = 7;
        (0..n)
            .map(|i| {
                let s = &mut state;
                let rest_dir = [DVec3::X, DVec3::X, DVec3::X].map(|d| jitter(s, d, 0.15));
                let rest_axis = (DVec3::Z - rest_dir[0] * rest_dir[0].z).normalize();
                let base_dir = jitter(s, DVec3::new(0.8, -0.3, 0.2), 0.5);
                let bend = |a: f64| DQuat::from_axis_angle(DVec3::Z, a);
                let (b1, b2) = (0.9 * (noise(s) + 0.8), 0.9 * (noise(s) + 0.8));
                let d1 = jitter(s, bend(b1) * DVec3::X, 0.1);
                let d2 = jitter(s, bend(b1 + b2) * DVec3::X, 0.1);
                let turn = shortest_arc(DVec3::X, base_dir);
                let mut dir = [Some(base_dir), Some(turn * d1), Some(turn * d2)];
                // Some inputs without a tip or a middle joint, as SMPL-X and gaps give.
                if i % 7 == 3 {
                    dir[2] = None;
                } else if i % 11 == 5 {
                    dir[1] = None;
                }
                let axis = (turn * DVec3::Z - base_dir * base_dir.dot(turn * DVec3::Z)).normalize();
                let base = frame_rotation(rest_dir[0], rest_axis, base_dir, axis).normalize();
                let chain = Chain { rest_dir, dir, first: 0, rest_axis, thumb: None };
                (chain, base, base_dir)
            })
            .collect()
    }

    /// The sum of squared angles (radians) between the segments `distal` reaches from `base`
    /// and the input's: the twist's cost measured on the bones themselves.
    fn distal_miss(chain: &Chain, base: DQuat) -> f64 {
        let (locals, _) = chain.distal(base);
        let (mut world, mut error) = (base, 0.0);
        let segments = locals.iter().zip(chain.rest_dir).zip(chain.dir);
        for ((local, rest), dir) in segments.skip(chain.first + 1) {
            world = (world * local.unwrap()).normalize();
            if let Some(d) = dir {
                let reached = world * rest;
                error += reached.cross(d).length().atan2(reached.dot(d)).powi(2);
            }
        }
        error
    }

    /// The search as it was: every 3° over ±45°, then every 0.3° around the best, `distal`
    /// measuring each twist.
    fn grid_twist(chain: &Chain, base: DQuat, along: DVec3) -> f64 {
        let cost =
            |t: f64| distal_miss(chain, DQuat::from_axis_angle(along, t) * base) + 1e-6 * t * t;
        let step = 3f64.to_radians();
        let pick = |centre: f64, step: f64, n: i32| {
            (-n..=n)
                .map(|i| centre + i as f64 * step)
                .map(|t| (cost(t), t))
                .fold((f64::INFINITY, 0.0), |a, b| if b.0 < a.0 { b } else { a })
                .1
        };
        pick(pick(0.0, step, 15), step / 10.0, 10)
    }

    /// A straight thumb along +X whose IP is at 2X and whose little-finger target lies toward
    /// +Z from it, its end segment turned `degrees` about -Y (toward the target when positive)
    /// and `side` degrees about +Z: where the end segment points, and the clamps.
    fn thumb_end(degrees: f64, side: f64) -> (DVec3, usize) {
        let to = DQuat::from_rotation_z(side.to_radians())
            * DQuat::from_axis_angle(DVec3::NEG_Y, degrees.to_radians())
            * DVec3::X;
        let joints = [DVec3::ZERO, DVec3::X, 2.0 * DVec3::X, 2.0 * DVec3::X + to];
        let thumb = ThumbFlexion { ip: Some(joints[2]), target: DVec3::new(2.0, 0.0, 3.0) };
        let dir = [Some(DVec3::X), Some(DVec3::X), Some(to)];
        let chain = Chain {
            rest_dir: [DVec3::X; 3],
            dir,
            first: 0,
            rest_axis: DVec3::Z,
            thumb: Some(thumb),
        };
        let (locals, clamps) = chain.distal(DQuat::IDENTITY);
        let world = locals[1].unwrap() * locals[2].unwrap();
        (world * DVec3::X, clamps)
    }

    #[test]
    fn a_thumb_bent_far_back_is_held_at_its_limit() {
        let limit = MAX_THUMB_HYPEREXTENSION_DEGREES;
        let along = |d: f64| DQuat::from_axis_angle(DVec3::NEG_Y, d.to_radians()) * DVec3::X;
        // 60° back: held at the limit, in the flexion plane.
        let (end, clamps) = thumb_end(-60.0, 0.0);
        assert_eq!(clamps, 1);
        assert!(end.angle_between(along(-limit)) < 1e-9, "{end}");
        // Within the limit, or bent the way a thumb folds: followed exactly.
        for degrees in [-limit + 1.0, -10.0, 0.0, 45.0, 90.0] {
            let (end, clamps) = thumb_end(degrees, 0.0);
            assert_eq!(clamps, 0, "{degrees}");
            assert!(end.angle_between(along(degrees)) < 1e-9, "{degrees}: {end}");
        }
        // A sideways part is kept as it is while the backward part is held.
        let (end, clamps) = thumb_end(-60.0, 20.0);
        assert_eq!(clamps, 1);
        let input = DQuat::from_rotation_z(20f64.to_radians()) * along(-60.0);
        assert!((end.y - input.y).abs() < 1e-9, "{end} vs {input}");
        assert!((end.x.atan2(end.z) - along(-limit).x.atan2(along(-limit).z)).abs() < 1e-9);
    }

    #[test]
    fn the_twists_cost_is_the_hinges_miss() {
        for (chain, base, along) in fingers(300) {
            let hinges = Hinges::new(base, &chain.rest_dir, &chain.dir, chain.rest_axis);
            for t in [-0.7, -0.2, 0.0, 0.05, 0.4, 0.8] {
                let by_distal = distal_miss(&chain, DQuat::from_axis_angle(along, t) * base);
                let (s, c) = f64::sin_cos(t);
                let by_hinges = hinges.miss(c, s);
                assert!((by_distal - by_hinges).abs() < 1e-9, "{t}: {by_distal} vs {by_hinges}");
            }
        }
    }

    #[test]
    fn the_twist_search_does_as_well_as_the_grid() {
        let (mut better, mut worse, mut same) = (0, 0, 0);
        let (mut sum_new, mut sum_grid) = (0.0, 0.0);
        for (chain, base, along) in fingers(1000) {
            let cost = |t: f64| {
                distal_miss(&chain, DQuat::from_axis_angle(along, t) * base) + 1e-6 * t * t
            };
            let new =
                cost(Hinges::new(base, &chain.rest_dir, &chain.dir, chain.rest_axis).best_twist());
            let grid = cost(grid_twist(&chain, base, along));
            (sum_new, sum_grid) = (sum_new + new, sum_grid + grid);
            match new - grid {
                d if d < -1e-12 => better += 1,
                d if d > 1e-12 => worse += 1,
                _ => same += 1,
            }
        }
        println!("better {better}, same {same}, worse {worse}; cost {sum_new} vs {sum_grid}");
        assert!(worse * 20 <= better + same + worse, "worse in {worse} of 1000");
        assert!(sum_new <= sum_grid, "{sum_new} > {sum_grid}");
    }
}
