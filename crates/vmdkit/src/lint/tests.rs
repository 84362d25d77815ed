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
    // The same frame twice with different values (the one above is the same key twice).
    motion.bones[2].translation.x = 1.0;
    let mut same = BoneKey::new(KeyName::encode("左腕").0, 4);
    same.translation.y = 2.0;
    motion.bones.extend([same, same]);
    let mut zero = BoneKey::new(KeyName::encode("頭").0, 5);
    zero.rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let mut long = BoneKey::new(KeyName::encode("首").0, 5);
    long.rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 1.1);
    long.interpolation =
        BoneInterpolation::canonical(BoneInterpolation::DEFAULT.curves(), PhysicsToggle::Off);
    motion.bones.extend([zero, long]);
    let camera = CameraKey { frame: 3, ..crate::example::example_motion().cameras[0] };
    // Dropped keys are compared with the one kept, the last.
    motion.cameras.extend([CameraKey { distance: -1.0, ..camera }, camera, camera]);
    motion.shadows.push(ShadowKey { frame: 0, mode: 7, distance: f32::NAN });
    motion.trailing = b"Nuthouse01".to_vec();
    let a = analyse(&motion, &[]);
    assert_eq!(
        kinds(&a.warnings),
        vec![
            (WarningKind::DuplicateKeys, Some(Section::Bone), 1),
            (WarningKind::IdenticalKeys, Some(Section::Bone), 1),
            (WarningKind::UnsortedKeys, Some(Section::Bone), 1),
            (WarningKind::PhysicsOff, Some(Section::Bone), 1),
            (WarningKind::NonUnitQuaternion, Some(Section::Bone), 1),
            (WarningKind::ZeroQuaternion, Some(Section::Bone), 1),
            (WarningKind::DuplicateKeys, Some(Section::Camera), 1),
            (WarningKind::IdenticalKeys, Some(Section::Camera), 1),
            (WarningKind::NonFinite, Some(Section::SelfShadow), 1),
            (WarningKind::OutOfRange, Some(Section::SelfShadow), 1),
            (WarningKind::TrailingBytes, None, 10),
        ]
    );
    assert!(a.warnings[0].message.contains("\"右腕\" at frame 10"), "{}", a.warnings[0]);
    assert!(a.warnings[1].message.contains("\"左腕\" at frame 4"), "{}", a.warnings[1]);
    assert!(a.warnings[1].message.contains("every player plays them alike"), "{}", a.warnings[1]);
    assert!(a.warnings[2].message.contains("frame 0 after frame 10"), "{}", a.warnings[2]);
    assert!(a.warnings[10].message.contains("\"Nuthouse01\""), "{}", a.warnings[10]);
    for kind in WarningKind::ALL {
        assert_eq!(WarningKind::from_name(kind.name()), Some(kind));
    }
    assert_eq!(WarningKind::from_name("nope"), None);
    assert_eq!(a.frame_range, Some((0, 20)));
    assert_eq!(a.bones[0].keys, 4);
    assert_eq!(a.bones[1].keys, 2);

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

#[test]
fn far_frames_are_one_warning_naming_keys_sections_and_frames() {
    let mut motion = crate::example::example_motion();
    motion.bones.push(BoneKey { frame: u32::MAX, ..motion.bones[0] });
    let warnings = lint(&motion, &[]);
    assert_eq!(kinds(&warnings), vec![(WarningKind::FarFrames, Some(Section::Bone), 1)]);
    assert_eq!(
        warnings[0].message,
        "1 bone key is at frame 4,294,967,295, far beyond the rest of the motion, which ends at \
         frame 60: a damaged frame number? Bakes and frame-by-frame edits span every frame up \
         to it, so they are slow or refused"
    );

    motion.cameras.push(CameraKey { frame: 2_000_000, ..motion.cameras[0] });
    let warnings = lint(&motion, &[]);
    assert_eq!(kinds(&warnings), vec![(WarningKind::FarFrames, None, 2)]);
    let message = &warnings[0].message;
    assert!(
        message.starts_with("2 keys (1 bone, 1 camera) are at frames 2,000,000 to 4,294,967,295"),
        "{message}"
    );
}

#[test]
fn far_frames_need_both_the_ratio_and_the_gap() {
    let far = |frames: &[u32]| {
        let mut motion = Motion::default();
        let name = KeyName::encode("センター").0;
        motion.bones.extend(frames.iter().map(|&f| BoneKey::new(name, f)));
        lint(&motion, &[]).iter().any(|w| w.kind == WarningKind::FarFrames)
    };
    assert!(!far(&[]));
    assert!(!far(&[u32::MAX]), "a lone key is not beyond anything");
    assert!(!far(&[0, 100_000]), "the gap must be above 100,000");
    assert!(far(&[0, 100_001]));
    assert!(!far(&[0, 10_000, 150_000]), "15 times the frame before, not 16");
    assert!(far(&[0, 10_000, 160_001]));
    // A long motion is not far from itself: each key is near the one before it.
    assert!(!far(&(0..=2_000_000).step_by(50_000).collect::<Vec<_>>()));
    assert!(far(&[0, 60, u32::MAX - 1, u32::MAX]));
}
