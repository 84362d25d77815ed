//! Motions that exercise every raw-bytes case, for the JSON and CSV tests.

use super::{ConvertError, Converted};
use crate::curve::Curve;
use crate::format::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, LightKey, MorphKey,
    Motion, PhysicsToggle, PropertyKey, ShadowKey,
};
use crate::text::{KeyName, LongName, RawName};
use glam::{Quat, Vec3};

pub(crate) fn name(text: &str) -> KeyName {
    KeyName::encode(text).0
}

/// A motion with odd bytes everywhere a plain write would differ from them.
pub(crate) fn quirky_motion() -> Motion {
    let mut model = [0u8; 20];
    let stale = b"\x83\x4A\x83\x81\x83\x89\x81\x45\x8F\xC6\x96\xBE\x00on Data";
    model[..stale.len()].copy_from_slice(stale);
    let mut motion = Motion::new(RawName(model));
    motion.header.signature[25..].copy_from_slice(b"\0JKL\0");
    motion.bones = quirky_bones();
    let mut morph = MorphKey { name: name("まばたき"), frame: 3, weight: 1.5 };
    motion.morphs.push(morph);
    morph.name.0[9..].fill(0);
    morph.weight = f32::NEG_INFINITY;
    motion.morphs.push(morph);
    motion.cameras = quirky_cameras();
    motion.lights.push(LightKey {
        frame: 0,
        color: Vec3::splat(0.6),
        direction: Vec3::new(-0.5, -1.0, 0.5),
    });
    motion.shadows.push(ShadowKey { frame: 0, mode: 2, distance: 0.01125 });
    motion.properties = quirky_properties();
    motion.trailing = b"Nuthouse01".to_vec();
    motion
}

/// Padded and cut names, odd filler bytes, floats JSON has no numbers for, and physics off and
/// unknown.
fn quirky_bones() -> Vec<BoneKey> {
    let mut zero_padded = BoneKey::new(name("上半身"), 5);
    zero_padded.name.0[7..].fill(0);
    // Old MMD writes 01 in the filler bytes of rows 1-3.
    for at in [31, 46, 47, 61, 62, 63] {
        zero_padded.interpolation.0[at] = 1;
    }
    zero_padded.translation = Vec3::new(0.1, -0.0, 1e-42);
    // 左足ＩＫ親左足ＩＫ is 16 bytes in CP932: the field ends on a lead byte.
    let long = crate::text::TextEncoding::ShiftJis.encode("左足ＩＫ親左足ＩＫ", 16).bytes;
    let mut cut = BoneKey::new(RawName(long[..15].try_into().unwrap()), 7);
    cut.rotation = Quat::from_xyzw(f32::from_bits(0x7fc0_1234), f32::INFINITY, -1.0, 0.5);
    let mut invalid = BoneKey::new(KeyName::from_bytes_mmd(b"\xFF\xFEabc"), 9);
    let curves =
        [Curve::new(1, 2, 3, 4), Curve::new(5, 6, 7, 8), Curve::new(127, 0, 0, 127), Curve::LINEAR];
    invalid.interpolation = BoneInterpolation::canonical(curves, PhysicsToggle::Off);
    let mut unknown_physics = BoneKey::new(name("右腕"), 11);
    unknown_physics.interpolation =
        BoneInterpolation::canonical([Curve::LINEAR; 4], PhysicsToggle::Unknown(20, 20));
    vec![BoneKey::new(name("センター"), 0), zero_padded, cut, invalid, unknown_physics]
}

/// Perspective bytes 0, 1 and the odd 2.
fn quirky_cameras() -> Vec<CameraKey> {
    let mut camera_curves = [Curve::LINEAR; 6];
    camera_curves[4] = Curve::new(10, 20, 30, 40);
    [(0, 0), (30, 1), (60, 2)]
        .map(|(frame, perspective_byte)| CameraKey {
            frame,
            distance: -45.0,
            target: Vec3::new(0.0, 10.0, 0.0),
            rotation: Vec3::new(0.1, std::f32::consts::PI, 0.0),
            interpolation: CameraInterpolation::new(camera_curves),
            view_angle: 30,
            perspective_byte,
        })
        .to_vec()
}

/// Odd visible and enabled bytes, and a zero-padded IK name.
fn quirky_properties() -> Vec<PropertyKey> {
    let mut padded_ik = LongName::encode("左足ＩＫ").0;
    padded_ik.0[9..].fill(0);
    vec![
        PropertyKey {
            frame: 0,
            visible_byte: 3,
            ik: vec![
                IkState { name: LongName::encode("右足ＩＫ").0, enabled_byte: 1 },
                IkState { name: padded_ik, enabled_byte: 5 },
            ],
        },
        PropertyKey { frame: 10, visible_byte: 0, ik: Vec::new() },
    ]
}

/// A version 1 file that ends after its morph section.
pub(crate) fn old_short_motion() -> Motion {
    let mut motion = Motion::new(LongName::default());
    motion.header.signature =
        crate::convert::fields::standard_signature(crate::format::Version::V1);
    motion.header.model_name.0 = [0; 20];
    motion.header.model_name.0[..4].copy_from_slice(b"\x83\x7E\x83\x4E");
    motion.sections_present = 2;
    motion.bones.push(BoneKey::new(name("頭"), 0));
    motion
}

/// Checks that the motion survives a round trip through bytes (tests compare bytes, since NaN
/// makes motions unequal to themselves).
pub(crate) fn assert_same_bytes(a: &Motion, b: &Motion) {
    let (a, b) = (a.to_bytes(), b.to_bytes());
    if a != b {
        let at = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        panic!("bytes differ at offset {at} (lengths {} and {})", a.len(), b.len());
    }
}

/// A read's motion and its warnings as the messages a person sees.
pub(crate) fn with_messages(
    read: Result<Converted, ConvertError>,
) -> Result<(Motion, Vec<String>), ConvertError> {
    read.map(|c| (c.motion, c.warnings.iter().map(ToString::to_string).collect()))
}
