//! Builds a motion from the fuzzer's bytes, then writes it as VMD, JSON and CSV and reads each
//! back: the same motion every time (`motion_checks`). Where the other targets only reach the
//! writers with what their readers accept, this one hands them any motion a VMD can hold:
//! raw names and interpolation blocks as well as names encoded as MMD writes them, canonical
//! curve blocks, every physics toggle, NaN and infinite floats, odd flag bytes, signature
//! padding, absent sections and trailing bytes.

#![no_main]

mod motion_checks;
#[path = "../../crates/vmdkit/tests/it/common/read_checks.rs"]
mod read_checks;

use glam::{Quat, Vec3};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use vmdkit::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, Curve, Header, IkState, LightKey,
    MorphKey, Motion, PhysicsToggle, PropertyKey, RawName, ShadowKey, TextEncoding, Version,
    SIGNATURE_LEN, SIGNATURE_V1, SIGNATURE_V2,
};

/// Keys per section: enough for encoding detection to weigh several names, few enough that
/// the three writers and readers stay fast (with 24, 130 runs a second).
const MAX_KEYS: u32 = 8;

/// Names as real files have them, so that encoding detection and MMD padding are exercised
/// beside raw bytes.
const NAMES: [&str; 10] = [
    "センター",
    "左足ＩＫ",
    "右腕",
    "まばたき",
    "あ",
    "上半身2",
    "全ての親",
    "左手捩",
    "腕",
    "a b",
];

fn name<const N: usize>(u: &mut Unstructured) -> Result<RawName<N>> {
    Ok(match u.int_in_range(0..=3)? {
        0 => RawName(u.arbitrary()?),
        1 => RawName::encode(NAMES[u.choose_index(NAMES.len())?]).0,
        2 => {
            let encoding = [TextEncoding::ShiftJis, TextEncoding::Gbk, TextEncoding::Utf8]
                [u.choose_index(3)?];
            let text: &str = u.arbitrary()?;
            RawName::encode_as(text, encoding).0
        }
        _ => {
            let len = u.int_in_range(0..=N)?;
            RawName::from_bytes_mmd(u.bytes(len)?)
        }
    })
}

fn float(u: &mut Unstructured) -> Result<f32> {
    Ok(match u.int_in_range(0..=3)? {
        0 => f32::from_bits(u.arbitrary()?),
        1 => [0.0, -0.0, 1.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MIN_POSITIVE]
            [u.choose_index(8)?],
        _ => u.int_in_range(-100_000i32..=100_000)? as f32 / 1000.0,
    })
}

fn vec3(u: &mut Unstructured) -> Result<Vec3> {
    Ok(Vec3::new(float(u)?, float(u)?, float(u)?))
}

fn curve(u: &mut Unstructured) -> Result<Curve> {
    // MMD keeps control points within 0..=127; any byte can be stored.
    let point = |u: &mut Unstructured| -> Result<u8> {
        if u.ratio(3, 4)? {
            u.int_in_range(0..=127)
        } else {
            u.arbitrary()
        }
    };
    Ok(Curve::new(point(u)?, point(u)?, point(u)?, point(u)?))
}

fn physics(u: &mut Unstructured) -> Result<PhysicsToggle> {
    Ok(match u.int_in_range(0..=2)? {
        0 => PhysicsToggle::On,
        1 => PhysicsToggle::Off,
        _ => PhysicsToggle::Unknown(u.arbitrary()?, u.arbitrary()?),
    })
}

fn flag(u: &mut Unstructured) -> Result<u8> {
    if u.ratio(7, 8)? {
        u.int_in_range(0..=1)
    } else {
        u.arbitrary()
    }
}

fn bone(u: &mut Unstructured) -> Result<BoneKey> {
    let interpolation = if u.ratio(3, 4)? {
        let curves = [curve(u)?, curve(u)?, curve(u)?, curve(u)?];
        BoneInterpolation::canonical(curves, physics(u)?)
    } else {
        BoneInterpolation(u.arbitrary()?)
    };
    let rotation = Quat::from_xyzw(float(u)?, float(u)?, float(u)?, float(u)?);
    Ok(BoneKey {
        name: name(u)?,
        frame: u.arbitrary()?,
        translation: vec3(u)?,
        rotation,
        interpolation,
    })
}

fn camera(u: &mut Unstructured) -> Result<CameraKey> {
    let interpolation = if u.ratio(3, 4)? {
        CameraInterpolation::new([curve(u)?, curve(u)?, curve(u)?, curve(u)?, curve(u)?, curve(u)?])
    } else {
        CameraInterpolation(u.arbitrary()?)
    };
    Ok(CameraKey {
        frame: u.arbitrary()?,
        distance: float(u)?,
        target: vec3(u)?,
        rotation: vec3(u)?,
        interpolation,
        view_angle: if u.ratio(3, 4)? { u.int_in_range(0..=180)? } else { u.arbitrary()? },
        perspective_byte: flag(u)?,
    })
}

fn property(u: &mut Unstructured) -> Result<PropertyKey> {
    let mut ik = Vec::new();
    for _ in 0..u.int_in_range(0..=4)? {
        ik.push(IkState { name: name(u)?, enabled_byte: flag(u)? });
    }
    Ok(PropertyKey { frame: u.arbitrary()?, visible_byte: flag(u)?, ik })
}

fn keys<T>(u: &mut Unstructured, make: impl Fn(&mut Unstructured) -> Result<T>) -> Result<Vec<T>> {
    let mut keys = Vec::new();
    for _ in 0..u.int_in_range(0..=MAX_KEYS)? {
        keys.push(make(u)?);
    }
    Ok(keys)
}

fn header(u: &mut Unstructured) -> Result<Header> {
    let version = if u.ratio(1, 4)? { Version::V1 } else { Version::V2 };
    // A known signature: lenient reading replaces any other by version 2's, and strict
    // reading refuses it. The five bytes after it are kept as they are.
    let mut signature = [0u8; SIGNATURE_LEN];
    signature[..25].copy_from_slice(match version {
        Version::V1 => SIGNATURE_V1,
        _ => SIGNATURE_V2,
    });
    if u.ratio(1, 4)? {
        signature[25..].copy_from_slice(u.bytes(5)?);
    }
    let mut model_name: RawName<20> = name(u)?;
    if version == Version::V1 {
        // A version 1 file has 10 bytes of model name; the reader fills the rest with zeros.
        model_name.0[10..].fill(0);
    }
    Ok(Header { signature, model_name })
}

fn motion(u: &mut Unstructured) -> Result<Motion> {
    let mut motion = Motion::new(RawName::default());
    motion.header = header(u)?;
    motion.bones = keys(u, bone)?;
    motion.morphs =
        keys(u, |u| Ok(MorphKey { name: name(u)?, frame: u.arbitrary()?, weight: float(u)? }))?;
    motion.cameras = keys(u, camera)?;
    motion.lights =
        keys(u, |u| Ok(LightKey { frame: u.arbitrary()?, color: vec3(u)?, direction: vec3(u)? }))?;
    motion.shadows = keys(u, |u| {
        Ok(ShadowKey { frame: u.arbitrary()?, mode: u.arbitrary()?, distance: float(u)? })
    })?;
    motion.properties = keys(u, property)?;
    motion.sections_present = u.int_in_range(0..=6)?;
    let trailing = u.int_in_range(0..=16)?;
    motion.trailing = u.bytes(trailing)?.to_vec();
    Ok(motion)
}

fuzz_target!(|data: &[u8]| {
    let Ok(mut motion) = motion(&mut Unstructured::new(data)) else { return };
    // A motion a VMD can hold: its file has a count for every section up to the last one
    // written, and bytes after the last section only once all six are there.
    motion.sections_present = motion.sections_to_write();
    if motion.sections_present < 6 {
        motion.trailing.clear();
    }
    motion_checks::check_all(&motion);
});
