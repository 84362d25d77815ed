//! Which parts of the performer a layout carries, and so which parts the retargeting solves:
//! the body, each hand's fingers, the face. A layout with the body's joints drives the body
//! (and the fingers and face where it has them too); one without any body joint but with a
//! hand (MediaPipe Hands) drives the fingers alone, one with a face block alone the face alone,
//! leaving the rest of the model as it is.

use super::RetargetError;
use crate::keypoints::JointLayout;
use crate::roles::{Role, Side};

/// The parts a retargeting solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    /// The body: trunk, limbs, 手首, root translation, feet.
    pub body: bool,
    /// Per side (left, right), the fingers.
    pub hands: [bool; 2],
    /// The face (its solve is the face's own module's).
    pub face: bool,
}

/// The roles the body solve cannot do without: both hips, knees and ankles, both shoulders,
/// elbows and wrists (a pelvis comes from the hips where there is none).
const BODY: [Role; 12] = {
    use Role::*;
    [
        LeftHip,
        RightHip,
        LeftKnee,
        RightKnee,
        LeftAnkle,
        RightAnkle,
        LeftShoulder,
        RightShoulder,
        LeftElbow,
        RightElbow,
        LeftWrist,
        RightWrist,
    ]
};

/// Hand points without which a hand has no palm: its wrist, the index and little fingers'
/// MCPs (as `Role::hand_points` numbers them).
const PALM: [usize; 3] = [0, 5, 17];

impl Parts {
    /// The parts `layout` can drive; an error when it carries none, or some of the body's
    /// joints but not all of them.
    pub fn of(layout: &JointLayout) -> Result<Parts, RetargetError> {
        let hands = Side::BOTH.map(|side| {
            let points = Role::hand_points(side);
            PALM.iter().all(|&k| layout.has(points[k]))
        });
        let face = layout.face.is_some();
        let missing: Vec<String> =
            BODY.iter().filter(|r| !layout.has(**r)).map(|r| r.name().to_string()).collect();
        let none_of_body = missing.len() == BODY.len();
        if missing.is_empty() || (none_of_body && (hands.iter().any(|&h| h) || face)) {
            return Ok(Parts { body: missing.is_empty(), hands, face });
        }
        Err(RetargetError::LayoutTooSparse { layout: layout.name.clone(), missing })
    }
}
