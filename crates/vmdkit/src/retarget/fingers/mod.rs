//! Fingers: a model's finger bones found by name ([`FingerRig`]), one hand's 21 points turned
//! into finger rotations ([`solve_hand`]), and the finger keys and measures the retargeting adds
//! to the body's.
//!
//! **Which model point is which hand point.** MediaPipe's hand has, per finger, four points:
//! the index…little fingers' MCP, PIP, DIP and tip, the thumb's CMC, MCP, IP and tip. On an MMD
//! model they are bone heads: MCP = head of 人指１, PIP = head of 人指２, DIP = head of 人指３,
//! tip = head of 人指先 (人差指先 in older models; where there is no tip bone, the point
//! continuing 人指３ by the middle segment's length, or the child of 人指３). The thumb: the
//! semi-standard 親指０ is the metacarpal, so CMC = head of 親指０, MCP = head of 親指１, IP =
//! head of 親指２, tip = 親指先. Models without 親指０ (初音ミク.pmx) keep 親指１ and ２ where the
//! semi-standard ones are — 親指１'s head sits at the MCP, a palm's length from the wrist — so
//! MCP and IP are the same bones, and the CMC is a point rigid with 手首, 30 % of the way from
//! 手首's head to 親指１'s (where 親指０'s head is in semi-standard models): the thumb's
//! metacarpal then does not move. The hand's wrist is 手首's head.
//!
//! **The solve** ([`solve_hand`]) works in the palm's frame: the rotation that takes the
//! model's palm (wrist, index, middle and little finger MCPs at rest) onto the observed one is
//! the hand's, and goes to 手首 when the body is solved too. In that frame:
//! * each finger's base (人指１…) points its first segment exactly where the input's does, and
//!   its twist is set by the plane the finger bends in (the normal of its segments), or by the
//!   palm when the finger is nearly straight and that plane is noise;
//! * its middle and end joints (２, ３) are hinges about the base's bend axis: they bend by the
//!   angle the input shows about that axis, at most [`MAX_HYPEREXTENSION_DEGREES`] backward (a
//!   clamp the report counts), never twisting. A missing tip (SMPL-X has none) bends the end
//!   joint by two thirds of the middle joint's bend, as real fingers couple them;
//! * the thumb is not a hinge: its first rotating bone (親指０, else 親指１) is set like a
//!   finger's base, the next ones turn by the shortest arc that points them along the input (two
//!   axes each, no twist); the IP's backward bend (away from the little finger's base, toward
//!   which a thumb folds) is held at [`MAX_THUMB_HYPEREXTENSION_DEGREES`], a clamp counted like
//!   a finger's; a missing tip turns 親指２ by half of 親指１'s turn.
//!
//! Every rotation is a local one (the bone's parent's frame), valid because MMD bones have no
//! rest orientation and the bones between a finger's base and 手首 (if any) stay at rest.

mod bend;
mod bones;
mod report;
mod solve;
mod twist;

pub use bones::FingerRig;
pub use report::FingerReport;
pub use solve::{solve_hand, HandPoints, HandPose};

pub(crate) use bones::PointSource;
pub(crate) use report::measure;

use crate::format::BoneKey;
use crate::roles::Side;
use crate::skeleton::Skeleton;
use glam::Quat;

/// Backward bend allowed at a finger's middle and end joints, degrees.
pub const MAX_HYPEREXTENSION_DEGREES: f64 = 10.0;

/// Backward bend allowed at the thumb's IP joint (親指２), degrees: away from the little
/// finger's base, toward which a thumb folds. Real thumbs bend further back than fingers: the
/// shared hand photos and video reach 24°.
pub const MAX_THUMB_HYPEREXTENSION_DEGREES: f64 = 30.0;

/// How far a middle or end joint's hinge may tilt from the finger's bend axis, degrees.
const MAX_HINGE_TILT_DEGREES: f64 = 30.0;

/// Per frame and side, the hand solved (or held from the frame before).
pub(crate) type Solved = Vec<[Option<HandPose>; 2]>;

/// Finger keys a solved clip adds per frame, with the hands of the sides `hands` driven.
pub(crate) fn keys_per_frame(rig: &FingerRig, hands: [bool; 2]) -> usize {
    Side::BOTH.iter().zip(hands).filter(|(_, h)| *h).map(|(&s, _)| rig.bone_count(s)).sum()
}

/// A key per frame for every finger bone of every hand solved at some frame (at rest before
/// its first solved frame), each on the hemisphere of the one before, handed to `put` with its
/// track's number, numbered on from `first_track` in the order the tracks first appear.
pub(crate) fn add_keys(
    skeleton: &Skeleton,
    solved: &Solved,
    first_track: usize,
    put: &mut impl FnMut(usize, BoneKey),
) {
    let mut track = first_track;
    for (s, _) in Side::BOTH.iter().enumerate() {
        let Some(first) = solved.iter().position(|f| f[s].is_some()) else { continue };
        let bones: Vec<usize> =
            solved[first][s].as_ref().unwrap().bones.iter().map(|b| b.0).collect();
        let mut previous: Vec<Option<Quat>> = vec![None; bones.len()];
        for (f, frame) in solved.iter().enumerate() {
            for (k, &bone) in bones.iter().enumerate() {
                let q = frame[s].as_ref().map_or(Quat::IDENTITY, |h| h.bones[k].1.as_quat());
                let q = match previous[k] {
                    Some(p) if p.dot(q) < 0.0 => -q,
                    _ => q,
                };
                previous[k] = Some(q);
                let mut key = BoneKey::new(*skeleton.bone_key_name(bone), f as u32);
                key.rotation = q;
                put(track + k, key);
            }
        }
        track += bones.len();
    }
}
