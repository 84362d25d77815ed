//! Carrying a motion's other tracks over to the model it is sized for: what the body fit of
//! [`retarget`](super::retarget) does not solve — fingers, eyes, hair, skirts, accessories,
//! IK switches, morphs, camera, light and self-shadow — kept, each track accounted for.
//!
//! A bone track of the source motion is *solved* when the fit keys the bone on the target,
//! *solved through the body* when the bone moves the source's body joints (its motion is in
//! the solved bones), *copied* as local keys when the target has the bone and the fit does not
//! reach it, else dropped with the reason. Copied keys keep their curves; their translations
//! are scaled by the size the fit found. Fingers are copied, or re-expressed where the two
//! models' finger bones rest along other directions, whichever follows the source's fingers
//! more closely (`fingers.rs`, measured by `measure.rs`). Morphs are found by name
//! (`morphs.rs`); IK switches merged (`sections.rs`).
//!
//! ```no_run
//! use vmdkit::model::Model;
//! use vmdkit::retarget::{carry_over, CarryInputs};
//! # fn solved() -> vmdkit::Motion { unimplemented!() }
//! let source = vmdkit::Motion::read_file("dance.vmd")?;
//! let (author, mine) = (Model::read_file("author.pmx")?, Model::read_file("mine.pmx")?);
//! let body = solved(); // retarget's motion of the body, from the dance played on `author`
//! let carried = carry_over(&CarryInputs {
//!     source: &source,
//!     source_model: &author,
//!     target_model: &mine,
//!     solved: &body,
//!     size_ratio: 1.1,
//! });
//! println!("{} of {} bone tracks kept", carried.report.kept_bones(), carried.report.bone_tracks.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod fingers;
mod measure;
mod morphs;
mod reach;
mod report;
mod sections;

#[cfg(test)]
mod tests;

pub use report::{
    BoneFate, BoneTrack, CarryReport, FingerReport, MorphMatch, MorphTrack,
    FINGER_AXES_TOLERANCE_DEGREES,
};

use super::rig::{KeyedRig, Source};
use crate::format::{BoneKey, Motion};
use crate::model::Model;
use crate::skeleton::Skeleton;
use crate::text::KeyName;
use std::collections::HashMap;

/// What [`carry_over`] reads.
#[derive(Clone, Copy, Debug)]
pub struct CarryInputs<'a> {
    /// The motion as made for the source model.
    pub source: &'a Motion,
    /// The model it was made for.
    pub source_model: &'a Model,
    /// The model it is sized for.
    pub target_model: &'a Model,
    /// The body fit's motion for the target (what `retarget` made from `source` played on
    /// `source_model`).
    pub solved: &'a Motion,
    /// Target model units per source model unit ([`size_ratio`]).
    pub size_ratio: f64,
}

/// What [`carry_over`] made.
#[derive(Clone, Debug)]
pub struct Carried {
    /// The solved motion with every carried track added.
    pub motion: Motion,
    /// Track by track, what was kept and dropped.
    pub report: CarryReport,
}

/// Target model units per source model unit, from a fit's scale (model units per keypoint
/// unit) and the keypoint options the source was read off with.
pub fn size_ratio(fit: &super::RetargetReport, keypoints: &super::KeypointOptions) -> f64 {
    fit.scale * crate::skeleton::METRES_PER_UNIT / keypoints.units.metres()
}

/// Tracks of one section by name, in order of first appearance: (name, key indices).
fn tracks<'k>(names: impl Iterator<Item = &'k KeyName>) -> Vec<(KeyName, Vec<usize>)> {
    let mut order: Vec<(KeyName, Vec<usize>)> = Vec::new();
    let mut at: HashMap<Vec<u8>, usize> = HashMap::new();
    for (i, name) in names.enumerate() {
        let slot = *at.entry(name.bytes().to_vec()).or_insert_with(|| {
            order.push((*name, Vec::new()));
            order.len() - 1
        });
        order[slot].1.push(i);
    }
    order
}

/// A model's bones by the bytes a VMD names them with.
fn bones_by_key(model: &Model) -> HashMap<&[u8], usize> {
    let mut map = HashMap::new();
    for (i, b) in model.bones.iter().enumerate() {
        map.entry(b.name_cp932.bytes()).or_insert(i);
    }
    map
}

/// The source model's bones that move the joints its motion is read off as.
fn source_body(model: &Model) -> Vec<bool> {
    let skeleton = Skeleton::new(model);
    let Ok(rig) = KeyedRig::new(&skeleton) else { return vec![false; model.bones.len()] };
    let seeds = rig.sources.iter().flatten().flat_map(|s| match *s {
        Source::Head(b) => vec![reach::head_seed(model, b)],
        Source::Mean(a, b) => vec![reach::head_seed(model, a), reach::head_seed(model, b)],
        Source::Offset(b, _) => vec![Some(b)],
    });
    reach::drivers(model, seeds.flatten().collect::<Vec<_>>())
}

/// The source's tracks on the target: the body fit's motion with every other track the
/// source holds and the target can play, and a report of each track's fate.
pub fn carry_over(inputs: &CarryInputs) -> Carried {
    let CarryInputs { source, source_model, target_model, solved, size_ratio } = *inputs;
    let (on_source, on_target) = (bones_by_key(source_model), bones_by_key(target_model));
    let solved_bones: Vec<usize> = tracks(solved.bones.iter().map(|k| &k.name))
        .iter()
        .filter_map(|(n, _)| on_target.get(n.bytes()).copied())
        .collect();
    let touched = reach::drivers(target_model, solved_bones.iter().copied());
    let body = source_body(source_model);
    let mut report = CarryReport { size_ratio, ..CarryReport::default() };
    let mut copied: Vec<(usize, Vec<usize>)> = Vec::new();
    for (name, keys) in tracks(source.bones.iter().map(|k| &k.name)) {
        let src = on_source.get(name.bytes()).copied();
        let tgt = on_target.get(name.bytes()).copied();
        let fate = match (src, tgt) {
            (None, _) => BoneFate::MissingOnSource,
            (Some(s), None) if body[s] => BoneFate::SolvedThrough,
            (Some(_), None) => BoneFate::MissingOnTarget,
            (Some(_), Some(t)) if solved_bones.contains(&t) => BoneFate::Solved,
            (Some(s), Some(_)) if body[s] => BoneFate::SolvedThrough,
            (Some(_), Some(t)) if touched[t] => BoneFate::MovesSolvedBones,
            (Some(_), Some(t)) => {
                copied.push((t, keys.clone()));
                BoneFate::Copied
            }
        };
        report.bone_tracks.push(BoneTrack { name: name.to_string_lossy(), keys: keys.len(), fate });
    }
    let mut motion = solved.clone();
    let plans: Vec<fingers::HandPlan> = fingers::plan(source_model, target_model)
        .into_iter()
        .filter(|p| copied.iter().any(|(t, _)| p.bone(*t).is_some()))
        .collect();
    let reexpress = choose_fingers(inputs, &plans, &copied, &mut report);
    for (t, keys) in &copied {
        let finger = plans.iter().zip(&reexpress).find_map(|(p, &r)| Some((p.bone(*t)?, r)));
        for &k in keys {
            let key = &source.bones[k];
            let out = match finger {
                Some((bone, true)) => fingers::reexpress(bone, key, size_ratio),
                _ => scaled(key, size_ratio),
            };
            report.scaled_translations += (key.translation != glam::Vec3::ZERO) as usize;
            motion.bones.push(out);
        }
    }
    for (plan, _) in plans.iter().zip(&reexpress).filter(|(_, &r)| r) {
        motion.bones.extend(unkeyed_fingers(plan, &copied, target_model));
    }
    let morphs = morphs::Morphs::new(source_model, target_model);
    for (name, keys) in tracks(source.morphs.iter().map(|k| &k.name)) {
        let found = morphs.find(&name);
        if let Some((m, how)) = found {
            let renamed = match how {
                MorphMatch::Exact => name,
                _ => KeyName::encode(morphs.name(m)).0,
            };
            motion.morphs.extend(keys.iter().map(|&k| {
                let mut key = source.morphs[k];
                key.name = renamed;
                key
            }));
        }
        report.morph_tracks.push(MorphTrack {
            name: name.to_string_lossy(),
            keys: keys.len(),
            target: found.map(|(m, _)| morphs.name(m).to_string()),
            matched: found.map(|(_, how)| how),
        });
    }
    motion.cameras.extend_from_slice(&source.cameras);
    motion.lights.extend_from_slice(&source.lights);
    motion.shadows.extend_from_slice(&source.shadows);
    (report.camera_keys, report.light_keys, report.shadow_keys) =
        (source.cameras.len(), source.lights.len(), source.shadows.len());
    let (properties, kept) = sections::properties(source, solved, target_model, &touched);
    motion.properties = properties;
    report.ik_switches_kept = kept;
    motion.sections_present = motion.sections_present.max(source.sections_present);
    Carried { motion, report }
}

/// A key at frame 0 for each finger bone of a re-expressed hand that the source does not key
/// (it rests on the source): the turn that makes it rest along the source's direction, which
/// its keyed children's re-expression counts on.
fn unkeyed_fingers<'p>(
    plan: &'p fingers::HandPlan,
    copied: &'p [(usize, Vec<usize>)],
    target: &'p Model,
) -> impl Iterator<Item = BoneKey> + 'p {
    let keyed = |b: usize| copied.iter().any(|(t, _)| *t == b);
    plan.bones.iter().filter(move |b| !keyed(b.target)).map(move |b| {
        let mut key = BoneKey::new(target.bones[b.target].name_cp932, 0);
        key.rotation = (b.d_parent * b.d.inverse()).normalize().as_quat();
        key
    })
}

/// `key` with its translation scaled by `size`.
fn scaled(key: &BoneKey, size: f64) -> BoneKey {
    let mut out = *key;
    out.translation = (key.translation.as_dvec3() * size).as_vec3();
    out
}

/// Per hand plan, whether to re-express its fingers (true) or copy them: whichever follows
/// the source's fingers more closely, both measured and reported.
fn choose_fingers(
    inputs: &CarryInputs,
    plans: &[fingers::HandPlan],
    copied: &[(usize, Vec<usize>)],
    report: &mut CarryReport,
) -> Vec<bool> {
    if plans.is_empty() {
        return Vec::new();
    }
    let CarryInputs { source, source_model, target_model, solved, size_ratio } = *inputs;
    let last = solved.frame_range().map_or(0, |(_, last)| last);
    let times = measure::times(last);
    let source_skeleton = Skeleton::new(source_model);
    let target_skeleton = Skeleton::new(target_model);
    let from = measure::directions(plans, &source_skeleton, source, &times, false);
    let candidate = |re: bool| {
        let mut m = solved.clone();
        for (t, keys) in copied {
            let Some(bone) = plans.iter().find_map(|p| p.bone(*t)) else { continue };
            m.bones.extend(keys.iter().map(|&k| {
                let key = &source.bones[k];
                if re {
                    fingers::reexpress(bone, key, size_ratio)
                } else {
                    scaled(key, size_ratio)
                }
            }));
        }
        if re {
            for plan in plans {
                m.bones.extend(unkeyed_fingers(plan, copied, target_model));
            }
        }
        let to = measure::directions(plans, &target_skeleton, &m, &times, true);
        measure::errors(&from, &to, plans.len())
    };
    let (copy, re) = (candidate(false), candidate(true));
    plans
        .iter()
        .zip(copy.iter().zip(&re))
        .map(|(p, (c, r))| {
            let reexpressed = r.mean < c.mean;
            report.fingers.push(FingerReport {
                side: ["left", "right"][p.side],
                bones: p.bones.len(),
                rest_disagreement_degrees: p.disagreement,
                axes_agree: p.agree(),
                method: if reexpressed { "re-expressed" } else { "copied" },
                copied_mean_degrees: c.mean,
                copied_max_degrees: c.max,
                reexpressed_mean_degrees: r.mean,
                reexpressed_max_degrees: r.max,
                hand_mean_degrees: c.hand_mean,
                frames: times.len(),
            });
            reexpressed
        })
        .collect()
}
