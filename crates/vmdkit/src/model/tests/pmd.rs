//! PMD models: a hand-built fixture, its bones in PMX terms, missing optional blocks and bad
//! indices, and key names cut as MMD cuts them.

use super::*;

/// Where `needle` first starts in `data`.
pub(super) fn find(data: &[u8], needle: &[u8]) -> usize {
    data.windows(needle.len()).position(|w| w == needle).expect("needle present")
}

/// A PMD with every section: bones of types 0, 1, 2, 5, 8, 9, two IK records on one bone,
/// skins, display lists, English names, toon names, a rigid body and a joint.
pub(super) fn pmd_fixture() -> Vec<u8> {
    let mut out = b"Pmd".to_vec();
    let name = |s: &str, n: usize| {
        let mut f = crate::text::TextEncoding::ShiftJis.encode(s, n).bytes;
        f.resize(n, 0);
        f
    };
    out.extend(1.0f32.to_le_bytes());
    out.extend(name("ミク", 20));
    out.extend(name("comment", 256));
    out.extend(1u32.to_le_bytes());
    out.extend([0u8; 38]);
    out.extend(3u32.to_le_bytes());
    out.extend([0u8; 6]);
    out.extend(1u32.to_le_bytes());
    out.extend([0u8; 70]);
    // name, parent, tail, type, ik field, position
    type PmdBone = (&'static str, u16, u16, u8, u16, [f32; 3]);
    let bones: [PmdBone; 9] = [
        ("センター", 0xFFFF, 1, 1, 0, [0.0, 8.0, 0.0]),
        ("左足", 0, 2, 4, 4, [1.0, 10.0, 0.0]),
        ("左ひざ", 1, 3, 4, 4, [1.0, 5.0, 0.0]),
        ("左足首", 2, 0, 6, 0, [1.0, 1.0, 0.0]),
        ("左足ＩＫ", 0, 0, 2, 0, [1.0, 1.0, 0.0]),
        ("左目", 0, 0, 5, 0, [0.5, 15.0, 0.0]),
        ("左腕捩", 0, 7, 8, 0, [2.0, 14.0, 0.0]),
        ("左ひじ", 6, 0, 1, 0, [4.0, 14.0, 0.0]),
        ("左手捩回転", 7, 6, 9, (-50i16) as u16, [3.0, 14.0, 0.0]),
    ];
    out.extend((bones.len() as u16).to_le_bytes());
    for (n, parent, tail, kind, ik, pos) in bones {
        out.extend(name(n, 20));
        out.extend(parent.to_le_bytes());
        out.extend(tail.to_le_bytes());
        out.push(kind);
        out.extend(ik.to_le_bytes());
        for v in pos {
            out.extend(v.to_le_bytes());
        }
    }
    out.extend(2u16.to_le_bytes());
    for _ in 0..2 {
        out.extend(4u16.to_le_bytes());
        out.extend(3u16.to_le_bytes());
        out.push(2);
        out.extend(40u16.to_le_bytes());
        out.extend(0.5f32.to_le_bytes());
        out.extend(2u16.to_le_bytes());
        out.extend(1u16.to_le_bytes());
    }
    out.extend(2u16.to_le_bytes()); // skins: base + one
    for n in ["base", "あ"] {
        out.extend(name(n, 20));
        out.extend(1u32.to_le_bytes());
        out.push(0);
        out.extend([0u8; 16]);
    }
    out.push(1);
    out.extend(1u16.to_le_bytes());
    out.push(1);
    out.extend(name("足", 50));
    out.extend(1u32.to_le_bytes());
    out.extend([1, 0, 1]);
    out.push(1); // English names
    out.extend(name("Miku", 20));
    out.extend(name("", 256));
    for (i, _) in bones.iter().enumerate() {
        out.extend(name(&format!("bone{i}"), 20));
    }
    out.extend(name("a", 20));
    out.extend(name("Legs", 50));
    out.extend([0u8; 1000]);
    out.extend(1u32.to_le_bytes());
    out.extend([0u8; 83]);
    out.extend(1u32.to_le_bytes());
    out.extend([0u8; 124]);
    out
}

#[test]
fn pmd_bones_convert_to_pmx_terms() {
    let model = Model::parse(&pmd_fixture()).unwrap();
    assert_eq!(model.format, ModelFormat::Pmd { english: true });
    assert_eq!((model.name.as_str(), model.name_en.as_str()), ("ミク", "Miku"));
    assert!(model.morphs.is_empty());
    // Skins are vertex morphs; the base skin has no English name, the others follow it.
    let skins: Vec<(&str, &str, MorphType, usize)> = model
        .morph_list
        .iter()
        .map(|m| (m.name.as_str(), m.name_en.as_str(), m.kind, m.offsets))
        .collect();
    assert_eq!(skins, [("base", "", MorphType::Vertex, 1), ("あ", "a", MorphType::Vertex, 1)]);
    let c = model.counts;
    assert_eq!(
        (c.vertices, c.face_indices, c.materials, c.morphs, c.rigid_bodies, c.joints),
        (1, 3, 1, 2, 1, 1)
    );
    let b = &model.bones;
    // The second IK record on 左足ＩＫ becomes a bone of its own.
    assert_eq!(b.len(), 10);
    assert_eq!(b[9].name, "左足ＩＫ+");
    assert_eq!(b[9].parent, Some(4));
    assert_eq!(b[9].name_cp932, crate::text::KeyName::encode("左足ＩＫ+").0);
    assert_eq!(b[1].name_en, "bone1");
    assert_eq!(b[0].parent, None);
    assert!(b[0].flags.contains(BoneFlags::MOVABLE));
    assert!(!b[1].flags.contains(BoneFlags::MOVABLE));
    assert_eq!(b[3].tail, Tail::Bone(None));
    assert!(!b[3].flags.contains(BoneFlags::VISIBLE));
    // IK: limit = control weight × 4; the knee gets MMD's X-only limits.
    let ik = b[4].ik.as_ref().unwrap();
    assert_eq!((ik.target, ik.loop_count, ik.limit_angle), (3, 40, 2.0));
    let knee =
        (Vec3::new(-std::f32::consts::PI, 0.0, 0.0), Vec3::new((-0.5f32).to_radians(), 0.0, 0.0));
    assert_eq!(
        ik.links,
        [IkLink { bone: 2, limits: Some(knee) }, IkLink { bone: 1, limits: None }]
    );
    assert!(b[4].flags.contains(BoneFlags::IK | BoneFlags::MOVABLE));
    assert_eq!(b[4].deform_layer, 1);
    // Type 5: the whole rotation of the bone in the IK field, layer 2.
    let under = Append { parent: 0, ratio: 1.0, rotation: true, translation: false, local: false };
    assert_eq!((b[5].append, b[5].deform_layer), (Some(under), 2));
    assert!(b[5].flags.contains(BoneFlags::APPEND_ROTATION));
    // Type 8: a fixed axis towards the tail bone.
    assert_eq!(b[6].fixed_axis, Some(Vec3::X));
    assert!(b[6].flags.contains(BoneFlags::FIXED_AXIS));
    // Type 9: the tail bone's rotation at the IK field's percent; layers follow parents.
    let follow =
        Append { parent: 6, ratio: -0.5, rotation: true, translation: false, local: false };
    assert_eq!(b[8].append, Some(follow));
    assert_eq!(b[8].pmd_type, Some(9));
    assert!(!b[8].flags.contains(BoneFlags::VISIBLE));
}

#[test]
fn pmd_without_optional_blocks_and_with_bad_indices() {
    let full = pmd_fixture();
    let english_at = full.len() - 1 - 20 - 256 - 9 * 20 - 20 - 50 - 1000 - 4 - 83 - 4 - 124;
    assert_eq!(full[english_at], 1);
    let model = Model::parse(&full[..english_at]).unwrap();
    assert_eq!(model.format, ModelFormat::Pmd { english: false });
    assert_eq!(model.bones[1].name_en, "");
    // A parent past the bone table: the bones section, record and the field's offset.
    let mut bad = full.clone();
    let bones_at = 3 + 4 + 20 + 256 + 4 + 38 + 4 + 6 + 4 + 70 + 2;
    let parent_at = bones_at + 39 + 20;
    bad[parent_at] = 50;
    let e = Model::parse(&bad).unwrap_err();
    assert_eq!((e.section, e.record, e.offset), (ModelSection::Bones, Some(1), parent_at as u64));
    assert_eq!(e.kind, ModelErrorKind::BadIndex { what: "parent bone", index: 50, count: 9 });
}

#[test]
fn model_key_names_match_the_cp932_encoder_cut_at_15_bytes() {
    use crate::text::{RawName, TextEncoding};
    let reference = |s: &str| RawName::from_bytes_mmd(&TextEncoding::ShiftJis.encode(s, 64).bytes);
    for name in [
        "",
        "センター",
        "左足ＩＫ",
        "メニューセンター先",
        "abcdefghijklmnopq",
        "a左ひざ捩れ補助ボーン",
        "Ω😀①ｶﾅ",
    ] {
        assert_eq!(key_name(name), reference(name), "{name}");
    }
    // Cut inside a double-byte character, as MMD cuts.
    assert_eq!(key_name("メニューセンター先").0[14], 0x81); // lead byte of ー (81 5B)
    proptest::proptest!(|(name in ".{0,20}")| {
        assert_eq!(key_name(&name), reference(&name));
    });
}
