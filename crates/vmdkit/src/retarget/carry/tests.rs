//! Unit tests of carrying tracks over: names folded, copies scaled and kept with their curves,
//! fingers re-expressed exactly where their rest directions differ, IK switches merged.

use super::morphs::fold;
use super::*;
use crate::format::{BoneInterpolation, IkState, PropertyKey};
use crate::model::Bone;
use crate::text::LongName;
use glam::{Quat, Vec3};

/// `source` carried between models of the same size, beside a solved body keyed at frames 0
/// and `last`.
fn carry_at_same_size(
    source: &Motion,
    source_model: &Model,
    target_model: &Model,
    last: u32,
) -> Carried {
    let mut solved = Motion::new(LongName::encode("b").0);
    solved.bones.extend([key("上半身", 0), key("上半身", last)]);
    carry_over(&CarryInputs {
        source,
        source_model,
        target_model,
        solved: &solved,
        size_ratio: 1.0,
    })
}

#[test]
fn names_fold_widths_and_kana() {
    assert_eq!(fold("ｳｨﾝｸ２右"), fold("ウィンク2右"));
    assert_eq!(fold("ﾊﾟﾁﾘ"), fold("パチリ"));
    assert_eq!(fold("なぬ！"), fold("なぬ!"));
    assert_eq!(fold("ジト目"), "じと目");
    assert_eq!(fold("Blink"), "blink");
    assert_ne!(fold("あ"), fold("い"));
}

fn key(name: &str, frame: u32) -> BoneKey {
    BoneKey::new(KeyName::encode(name).0, frame)
}

/// The standard model with a ribbon under 頭 (an accessory the body fit never reaches).
fn with_ribbon() -> Model {
    let mut model = crate::example::standard_model();
    let head = model.bones.iter().position(|b| b.name == "頭").unwrap();
    model.bones.push(Bone::new("リボン", Vec3::new(0.0, 19.0, 0.5), Some(head)));
    model
}

#[test]
fn accessories_are_copied_with_their_curves_and_translations_scaled() {
    let model = with_ribbon();
    let mut source = Motion::new(LongName::encode("a").0);
    let mut ribbon = key("リボン", 5);
    ribbon.translation = Vec3::new(1.0, 2.0, 3.0);
    ribbon.rotation = Quat::from_rotation_x(0.5);
    let mut curve = BoneInterpolation::DEFAULT;
    curve.0[4] = 99;
    ribbon.interpolation = curve;
    source.bones.extend([key("上半身", 0), ribbon, key("ないボーン", 0), key("腰", 0)]);
    let mut solved = Motion::new(LongName::encode("b").0);
    solved.bones.push(key("上半身", 0));
    let carried = carry_over(&CarryInputs {
        source: &source,
        source_model: &model,
        target_model: &model,
        solved: &solved,
        size_ratio: 2.0,
    });
    let fates: Vec<(&str, BoneFate)> =
        carried.report.bone_tracks.iter().map(|t| (t.name.as_str(), t.fate)).collect();
    assert_eq!(
        fates,
        [
            ("上半身", BoneFate::Solved),
            ("リボン", BoneFate::Copied),
            ("ないボーン", BoneFate::MissingOnSource),
            // 腰 carries the trunk on the source: its motion is in the solved bones.
            ("腰", BoneFate::SolvedThrough),
        ]
    );
    let out: Vec<&BoneKey> =
        carried.motion.bones.iter().filter(|k| k.name.bytes() == ribbon.name.bytes()).collect();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].translation, Vec3::new(2.0, 4.0, 6.0));
    assert!(
        out[0].rotation == ribbon.rotation && out[0].interpolation == curve && out[0].frame == 5
    );
    assert_eq!(carried.report.scaled_translations, 1);
}

/// The standard model with the left fingers' second joints turned about their bases: the
/// fingers rest along other directions, the hand as before.
fn bent_fingers() -> Model {
    let mut model = crate::example::standard_model();
    let turn = Quat::from_rotation_z(25f32.to_radians());
    for stem in ["人指", "中指", "小指", "親指"] {
        let at = |n: &str| model.bones.iter().position(|b| b.name == n).unwrap();
        let (base, second) = (at(&format!("左{stem}１")), at(&format!("左{stem}２")));
        let pivot = model.bones[base].position;
        model.bones[second].position = pivot + turn * (model.bones[second].position - pivot);
    }
    model
}

#[test]
fn fingers_resting_otherwise_are_re_expressed_exactly() {
    let (source_model, target_model) = (crate::example::standard_model(), bent_fingers());
    let mut source = Motion::new(LongName::encode("a").0);
    for (f, angle) in [(0, 0.0f32), (10, 0.8), (20, -0.4)] {
        for name in ["左人指１", "左中指１", "左親指１"] {
            let mut k = key(name, f);
            k.rotation = Quat::from_rotation_y(angle) * Quat::from_rotation_x(angle / 2.0);
            source.bones.push(k);
        }
    }
    let carried = carry_at_same_size(&source, &source_model, &target_model, 20);
    let [left] = carried.report.fingers.as_slice() else { panic!("{:?}", carried.report) };
    assert!(!left.axes_agree && left.rest_disagreement_degrees > 20.0, "{left:?}");
    assert_eq!(left.method, "re-expressed");
    assert!(left.reexpressed_max_degrees < 1e-3, "{left:?}");
    assert!(left.copied_mean_degrees > 10.0, "{left:?}");
    // Onto a model whose fingers rest as the source's, the keys are the source's own.
    let same = carry_at_same_size(&source, &source_model, &source_model, 20);
    assert!(same.report.fingers[0].axes_agree);
    assert!(same.report.fingers[0].copied_max_degrees < 1e-3);
}

#[test]
fn ik_switches_of_bones_the_fit_does_not_key_come_from_the_source() {
    let model = crate::example::standard_model();
    let state = |name: &str, on: u8| IkState { name: LongName::encode(name).0, enabled_byte: on };
    let mut source = Motion::new(LongName::encode("a").0);
    source.properties.push(PropertyKey {
        frame: 30,
        visible_byte: 0,
        ik: vec![state("左足ＩＫ", 0), state("右足ＩＫ", 0)],
    });
    let mut solved = Motion::new(LongName::encode("b").0);
    solved.bones.push(key("右足ＩＫ", 0));
    solved.properties.push(PropertyKey {
        frame: 0,
        visible_byte: 1,
        ik: vec![state("左足ＩＫ", 1), state("右足ＩＫ", 1)],
    });
    let carried = carry_over(&CarryInputs {
        source: &source,
        source_model: &model,
        target_model: &model,
        solved: &solved,
        size_ratio: 1.0,
    });
    let p = &carried.motion.properties;
    assert_eq!(p.iter().map(|k| (k.frame, k.visible_byte)).collect::<Vec<_>>(), [(0, 1), (30, 0)]);
    // 右足ＩＫ is the fit's (it keys it); 左足ＩＫ, which it does not key here, the source's.
    let on = |k: &PropertyKey, n: &str| {
        k.ik.iter().find(|s| s.name.bytes() == LongName::encode(n).0.bytes()).unwrap().enabled_byte
    };
    assert_eq!((on(&p[1], "右足ＩＫ"), on(&p[1], "左足ＩＫ"), on(&p[0], "左足ＩＫ")), (1, 0, 1));
    assert_eq!(carried.report.ik_switches_kept, ["左足ＩＫ"]);
}

/// The standard model with a semi-standard 左親指０ between 左手首 and 左親指１, its head 30 % of
/// the way from the wrist's.
fn with_thumb0() -> Model {
    let mut model = crate::example::standard_model();
    let at = |m: &Model, n: &str| m.bones.iter().position(|b| b.name == n).unwrap();
    let (wrist, thumb1) = (at(&model, "左手首"), at(&model, "左親指１"));
    let head = model.bones[wrist].position.lerp(model.bones[thumb1].position, 0.3);
    model.bones.push(Bone::new("左親指０", head, Some(wrist)));
    let thumb0 = model.bones.len() - 1;
    model.bones[thumb1].parent = Some(thumb0);
    model
}

/// Each bone's world rotation, per frame of `frames`, of `motion` played on `model`.
fn world_rotations(model: &Model, motion: &Motion, bone: &str, frames: u32) -> Vec<glam::DQuat> {
    use crate::skeleton::{Binding, Pose, Poser};
    let skeleton = Skeleton::new(model);
    let b = model.bones.iter().position(|x| x.name == bone).unwrap();
    let sampler = crate::eval::MotionSampler::new(motion);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::new(&skeleton, &sampler, &binding);
    let mut pose = Pose::new(&skeleton);
    (0..=frames)
        .map(|f| {
            poser.pose_at(f as f64, &mut pose);
            pose.rotation(b).as_dquat()
        })
        .collect()
}

#[test]
fn a_thumb_base_the_target_lacks_is_folded_into_its_child() {
    let (source_model, target_model) = (with_thumb0(), crate::example::standard_model());
    let mut source = Motion::new(LongName::encode("a").0);
    // 親指０ and 親指１ turning at once, at frames of their own, one with a curve: the fold
    // must key between them.
    let linear = crate::curve::Curve::LINEAR;
    let ease = crate::curve::Curve { x1: 100, y1: 10, x2: 30, y2: 120 };
    let eased = BoneInterpolation::canonical(
        [linear, linear, linear, ease],
        crate::format::PhysicsToggle::On,
    );
    for (f, angle) in [(0, 0.0f32), (30, 0.9), (60, -0.3)] {
        let mut k = key("左親指０", f);
        k.rotation = Quat::from_rotation_y(angle) * Quat::from_rotation_z(angle / 2.0);
        source.bones.push(k);
    }
    for (f, angle) in [(0, 0.2f32), (20, -0.7), (45, 0.5)] {
        let mut k = key("左親指１", f);
        k.rotation = Quat::from_rotation_x(angle) * Quat::from_rotation_z(angle);
        k.interpolation = eased;
        source.bones.push(k);
    }
    let carried = carry_at_same_size(&source, &source_model, &target_model, 60);
    let fates: Vec<(&str, BoneFate, usize)> =
        carried.report.bone_tracks.iter().map(|t| (t.name.as_str(), t.fate, t.keys)).collect();
    assert_eq!(fates, [("左親指０", BoneFate::Folded, 3), ("左親指１", BoneFate::Copied, 3)]);
    // 親指２'s world rotation (the thumb's last segment) is the source's on every frame.
    let want = world_rotations(&source_model, &source, "左親指２", 70);
    let got = world_rotations(&target_model, &carried.motion, "左親指２", 70);
    let worst = (want.iter().zip(&got)).map(|(a, b)| a.angle_between(*b).to_degrees());
    let worst = worst.fold(0.0, f64::max);
    assert!(worst <= super::fold::FOLD_TOLERANCE_DEGREES + 1e-3, "{worst}°");
    // Without the fold the thumb would be off by 親指０'s turn.
    let dropped = world_rotations(
        &source_model,
        &{
            let mut m = source.clone();
            m.bones.retain(|k| k.name.bytes() != KeyName::encode("左親指０").0.bytes());
            m
        },
        "左親指２",
        70,
    );
    let off = (want.iter().zip(&dropped)).map(|(a, b)| a.angle_between(*b).to_degrees());
    assert!(off.fold(0.0, f64::max) > 40.0);
    let thumb1 = (carried.motion.bones.iter())
        .filter(|k| k.name.bytes() == KeyName::encode("左親指１").0.bytes())
        .count();
    println!("folded thumb: {thumb1} keys, worst {worst:.3}°");
}
