//! Is an input of hands alone mirrored? Without a body there is no facing to judge by, but a
//! hand is chiral: the palm's orientation `(index MCP − wrist) × (little MCP − wrist)` points
//! out of the back of one side's hand and out of the palm of the other's, and fingers curl
//! toward the palm, so the sign of the fingertips' offsets from their MCPs along it tells a left
//! hand from a right one. In MMD's axes (left-handed) it is positive for a left hand: a left
//! hand resting in a T-pose, fingers along +X, index toward −Z, has that orientation along −Y,
//! and its fingers curl down.
//!
//! Per frame and hand the offsets are summed over the four fingers and divided by the palm's
//! length (wrist to middle MCP), so a fist scores about 2 to 4 and a flat hand about 0; the
//! median frame decides, and a median within [`MARGIN`] of 0 (fingers straight all clip long)
//! says nothing. The file's side labels and axes cannot be told apart from the hands alone (a
//! left hand labelled right looks as a mirrored right hand does), so a hand shaped as the other
//! side's is mirrored back (Z negated), as a mirrored body is, when every hand judged agrees;
//! the finger solve then reads the shape the labels say.

use super::handedness::HandednessCheck;
use super::scale::median;
use super::solve::Observed;
use crate::roles::{Role, Side};
use glam::DVec3;

/// A median chirality score within this of 0 gives no verdict (palm lengths, summed over the
/// four fingers).
pub const MARGIN: f64 = 0.15;

/// One frame's chirality score of one hand, positive for a left hand's shape, when its wrist,
/// MCPs and fingertips are all seen.
fn score(f: &Observed, side: Side) -> Option<f64> {
    let hand = Role::hand_points(side);
    let get = |k: usize| Some(f[hand[k] as usize]).filter(|o| o.1 > 0.0).map(|o| o.0);
    let wrist = get(0)?;
    let palm = (get(5)? - wrist).cross(get(17)? - wrist).try_normalize()?;
    let length = (get(9)? - wrist).length();
    if length <= 0.0 {
        return None;
    }
    let mut sum = 0.0;
    for (mcp, tip) in [(5, 8), (9, 12), (13, 16), (17, 20)] {
        sum += (get(tip)? - get(mcp)?).dot(palm);
    }
    Some(sum / length)
}

/// Judges each hand of `frames` and, when every hand judged is mirrored and `correct` is set,
/// negates Z.
pub(crate) fn check_and_correct(frames: &mut [Observed], correct: bool) -> HandednessCheck {
    let mut check = HandednessCheck::default();
    for (i, side) in Side::BOTH.into_iter().enumerate() {
        // A left hand scores positive: the sign that says "shaped as labelled".
        let sign = if side == Side::Left { 1.0 } else { -1.0 };
        let mut scores: Vec<f64> = frames.iter().filter_map(|f| score(f, side)).collect();
        check.hand_frames[i] = scores.len();
        check.hand_mirrored_frames[i] = scores.iter().filter(|s| sign * **s < 0.0).count();
        check.hand_mirrored[i] =
            median(&mut scores).filter(|m| m.abs() > MARGIN).map(|m| sign * m < 0.0);
    }
    let verdicts: Vec<bool> = check.hand_mirrored.iter().flatten().copied().collect();
    if correct && !verdicts.is_empty() && verdicts.iter().all(|&m| m) {
        for f in frames.iter_mut() {
            for (p, _) in f.iter_mut() {
                *p = DVec3::new(p.x, p.y, -p.z);
            }
        }
        check.hands_corrected = true;
    }
    check
}
