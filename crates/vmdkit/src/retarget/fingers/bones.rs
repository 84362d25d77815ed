//! [`FingerRig`]: a model's finger bones by name, the rest position of each hand point, and
//! how to read the points off a posed skeleton.

use super::bend::{bend_axis, plane};
use crate::roles::{Finger, Role, Side};
use crate::skeleton::{Pose, Skeleton};
use glam::DVec3;

/// Where a hand point is on a posed skeleton.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PointSource {
    /// A bone's head (skeleton index).
    Head(usize),
    /// A point fixed in a bone's frame (skeleton index), at this rest position.
    Offset(usize, DVec3),
}

/// One finger on a model: its four points at rest (base to tip, as
/// [`Role::finger_points`] lists them) and the bone that turns each of its three segments.
#[derive(Clone, Debug)]
pub(crate) struct FingerBones {
    /// Rest positions, model space.
    pub points: [DVec3; 4],
    /// How each point is read off a pose.
    pub sources: [PointSource; 4],
    /// Per segment (point `i` → `i + 1`), the bone that turns it; `None` for a thumb
    /// metacarpal the model has no bone for (it moves with 手首).
    pub segments: [Option<usize>; 3],
}

/// One hand on a model.
#[derive(Clone, Debug)]
pub(crate) struct HandBones {
    /// 手首 (skeleton index) and its rest head: the hand's wrist point.
    pub wrist: usize,
    pub wrist_rest: DVec3,
    /// Thumb first.
    pub fingers: [FingerBones; 5],
    /// The same fingers at rest as the solve sees them, worked out once.
    pub rest: [RestFinger; 5],
}

/// The finger bones of a model, per side, where it has them all.
#[derive(Clone, Debug, Default)]
pub struct FingerRig {
    pub(crate) hands: [Option<HandBones>; 2],
}

/// The name stems of each finger's bones (`左` + stem + `１`…), thumb first.
const STEMS: [&str; 5] = ["親指", "人指", "中指", "薬指", "小指"];

/// Where 親指０'s head would be, as a share of the way from 手首's head to 親指１'s, for models
/// without it (about where semi-standard models put it).
const THUMB_CMC_SHARE: f64 = 0.3;

impl FingerRig {
    /// The finger bones of `skeleton`: a side counts when its 手首 and every finger's first two
    /// bones (and the third of the index…little fingers) exist. Names are matched with full-
    /// and half-width digits alike.
    pub fn new(skeleton: &Skeleton) -> FingerRig {
        FingerRig { hands: Side::BOTH.map(|side| hand(skeleton, side)) }
    }

    /// Whether the model has a hand on `side`.
    pub fn has_hand(&self, side: Side) -> bool {
        self.hands[side as usize].is_some()
    }

    /// The finger bones of `side` (skeleton indices) that [`solve_hand`](super::solve_hand)
    /// turns, in the order of [`HandPose::bones`](super::HandPose::bones).
    pub fn bones(&self, side: Side) -> Vec<usize> {
        (self.hands[side as usize].iter())
            .flat_map(|h| h.fingers.iter().flat_map(|f| f.segments.iter().flatten().copied()))
            .collect()
    }

    /// How many bones [`FingerRig::bones`] lists.
    pub fn bone_count(&self, side: Side) -> usize {
        self.bones(side).len()
    }

    /// The rest position of a hand point (model space), when the model has that hand.
    pub fn rest(&self, role: Role) -> Option<DVec3> {
        let (side, finger) = role.hand_part()?;
        let hand = self.hands[side as usize].as_ref()?;
        Some(match finger {
            None => hand.wrist_rest,
            Some(f) => {
                let i = Role::finger_points(side, f).iter().position(|&r| r == role)?;
                hand.fingers[f as usize].points[i]
            }
        })
    }

    /// Writes every hand point of a posed skeleton into `out` (indexed by [`Role`], weight 1).
    pub(crate) fn read(&self, skeleton: &Skeleton, pose: &Pose, out: &mut [(DVec3, f64)]) {
        for side in Side::BOTH {
            let Some(hand) = &self.hands[side as usize] else { continue };
            let points = Role::hand_points(side);
            out[points[0] as usize] = (pose.position(hand.wrist).as_dvec3(), 1.0);
            for (f, finger) in hand.fingers.iter().enumerate() {
                for (i, source) in finger.sources.iter().enumerate() {
                    let p = match *source {
                        PointSource::Head(b) => pose.position(b),
                        PointSource::Offset(b, rest) => {
                            pose.position(b)
                                + pose.rotation(b) * (rest.as_vec3() - skeleton.rest_position(b))
                        }
                    };
                    out[points[1 + 4 * f + i] as usize] = (p.as_dvec3(), 1.0);
                }
            }
        }
    }
}

/// A bone by name, trying full-width digits as written, then half-width ones.
fn find(skeleton: &Skeleton, name: &str) -> Option<usize> {
    skeleton.bone_index(name).or_else(|| {
        let half: String = name
            .chars()
            .map(|c| match c {
                '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
                c => c,
            })
            .collect();
        skeleton.bone_index(&half)
    })
}

fn hand(skeleton: &Skeleton, side: Side) -> Option<HandBones> {
    let prefix = match side {
        Side::Left => "左",
        Side::Right => "右",
    };
    let wrist = find(skeleton, &format!("{prefix}手首"))?;
    let rest = |b: usize| skeleton.rest_position(b).as_dvec3();
    let wrist_rest = rest(wrist);
    let mut fingers = Vec::with_capacity(5);
    for (f, stem) in Finger::ALL.iter().zip(STEMS) {
        let bone = |n: &str| find(skeleton, &format!("{prefix}{stem}{n}"));
        let thumb = *f == Finger::Thumb;
        let chain: Vec<usize> = if thumb {
            bone("０").into_iter().chain([bone("１")?, bone("２")?]).collect()
        } else {
            vec![bone("１")?, bone("２")?, bone("３")?]
        };
        let last = *chain.last().unwrap();
        let tip = bone("先")
            .or_else(|| {
                (*f == Finger::Index)
                    .then(|| find(skeleton, &format!("{prefix}人差指先")))
                    .flatten()
            })
            .filter(|&t| skeleton.parent(t) == Some(last));
        let (tip_rest, tip_source) = match tip {
            Some(t) => (rest(t), PointSource::Head(t)),
            None => {
                // A child of the last bone where there is one, else the last segment continued.
                let child = (0..skeleton.bone_count()).find(|&c| skeleton.parent(c) == Some(last));
                let before = chain[chain.len() - 2];
                let p = child
                    .map(rest)
                    .filter(|p| (*p - rest(last)).length() > 1e-4)
                    .unwrap_or(rest(last) + (rest(last) - rest(before)));
                (p, PointSource::Offset(last, p))
            }
        };
        let heads: Vec<(DVec3, PointSource)> =
            chain.iter().map(|&b| (rest(b), PointSource::Head(b))).collect();
        let (points, sources, segments) = if chain.len() == 3 {
            let [a, b, c] = [0, 1, 2].map(|i| heads[i]);
            let segments = [Some(chain[0]), Some(chain[1]), Some(chain[2])];
            ([a.0, b.0, c.0, tip_rest], [a.1, b.1, c.1, tip_source], segments)
        } else {
            let cmc = wrist_rest.lerp(heads[0].0, THUMB_CMC_SHARE);
            let cmc_source = PointSource::Offset(wrist, cmc);
            let segments = [None, Some(chain[0]), Some(chain[1])];
            (
                [cmc, heads[0].0, heads[1].0, tip_rest],
                [cmc_source, heads[0].1, heads[1].1, tip_source],
                segments,
            )
        };
        fingers.push(FingerBones { points, sources, segments });
    }
    let fingers: [FingerBones; 5] = fingers.try_into().ok()?;
    let rest = rest_fingers(&fingers, wrist_rest, side);
    Some(HandBones { wrist, wrist_rest, fingers, rest })
}

/// A finger at rest as [`super::solve_hand`] sees it: its segments' directions, its first turning
/// segment and its bend axis. The same every frame, so the rig keeps it
/// ([`rest_fingers`]).
#[derive(Clone, Debug)]
pub(crate) struct RestFinger {
    pub dir: [DVec3; 3],
    pub first: usize,
    pub axis: DVec3,
}

/// A hand's fingers at rest (thumb first), its wrist at `wrist`.
fn rest_fingers(fingers: &[FingerBones; 5], wrist: DVec3, side: Side) -> [RestFinger; 5] {
    let base = |f: Finger| fingers[f as usize].points[0] - wrist;
    // The palm's side: (index − wrist) × (little − wrist) points out of the palm of a left
    // hand in MMD's axes, out of the back of a right one.
    let sign = if side == Side::Left { 1.0 } else { -1.0 };
    let normal = (base(Finger::Index).cross(base(Finger::Pinky)) * sign).normalize_or(DVec3::NEG_Y);
    fingers.each_ref().map(|finger| {
        let rest = finger.points;
        let dir: [DVec3; 3] = std::array::from_fn(|k| (rest[k + 1] - rest[k]).normalize_or_zero());
        let first = finger.segments.iter().position(Option::is_some).unwrap_or(0);
        // The bend axis: flexion turns a segment toward the palm, about (direction × palm
        // normal); a finger already bent at rest shows its own plane.
        let guess = dir[first].cross(normal).normalize_or(DVec3::X);
        let axis = bend_axis(guess, plane(&dir.map(Some), first), dir[first]);
        RestFinger { dir, first, axis }
    })
}
