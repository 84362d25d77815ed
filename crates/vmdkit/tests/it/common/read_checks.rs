//! Comparisons shared by the reading tests (`damaged`, `properties`) and the fuzz target, which
//! includes this file by path (`fuzz/fuzz_targets/read.rs`), so that a motion read from bytes
//! is held to one standard everywhere.
#![allow(dead_code)] // the fuzz targets and the posing benchmark use a subset

use vmdkit::{BoneKey, CameraKey, LightKey, MorphKey, Motion, MotionView, Section, ShadowKey};

/// Field-by-field equality with floats compared by their bits (NaN keys included).
pub fn same(a: &Motion, b: &Motion) -> bool {
    a.header == b.header
        && a.sections_present == b.sections_present
        && a.trailing == b.trailing
        && a.bones.iter().map(|k| k.encode()).eq(b.bones.iter().map(|k| k.encode()))
        && a.morphs.iter().map(|k| k.encode()).eq(b.morphs.iter().map(|k| k.encode()))
        && a.cameras.iter().map(|k| k.encode()).eq(b.cameras.iter().map(|k| k.encode()))
        && a.lights.iter().map(|k| k.encode()).eq(b.lights.iter().map(|k| k.encode()))
        && a.shadows.iter().map(|k| k.encode()).eq(b.shadows.iter().map(|k| k.encode()))
        && a.properties == b.properties
}

/// Whether the view's records of `section` are `motion`'s keys: decoded and encoded again,
/// they give the same bytes as the keys (so NaN keys compare too); property records, which
/// hold no floats, are compared as keys.
pub fn view_section_matches(view: &MotionView<'_>, motion: &Motion, section: Section) -> bool {
    match section {
        Section::Bone => encodes_as(view.bones(), &motion.bones, |r| r.to_key(), BoneKey::encode),
        Section::Morph => {
            encodes_as(view.morphs(), &motion.morphs, |r| r.to_key(), MorphKey::encode)
        }
        Section::Camera => {
            encodes_as(view.cameras(), &motion.cameras, |r| r.to_key(), CameraKey::encode)
        }
        Section::Light => {
            encodes_as(view.lights(), &motion.lights, |r| r.to_key(), LightKey::encode)
        }
        Section::SelfShadow => {
            encodes_as(view.shadows(), &motion.shadows, |r| r.to_key(), ShadowKey::encode)
        }
        Section::Property => {
            view.properties().map(|r| r.to_key()).eq(motion.properties.iter().cloned())
        }
        other => panic!("no records of a {other:?} section"),
    }
}

/// Whether `records`, decoded with `to_key`, encode to the same bytes as `keys`, in order.
fn encodes_as<R, K, const N: usize>(
    records: impl Iterator<Item = R>,
    keys: &[K],
    to_key: impl Fn(R) -> K,
    encode: impl Fn(&K) -> [u8; N],
) -> bool {
    records.map(|r| encode(&to_key(r))).eq(keys.iter().map(&encode))
}
