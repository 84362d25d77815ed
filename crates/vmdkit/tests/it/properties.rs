//! Property tests: every motion the library can represent survives write → read unchanged.
//!
//! The generators cover raw bytes everywhere the format keeps raw bytes (name fields including
//! the bytes after the NUL, the signature padding, interpolation blocks, flag bytes) and every
//! f32 bit pattern (NaN payloads, infinities, subnormals, -0.0). Two comparisons are made:
//!
//! * bytes: `to_bytes(parse(to_bytes(m))) == to_bytes(m)`, which compares floats bitwise;
//! * fields: the parsed motion equals the generated one field by field, floats compared by their
//!   bits (so NaN keys are checked too), and with `==` as well when no float is NaN.
//!
//! # What is representable
//!
//! A `Motion` value can hold things a VMD file cannot express; the generators only build
//! motions that a file can hold, and the reasons are:
//!
//! * **Sections.** A file has the sections from the bone section up to its last count; the writer
//!   emits `sections_to_write() = max(sections_present, last section with keys)` of them. A
//!   reader therefore reports `sections_present == sections_to_write()`. Generated motions have
//!   any `sections_present` in 0..=6 and keys in any section; the expected motion after reading
//!   has `sections_present` replaced by `sections_to_write()`.
//! * **Trailing bytes.** After fewer than six sections, bytes that follow are read as the next
//!   section's count (and its records): they are not "trailing" any more. So trailing bytes are
//!   generated only when six sections are written. `trailing_bytes_after_fewer_than_six_sections_are_not_representable`
//!   checks that such a motion indeed does not come back unchanged.
//! * **Signature.** The first 25 bytes must be one of the two known signatures (anything else is
//!   not a VMD for the strict reader); the 5 padding bytes after them are kept raw and may be
//!   anything.
//! * **Version 1 model name.** A "Vocaloid Motion Data file" header stores only 10 bytes of model
//!   name; `Header::model_name` has room for 20, and the reader fills bytes 10..20 with zeros. A v1
//!   motion is representable only when those bytes are zero.

use crate::common::read_checks;

use glam::{Quat, Vec3};
use proptest::prelude::*;
use proptest::test_runner::Config;
use read_checks::view_section_matches;
use vmdkit::Curve;
use vmdkit::RawName;
use vmdkit::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, Header, IkState, LightKey,
    MorphKey, PhysicsToggle, PropertyKey, Section, ShadowKey,
};
use vmdkit::{Motion, MotionView, ReadOptions};
use vmdkit::{SIGNATURE_V1, SIGNATURE_V2};

/// Cases for the main round-trip properties (each builds and parses one motion).
const CASES: u32 = 1024;

// ---------------------------------------------------------------------------------------------
// Generators

fn byte_array<const N: usize>() -> impl Strategy<Value = [u8; N]> {
    prop::collection::vec(any::<u8>(), N).prop_map(|v| v.try_into().unwrap())
}

/// Any name field: arbitrary bytes, or a short name padded as MMD pads (NUL then 0xFD), or a
/// short name padded with zeros, or a field with no NUL at all.
fn raw_name<const N: usize>() -> impl Strategy<Value = RawName<N>> {
    prop_oneof![
        byte_array::<N>().prop_map(RawName),
        prop::collection::vec(1u8..=255, 0..=N).prop_map(|v| RawName::from_bytes_mmd(&v)),
        prop::collection::vec(1u8..=255, 0..=N).prop_map(|v| {
            let mut field = [0u8; N];
            field[..v.len()].copy_from_slice(&v);
            RawName(field)
        }),
    ]
}

/// Any f32 bit pattern, weighted towards the special ones.
fn float() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => any::<u32>().prop_map(f32::from_bits),
        2 => -1000.0f32..1000.0,
        1 => prop::sample::select(vec![
            0.0f32,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7F80_0001), // signalling NaN
            f32::from_bits(0xFFC0_1234), // quiet NaN with payload
            f32::MIN_POSITIVE / 2.0,     // subnormal
            f32::MAX,
            f32::MIN,
        ]),
    ]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (float(), float(), float()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn quat() -> impl Strategy<Value = Quat> {
    (float(), float(), float(), float()).prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w))
}

fn curve() -> impl Strategy<Value = Curve> {
    prop_oneof![
        // Legal control points.
        3 => (0u8..=127, 0u8..=127, 0u8..=127, 0u8..=127),
        // Bytes only damaged files hold.
        1 => any::<(u8, u8, u8, u8)>(),
    ]
    .prop_map(|(x1, y1, x2, y2)| Curve { x1, y1, x2, y2 })
}

fn physics() -> impl Strategy<Value = PhysicsToggle> {
    prop_oneof![
        Just(PhysicsToggle::On),
        Just(PhysicsToggle::Off),
        any::<(u8, u8)>().prop_map(|(a, b)| PhysicsToggle::Unknown(a, b)),
    ]
}

fn bone_interpolation() -> impl Strategy<Value = BoneInterpolation> {
    prop_oneof![
        byte_array::<64>().prop_map(BoneInterpolation),
        (prop::array::uniform4(curve()), physics())
            .prop_map(|(curves, physics)| BoneInterpolation::canonical(curves, physics)),
        Just(BoneInterpolation::DEFAULT),
    ]
}

fn camera_interpolation() -> impl Strategy<Value = CameraInterpolation> {
    prop_oneof![
        byte_array::<24>().prop_map(CameraInterpolation),
        prop::array::uniform6(curve()).prop_map(CameraInterpolation::new),
    ]
}

fn bone() -> impl Strategy<Value = BoneKey> {
    (raw_name::<15>(), any::<u32>(), vec3(), quat(), bone_interpolation()).prop_map(
        |(name, frame, translation, rotation, interpolation)| BoneKey {
            name,
            frame,
            translation,
            rotation,
            interpolation,
        },
    )
}

fn morph() -> impl Strategy<Value = MorphKey> {
    (raw_name::<15>(), any::<u32>(), float()).prop_map(|(name, frame, weight)| MorphKey {
        name,
        frame,
        weight,
    })
}

fn camera() -> impl Strategy<Value = CameraKey> {
    (any::<u32>(), float(), vec3(), vec3(), camera_interpolation(), any::<u32>(), any::<u8>())
        .prop_map(
            |(frame, distance, target, rotation, interpolation, view_angle, perspective_byte)| {
                CameraKey {
                    frame,
                    distance,
                    target,
                    rotation,
                    interpolation,
                    view_angle,
                    perspective_byte,
                }
            },
        )
}

fn light() -> impl Strategy<Value = LightKey> {
    (any::<u32>(), vec3(), vec3()).prop_map(|(frame, color, direction)| LightKey {
        frame,
        color,
        direction,
    })
}

fn shadow() -> impl Strategy<Value = ShadowKey> {
    (any::<u32>(), any::<u8>(), float()).prop_map(|(frame, mode, distance)| ShadowKey {
        frame,
        mode,
        distance,
    })
}

fn property() -> impl Strategy<Value = PropertyKey> {
    let ik = (raw_name::<20>(), any::<u8>())
        .prop_map(|(name, enabled_byte)| IkState { name, enabled_byte });
    (any::<u32>(), any::<u8>(), prop::collection::vec(ik, 0..6))
        .prop_map(|(frame, visible_byte, ik)| PropertyKey { frame, visible_byte, ik })
}

/// Keys for each of the six sections; a section is often empty so that every combination of
/// present, absent and empty sections comes up.
fn keys<T: std::fmt::Debug + Clone>(
    strategy: impl Strategy<Value = T>,
) -> impl Strategy<Value = Vec<T>> {
    prop_oneof![
        2 => Just(Vec::new()),
        3 => prop::collection::vec(strategy, 1..8),
    ]
}

fn header_v2() -> impl Strategy<Value = Header> {
    (byte_array::<5>(), raw_name::<20>()).prop_map(|(padding, model_name)| {
        let mut signature = [0u8; 30];
        signature[..25].copy_from_slice(SIGNATURE_V2);
        signature[25..].copy_from_slice(&padding);
        Header { signature, model_name }
    })
}

/// A version 1 header: only 10 bytes of model name are stored (see the module comment).
fn header_v1() -> impl Strategy<Value = Header> {
    (byte_array::<5>(), raw_name::<10>()).prop_map(|(padding, short)| {
        let mut signature = [0u8; 30];
        signature[..25].copy_from_slice(SIGNATURE_V1);
        signature[25..].copy_from_slice(&padding);
        let mut model_name = [0u8; 20];
        model_name[..10].copy_from_slice(&short.0);
        Header { signature, model_name: RawName(model_name) }
    })
}

/// A motion a VMD file can represent (see the module comment).
fn motion(header: impl Strategy<Value = Header>) -> impl Strategy<Value = Motion> {
    (
        header,
        (
            keys(bone()),
            keys(morph()),
            keys(camera()),
            keys(light()),
            keys(shadow()),
            keys(property()),
        ),
        0usize..=6,
        prop::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(
            |(
                header,
                (bones, morphs, cameras, lights, shadows, properties),
                sections_present,
                trailing,
            )| {
                let mut motion = Motion {
                    header,
                    bones,
                    morphs,
                    cameras,
                    lights,
                    shadows,
                    properties,
                    sections_present,
                    trailing,
                    trailing_omitted: 0,
                };
                // Bytes after fewer than six sections would be read as the next count.
                if motion.sections_to_write() < 6 {
                    motion.trailing.clear();
                }
                motion
            },
        )
}

// ---------------------------------------------------------------------------------------------
// Comparisons

/// Floats replaced by their bits, so that NaN keys compare equal to themselves.
fn bits3(v: Vec3) -> [u32; 3] {
    v.to_array().map(f32::to_bits)
}

fn has_nan(m: &Motion) -> bool {
    let v = |v: Vec3| v.is_nan();
    m.bones.iter().any(|k| v(k.translation) || k.rotation.is_nan())
        || m.morphs.iter().any(|k| k.weight.is_nan())
        || m.cameras.iter().any(|k| k.distance.is_nan() || v(k.target) || v(k.rotation))
        || m.lights.iter().any(|k| v(k.color) || v(k.direction))
        || m.shadows.iter().any(|k| k.distance.is_nan())
}

/// Field-by-field equality with floats compared bitwise.
fn assert_fields_equal(actual: &Motion, expected: &Motion) {
    assert_eq!(actual.header, expected.header, "header");
    assert_eq!(actual.sections_present, expected.sections_present, "sections_present");
    assert_eq!(actual.trailing, expected.trailing, "trailing");
    let bone = |k: &BoneKey| {
        (
            k.name,
            k.frame,
            bits3(k.translation),
            k.rotation.to_array().map(f32::to_bits),
            k.interpolation,
        )
    };
    assert_same_by(&actual.bones, &expected.bones, bone);
    let morph = |k: &MorphKey| (k.name, k.frame, k.weight.to_bits());
    assert_same_by(&actual.morphs, &expected.morphs, morph);
    let camera = |k: &CameraKey| {
        (
            k.frame,
            k.distance.to_bits(),
            bits3(k.target),
            bits3(k.rotation),
            k.interpolation,
            k.view_angle,
            k.perspective_byte,
        )
    };
    assert_same_by(&actual.cameras, &expected.cameras, camera);
    let light = |k: &LightKey| (k.frame, bits3(k.color), bits3(k.direction));
    assert_same_by(&actual.lights, &expected.lights, light);
    let shadow = |k: &ShadowKey| (k.frame, k.mode, k.distance.to_bits());
    assert_same_by(&actual.shadows, &expected.shadows, shadow);
    assert_eq!(actual.properties, expected.properties, "properties");
}

/// Asserts that two key lists are the same when seen through `fields`.
#[track_caller]
fn assert_same_by<K, T: PartialEq + std::fmt::Debug>(
    actual: &[K],
    expected: &[K],
    fields: impl Fn(&K) -> T,
) {
    assert_eq!(
        actual.iter().map(&fields).collect::<Vec<_>>(),
        expected.iter().map(&fields).collect::<Vec<_>>()
    );
}

/// The whole round trip for one representable motion.
fn check_round_trip(motion: &Motion) -> Result<(), TestCaseError> {
    let bytes = motion.to_bytes();
    prop_assert_eq!(bytes.len(), motion.encoded_len());
    let mut appended = vec![0xAB];
    motion.encode_into(&mut appended);
    prop_assert_eq!(&appended[1..], &bytes[..]);

    let parsed =
        Motion::parse(&bytes).map_err(|e| TestCaseError::fail(format!("strict parse: {e}")))?;
    prop_assert!(parsed.to_bytes() == bytes, "bytes differ after write → read → write");

    let mut expected = motion.clone();
    expected.sections_present = motion.sections_to_write();
    assert_fields_equal(&parsed, &expected);
    if !has_nan(motion) {
        prop_assert_eq!(&parsed, &expected);
    }

    // Lenient reading of a valid file changes nothing and repairs nothing.
    let lenient = Motion::parse_with(&bytes, ReadOptions::LENIENT)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(lenient.repairs.is_empty(), "repairs on a valid file: {:?}", lenient.repairs);
    prop_assert!(lenient.motion.to_bytes() == bytes);

    // The zero-copy view sees the same records.
    let view = MotionView::new(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(view.header(), expected.header);
    prop_assert_eq!(view.trailing(), &expected.trailing[..]);
    prop_assert_eq!(view.layout().sections.len(), expected.sections_present);
    for section in Section::ALL {
        prop_assert_eq!(view.count(section), expected.count(section));
    }
    for (r, k) in view.bones().zip(&expected.bones) {
        prop_assert_eq!(r.name(), &k.name);
        prop_assert_eq!(r.frame(), k.frame);
        prop_assert_eq!(bits3(r.translation()), bits3(k.translation));
        prop_assert_eq!(
            r.rotation().to_array().map(f32::to_bits),
            k.rotation.to_array().map(f32::to_bits)
        );
        prop_assert_eq!(r.interpolation(), &k.interpolation.0);
        prop_assert_eq!(r.to_key().encode(), k.encode());
    }
    for (r, k) in view.morphs().zip(&expected.morphs) {
        prop_assert_eq!(
            (r.name(), r.frame(), r.weight().to_bits()),
            (&k.name, k.frame, k.weight.to_bits())
        );
    }
    for section in [Section::Camera, Section::Light, Section::SelfShadow] {
        prop_assert!(view_section_matches(&view, &expected, section), "{section:?} records");
    }
    prop_assert_eq!(
        view.properties().map(|r| r.to_key()).collect::<Vec<_>>(),
        expected.properties.clone()
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(Config { cases: CASES, ..Config::default() })]

    #[test]
    fn any_v2_motion_round_trips(motion in motion(header_v2())) {
        check_round_trip(&motion)?;
    }

    #[test]
    fn any_v1_motion_round_trips(motion in motion(header_v1())) {
        prop_assert_eq!(motion.header.version(), vmdkit::Version::V1);
        prop_assert_eq!(motion.to_bytes().len(), motion.encoded_len());
        check_round_trip(&motion)?;
    }
}

proptest! {
    #![proptest_config(Config { cases: 256, ..Config::default() })]

    /// Canonical interpolation blocks keep their curves and physics toggle through a file.
    #[test]
    fn canonical_interpolation_survives_a_file(curves in prop::array::uniform4(curve()), physics in physics(), frame: u32) {
        let mut motion = Motion::default();
        let mut key = BoneKey::new(RawName::from_bytes_mmd(b"bone"), frame);
        key.interpolation = BoneInterpolation::canonical(curves, physics);
        motion.bones.push(key);
        let parsed = Motion::parse(&motion.to_bytes()).unwrap();
        let block = parsed.bones[0].interpolation;
        prop_assert!(block.is_canonical());
        prop_assert_eq!(block.curves(), curves);
        // (0, 0) and (99, 15) written as Unknown read back as On and Off: same bytes.
        prop_assert_eq!(BoneInterpolation::canonical(curves, block.physics()), key.interpolation);
        check_round_trip(&motion)?;
    }

    /// The module comment's claim: bytes after fewer than six sections do not come back as
    /// trailing bytes, so such motions are rightly left out of the generators above.
    #[test]
    fn trailing_bytes_after_fewer_than_six_sections_are_not_representable(
        mut motion in motion(header_v2()),
        trailing in prop::collection::vec(any::<u8>(), 1..40),
    ) {
        // Fewer than six sections: no property keys, and the property count not required.
        motion.properties.clear();
        motion.sections_present = motion.sections_present.min(5);
        prop_assert!(motion.sections_to_write() < 6);
        motion.trailing = trailing;
        let bytes = motion.to_bytes();
        match Motion::parse(&bytes) {
            Err(_) => {}
            Ok(parsed) => {
                prop_assert!(parsed.sections_present > motion.sections_to_write());
                prop_assert!(parsed.trailing.len() < motion.trailing.len());
            }
        }
    }
}

/// A fixed motion with a NaN, so that the bitwise comparison is known to be exercised.
#[test]
fn nan_payloads_and_negative_zero_survive() {
    let mut motion = vmdkit::example::example_motion();
    motion.bones[0].translation = Vec3::new(f32::from_bits(0x7FA0_0001), -0.0, f32::NEG_INFINITY);
    motion.bones[0].rotation = Quat::from_xyzw(f32::from_bits(0xFFFF_FFFF), 0.0, 0.0, 1.0);
    motion.morphs[0].weight = f32::from_bits(0x0000_0001);
    motion.shadows[0].distance = f32::from_bits(0x7F80_0001);
    let parsed = Motion::parse(&motion.to_bytes()).unwrap();
    assert_eq!(parsed.bones[0].translation.x.to_bits(), 0x7FA0_0001);
    assert_eq!(parsed.bones[0].translation.y.to_bits(), (-0.0f32).to_bits());
    assert_eq!(parsed.bones[0].rotation.x.to_bits(), 0xFFFF_FFFF);
    assert_eq!(parsed.shadows[0].distance.to_bits(), 0x7F80_0001);
    assert_fields_equal(&parsed, &motion);
    check_round_trip(&motion).unwrap();
}
