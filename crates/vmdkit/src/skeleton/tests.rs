//! Posing rules on small hand-built models, where every expected value can be worked out.

use super::*;
use crate::eval::{BoneSample, MotionSampler};
use crate::format::{BoneKey, IkState, MorphKey, PropertyKey};
use crate::model::{
    key_name, Append, Bone, BoneFlags, BoneOffset, GroupMember, Ik, IkLink, Model, ModelFormat,
    MorphKind,
};
use crate::text::{KeyName, LongName};
use glam::{Quat, Vec3};
use std::sync::Arc;

fn bone(name: &str, position: Vec3, parent: Option<usize>) -> Bone {
    Bone { flags: BoneFlags::ROTATABLE, ..Bone::new(name, position, parent) }
}

fn model(bones: Vec<Bone>, morphs: Vec<crate::model::Morph>) -> Model {
    Model {
        morphs,
        ..Model::from_bones(ModelFormat::Pmx { version: 2.0, utf8: true }, "test", bones)
    }
}

/// The angle between two rotations, accurate for small angles (unlike acos of the dot).
pub(super) fn angle(a: Quat, b: Quat) -> f32 {
    crate::math::quat_angle(a.normalize(), b.normalize()) as f32
}

fn pose_of(skeleton: &Skeleton, input: &PoseInput) -> Pose {
    let mut pose = Pose::new(skeleton);
    PoseEvaluator::new(skeleton).evaluate(input, &mut pose);
    pose
}

fn key(name: &str, frame: u32, translation: Vec3, rotation: Quat) -> BoneKey {
    BoneKey { translation, rotation, ..BoneKey::new(KeyName::encode(name).0, frame) }
}

#[test]
fn skeleton_forward_kinematics_compose_parent_rotation_and_rest_offsets() {
    let m = model(
        vec![
            bone("root", Vec3::new(0.0, 1.0, 0.0), None),
            bone("arm", Vec3::new(2.0, 1.0, 0.0), Some(0)),
        ],
        vec![],
    );
    let s = Skeleton::new(&m);
    let mut input = PoseInput::new(&s);
    let rest = pose_of(&s, &input);
    assert_eq!(rest.positions(), &[Vec3::new(0.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.0)]);
    input.bones[0] = BoneSample {
        translation: Vec3::new(0.0, 0.5, 0.0),
        rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        ..Default::default()
    };
    let p = pose_of(&s, &input);
    assert!((p.position(0) - Vec3::new(0.0, 1.5, 0.0)).length() < 1e-6);
    // 90° about +Y takes +X to −Z.
    assert!((p.position(1) - Vec3::new(0.0, 1.5, -2.0)).length() < 1e-6, "{:?}", p.position(1));
    assert!(angle(p.rotation(1), Quat::from_rotation_y(std::f32::consts::FRAC_PI_2)) < 1e-6);
    let m1 = p.world_matrix(1);
    assert!((m1.w_axis.truncate() - p.position(1)).length() < 1e-6);
    // The skinning matrix maps the bind position onto the posed one.
    assert!(
        (p.skinning_matrix(&s, 1).transform_point3(Vec3::new(2.0, 1.0, 0.0)) - p.position(1))
            .length()
            < 1e-6
    );
}

#[test]
fn skeleton_order_sorts_by_layer_and_repairs_parents_and_cycles() {
    let mut bones = vec![
        bone("a", Vec3::ZERO, Some(2)), // parent listed later, same layer: pulled in front
        bone("b", Vec3::ZERO, None),
        bone("c", Vec3::ZERO, None),
        bone("d", Vec3::ZERO, Some(1)), // layer 0 under a layer-1 parent: raised to 1
        bone("e", Vec3::ZERO, Some(5)), // e ↔ f: a cycle
        bone("f", Vec3::ZERO, Some(4)),
        bone("g", Vec3::ZERO, None),    // after physics
        bone("h", Vec3::ZERO, Some(6)), // child of an after-physics bone: pass 2 too
    ];
    bones[1].deform_layer = 1;
    bones[6].after_physics = true;
    let s = Skeleton::new(&model(bones, vec![]));
    let order: Vec<usize> = s.deform_order().collect();
    assert_eq!(s.notes(), &[SkeletonNote::ParentCycle { bone: 5 }]);
    assert_eq!(s.parent(5), None);
    assert_eq!(order, vec![2, 0, 5, 4, 1, 3, 6, 7]);
    assert_eq!(s.pass2_start(), 6);
    // Every bone after its parent.
    for (i, &b) in order.iter().enumerate() {
        if let Some(p) = s.parent(b) {
            assert!(order[..i].contains(&p));
        }
    }
}

fn append_model(ratio: f32, local: bool, translation: bool) -> Model {
    let mut bones = vec![
        bone("src", Vec3::new(0.0, 1.0, 0.0), None),
        bone("follow", Vec3::new(1.0, 1.0, 0.0), None),
        bone("chain", Vec3::new(2.0, 1.0, 0.0), None),
    ];
    bones[1].append = Some(Append { parent: 0, ratio, rotation: true, translation, local });
    bones[2].append =
        Some(Append { parent: 1, ratio: 1.0, rotation: true, translation, local: false });
    model(bones, vec![])
}

#[test]
fn skeleton_append_rotation_ratio_negative_and_chained() {
    let q = Quat::from_rotation_z(0.8);
    for ratio in [1.0f32, 0.5, -1.0, -0.25] {
        let s = Skeleton::new(&append_model(ratio, false, false));
        let mut input = PoseInput::new(&s);
        input.bones[0].rotation = q;
        input.bones[1].rotation = Quat::from_rotation_x(0.3);
        let p = pose_of(&s, &input);
        let appended = Quat::from_rotation_z(0.8 * ratio);
        // keyed · appended.
        let follow = Quat::from_rotation_x(0.3) * appended;
        assert!(angle(p.rotation(1), follow) < 1e-5, "ratio {ratio}");
        // Chained: the source's full rotation (keyed and appended), §12 row 17 (BM).
        assert!(angle(p.rotation(2), follow) < 1e-5, "ratio {ratio}");
    }
}

#[test]
fn skeleton_append_local_reads_world_rotation_and_translation_reads_offsets() {
    let mut m = append_model(0.5, true, true);
    // Give the source a parent turned 90° so that local (world) and non-local differ.
    m.bones.insert(0, bone("base", Vec3::ZERO, None));
    for b in &mut m.bones[1..] {
        if let Some(p) = &mut b.parent {
            *p += 1;
        }
        if let Some(a) = &mut b.append {
            a.parent += 1;
        }
    }
    m.bones[1].parent = Some(0);
    let s = Skeleton::new(&m);
    let mut input = PoseInput::new(&s);
    input.bones[0].rotation = Quat::from_rotation_y(1.0);
    input.bones[1].rotation = Quat::from_rotation_z(0.4);
    input.bones[1].translation = Vec3::new(0.0, 2.0, 0.0);
    let p = pose_of(&s, &input);
    // Local flag: half the source's world rotation (base · src), §12 row 16 (BM).
    let world = Quat::from_rotation_y(1.0) * Quat::from_rotation_z(0.4);
    assert!(angle(p.local_rotation(2), super::append::scale_rotation(world, 0.5)) < 1e-5);
    // Local translation: half the source's world displacement from rest.
    let moved = p.position(1) - Vec3::new(0.0, 1.0, 0.0);
    assert!((p.position(2) - (Vec3::new(1.0, 1.0, 0.0) + moved * 0.5)).length() < 1e-5);
    // Non-local chained translation: the source's full offset (its own appended one).
    assert!((p.position(3) - (Vec3::new(2.0, 1.0, 0.0) + moved * 0.5)).length() < 1e-5);
}

#[test]
fn skeleton_fixed_axis_projects_keys_only() {
    let mut bones =
        vec![bone("twist", Vec3::ZERO, None), bone("tip", Vec3::new(1.0, 0.0, 0.0), Some(0))];
    bones[0].fixed_axis = Some(Vec3::new(2.0, 0.0, 0.0));
    let s = Skeleton::new(&model(bones, vec![]));
    let mut input = PoseInput::new(&s);
    input.bones[0].rotation = Quat::from_axis_angle(Vec3::new(1.0, 0.2, 0.0).normalize(), 0.6);
    let p = pose_of(&s, &input);
    assert!(angle(p.rotation(0), Quat::from_rotation_x(0.6)) < 1e-6);
    input.bones[0].rotation = Quat::from_axis_angle(Vec3::new(-1.0, 0.2, 0.0).normalize(), 0.6);
    assert!(angle(pose_of(&s, &input).rotation(0), Quat::from_rotation_x(-0.6)) < 1e-6);
}

#[test]
fn skeleton_bone_and_group_morphs_apply_before_bones() {
    let bones =
        vec![bone("root", Vec3::ZERO, None), bone("jaw", Vec3::new(0.0, 1.0, 0.0), Some(0))];
    let morph = |name: &str, kind| crate::model::Morph {
        name: name.into(),
        name_en: String::new(),
        name_cp932: key_name(name),
        panel: 4,
        kind,
    };
    let offset = BoneOffset {
        bone: 1,
        translation: Vec3::new(0.0, 0.0, 1.0),
        rotation: Quat::from_rotation_x(0.5),
    };
    let m = model(
        bones,
        vec![
            morph("open", MorphKind::Bone(vec![offset])),
            morph("group", MorphKind::Group(vec![GroupMember { morph: 0, ratio: 0.5 }])),
        ],
    );
    let s = Skeleton::new(&m);
    let mut input = PoseInput::new(&s);
    input.morphs = vec![0.25, 1.0]; // effective weight 0.25 + 1.0 × 0.5
    input.bones[1].rotation = Quat::from_rotation_y(0.2);
    let p = pose_of(&s, &input);
    assert!((p.position(1) - Vec3::new(0.0, 1.0, 0.75)).length() < 1e-6);
    // morph · keyed (§9.2).
    assert!(angle(p.rotation(1), Quat::from_rotation_x(0.375) * Quat::from_rotation_y(0.2)) < 1e-6);
}

/// A two-link leg: 足 (hip) → ひざ (knee, X-only limits) → 足首 (effector), and 足ＩＫ.
fn leg(knee_limits: bool) -> Model {
    let mut bones = vec![
        bone("足", Vec3::new(1.0, 10.0, 0.0), None),
        bone("ひざ", Vec3::new(1.0, 5.0, 0.0), Some(0)),
        bone("足首", Vec3::new(1.0, 0.5, 0.0), Some(1)),
        bone("足ＩＫ", Vec3::new(1.0, 0.5, 0.0), None),
    ];
    let limits = knee_limits
        .then(|| (Vec3::new(-std::f32::consts::PI, 0.0, 0.0), Vec3::new(-0.0087, 0.0, 0.0)));
    bones[3].deform_layer = 1;
    bones[3].ik = Some(Ik {
        target: 2,
        loop_count: 40,
        limit_angle: 2.0,
        links: vec![IkLink { bone: 1, limits }, IkLink { bone: 0, limits: None }],
    });
    model(bones, vec![])
}

#[test]
fn skeleton_ik_reaches_a_reachable_goal_and_bends_the_knee_forwards() {
    for variant in [IkVariant::Mmd, IkVariant::Plain] {
        let s = Skeleton::new(&leg(true));
        let mut input = PoseInput::new(&s);
        input.bones[3].translation = Vec3::new(0.0, 2.0, -1.0);
        let mut pose = Pose::new(&s);
        PoseEvaluator::with_options(&s, PoseOptions { ik_variant: variant, solve_ik: true })
            .evaluate(&input, &mut pose);
        let goal = Vec3::new(1.0, 2.5, -1.0);
        assert!((pose.position(2) - goal).length() < 5e-3, "{variant:?}: {:?}", pose.position(2));
        // The knee goes forwards (−Z: models face −Z) and the bone lengths hold.
        assert!(pose.position(1).z < -0.5, "{variant:?}: knee {:?}", pose.position(1));
        assert!(((pose.position(1) - pose.position(0)).length() - 5.0).abs() < 1e-4);
        assert!(((pose.position(2) - pose.position(1)).length() - 4.5).abs() < 1e-4);
    }
}

#[test]
fn skeleton_ik_switch_off_and_option_off_leave_the_keyed_pose() {
    let s = Skeleton::new(&leg(true));
    let mut input = PoseInput::new(&s);
    input.bones[3].translation = Vec3::new(0.0, 2.0, -1.0);
    input.bones[0].rotation = Quat::from_rotation_x(0.1);
    input.ik_enabled[0] = false;
    let off = pose_of(&s, &input);
    let mut fk = Pose::new(&s);
    input.ik_enabled[0] = true;
    PoseEvaluator::with_options(&s, PoseOptions { solve_ik: false, ..Default::default() })
        .evaluate(&input, &mut fk);
    assert_eq!(off.positions(), fk.positions());
    assert!(
        (off.position(2)
            - Quat::from_rotation_x(0.1) * Vec3::new(0.0, -9.5, 0.0)
            - Vec3::new(1.0, 10.0, 0.0))
        .length()
            < 1e-5
    );
}

#[test]
fn skeleton_evaluation_is_deterministic_in_any_order() {
    let s = Skeleton::new(&leg(true));
    let inputs: Vec<PoseInput> = (0..6)
        .map(|k| {
            let mut input = PoseInput::new(&s);
            input.bones[3].translation = Vec3::new(0.3 * k as f32, 1.0 + 0.4 * k as f32, -0.5);
            input
        })
        .collect();
    let mut pose = Pose::new(&s);
    let eval = PoseEvaluator::new(&s);
    let forward: Vec<Vec<Vec3>> = inputs
        .iter()
        .map(|i| {
            eval.evaluate(i, &mut pose);
            pose.positions().to_vec()
        })
        .collect();
    for (k, input) in inputs.iter().enumerate().rev() {
        eval.evaluate(input, &mut pose);
        assert_eq!(pose.positions(), forward[k].as_slice());
    }
}

#[test]
fn skeleton_binding_matches_cut_names_and_reports_the_rest() {
    // 10 kanji: 20 bytes, cut by MMD at 15 (mid-character).
    let long = "左手首捩り補助骨先端部";
    let mut m = leg(true);
    m.bones.push(bone(long, Vec3::ZERO, None));
    let s = Skeleton::new(&m);
    let cut =
        KeyName::from_bytes_mmd(&crate::text::TextEncoding::ShiftJis.encode(long, 40).bytes[..15]);
    let mut motion = crate::Motion::new(LongName::encode("test").0);
    motion.bones.push(BoneKey::new(cut, 0));
    motion.bones.push(key("足", 0, Vec3::ZERO, Quat::IDENTITY));
    motion.bones.push(key("しっぽ", 0, Vec3::ZERO, Quat::IDENTITY));
    motion.morphs.push(MorphKey { name: KeyName::encode("まばたき").0, frame: 0, weight: 1.0 });
    let off = |name: &str| IkState { name: LongName::encode(name).0, enabled_byte: 0 };
    motion.properties.push(PropertyKey {
        frame: 0,
        visible_byte: 1,
        ik: vec![off("足ＩＫ"), off("右足ＩＫ")],
    });
    let sampler = MotionSampler::new(&motion);
    let binding = Binding::new(&s, &sampler);
    let r = binding.report();
    assert_eq!(binding.bone_tracks().map(|(_, b)| b).collect::<Vec<_>>(), vec![4, 0]);
    assert_eq!(r.cut_name_matches.iter().map(|(_, b)| *b).collect::<Vec<_>>(), vec![4]);
    assert_eq!(r.unbound_bone_tracks, vec![KeyName::encode("しっぽ").0]);
    assert_eq!(r.unkeyed_bones, vec![1, 2, 3]);
    assert_eq!(r.unbound_morph_tracks, vec![KeyName::encode("まばたき").0]);
    assert_eq!(r.unbound_ik_tracks, vec![LongName::encode("右足ＩＫ").0]);
    assert!(r.unswitched_iks.is_empty() && !r.is_complete());
    // The switch turns the bound chain off.
    let mut poser = Poser::new(&s, &sampler, &binding);
    assert_eq!(poser.sample(10.0).ik_enabled, vec![false]);
}

#[test]
fn skeleton_finds_bones_and_morphs_by_their_exact_names() {
    // 8 kanji: 16 CP932 bytes, longer than a VMD key.
    let long = "左腕捩り補助用骨";
    let m = model(
        vec![
            bone("センター", Vec3::ZERO, None),
            bone(long, Vec3::X, Some(0)),
            bone("センター", Vec3::Y, None),
        ],
        vec![crate::model::Morph {
            name: "あ".into(),
            name_en: String::new(),
            name_cp932: key_name("あ"),
            panel: 4,
            kind: MorphKind::Group(vec![]),
        }],
    );
    let s = Skeleton::new(&m);
    // The first of two bones with one name, as binding gives the track to the first.
    assert_eq!(s.bone_index("センター"), Some(0));
    assert_eq!(s.bone_index(long), Some(1));
    // No cut forms and no width folding: those are the binding's matching of VMD keys.
    assert_eq!(s.bone_index("左腕捩り補助用"), None);
    assert_eq!(s.bone_index("ｾﾝﾀｰ"), None);
    assert_eq!(s.morph_index("あ"), Some(0));
    assert_eq!(s.morph_index("い"), None);
}

#[test]
fn skeleton_shared_poser_poses_like_the_borrowing_one_on_another_thread() {
    let s = Skeleton::new(&leg(true));
    let mut motion = crate::Motion::new(LongName::encode("test").0);
    motion.bones.push(key("足ＩＫ", 0, Vec3::ZERO, Quat::IDENTITY));
    motion.bones.push(key("足ＩＫ", 30, Vec3::new(0.0, 2.0, -1.0), Quat::IDENTITY));
    let sampler = MotionSampler::new(&motion);
    let binding = Binding::new(&s, &sampler);
    let frames = [0.0, 12.5, 30.0];
    let mut poser = Poser::new(&s, &sampler, &binding);
    let borrowed: Vec<Vec<Vec3>> = (frames.iter())
        .map(|&t| {
            let mut pose = Pose::new(&s);
            poser.pose_at(t, &mut pose);
            pose.positions().to_vec()
        })
        .collect();

    let (s, sampler, binding) = (Arc::new(s.clone()), Arc::new(sampler), Arc::new(binding));
    let mut shared = SharedPoser::new(s, sampler, binding);
    let owned = std::thread::spawn(move || {
        let mut pose = Pose::new(shared.skeleton());
        (frames.iter())
            .map(|&t| {
                shared.pose_at(t, &mut pose);
                pose.positions().to_vec()
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(owned.join().expect("posing does not panic"), borrowed);
}
