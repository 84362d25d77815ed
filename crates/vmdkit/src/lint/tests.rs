//! Lint on small hand-made motions.

use super::*;
use crate::format::{BoneInterpolation, BoneKey, CameraKey, MorphKey, PhysicsToggle, ShadowKey};
use crate::text::{KeyName, LongName, RawName};
use glam::Quat;

fn kinds(warnings: &[Warning]) -> Vec<(WarningKind, Option<Section>, u64)> {
    warnings.iter().map(|w| (w.kind, w.section, w.count)).collect()
}

#[test]
fn the_example_is_clean() {
    let motion = crate::example::example_motion();
    let a = analyse(&motion, &[]);
    assert_eq!(a.warnings, vec![]);
    assert_eq!(a.encoding, TextEncoding::ShiftJis);
    let arm = &a.bones[0];
    assert_eq!(
        (arm.name.to_string_lossy().as_str(), arm.keys, arm.first_frame, arm.last_frame),
        ("右腕", 5, 0, 60)
    );
    assert_eq!(a.morphs.len(), 1);
}

#[test]
fn duplicates_order_physics_and_quaternions() {
    let mut motion = Motion::new(LongName::encode("m").0);
    let arm = KeyName::encode("右腕").0;
    for frame in [10, 0, 10, 20] {
        motion.bones.push(BoneKey::new(arm, frame));
    }
    let mut zero = BoneKey::new(KeyName::encode("頭").0, 5);
    zero.rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let mut long = BoneKey::new(KeyName::encode("首").0, 5);
    long.rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 1.1);
    long.interpolation =
        BoneInterpolation::canonical(BoneInterpolation::DEFAULT.curves(), PhysicsToggle::Off);
    motion.bones.extend([zero, long]);
    motion.cameras.push(CameraKey { frame: 3, ..crate::example::example_motion().cameras[0] });
    motion.cameras.push(CameraKey { frame: 3, ..crate::example::example_motion().cameras[0] });
    motion.shadows.push(ShadowKey { frame: 0, mode: 7, distance: f32::NAN });
    motion.trailing = b"Nuthouse01".to_vec();
    let a = analyse(&motion, &[]);
    assert_eq!(
        kinds(&a.warnings),
        vec![
            (WarningKind::DuplicateKeys, Some(Section::Bone), 1),
            (WarningKind::UnsortedKeys, Some(Section::Bone), 1),
            (WarningKind::PhysicsOff, Some(Section::Bone), 1),
            (WarningKind::NonUnitQuaternion, Some(Section::Bone), 1),
            (WarningKind::ZeroQuaternion, Some(Section::Bone), 1),
            (WarningKind::DuplicateKeys, Some(Section::Camera), 1),
            (WarningKind::NonFinite, Some(Section::SelfShadow), 1),
            (WarningKind::OutOfRange, Some(Section::SelfShadow), 1),
            (WarningKind::TrailingBytes, None, 10),
        ]
    );
    assert!(a.warnings[0].message.contains("\"右腕\" at frame 10"), "{}", a.warnings[0]);
    assert!(a.warnings[1].message.contains("frame 0 after frame 10"), "{}", a.warnings[1]);
    assert!(a.warnings[8].message.contains("\"Nuthouse01\""), "{}", a.warnings[8]);
    assert_eq!(a.frame_range, Some((0, 20)));
    assert_eq!(a.bones[0].keys, 4);

    // Read with only a preview of the trailing bytes, the warning still counts all of them.
    motion.trailing.truncate(4);
    motion.trailing_omitted = 1 << 31;
    let trailing = analyse(&motion, &[]).warnings.pop().unwrap();
    assert_eq!((trailing.kind, trailing.count), (WarningKind::TrailingBytes, 4 + (1 << 31)));
    assert!(trailing.message.starts_with("2147483652 bytes after"), "{trailing}");
    assert!(trailing.message.contains("(\"Nuth\"…)"), "{trailing}");
}

#[test]
fn cut_and_undecodable_names() {
    let mut motion = Motion::new(RawName::from_bytes_mmd(b"\x83\x5a\xff"));
    // Seven two-byte characters and the lead byte of an eighth fill the 15-byte field.
    let mut cut = [0x83u8; 15];
    for i in 0..7 {
        cut[2 * i + 1] = 0x5a;
    }
    for frame in [0, 1] {
        motion.morphs.push(MorphKey { name: RawName(cut), frame, weight: 0.5 });
    }
    let a = analyse(&motion, &[]);
    assert_eq!(
        kinds(&a.warnings),
        vec![
            (WarningKind::NameUndecodable, None, 1),
            (WarningKind::NameCutMidCharacter, Some(Section::Morph), 2),
        ]
    );
    assert!(a.warnings[0].message.contains("83 5a ff"), "{}", a.warnings[0]);
    assert!(a.warnings[1].message.contains("\"セセセセセセセ\""), "{}", a.warnings[1]);
}

#[test]
fn repairs_come_first() {
    let motion = Motion::default();
    let repair = Repair::CutCount { section: Section::Light, offset: 99, dropped_bytes: 2 };
    let warnings = lint(&motion, &[repair]);
    assert_eq!(kinds(&warnings), vec![(WarningKind::Repaired, Some(Section::Light), 1)]);
    assert!(warnings[0].message.contains("byte 99"));
}
