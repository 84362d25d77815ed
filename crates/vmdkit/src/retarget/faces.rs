//! The face's part of a retargeting: its keys added to the motion the body (or the hands)
//! made, or, for an input that holds a face alone, to an empty one: morphs, eyes and head with
//! the body left at rest.

use super::face::{self, FaceReport};
use super::RetargetOptions;
use crate::format::Motion;
use crate::keypoints::{JointLayout, Keypoints};
use crate::skeleton::Skeleton;

/// Adds the face's keys (morphs, gaze, and the head's turn when `key_head`) of the conditioned
/// (30 fps) keypoints to `motion`; `None` when the layout has no face.
pub(crate) fn add_face(
    conditioned: &Keypoints,
    layout: &JointLayout,
    skeleton: &Skeleton,
    options: &RetargetOptions,
    motion: &mut Motion,
    key_head: bool,
) -> Option<FaceReport> {
    let block = layout.face?;
    let track = face::track(conditioned, block, options.axes, options.face.calibrate_frames);
    let keys = face::keys(&track, skeleton, &options.face, key_head);
    // Gaze and head bones replace whatever the body keyed on them.
    let names: Vec<_> = keys.bones.iter().map(|k| k.name).collect();
    motion.bones.retain(|k| !names.contains(&k.name));
    motion.bones.extend(keys.bones);
    motion.morphs.extend(keys.morphs);
    Some(keys.report)
}
