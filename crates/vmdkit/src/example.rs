//! A small motion made in code, so that commands and docs have something real to show
//! without shipping anyone else's files.

use crate::curve::Curve;
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, LightKey, MorphKey,
    Motion, PhysicsToggle, PropertyKey, ShadowKey,
};
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_round_trips() {
        let motion = super::example_motion();
        let bytes = motion.to_bytes();
        assert_eq!(crate::Motion::parse(&bytes).unwrap(), motion);
        assert_eq!(motion.sections_to_write(), 6);
    }
}
