//! A small motion and a small model made in code, so that commands, docs and tests have
//! something real to show without shipping anyone else's files.

use crate::curve::Curve;
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, LightKey, MorphKey,
    Motion, PhysicsToggle, PropertyKey, ShadowKey,
};
use crate::model::{Bone, BoneFlags, Ik, IkLink, Model, ModelFormat, SectionCounts};
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
    Model {
        format: ModelFormat::Pmx { version: 2.0, utf8: true },
        name: "vmdkit example".to_string(),
        name_en: "vmdkit example".to_string(),
        comment: String::new(),
        comment_en: String::new(),
        bones,
        morphs: Vec::new(),
        counts: SectionCounts::default(),
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
}
