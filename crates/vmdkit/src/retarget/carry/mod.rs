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
//! more closely (`fingers.rs`, measured by `measure.rs`); a finger bone the target lacks
//! (親指０) is folded into the next one of its finger (`fold.rs`). Morphs are found by name
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
mod fold;
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
    let all_plans = fingers::plan(source_model, target_model);
    let is_finger = |t: usize| all_plans.iter().any(|p| p.bone(t).is_some());
    // The source with the finger bones the target lacks folded into their children: every
    // key below is read from it; the source's key counts are the report's.
    let folded = fold::fold(source, source_model, &all_plans);
    let own_keys: HashMap<Vec<u8>, usize> = (tracks(source.bones.iter().map(|k| &k.name)))
        .into_iter()
        .map(|(n, k)| (n.bytes().to_vec(), k.len()))
        .collect();
    let source = &folded.motion;
    // Finger tracks, solved or not: which of the fit's, the copy's or the re-expression's
    // fingers stay is measured below. Each with its entry in the report.
    let mut finger_tracks: Vec<(usize, Vec<usize>, usize)> = Vec::new();
    // Report entries of folded tracks, with the target bone they fold into.
    let mut folds: Vec<(usize, usize)> = Vec::new();
    for (name, keys) in tracks(source.bones.iter().map(|k| &k.name)) {
        let src = on_source.get(name.bytes()).copied();
        let tgt = on_target.get(name.bytes()).copied();
        let count = own_keys.get(name.bytes()).copied().unwrap_or(0);
        let into = folded.folded.iter().find(|(n, _)| n.bytes() == name.bytes());
        if let Some(t) = into.and_then(|(_, into)| on_target.get(into.bytes())) {
            folds.push((report.bone_tracks.len(), *t));
            let name = name.to_string_lossy();
            report.bone_tracks.push(BoneTrack { name, keys: count, fate: BoneFate::Folded });
            continue;
        }
        if let (Some(_), Some(t)) = (src, tgt) {
            if is_finger(t) {
                let fate = match solved_bones.contains(&t) {
                    true => BoneFate::Solved,
                    false => BoneFate::Copied,
                };
                finger_tracks.push((t, keys.clone(), report.bone_tracks.len()));
                let name = name.to_string_lossy();
                report.bone_tracks.push(BoneTrack { name, keys: count, fate });
                continue;
            }
        }
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
    let plans: Vec<fingers::HandPlan> = (all_plans.into_iter())
        .filter(|p| finger_tracks.iter().any(|(t, _, _)| p.bone(*t).is_some()))
        .collect();
    let tracks_only: Vec<(usize, Vec<usize>)> =
        finger_tracks.iter().map(|(t, k, _)| (*t, k.clone())).collect();
    let methods = choose_fingers(inputs, source, &plans, &tracks_only, &mut report);
    let mut motion = solved.clone();
    for (_, keys) in &copied {
        for &k in keys {
            let key = &source.bones[k];
            report.scaled_translations += (key.translation != glam::Vec3::ZERO) as usize;
            motion.bones.push(scaled(key, size_ratio));
        }
    }
    for (plan, &method) in plans.iter().zip(&methods) {
        if method == FingerMethod::Solved {
            continue;
        }
        let target_bones = bone_key_names(plan, target_model);
        motion.bones.retain(|k| !target_bones.contains(&k.name));
        motion.bones.extend(carried_fingers(plan, method, &tracks_only, source, size_ratio));
        for (t, keys, entry) in &finger_tracks {
            if plan.bone(*t).is_some() {
                report.bone_tracks[*entry].fate = BoneFate::Copied;
                report.scaled_translations += keys
                    .iter()
                    .filter(|&&k| source.bones[k].translation != glam::Vec3::ZERO)
                    .count();
            }
        }
        if method == FingerMethod::Reexpressed {
            motion.bones.extend(unkeyed_fingers(plan, &tracks_only, target_model));
        }
    }
    for (plan, &method) in plans.iter().zip(&methods) {
        if method == FingerMethod::Solved {
            for (t, _, entry) in &finger_tracks {
                if plan.bone(*t).is_some() {
                    report.bone_tracks[*entry].fate = BoneFate::Solved;
                }
            }
            // The fit solved the finger from the source's joints, which the folded bone moved.
            for &(entry, t) in &folds {
                if plan.bone(t).is_some() {
                    report.bone_tracks[entry].fate = BoneFate::SolvedThrough;
                }
            }
        }
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

/// A finger segment this far from the source's on some frame is a flip, degrees: the finger
/// candidates that have one are taken only when every candidate has one.
pub const FLIP_DEGREES: f64 = 45.0;

/// How one hand's fingers reach the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FingerMethod {
    /// The body fit's finger keys, solved from the source model's finger joints.
    Solved,
    /// The source's local rotations as they are.
    Copied,
    /// The source's rotations turned so each segment keeps its direction in the hand.
    Reexpressed,
}

/// The names of the target's finger bones of `plan`, as keys spell them.
fn bone_key_names(plan: &fingers::HandPlan, target: &Model) -> Vec<KeyName> {
    plan.bones.iter().map(|b| target.bones[b.target].name_cp932).collect()
}

/// The source's keys of `plan`'s finger bones, copied or re-expressed.
fn carried_fingers<'a>(
    plan: &'a fingers::HandPlan,
    method: FingerMethod,
    tracks: &'a [(usize, Vec<usize>)],
    source: &'a Motion,
    size_ratio: f64,
) -> impl Iterator<Item = BoneKey> + 'a {
    (tracks.iter()).filter_map(move |(t, keys)| Some((plan.bone(*t)?, keys))).flat_map(
        move |(bone, keys)| {
            keys.iter().map(move |&k| match method {
                FingerMethod::Reexpressed => fingers::reexpress(bone, &source.bones[k], size_ratio),
                _ => scaled(&source.bones[k], size_ratio),
            })
        },
    )
}

/// Per hand plan, how its fingers reach the target: the body fit's solved fingers (when the
/// fit keyed them), the source's rotations copied, or re-expressed — whichever follows the
/// source's fingers most closely, all measured and reported.
fn choose_fingers(
    inputs: &CarryInputs,
    folded: &Motion,
    plans: &[fingers::HandPlan],
    tracks: &[(usize, Vec<usize>)],
    report: &mut CarryReport,
) -> Vec<FingerMethod> {
    if plans.is_empty() {
        return Vec::new();
    }
    let CarryInputs { source, source_model, target_model, solved, size_ratio } = *inputs;
    let last = solved.frame_range().map_or(0, |(_, last)| last);
    let times = measure::times(last);
    let source_skeleton = Skeleton::new(source_model);
    let target_skeleton = Skeleton::new(target_model);
    let from = measure::directions(plans, &source_skeleton, source, &times, false);
    let candidate = |method: FingerMethod| {
        let mut m = solved.clone();
        if method != FingerMethod::Solved {
            for plan in plans {
                let names = bone_key_names(plan, target_model);
                m.bones.retain(|k| !names.contains(&k.name));
                m.bones.extend(carried_fingers(plan, method, tracks, folded, size_ratio));
                if method == FingerMethod::Reexpressed {
                    m.bones.extend(unkeyed_fingers(plan, tracks, target_model));
                }
            }
        }
        let to = measure::directions(plans, &target_skeleton, &m, &times, true);
        measure::errors(&from, &to, plans.len())
    };
    let fit_keys_fingers = |plan: &fingers::HandPlan| {
        let names = bone_key_names(plan, target_model);
        solved.bones.iter().any(|k| names.contains(&k.name))
    };
    let any_solved = plans.iter().any(fit_keys_fingers);
    let solved_errors = any_solved.then(|| candidate(FingerMethod::Solved));
    let (copy, re) = (candidate(FingerMethod::Copied), candidate(FingerMethod::Reexpressed));
    (plans.iter().enumerate())
        .map(|(i, p)| {
            let (c, r) = (copy[i], re[i]);
            let s = solved_errors.as_ref().filter(|_| fit_keys_fingers(p)).map(|e| e[i]);
            // The lowest mean wins, but a candidate that turns some segment past
            // FLIP_DEGREES on some frame (a flip the mean hides) only when all do.
            let candidates = [
                (FingerMethod::Copied, Some(c)),
                (FingerMethod::Reexpressed, Some(r)),
                (FingerMethod::Solved, s),
            ];
            let usable = |e: &measure::Errors| e.max <= FLIP_DEGREES;
            let any_usable = candidates.iter().any(|(_, e)| e.as_ref().is_some_and(usable));
            let method = (candidates.iter())
                .filter_map(|(m, e)| Some((*m, (*e)?)))
                .filter(|(_, e)| !any_usable || usable(e))
                .min_by(|a, b| a.1.mean.total_cmp(&b.1.mean))
                .map_or(FingerMethod::Copied, |(m, _)| m);
            report.fingers.push(FingerReport {
                side: ["left", "right"][p.side],
                bones: p.bones.len(),
                rest_disagreement_degrees: p.disagreement,
                axes_agree: p.agree(),
                method: match method {
                    FingerMethod::Solved => "solved",
                    FingerMethod::Copied => "copied",
                    FingerMethod::Reexpressed => "re-expressed",
                },
                solved_mean_degrees: s.map(|s| s.mean),
                solved_max_degrees: s.map(|s| s.max),
                copied_mean_degrees: c.mean,
                copied_max_degrees: c.max,
                reexpressed_mean_degrees: r.mean,
                reexpressed_max_degrees: r.max,
                hand_mean_degrees: s.map_or(c.hand_mean, |s| s.hand_mean),
                frames: times.len(),
            });
            method
        })
        .collect()
}
