//! Sizing a finished dance onto another model keeps every track the source holds
//! (`vmdkit::retarget::carry_over`): wavefile_v2.vmd, made for 初音ミク.pmx, onto the trace
//! model and onto mei.pmd. The sets a test expects are computed here from the model files and
//! the VMD alone, never from the library's report. Figures:
//! `cargo test -p vmdkit --test it retarget_sizing:: -- --nocapture`.

use crate::common::skeleton::{MEI, MIKU, TRACE, WAVEFILE};
use std::collections::{BTreeSet, HashMap};
use vmdkit::keypoints::{JointLayout, LayoutJoint, Units};
use vmdkit::model::Model;
use vmdkit::retarget::{
    carry_over, keypoints_from_motion, retarget, size_ratio, BoneFate, CarryInputs,
    KeypointOptions, RetargetOptions,
};
use vmdkit::roles::Role;
use vmdkit::skeleton::Skeleton;
use vmdkit::KeyName;
use vmdkit::Motion;

/// Every role, one joint each: what a motion played on its model is read off as.
fn every_role() -> JointLayout {
    let joints = (Role::ALL.iter())
        .map(|&role| LayoutJoint { name: role.name().to_string(), role: Some(role) })
        .collect();
    JointLayout { name: "every joint".to_string(), joints, synthetic: Vec::new(), face: None }
}

/// The name bytes of a model's bones, as a VMD names them.
fn bone_names(model: &Model) -> BTreeSet<Vec<u8>> {
    model.bones.iter().map(|b| KeyName::encode(&b.name).0.bytes().to_vec()).collect()
}

/// The name bytes of a model's morphs.
fn morph_names(model: &Model) -> BTreeSet<Vec<u8>> {
    model.morph_list.iter().map(|m| KeyName::encode(&m.name).0.bytes().to_vec()).collect()
}

fn names<'a>(keys: impl Iterator<Item = &'a KeyName>) -> BTreeSet<Vec<u8>> {
    keys.map(|k| k.bytes().to_vec()).collect()
}

fn shown(set: &BTreeSet<Vec<u8>>) -> Vec<String> {
    set.iter().map(|n| KeyName::from_bytes_mmd(n).to_string_lossy()).collect()
}

/// Per track name, the keys in frame order.
fn by_track<K: Clone>(keys: &[K], name: impl Fn(&K) -> (Vec<u8>, u32)) -> HashMap<Vec<u8>, Vec<K>> {
    let mut map: HashMap<Vec<u8>, Vec<K>> = HashMap::new();
    for k in keys {
        map.entry(name(k).0).or_default().push(k.clone());
    }
    for v in map.values_mut() {
        v.sort_by_key(|k| name(k).1);
    }
    map
}

fn sized(source: &Motion, author: &Model, target: &Model, label: &str) {
    let options = KeypointOptions::default();
    let layout = every_role();
    let kp = keypoints_from_motion(source, &Skeleton::new(author), &layout, &options).unwrap();
    let fit_options = RetargetOptions {
        fps: options.fps,
        units: Some(Units::Metres),
        model_name: target.name.clone(),
        ..RetargetOptions::default()
    };
    let fit = retarget(&kp, &layout, &Skeleton::new(target), &fit_options).unwrap();
    let started = std::time::Instant::now();
    let carried = carry_over(&CarryInputs {
        source,
        source_model: author,
        target_model: target,
        solved: &fit.motion,
        size_ratio: size_ratio(&fit.report, &options),
    });
    let took = started.elapsed();
    let (out, report) = (&carried.motion, &carried.report);

    // Bones: the tracks both models share, all of them in the output, and nothing else of the
    // source's beyond what the body fit keys itself.
    let source_tracks = names(source.bones.iter().map(|k| &k.name));
    let shared: BTreeSet<Vec<u8>> = (source_tracks.iter())
        .filter(|n| bone_names(author).contains(*n) && bone_names(target).contains(*n))
        .cloned()
        .collect();
    let fit_tracks = names(fit.motion.bones.iter().map(|k| &k.name));
    let out_tracks = names(out.bones.iter().map(|k| &k.name));
    let kept: BTreeSet<Vec<u8>> = source_tracks.intersection(&out_tracks).cloned().collect();
    let expected: BTreeSet<Vec<u8>> = shared
        .union(&source_tracks.intersection(&fit_tracks).cloned().collect())
        .cloned()
        .collect();
    assert_eq!(shown(&kept), shown(&expected), "{label}: source tracks in the output");
    let reported: BTreeSet<Vec<u8>> = (report.bone_tracks.iter())
        .filter(|t| t.fate.kept())
        .map(|t| KeyName::encode(&t.name).0.bytes().to_vec())
        .collect();
    assert_eq!(shown(&reported), shown(&shared), "{label}: tracks the report keeps");

    // Copied keys keep their frames, curves and (outside the fingers) values.
    let src = by_track(&source.bones, |k| (k.name.bytes().to_vec(), k.frame));
    let dst = by_track(&out.bones, |k| (k.name.bytes().to_vec(), k.frame));
    let mut copied_keys = 0;
    for t in report.bone_tracks.iter().filter(|t| t.fate == BoneFate::Copied) {
        let n = KeyName::encode(&t.name).0.bytes().to_vec();
        let (a, b) = (&src[&n], &dst[&n]);
        assert_eq!(a.len(), b.len(), "{label}: {}", t.name);
        let finger = ["指", "親指"].iter().any(|s| t.name.contains(s)) && !t.name.ends_with('先');
        for (x, y) in a.iter().zip(b) {
            assert_eq!(
                (x.frame, x.interpolation),
                (y.frame, y.interpolation),
                "{label}: {}",
                t.name
            );
            if !finger {
                assert_eq!(x.rotation, y.rotation, "{label}: {}", t.name);
            }
            copied_keys += 1;
        }
    }

    // Morphs: every morph the target has by the same name, with all its keys; the brief's
    // set (both models have it) among them.
    let source_morphs = names(source.morphs.iter().map(|k| &k.name));
    let on_target: BTreeSet<Vec<u8>> =
        source_morphs.intersection(&morph_names(target)).cloned().collect();
    let both: BTreeSet<Vec<u8>> = on_target.intersection(&morph_names(author)).cloned().collect();
    let out_morphs = names(out.morphs.iter().map(|k| &k.name));
    assert_eq!(shown(&out_morphs), shown(&on_target), "{label}: morphs");
    assert!(both.is_subset(&out_morphs));
    let morph_keys =
        |m: &Motion| m.morphs.iter().filter(|k| on_target.contains(k.name.bytes())).count();
    assert_eq!(morph_keys(out), morph_keys(source), "{label}: morph keys");

    // Fingers: the closest of the fit's solved fingers, the copy and the re-expression.
    for f in &report.fingers {
        let solved = f.solved_mean_degrees.unwrap_or(f64::INFINITY);
        let chosen = match f.method {
            "solved" => solved,
            "copied" => f.copied_mean_degrees,
            _ => f.reexpressed_mean_degrees,
        };
        let flip = vmdkit::retarget::FLIP_DEGREES;
        let candidates = [
            (solved, f.solved_max_degrees.unwrap_or(f64::INFINITY)),
            (f.copied_mean_degrees, f.copied_max_degrees),
            (f.reexpressed_mean_degrees, f.reexpressed_max_degrees),
        ];
        let best = (candidates.iter())
            .filter(|(_, max)| *max <= flip)
            .map(|(mean, _)| *mean)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(chosen, best, "{label}: {f:?}");
        assert!(f.reexpressed_mean_degrees <= f.copied_mean_degrees, "{label}: {f:?}");
        assert!(chosen < 5.0, "{label}: {f:?}");
        println!(
            "{label} {} fingers: {}; rest directions differ by up to {:.1}°; direction error \
             solved {:.2}° mean / {:.2}° max, copied {:.2}° / {:.2}°, re-expressed {:.2}° / \
             {:.2}°, the hand {:.2}° ({} frames)",
            f.side,
            f.method,
            f.rest_disagreement_degrees,
            solved,
            f.solved_max_degrees.unwrap_or(f64::NAN),
            f.copied_mean_degrees,
            f.copied_max_degrees,
            f.reexpressed_mean_degrees,
            f.reexpressed_max_degrees,
            f.hand_mean_degrees,
            f.frames
        );
    }
    assert_eq!(report.fingers.len(), 2, "{label}");
    println!(
        "{label}: bone tracks {} → {} of {} ({} shared; {} copied keys), morphs {} → {} of {}; \
         carrying took {:.2?}",
        source_tracks.intersection(&fit_tracks).count(),
        kept.len(),
        source_tracks.len(),
        shared.len(),
        copied_keys,
        0,
        out_morphs.len(),
        source_morphs.len(),
        took
    );
}

#[test]
fn wavefile_onto_the_trace_model_and_mei_keeps_every_shared_track() {
    if test_corpus::corpus_or_skip("retarget_sizing").is_none() {
        return;
    }
    let dir = test_corpus::corpus_dir();
    let source = Motion::read_file(dir.join(WAVEFILE)).unwrap();
    let miku = Model::read_file(dir.join(MIKU)).unwrap();
    for (label, target) in [("trace", TRACE), ("mei", MEI)] {
        sized(&source, &miku, &Model::read_file(dir.join(target)).unwrap(), label);
    }
}

/// Per frame, the direction from `from`'s head to `to`'s in the palm's frame of one hand (x from
/// 手首 to 中指１, z the palm's normal from 人指１, 小指１ and that), played on `model`.
fn in_palm(model: &Model, motion: &Motion, side: &str, from: &str, to: &str) -> Vec<glam::DVec3> {
    use vmdkit::eval::MotionSampler;
    use vmdkit::skeleton::{Binding, Pose, Poser};
    let skeleton = Skeleton::new(model);
    let at = |n: &str| skeleton.bone_index(&format!("{side}{n}")).unwrap();
    let (wrist, index, middle, little) = (at("手首"), at("人指１"), at("中指１"), at("小指１"));
    let (from, to) = (at(from), at(to));
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::new(&skeleton, &sampler, &binding);
    let mut pose = Pose::new(&skeleton);
    let last = motion.bones.iter().map(|k| k.frame).max().unwrap_or(0);
    (0..=last)
        .map(|f| {
            poser.pose_at(f as f64, &mut pose);
            let p = |b: usize| pose.position(b).as_dvec3();
            let x = (p(middle) - p(wrist)).normalize();
            let z = (p(index) - p(little)).cross(x);
            let z = (z - x * z.dot(x)).normalize();
            let palm = glam::DMat3::from_cols(x, z.cross(x), z);
            palm.transpose() * (p(to) - p(from)).normalize()
        })
        .collect()
}

/// A dance keyed on the trace model, which has the semi-standard 親指０, sized onto 初音ミク.pmx,
/// which has not: 親指０'s turn is folded into 親指１, so the thumb's tip points where the
/// source's does in the palm.
#[test]
fn a_thumb_base_missing_on_the_target_is_folded_into_the_thumb() {
    if test_corpus::corpus_or_skip("retarget_sizing").is_none() {
        return;
    }
    let dir = test_corpus::corpus_dir();
    let (trace, miku) =
        (Model::read_file(dir.join(TRACE)).unwrap(), Model::read_file(dir.join(MIKU)).unwrap());
    let mut source = Motion::new(vmdkit::LongName::encode("trace").0);
    let turn = |x: f32, y: f32, z: f32| {
        glam::Quat::from_euler(glam::EulerRot::YXZ, y.to_radians(), x.to_radians(), z.to_radians())
    };
    // Both thumbs: the base swung by up to 35°, the joints after it curling, at frames of their
    // own; the arms down a little so the body fit has something to do.
    let keys: [(&str, [(u32, glam::Quat); 3]); 4] = [
        (
            "親指０",
            [(0, turn(0.0, 0.0, 0.0)), (30, turn(20.0, 25.0, -10.0)), (60, turn(-15.0, 35.0, 5.0))],
        ),
        (
            "親指１",
            [(0, turn(0.0, 0.0, 0.0)), (20, turn(0.0, 30.0, 0.0)), (50, turn(10.0, -10.0, 0.0))],
        ),
        (
            "親指２",
            [(0, turn(0.0, 0.0, 0.0)), (40, turn(0.0, 40.0, 0.0)), (60, turn(0.0, 10.0, 0.0))],
        ),
        (
            "腕",
            [(0, turn(0.0, 0.0, 20.0)), (30, turn(0.0, 0.0, 30.0)), (60, turn(0.0, 10.0, 25.0))],
        ),
    ];
    for (stem, track) in keys {
        for (side, sign) in [("左", 1.0f32), ("右", -1.0)] {
            for (frame, q) in track {
                // The right side mirrored across x.
                let q = if sign > 0.0 { q } else { glam::Quat::from_xyzw(q.x, -q.y, -q.z, q.w) };
                let mut key =
                    vmdkit::BoneKey::new(KeyName::encode(&format!("{side}{stem}")).0, frame);
                key.rotation = q;
                source.bones.push(key);
            }
        }
    }
    let options = KeypointOptions::default();
    let layout = every_role();
    let kp = keypoints_from_motion(&source, &Skeleton::new(&trace), &layout, &options).unwrap();
    let fit_options = RetargetOptions {
        fps: options.fps,
        units: Some(Units::Metres),
        model_name: miku.name.clone(),
        ..RetargetOptions::default()
    };
    let fit = retarget(&kp, &layout, &Skeleton::new(&miku), &fit_options).unwrap();
    let carried = carry_over(&CarryInputs {
        source: &source,
        source_model: &trace,
        target_model: &miku,
        solved: &fit.motion,
        size_ratio: size_ratio(&fit.report, &options),
    });
    let report = &carried.report;
    for side in ["左", "右"] {
        let fate = report.bone_tracks.iter().find(|t| t.name == format!("{side}親指０")).unwrap();
        let hand = &report.fingers[usize::from(side == "右")];
        // Folded where the copy or re-expression is kept; through the solved fingers else.
        let want = if hand.method == "solved" { BoneFate::SolvedThrough } else { BoneFate::Folded };
        assert_eq!(fate.fate, want, "{side}: {hand:?}");
        assert!(fate.fate.kept());
        // Every way of carrying the hand follows the source's fingers, the fold's two among them.
        assert!(
            hand.reexpressed_mean_degrees < 3.0 && hand.reexpressed_max_degrees < 10.0,
            "{hand:?}"
        );
        let (a, b) = (
            in_palm(&trace, &source, side, "親指２", "親指先"),
            in_palm(&miku, &carried.motion, side, "親指２", "親指先"),
        );
        let errors: Vec<f64> =
            a.iter().zip(&b).map(|(a, b)| a.angle_between(*b).to_degrees()).collect();
        let mean = errors.iter().sum::<f64>() / errors.len() as f64;
        let max = errors.iter().copied().fold(0.0, f64::max);
        // What dropping 親指０ would leave, for scale: the source without it.
        let mut dropped = source.clone();
        dropped.bones.retain(|k| !k.name.to_string_lossy().ends_with("親指０"));
        let dropped = in_palm(&trace, &dropped, side, "親指２", "親指先");
        let dropped: f64 =
            a.iter().zip(&dropped).map(|(a, b)| a.angle_between(*b).to_degrees()).sum();
        println!(
            "{side} thumb tip in the palm: {mean:.2}° mean, {max:.2}° max over {} frames, {:.1}° \
             mean with 親指０ dropped ({}; solved {:.2}°, copied {:.2}°, re-expressed {:.2}° mean \
             over the hand's segments)",
            errors.len(),
            dropped / errors.len() as f64,
            hand.method,
            hand.solved_mean_degrees.unwrap_or(f64::NAN),
            hand.copied_mean_degrees,
            hand.reexpressed_mean_degrees
        );
        assert!(mean < 3.0 && max < 6.0, "{side}: {mean:.2}° mean, {max:.2}° max");
    }
}
