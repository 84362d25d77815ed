//! A small motion and two models made in code, so that commands, docs and tests have
//! something real to show without shipping anyone else's files: [`example_model`], the least
//! that plays [`example_motion`], and [`standard_model`], a full standard MMD skeleton that
//! retargeting and previews use when no model file is given.

use crate::curve::Curve;
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, LightKey, MorphKey,
    Motion, PhysicsToggle, PropertyKey, ShadowKey,
};
use crate::model::{Append, Bone, BoneFlags, Ik, IkLink, Model, ModelFormat, Tail};
use crate::text::{KeyName, LongName};
use glam::{Quat, Vec3};

fn name(text: &str) -> KeyName {
    KeyName::encode(text).0
}

/// A two-second wave of the right arm with a blink, a camera move, light and shadow keys and an
/// IK switch: one or more keys in every section.
pub fn example_motion() -> Motion {
    let mut motion = Motion::new(LongName::encode("vmdkit example").0);
    let ease = Curve { x1: 64, y1: 0, x2: 64, y2: 127 };
    let eased = BoneInterpolation::canonical([ease, ease, ease, ease], PhysicsToggle::On);
    for (frame, angle) in [(0u32, 0.0f32), (15, 35.0), (30, 0.0), (45, 35.0), (60, 0.0)] {
        let mut arm = BoneKey::new(name("右腕"), frame);
        arm.rotation = Quat::from_rotation_z(-angle.to_radians());
        arm.interpolation = eased;
        motion.bones.push(arm);
    }
    let mut center = BoneKey::new(name("センター"), 30);
    center.translation = Vec3::new(0.0, -0.5, 0.0);
    motion.bones.push(BoneKey::new(name("センター"), 0));
    motion.bones.push(center);
    for (frame, weight) in [(20u32, 0.0f32), (23, 1.0), (26, 0.0)] {
        motion.morphs.push(MorphKey { name: name("まばたき"), frame, weight });
    }
    for (frame, distance) in [(0u32, -45.0f32), (60, -30.0)] {
        motion.cameras.push(CameraKey {
            frame,
            distance,
            target: Vec3::new(0.0, 10.0, 0.0),
            rotation: Vec3::new(0.0, (frame as f32 / 2.0).to_radians(), 0.0),
            interpolation: CameraInterpolation::DEFAULT,
            view_angle: 30,
            perspective_byte: 0,
        });
    }
    motion.lights.push(LightKey {
        frame: 0,
        color: Vec3::splat(154.0 / 256.0),
        direction: Vec3::new(-0.5, -1.0, 0.5),
    });
    motion.shadows.push(ShadowKey { frame: 0, mode: 1, distance: (10000.0 - 8875.0) / 100000.0 });
    let ik =
        |text: &str, on: bool| IkState { name: LongName::encode(text).0, enabled_byte: on as u8 };
    motion.properties.push(PropertyKey {
        frame: 0,
        visible_byte: 1,
        ik: vec![ik("右足ＩＫ", true), ik("左足ＩＫ", true)],
    });
    motion
}

/// A synthetic motion for [`standard_model`] that exercises every major bone, `frames` + 1
/// frames long: a first half of smooth, unrelated swings of the trunk, head, arms and legs while
/// センター travels and turns past 180°; then held poses that break naive keypoint
/// constructions, each for a second and eased into over its first third: arms straight up,
/// straight arms out front, arms crossed over the chest, a deep squat. Knees bend only backward and elbows only forward, as bodies
/// do; leg IK is switched off, so the legs play as keyed. For tests, benchmarks and synthetic
/// training data.
pub fn exercise_motion(frames: u32) -> Motion {
    let mut m = Motion::new(LongName::encode("vmdkit exercise").0);
    let half = frames / 2;
    for f in 0..=frames {
        let t = f as f32 / 30.0;
        let held = (f > half).then(|| ((f - half - 1) / 30) % 4);
        // Each held pose is eased into over its first third of a second, from the previous
        // one (or the swings), as a body would move: no pose changes in a single frame.
        let into = (f > half).then(|| {
            let x = ((f - half - 1) % 30) as f32 / 10.0;
            let x = x.min(1.0);
            x * x * (3.0 - 2.0 * x)
        });
        let previous = held.filter(|_| f > half + 30).map(|p| (p + 3) % 4);
        for (i, (bone, amp)) in EXERCISE_BONES.iter().enumerate() {
            let phase = i as f32 * 0.7;
            let mut e = Vec3::new(
                amp[0] * (1.3 * t + phase).sin(),
                amp[1] * (0.9 * t + 2.0 * phase).sin(),
                amp[2] * (1.7 * t + 0.5 * phase).cos(),
            );
            let left = bone.starts_with('左');
            let side = if left { 1.0 } else { -1.0 };
            if bone.contains("ひざ") {
                e = Vec3::new(-(0.2 + amp[0] * (1.0 + (1.1 * t + phase).sin())), 0.0, 0.0);
            }
            if bone.contains("ひじ") {
                e.y = (e.y.abs() + 0.05) * side;
            }
            if let (Some(pose), Some(w)) = (held, into) {
                let from = match previous {
                    Some(p) => held_pose(bone, p, side).unwrap_or(e * 0.2),
                    None => e,
                };
                e = from.lerp(held_pose(bone, pose, side).unwrap_or(e * 0.2), w);
            }
            let mut key = BoneKey::new(name(bone), f);
            key.rotation = Quat::from_euler(glam::EulerRot::YXZ, e.y, e.x, e.z);
            m.bones.push(key);
        }
        let mut centre = BoneKey::new(name("センター"), f);
        let squat = match (held, into) {
            (Some(3), Some(w)) => -4.0 * w,
            (Some(0), Some(w)) if previous == Some(3) => -4.0 * (1.0 - w),
            _ => 0.0,
        };
        centre.translation =
            Vec3::new(2.0 * (0.5 * t).sin(), -1.5 * (0.8 * t).sin().abs() + squat, t);
        centre.rotation = Quat::from_rotation_y(2.5 * t);
        m.bones.push(centre);
    }
    // The legs are keyed bone by bone: leg IK, whose goals would stay where they rest while
    // the body travels, is switched off.
    let off = |text: &str| IkState { name: LongName::encode(text).0, enabled_byte: 0 };
    m.properties.push(PropertyKey {
        frame: 0,
        visible_byte: 1,
        ik: ["左足ＩＫ", "右足ＩＫ", "左つま先ＩＫ", "右つま先ＩＫ"].map(off).to_vec(),
    });
    m
}

/// The held poses of [`exercise_motion`] as YXZ Euler angles (radians), by pose number.
fn held_pose(bone: &str, pose: u32, side: f32) -> Option<Vec3> {
    let q = std::f32::consts::FRAC_PI_2;
    let limb = &bone[bone.char_indices().nth(1).map_or(0, |(i, _)| i)..];
    Some(match (pose, limb) {
        // Arms straight up: from 37° below horizontal to vertical.
        (0, "腕") => Vec3::new(0.0, 0.0, side * (q + 0.64)),
        (0, "ひじ") => Vec3::ZERO,
        // Straight arms out front.
        (1, "腕") => Vec3::new(0.0, side * q, side * 0.64),
        (1, "ひじ") => Vec3::ZERO,
        // Crossed over the chest: forward past the midline, elbows bent.
        (2, "腕") => Vec3::new(0.0, side * (q + 0.5), side * 0.64),
        (2, "ひじ") => Vec3::new(0.0, side * 1.2, 0.0),
        // Deep squat: thighs forward and up, knees folded.
        (3, "足") => Vec3::new(-1.9, 0.0, 0.0),
        (3, "ひざ") => Vec3::new(-2.3, 0.0, 0.0),
        (3, "足首") => Vec3::new(0.4, 0.0, 0.0),
        _ => return None,
    })
}

/// Bones [`exercise_motion`] swings, with the amplitudes (radians) of its X, Y and Z angles.
/// The format the built-in models claim: PMX 2.0 in UTF-8.
const PMX_2: ModelFormat = ModelFormat::Pmx { version: 2.0, utf8: true };

const EXERCISE_BONES: [(&str, [f32; 3]); 20] = [
    ("下半身", [0.3, 0.5, 0.2]),
    ("上半身", [0.4, 0.6, 0.3]),
    ("上半身2", [0.2, 0.3, 0.2]),
    ("首", [0.3, 0.4, 0.2]),
    ("頭", [0.4, 0.5, 0.3]),
    ("左肩", [0.1, 0.1, 0.2]),
    ("右肩", [0.1, 0.2, 0.1]),
    ("左腕", [0.8, 0.6, 0.9]),
    ("右腕", [0.7, 0.9, 0.8]),
    ("左ひじ", [0.3, 1.2, 0.3]),
    ("右ひじ", [0.2, 1.1, 0.4]),
    ("左手首", [0.5, 0.4, 0.5]),
    ("右手首", [0.4, 0.5, 0.4]),
    ("左足", [0.9, 0.3, 0.3]),
    ("右足", [0.8, 0.3, 0.4]),
    ("左ひざ", [1.0, 0.0, 0.0]),
    ("右ひざ", [1.1, 0.0, 0.0]),
    ("左足首", [0.4, 0.3, 0.2]),
    ("右足首", [0.3, 0.4, 0.3]),
    ("腰", [0.2, 0.3, 0.1]),
];

/// The bones of [`example_model`]: name, parent, rest position in MMD units (about 20 to a
/// person's height, X to the model's left, Y up).
const EXAMPLE_BONES: [(&str, Option<usize>, [f32; 3]); 19] = [
    ("センター", None, [0.0, 8.0, 0.0]),
    ("上半身", Some(0), [0.0, 10.0, 0.0]),
    ("首", Some(1), [0.0, 15.0, 0.0]),
    ("頭", Some(2), [0.0, 16.5, 0.0]),
    ("右腕", Some(1), [-1.5, 14.5, 0.0]),
    ("右ひじ", Some(4), [-4.0, 12.5, 0.0]),
    ("右手首", Some(5), [-6.0, 10.5, 0.0]),
    ("左腕", Some(1), [1.5, 14.5, 0.0]),
    ("左ひじ", Some(7), [4.0, 12.5, 0.0]),
    ("左手首", Some(8), [6.0, 10.5, 0.0]),
    ("下半身", Some(0), [0.0, 10.0, 0.0]),
    ("右足", Some(10), [-1.0, 9.5, 0.0]),
    ("右ひざ", Some(11), [-1.0, 5.0, -0.3]),
    ("右足首", Some(12), [-1.0, 1.0, 0.0]),
    ("左足", Some(10), [1.0, 9.5, 0.0]),
    ("左ひざ", Some(14), [1.0, 5.0, -0.3]),
    ("左足首", Some(15), [1.0, 1.0, 0.0]),
    ("右足ＩＫ", None, [-1.0, 1.0, 0.0]),
    ("左足ＩＫ", None, [1.0, 1.0, 0.0]),
];

/// A 19-bone humanoid with MMD's standard bone names and two leg IK chains (knees limited to
/// bend one way, as MMD limits ひざ bones), for posing [`example_motion`] without a model file.
pub fn example_model() -> Model {
    let bones = EXAMPLE_BONES
        .iter()
        .enumerate()
        .map(|(index, &(name, parent, position))| {
            let leg_ik = |ankle: usize| Ik {
                target: ankle,
                loop_count: 40,
                limit_angle: 2.0,
                links: vec![
                    IkLink {
                        bone: ankle - 1,
                        limits: Some((
                            Vec3::new(-std::f32::consts::PI, 0.0, 0.0),
                            Vec3::new(-0.5f32.to_radians(), 0.0, 0.0),
                        )),
                    },
                    IkLink { bone: ankle - 2, limits: None },
                ],
            };
            let ik = match index {
                17 => Some(leg_ik(13)),
                18 => Some(leg_ik(16)),
                _ => None,
            };
            let mut bone = Bone::new(name, Vec3::from(position), parent);
            bone.flags.set(BoneFlags::MOVABLE, parent.is_none());
            bone.flags.set(BoneFlags::IK, ik.is_some());
            Bone { ik, ..bone }
        })
        .collect();
    let name = "vmdkit example";
    Model { name_en: name.to_string(), ..Model::from_bones(PMX_2, name, bones) }
}

/// The trunk of [`standard_model`]: name, parent name, rest position (MMD units, X to the
/// model's left, Y up, facing −Z).
const STANDARD_TRUNK: &[(&str, &str, [f32; 3])] = &[
    ("全ての親", "", [0.0, 0.0, 0.0]),
    ("センター", "全ての親", [0.0, 8.0, 0.0]),
    ("グルーブ", "センター", [0.0, 8.6, 0.0]),
    ("腰", "グルーブ", [0.0, 11.4, 0.1]),
    ("上半身", "腰", [0.0, 12.2, 0.0]),
    ("上半身2", "上半身", [0.0, 13.8, 0.0]),
    ("首", "上半身2", [0.0, 17.0, 0.3]),
    ("頭", "首", [0.0, 18.0, 0.2]),
    ("両目", "頭", [0.0, 18.8, -0.9]),
];

/// The left eye, and the left arm from the collarbone to the first two joints of four fingers;
/// the right side mirrors them. The arm hangs 36.87° below horizontal (direction (0.8, −0.6)): upper arm 3.0
/// long, forearm 2.8, the twist bones half-way along each.
const STANDARD_LEFT_ARM: &[(&str, &str, [f32; 3])] = &[
    ("左目", "頭", [0.35, 18.8, -0.9]),
    ("左肩", "上半身2", [0.25, 16.7, 0.3]),
    ("左腕", "左肩", [1.45, 16.45, 0.3]),
    ("左腕捩", "左腕", [2.65, 15.55, 0.3]),
    ("左ひじ", "左腕捩", [3.85, 14.65, 0.3]),
    ("左手捩", "左ひじ", [4.97, 13.81, 0.3]),
    ("左手首", "左手捩", [6.09, 12.97, 0.3]),
    ("左中指１", "左手首", [6.78, 12.46, 0.3]),
    ("左中指２", "左中指１", [7.14, 12.19, 0.3]),
    ("左人指１", "左手首", [6.74, 12.5, 0.05]),
    ("左人指２", "左人指１", [7.08, 12.24, 0.05]),
    ("左小指１", "左手首", [6.66, 12.53, 0.7]),
    ("左小指２", "左小指１", [6.96, 12.31, 0.7]),
    ("左親指１", "左手首", [6.33, 12.62, -0.3]),
    ("左親指２", "左親指１", [6.57, 12.42, -0.55]),
];

/// The lower body and the left leg; the right leg mirrors it. The knee is 0.25 in front of the
/// hip–ankle line, so that leg IK bends it forwards from the rest pose.
const STANDARD_LEFT_LEG: &[(&str, &str, [f32; 3])] = &[
    ("左足", "下半身", [1.0, 11.0, 0.0]),
    ("左ひざ", "左足", [1.0, 6.2, -0.1]),
    ("左足首", "左ひざ", [1.0, 1.2, 0.3]),
    ("左つま先", "左足首", [1.0, 0.0, -1.5]),
];

/// The left leg's IK bones, at the ankle and the toe tip they pull; the right side mirrors them.
const STANDARD_LEFT_IK: &[(&str, &str, [f32; 3])] =
    &[("左足ＩＫ", "全ての親", [1.0, 1.2, 0.3]), ("左つま先ＩＫ", "左足ＩＫ", [1.0, 0.0, -1.5])];

/// A bone-only PMX-style model with MMD's standard and semi-standard bone names (全ての親,
/// センター, グルーブ, 腰, 上半身2, 腕捩, 手捩, the first finger joints, leg and toe IK), in an
/// A-pose about 20 units tall: the embedded default target of retargeting and previews, for
/// when no model file is given. The left side (+X) mirrors the right exactly.
pub fn standard_model() -> Model {
    type Row = (String, String, [f32; 3]);
    let own = |table: &[(&str, &str, [f32; 3])]| -> Vec<Row> {
        table.iter().map(|&(n, p, at)| (n.to_string(), p.to_string(), at)).collect()
    };
    let mirror = |table: &[(&str, &str, [f32; 3])]| -> Vec<Row> {
        let right = |name: &str| name.replacen('左', "右", 1);
        table.iter().map(|&(n, p, [x, y, z])| (right(n), right(p), [-x, y, z])).collect()
    };
    let lower = own(&[("下半身", "腰", [0.0, 12.2, 0.0])]);
    let table: Vec<Row> = [
        own(STANDARD_TRUNK),
        own(STANDARD_LEFT_ARM),
        mirror(STANDARD_LEFT_ARM),
        lower,
        own(STANDARD_LEFT_LEG),
        mirror(STANDARD_LEFT_LEG),
        own(STANDARD_LEFT_IK),
        mirror(STANDARD_LEFT_IK),
    ]
    .concat();
    let index = |name: &str| table.iter().position(|(n, _, _)| n == name);
    let mut bones: Vec<Bone> = table
        .iter()
        .map(|(name, parent, at)| Bone::new(name, Vec3::from(*at), index(parent)))
        .collect();
    let knee_limits =
        (Vec3::new(-std::f32::consts::PI, 0.0, 0.0), Vec3::new(-0.5f32.to_radians(), 0.0, 0.0));
    let eyes = index("両目").unwrap_or_default();
    for i in 0..bones.len() {
        let name = bones[i].name.clone();
        let child = (i + 1..bones.len()).find(|&c| bones[c].parent == Some(i));
        // Editors draw a bone towards its first child; that is all a tail does.
        if let Some(child) = child.filter(|_| !name.ends_with("ＩＫ")) {
            bones[i].tail = Tail::Bone(Some(child));
            bones[i].flags.set(BoneFlags::TAIL_IS_BONE, true);
        }
        let movable =
            matches!(name.as_str(), "全ての親" | "センター" | "グルーブ") || name.ends_with("ＩＫ");
        bones[i].flags.set(BoneFlags::MOVABLE, movable);
        if name.ends_with("捩") {
            // Twist bones turn only about the limb they lie in: from their parent to their child.
            let (from, to) =
                (bones[bones[i].parent.unwrap()].position, bones[child.unwrap()].position);
            bones[i].fixed_axis = Some((to - from).normalize());
            bones[i].flags.set(BoneFlags::FIXED_AXIS, true);
        }
        if name.ends_with("目") && name != "両目" {
            // The eyes follow 両目, as in MMD's standard models, so one key turns both.
            bones[i].append = Some(Append {
                parent: eyes,
                ratio: 1.0,
                rotation: true,
                translation: false,
                local: false,
            });
            bones[i].flags.set(BoneFlags::APPEND_ROTATION, true);
        }
        let side = name.chars().next().map(String::from).unwrap_or_default();
        let find = |suffix: &str| index(&format!("{side}{suffix}")).unwrap();
        let ik = if name.ends_with("足ＩＫ") {
            let links = vec![
                IkLink { bone: find("ひざ"), limits: Some(knee_limits) },
                IkLink { bone: find("足"), limits: None },
            ];
            Some(Ik { target: find("足首"), loop_count: 40, limit_angle: 2.0, links })
        } else if name.ends_with("つま先ＩＫ") {
            let links = vec![IkLink { bone: find("足首"), limits: None }];
            Some(Ik { target: find("つま先"), loop_count: 40, limit_angle: 2.0, links })
        } else {
            None
        };
        bones[i].flags.set(BoneFlags::IK, ik.is_some());
        bones[i].ik = ik;
    }
    Model {
        name_en: "vmdkit standard".to_string(),
        comment: "MMD's standard bone names in an A-pose, made by vmdkit.".to_string(),
        ..Model::from_bones(PMX_2, "vmdkit standard", bones)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_round_trips() {
        let motion = super::example_motion();
        let bytes = motion.to_bytes();
        assert_eq!(crate::Motion::parse(&bytes).unwrap(), motion);
        assert_eq!(motion.sections_to_write(), 6);
    }

    #[test]
    fn the_example_model_binds_every_bone_track_of_the_example_motion() {
        use crate::eval::MotionSampler;
        use crate::skeleton::{Binding, Skeleton};
        let skeleton = Skeleton::new(&super::example_model());
        assert!(skeleton.notes().is_empty(), "{:?}", skeleton.notes());
        let sampler = MotionSampler::new(&super::example_motion());
        let binding = Binding::new(&skeleton, &sampler);
        assert!(binding.report().unbound_bone_tracks.is_empty());
        assert_eq!(binding.ik_tracks().len(), 2);
    }

    #[test]
    fn the_standard_model_is_a_clean_mirrored_skeleton_with_short_names() {
        use crate::skeleton::Skeleton;
        let model = super::standard_model();
        let skeleton = Skeleton::new(&model);
        assert!(skeleton.notes().is_empty(), "{:?}", skeleton.notes());
        for bone in &model.bones {
            let bytes = crate::text::TextEncoding::ShiftJis.encode(&bone.name, 64).bytes;
            assert!(bytes.len() <= 15 && !bytes.contains(&b'?'), "{}: {bytes:?}", bone.name);
            let mirrored = bone.name.replacen('左', "右", 1);
            if mirrored != bone.name {
                let other = &model.bones[model.bone_index(&mirrored).expect(&mirrored)];
                let flipped = bone.position * glam::Vec3::new(-1.0, 1.0, 1.0);
                assert_eq!(other.position, flipped, "{}", bone.name);
                let parent = |b: &crate::model::Bone| b.parent.map(|p| model.bones[p].name.clone());
                assert_eq!(parent(other), parent(bone).map(|p| p.replacen('左', "右", 1)));
            }
        }
        for name in
            ["全ての親", "センター", "グルーブ", "腰", "上半身2", "両目", "左腕捩", "右手捩"]
        {
            assert!(model.bone_index(name).is_some(), "{name}");
        }
        let height = model.bones.iter().map(|b| b.position.y).fold(0.0, f32::max);
        assert!((18.0..21.0).contains(&height), "{height}");
        // Arms in an A-pose, 35–40° below horizontal, the twist axis along the arm.
        let at = |name: &str| model.bones[model.bone_index(name).unwrap()].position;
        let arm = at("左ひじ") - at("左腕");
        let droop = (-arm.y).atan2(arm.x).to_degrees();
        assert!((35.0..=40.0).contains(&droop), "{droop}");
        let twist = &model.bones[model.bone_index("左腕捩").unwrap()];
        assert!(twist.fixed_axis.unwrap().dot(arm.normalize()) > 0.9999);
        assert!(twist.flags.contains(crate::model::BoneFlags::FIXED_AXIS));
        assert!(at("左つま先").z < at("左足首").z && at("左つま先").y.abs() < 0.3);
    }

    #[test]
    fn the_standard_model_plays_the_example_motion_and_bends_its_knees_by_ik() {
        use crate::eval::MotionSampler;
        use crate::skeleton::{Binding, Pose, PoseEvaluator, PoseInput, Poser, Skeleton};
        let model = super::standard_model();
        let skeleton = Skeleton::new(&model);
        let sampler = MotionSampler::new(&super::example_motion());
        let binding = Binding::new(&skeleton, &sampler);
        assert!(binding.report().unbound_bone_tracks.is_empty());
        assert_eq!(binding.ik_tracks().len(), 2);
        let mut poser = Poser::new(&skeleton, &sampler, &binding);
        let mut pose = Pose::new(&skeleton);
        poser.pose_at(15.0, &mut pose);
        assert!(pose.positions().iter().all(|p| p.is_finite()));
        let bone = |name: &str| skeleton.bone_index(name).unwrap();
        // The waving right arm moves the right wrist and leaves the left one.
        assert!(
            (pose.position(bone("右手首")) - model.bones[bone("右手首")].position).length() > 1.0
        );
        assert!(
            (pose.position(bone("左手首")) - model.bones[bone("左手首")].position).length() < 0.6
        );

        // Raise and pull forward the left foot's IK: the ankle follows, the knee bends forwards
        // and the leg keeps its length.
        let mut input = PoseInput::new(&skeleton);
        input.bones[bone("左足ＩＫ")].translation = glam::Vec3::new(0.0, 3.0, -1.5);
        PoseEvaluator::new(&skeleton).evaluate(&input, &mut pose);
        let goal = model.bones[bone("左足ＩＫ")].position + glam::Vec3::new(0.0, 3.0, -1.5);
        let ankle = pose.position(bone("左足首"));
        assert!((ankle - goal).length() < 0.01, "{ankle:?}");
        assert!(pose.position(bone("左ひざ")).z < -1.0, "{:?}", pose.position(bone("左ひざ")));
        let thigh = model.bones[bone("左ひざ")].position - model.bones[bone("左足")].position;
        let now = pose.position(bone("左ひざ")) - pose.position(bone("左足"));
        assert!((now.length() - thigh.length()).abs() < 1e-4);
        // The toe IK moved with the foot IK and holds the toe where it was pulled to.
        let toe_goal = model.bones[bone("左つま先ＩＫ")].position + glam::Vec3::new(0.0, 3.0, -1.5);
        assert!((pose.position(bone("左つま先")) - toe_goal).length() < 0.05);
        // The right leg is untouched.
        let right = bone("右足首");
        assert!((pose.position(right) - model.bones[right].position).length() < 1e-4);
    }
}
