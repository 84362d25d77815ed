//! Face and eyes: landmarks of a face mesh (MediaPipe's 468/478 points or iBUG's 68) to the
//! model's own facial morphs, the eyes' gaze and the head's turn.
//!
//! 1. `features.rs`: per frame, scale-free measures (eye aspect ratios, lip gap, mouth width,
//!    corner lift, brow heights, iris offsets).
//! 2. `calibration.rs`: the neutral face, medians over the clip (or its first frames), or
//!    population defaults for a photo or a short clip.
//! 3. `weights.rs`: measures against the neutral face → weights per [`MorphRole`], and the
//!    blinks' hysteresis.
//! 4. `roles.rs`: which of the model's morphs plays each role (standard names or a map).
//! 5. `gaze.rs`, `head.rs`: 両目 from the irises, 首/頭 from the face's rigid frame.
//!
//! The keypoints come in conditioned (smoothed without lag and at 30 fps) like the body's, so
//! the weights need no filter of their own; keys are thinned within [`WEIGHT_TOLERANCE`].

mod calibration;
mod features;
mod gaze;
mod head;
mod roles;
mod thin;
mod weights;

pub use calibration::{Calibration, CalibrationSource, MIN_CLIP_FRAMES};
pub(crate) use features::read_points;
pub use features::Features;
pub use gaze::{MAX_PITCH_DEGREES, MAX_YAW_DEGREES};
/// The head's turn split between 首 and 頭, for the body's solve to take the face's turn.
pub(crate) use head::split as split_head;
pub use head::NECK_SHARE;
pub use roles::{ModelMorph, MorphMap, MorphRole};
pub use weights::{CLOSED, CLOSING_START, OPEN_AT, SHUT_AT};

use super::axes::InputAxes;
use crate::format::{BoneKey, MorphKey, Motion};
use crate::keypoints::{FaceBlock, Keypoints};
use crate::skeleton::Skeleton;
use crate::text::KeyName;
use glam::{DQuat, DVec3};
use serde::Serialize;

/// Morph weights are thinned to keys no further than this from the per-frame weights.
pub const WEIGHT_TOLERANCE: f64 = 0.02;
/// Head and eye rotations are thinned to keys no further than this, degrees.
pub const ANGLE_TOLERANCE_DEGREES: f64 = 0.5;

/// What the face solver is told.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceOptions {
    /// The model's morphs; `None` when not known (no morph is keyed then, and the report says
    /// so). [`model_morphs`] lists a model's.
    pub model_morphs: Option<Vec<ModelMorph>>,
    /// The user's names for roles, over the standard ones.
    pub morph_map: Option<MorphMap>,
    /// Calibrate on the first this many frames (at 30 fps) instead of the whole clip.
    pub calibrate_frames: Option<usize>,
}

/// A model's morphs as the face solver looks them up.
pub fn model_morphs(model: &crate::model::Model) -> Vec<ModelMorph> {
    (model.morph_list.iter())
        .map(|m| ModelMorph { name: m.name.clone(), name_en: m.name_en.clone() })
        .collect()
}

/// Per frame, what the face asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceFrame {
    /// Per role (in [`MorphRole::ALL`]'s order), the weight, blinks after hysteresis.
    pub weights: [f64; MorphRole::ALL.len()],
    /// Gaze (yaw toward the model's left, pitch up), degrees, when the mesh has irises.
    pub gaze: Option<(f64, f64)>,
    /// The head's turn from facing the camera, in MMD's axes.
    pub head: Option<DQuat>,
}

impl FaceFrame {
    /// The weight of `role`.
    pub fn weight(&self, role: MorphRole) -> f64 {
        self.weights[role as usize]
    }
}

/// The face of a whole clip, frame by frame (`None` where no face was seen).
#[derive(Clone, Debug, PartialEq)]
pub struct FaceTrack {
    /// Per frame.
    pub frames: Vec<Option<FaceFrame>>,
    /// The neutral face measured against.
    pub neutral: Calibration,
    /// Where it came from.
    pub source: CalibrationSource,
    /// Per frame, the raw measures.
    pub features: Vec<Option<Features>>,
}

/// Every frame's face: measures, calibration, weights (blinks with hysteresis), gaze, head.
pub fn track(
    kp: &Keypoints,
    block: FaceBlock,
    axes: InputAxes,
    calibrate_frames: Option<usize>,
) -> FaceTrack {
    let joints = block.joints();
    let point = |f: usize, i: usize| {
        let p = kp.frame(f).get(joints.start + i).filter(|_| i < joints.len())?;
        p.is_finite().then(|| axes.to_mmd(p.as_dvec3()))
    };
    track_points(kp.frame_count, point, block, calibrate_frames)
}

/// [`track`] over `frames` frames whose mesh point `i` at frame `f` is `point(f, i)` (MMD's
/// axes, `None` when missing), wherever the caller keeps them: only the few points the
/// measures use are ever asked for, never the whole mesh.
pub(crate) fn track_points(
    frames: usize,
    point: impl Fn(usize, usize) -> Option<DVec3>,
    block: FaceBlock,
    calibrate_frames: Option<usize>,
) -> FaceTrack {
    let table = features::points(block.mesh);
    let features: Vec<Option<Features>> =
        (0..frames).map(|f| features::measure(|i| point(f, i), &table)).collect();
    let (neutral, source) = calibration::calibrate(
        &features,
        calibrate_frames,
        calibration::Calibration::defaults(block.mesh),
    );
    let raw: Vec<Option<weights::FrameWeights>> =
        features.iter().map(|f| f.as_ref().map(|f| weights::weights(f, &neutral))).collect();
    let eyes: Vec<Vec<f64>> = (0..2)
        .map(|k| {
            let closure: Vec<f64> =
                raw.iter().map(|w| w.as_ref().map_or(0.0, |w| w.closure[k])).collect();
            weights::hysteresis(&closure)
        })
        .collect();
    let frames = (raw.iter().enumerate())
        .map(|(i, w)| {
            let w = w.as_ref()?;
            let f = features[i].as_ref()?;
            let mut weights = w.roles;
            // Subject's right eye (k = 0) is the model's right: ウィンク右.
            let (right, left) = (eyes[0][i], eyes[1][i]);
            let both = right.min(left);
            weights[MorphRole::Blink as usize] = both;
            weights[MorphRole::BlinkLeft as usize] = left - both;
            weights[MorphRole::BlinkRight as usize] = right - both;
            let gaze = f.iris.map(|iris| gaze::angles(iris, neutral.iris));
            let p = |k: usize| point(i, k);
            let head = match (p(table.cheeks[0]), p(table.cheeks[1]), p(table.top), p(table.chin)) {
                (Some(r), Some(l), Some(t), Some(c)) => head::rotation(r, l, t, c),
                _ => None,
            };
            Some(FaceFrame { weights, gaze, head })
        })
        .collect();
    FaceTrack { frames, neutral, source, features }
}

/// One role's morph as driven.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrivenMorph {
    /// The role.
    pub role: MorphRole,
    /// The model's morph.
    pub morph: String,
    /// The largest weight keyed.
    pub max_weight: f64,
    /// Keys written.
    pub keys: usize,
}

/// A role the model has no morph for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MissingMorph {
    /// The role.
    pub role: MorphRole,
    /// The names looked for: the map's, or the standard ones.
    pub looked_for: Vec<String>,
}

/// The face section of a retargeting report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FaceReport {
    /// Output frames.
    pub frames: usize,
    /// Of those, frames with a face.
    pub frames_with_face: usize,
    /// Where the neutral face came from.
    pub calibration: CalibrationSource,
    /// The neutral face's measures.
    pub neutral: Calibration,
    /// Morphs keyed, one per role the model has.
    pub morphs: Vec<DrivenMorph>,
    /// Roles the model has no morph for, by the names looked for.
    pub missing: Vec<MissingMorph>,
    /// Whether the model's morphs were known at all.
    pub morphs_known: bool,
    /// Bones keyed for gaze (両目, or 左目 and 右目).
    pub gaze_bones: Vec<String>,
    /// Bones the face's turn drove (首, 頭): keyed here for a face alone, in the body's solve
    /// (frames with a face) where there is a body; empty when no frame had a face.
    pub head_bones: Vec<String>,
    /// Morph keys written.
    pub morph_keys: usize,
    /// Morph keys before thinning.
    pub dense_morph_keys: usize,
    /// Bone keys written (gaze and head).
    pub bone_keys: usize,
}

/// The face's keys and report.
#[derive(Clone, Debug, PartialEq)]
pub struct FaceKeys {
    /// Morph keys, thinned.
    pub morphs: Vec<MorphKey>,
    /// Gaze (and, when asked, head) bone keys, thinned.
    pub bones: Vec<BoneKey>,
    /// What was keyed.
    pub report: FaceReport,
}

/// Keys for `track` on `skeleton` with `options`; the head's turn onto 首/頭 only when
/// `key_head` (the body's solve otherwise keeps them).
pub fn keys(
    track: &FaceTrack,
    skeleton: &Skeleton,
    options: &FaceOptions,
    key_head: bool,
) -> FaceKeys {
    let n = track.frames.len();
    let mut report = FaceReport {
        frames: n,
        frames_with_face: track.frames.iter().flatten().count(),
        calibration: track.source,
        neutral: track.neutral,
        morphs: Vec::new(),
        missing: Vec::new(),
        morphs_known: options.model_morphs.is_some(),
        gaze_bones: Vec::new(),
        head_bones: Vec::new(),
        morph_keys: 0,
        dense_morph_keys: 0,
        bone_keys: 0,
    };
    // Every key per frame first, then one thinning of them all.
    let mut dense = Motion::new(Default::default());
    // The morphs' stored names, in the report's (roles') order.
    let mut morph_names = Vec::new();
    if let Some(morphs) = &options.model_morphs {
        for role in MorphRole::ALL {
            let Some(m) = roles::find(role, morphs, options.morph_map.as_ref()) else {
                let looked_for = match options.morph_map.as_ref().and_then(|m| m.get(role)) {
                    Some(name) => vec![name.to_string()],
                    None => role.standard_names().iter().map(|s| s.to_string()).collect(),
                };
                report.missing.push(MissingMorph { role, looked_for });
                continue;
            };
            // A morph two roles share (a map naming one morph twice) is keyed once.
            if report.morphs.iter().any(|d| d.morph == morphs[m].name) {
                continue;
            }
            let name = KeyName::encode(&morphs[m].name).0;
            let before = dense.morphs.len();
            dense.morphs.extend((track.frames.iter().enumerate()).filter_map(|(frame, f)| {
                let weight = f.as_ref()?.weight(role) as f32;
                Some(MorphKey { name, frame: frame as u32, weight })
            }));
            report.dense_morph_keys += dense.morphs.len() - before;
            morph_names.push(name);
            let morph = morphs[m].name.clone();
            report.morphs.push(DrivenMorph { role, morph, max_weight: 0.0, keys: 0 });
        }
    }
    let gaze: Vec<Option<DQuat>> = (track.frames.iter())
        .map(|f| f.as_ref().and_then(|f| f.gaze).map(|(y, p)| gaze::rotation(y, p)))
        .collect();
    if gaze.iter().any(Option::is_some) {
        let bones = match skeleton.bone_index("両目") {
            Some(b) => vec![b],
            None => ["左目", "右目"].iter().filter_map(|n| skeleton.bone_index(n)).collect(),
        };
        for b in bones {
            report.gaze_bones.push(skeleton.bone_name(b).to_string());
            dense.bones.extend(rotation_keys(skeleton, b, &gaze));
        }
    }
    if key_head {
        let turns: Vec<Option<DQuat>> =
            track.frames.iter().map(|f| f.as_ref().and_then(|f| f.head)).collect();
        for (name, neck) in [("首", true), ("頭", false)] {
            let Some(b) = skeleton.bone_index(name) else { continue };
            let part: Vec<Option<DQuat>> = (turns.iter())
                .map(|t| t.map(|t| if neck { head::split(t).0 } else { head::split(t).1 }))
                .collect();
            if part.iter().any(Option::is_some) {
                report.head_bones.push(name.to_string());
                dense.bones.extend(rotation_keys(skeleton, b, &part));
            }
        }
    }
    let mut bone_names: Vec<KeyName> = dense.bones.iter().map(|k| k.name).collect();
    bone_names.dedup();
    let mut thinned = thin::thin(dense);
    // The reduction gives tracks in its own order: back to the roles' (each track's keys stay
    // in frame order, the sort being stable).
    let order = |name: &KeyName| morph_names.iter().position(|n| n == name);
    thinned.morphs.sort_by_key(|k| order(&k.name));
    thinned.bones.sort_by_key(|k| bone_names.iter().position(|n| *n == k.name));
    for (driven, name) in report.morphs.iter_mut().zip(&morph_names) {
        let kept = thinned.morphs.iter().filter(|k| k.name == *name);
        for k in kept {
            driven.keys += 1;
            driven.max_weight = driven.max_weight.max(f64::from(k.weight));
        }
    }
    report.morph_keys = thinned.morphs.len();
    report.bone_keys = thinned.bones.len();
    FaceKeys { morphs: thinned.morphs, bones: thinned.bones, report }
}

/// One key per frame with a value, each on the previous one's hemisphere so that the played
/// turn between them is the short way.
fn rotation_keys(skeleton: &Skeleton, bone: usize, values: &[Option<DQuat>]) -> Vec<BoneKey> {
    let name = *skeleton.bone_key_name(bone);
    let mut previous: Option<DQuat> = None;
    (values.iter().enumerate())
        .filter_map(|(frame, q)| {
            let q = (*q)?;
            let q = if previous.is_some_and(|p| p.dot(q) < 0.0) { -q } else { q };
            previous = Some(q);
            let mut key = BoneKey::new(name, frame as u32);
            key.rotation = q.as_quat();
            Some(key)
        })
        .collect()
}

#[cfg(test)]
mod tests;
