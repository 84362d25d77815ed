//! The face's part of a retargeting: its keys added to the body's motion, or, for an input
//! that holds a face alone, a motion of the face's morphs, eyes and head with the body left at
//! rest.

use super::face::{self, FaceReport};
use super::{conditioning, RetargetError, RetargetOptions, RetargetReport, Retargeted};
use crate::format::Motion;
use crate::keypoints::{JointLayout, Keypoints};
use crate::skeleton::Skeleton;
use crate::text::LongName;

/// Whether `layout` carries a face and no body joint: the face is all there is to retarget.
pub(crate) fn face_only(layout: &JointLayout) -> bool {
    layout.face.is_some() && layout.joints.iter().all(|j| j.role.is_none())
}

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

/// A face alone: conditioned as a body would be, keyed on the model's morphs, eyes and
/// 首/頭; no other bone is keyed.
pub(crate) fn retarget_face_only(
    keypoints: &Keypoints,
    layout: &JointLayout,
    skeleton: &Skeleton,
    options: &RetargetOptions,
) -> Result<Retargeted, RetargetError> {
    let conditioned = conditioning::condition(keypoints, layout, options)?;
    if conditioned.keypoints.frame_count == 0 {
        return Err(RetargetError::Empty);
    }
    let mut motion = Motion::new(LongName::encode(&options.model_name).0);
    let face = add_face(&conditioned.keypoints, layout, skeleton, options, &mut motion, true);
    if face.as_ref().is_some_and(|f| f.frames_with_face == 0) {
        return Err(RetargetError::Empty);
    }
    let report = RetargetReport {
        layout: layout.name.clone(),
        frames: conditioned.keypoints.frame_count,
        body: false,
        fingers: None,
        bones: face
            .iter()
            .flat_map(|f| f.head_bones.iter().chain(&f.gaze_bones))
            .cloned()
            .collect(),
        keys: motion.bones.len(),
        dense_keys: motion.bones.len(),
        scale: 1.0,
        units_per_metre: None,
        scale_segments: 0,
        scale_spread: 0.0,
        floor: 0.0,
        raised_frames: 0,
        contact_frames: 0,
        penetration: 0.0,
        ik: options.ik,
        conditioning: conditioned.notes,
        handedness: Default::default(),
        residuals: Vec::new(),
        mean_residual: 0.0,
        directions: Vec::new(),
        mean_direction_degrees: 0.0,
        jitter: 0.0,
        input_jitter: 0.0,
        thinning_error: None,
        face,
    };
    Ok(Retargeted { motion, report })
}
