//! Model reading tests on fixtures built here: a tiny PMX writer covering 2.0 and 2.1, UTF-8
//! and UTF-16, each index width; a hand-built PMD; prefixes and damage of both.

use super::*;
use glam::{Quat, Vec3};

mod mesh;
mod physics;
mod pmd;

use pmd::{find, pmd_fixture};

/// Writes PMX bytes with chosen encoding and index widths.
struct Pmx {
    out: Vec<u8>,
    utf8: bool,
    /// vertex, texture, material, bone, morph, rigid body
    sizes: [u8; 6],
}

impl Pmx {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.out.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.out.extend(v.to_le_bytes());
        self
    }
    fn i32(&mut self, v: i32) -> &mut Self {
        self.out.extend(v.to_le_bytes());
        self
    }
    fn f32s(&mut self, vs: &[f32]) -> &mut Self {
        for v in vs {
            self.out.extend(v.to_le_bytes());
        }
        self
    }
    fn text(&mut self, s: &str) -> &mut Self {
        let bytes: Vec<u8> = if self.utf8 {
            s.as_bytes().to_vec()
        } else {
            s.encode_utf16().flat_map(|u| u.to_le_bytes()).collect()
        };
        self.i32(bytes.len() as i32);
        self.out.extend(bytes);
        self
    }
    fn idx(&mut self, which: usize, v: i32) -> &mut Self {
        match self.sizes[which] {
            1 => self.u8(v as u8),
            2 => self.u16(v as u16),
            _ => self.i32(v),
        }
    }
    fn bone(&mut self, v: i32) -> &mut Self {
        self.idx(3, v)
    }
}

const V: usize = 0;
const T: usize = 1;
const M: usize = 2;
const MORPH: usize = 4;
const RB: usize = 5;

/// A PMX with one record of every kind, six bones and eight morphs.
fn pmx_fixture(version: f32, utf8: bool, sizes: [u8; 6]) -> Vec<u8> {
    let mut w = Pmx { out: b"PMX ".to_vec(), utf8, sizes };
    w.f32s(&[version]).u8(8).u8(utf8 as u8).u8(1);
    for s in sizes {
        w.u8(s);
    }
    w.text("テスト").text("Test").text("comment").text("");
    // vertices: BDEF1, SDEF (and QDEF in 2.1); one additional UV each
    let qdef = version > 2.0;
    w.i32(2 + qdef as i32);
    w.f32s(&[0.0; 12]).u8(0).bone(0).f32s(&[1.0]);
    w.f32s(&[0.0; 12]).u8(3).bone(0).bone(1).f32s(&[0.5]).f32s(&[0.0; 9]).f32s(&[1.0]);
    if qdef {
        w.f32s(&[0.0; 12]).u8(4).bone(0).bone(1).bone(2).bone(-1).f32s(&[0.25; 4]).f32s(&[1.0]);
    }
    w.i32(3).idx(V, 0).idx(V, 1).idx(V, 1);
    w.i32(1).text("tex.png");
    // material with a shared toon, then one with a texture toon
    w.i32(2);
    for toon in [1u8, 0] {
        w.text("mat")
            .text("")
            .f32s(&[1.0; 11])
            .u8(0)
            .f32s(&[0.0; 5])
            .idx(T, 0)
            .idx(T, -1)
            .u8(0)
            .u8(toon);
        if toon == 1 {
            w.u8(3);
        } else {
            w.idx(T, 0);
        }
        w.text("").i32(3);
    }
    // bones
    w.i32(6);
    w.text("センター").text("center").f32s(&[0.0, 8.0, 0.0]).bone(-1).i32(0).u16(0x001E);
    w.f32s(&[0.0, 1.0, 0.0]);
    w.text("左足").text("leg_L").f32s(&[1.0, 10.0, 0.0]).bone(0).i32(0).u16(0x001B).bone(2);
    w.text("左ひざ").text("knee_L").f32s(&[1.0, 5.0, 0.0]).bone(1).i32(0).u16(0x001B).bone(-1);
    w.text("左足首")
        .text("ankle_L")
        .f32s(&[1.0, 1.0, 0.0])
        .bone(2)
        .i32(0)
        .u16(0x001A)
        .f32s(&[0.0; 3]);
    w.text("左足ＩＫ")
        .text("leg IK_L")
        .f32s(&[1.0, 1.0, 0.0])
        .bone(0)
        .i32(1)
        .u16(0x003E)
        .f32s(&[0.0; 3]);
    w.bone(3).i32(40).f32s(&[2.0]).i32(2);
    w.bone(2).u8(1).f32s(&[-3.0, 0.0, 0.0, -0.01, 0.0, 0.0]);
    w.bone(1).u8(0);
    // append rotation+translation (local), fixed axis, local axes, external parent, after physics
    w.text("左目").text("eye_L").f32s(&[0.5, 15.0, 0.0]).bone(0).i32(2).u16(0x3F9A).f32s(&[0.0; 3]);
    w.bone(0).f32s(&[0.5]).f32s(&[1.0, 0.0, 0.0]).f32s(&[1.0, 0.0, 0.0, 0.0, 0.0, 1.0]).i32(7);
    // morphs: vertex, bone, group (vertex + bone), group (vertex only), material, UV, [flip, impulse]
    let morphs = if version > 2.0 { 8 } else { 6 };
    w.i32(morphs);
    w.text("v").text("").u8(1).u8(1).i32(1).idx(V, 1).f32s(&[0.0; 3]);
    w.text("bone").text("bm").u8(4).u8(2).i32(2);
    w.bone(1).f32s(&[0.0, 1.0, 0.0]).f32s(&[0.0, 0.0, 0.0, 1.0]);
    w.bone(-1).f32s(&[0.0; 7]);
    w.text("group")
        .text("")
        .u8(4)
        .u8(0)
        .i32(2)
        .idx(MORPH, 0)
        .f32s(&[1.0])
        .idx(MORPH, 1)
        .f32s(&[0.5]);
    w.text("vgroup").text("").u8(4).u8(0).i32(1).idx(MORPH, 0).f32s(&[1.0]);
    w.text("mat").text("").u8(4).u8(8).i32(1).idx(M, -1).u8(0).f32s(&[0.0; 28]);
    w.text("uv").text("").u8(4).u8(3).i32(1).idx(V, 0).f32s(&[0.0; 4]);
    if version > 2.0 {
        w.text("flip").text("").u8(4).u8(9).i32(1).idx(MORPH, 1).f32s(&[1.0]);
        w.text("impulse").text("").u8(4).u8(10).i32(1).idx(RB, 0).u8(0).f32s(&[0.0; 6]);
    }
    // display frames
    w.i32(1).text("Root").text("Root").u8(1).i32(2).u8(0).bone(0).u8(1).idx(MORPH, 1);
    // rigid body, joint
    w.i32(1).text("rb").text("").bone(0).u8(0).u16(0xFFFF).u8(0).f32s(&[1.0; 14]).u8(0);
    w.i32(1).text("j").text("").u8(0).idx(RB, 0).idx(RB, -1).f32s(&[0.0; 24]);
    if version > 2.0 {
        w.i32(1)
            .text("sb")
            .text("")
            .u8(0)
            .idx(M, 0)
            .u8(0)
            .u16(0)
            .u8(0)
            .i32(0)
            .i32(0)
            .f32s(&[1.0, 0.0])
            .i32(0);
        w.f32s(&[0.0; 18]).i32(0).i32(0).i32(0).i32(0).f32s(&[0.0; 3]);
        w.i32(1).idx(RB, 0).idx(V, 0).u8(0).i32(2).idx(V, 0).idx(V, 1);
    }
    w.out
}

const SIZES: [[u8; 6]; 4] = [[1; 6], [2; 6], [4; 6], [2, 1, 4, 1, 2, 4]];

fn check_fixture_model(model: &Model, version: f32) {
    assert_eq!(model.name, "テスト");
    assert_eq!(model.name_en, "Test");
    assert_eq!(model.comment, "comment");
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["センター", "左足", "左ひざ", "左足首", "左足ＩＫ", "左目"]);
    let b = &model.bones;
    assert_eq!(b[0].parent, None);
    assert_eq!(b[0].tail, Tail::Offset(Vec3::Y));
    assert_eq!(b[1].parent, Some(0));
    assert_eq!(b[1].tail, Tail::Bone(Some(2)));
    assert_eq!(b[2].tail, Tail::Bone(None));
    assert_eq!(b[1].name_en, "leg_L");
    assert_eq!(b[1].name_cp932, crate::text::KeyName::encode("左足").0);
    let ik = b[4].ik.as_ref().unwrap();
    assert_eq!((ik.target, ik.loop_count, ik.limit_angle), (3, 40, 2.0));
    assert_eq!(
        ik.links[0],
        IkLink { bone: 2, limits: Some((Vec3::new(-3.0, 0.0, 0.0), Vec3::new(-0.01, 0.0, 0.0))) }
    );
    assert_eq!(ik.links[1], IkLink { bone: 1, limits: None });
    assert_eq!(b[4].deform_layer, 1);
    let eye = &b[5];
    let append = Append { parent: 0, ratio: 0.5, rotation: true, translation: true, local: true };
    assert_eq!(eye.append, Some(append));
    assert_eq!(eye.fixed_axis, Some(Vec3::X));
    assert_eq!(eye.local_axes, Some((Vec3::X, Vec3::Z)));
    assert_eq!(eye.external_parent_key, Some(7));
    assert!(eye.after_physics && eye.flags.contains(BoneFlags::AFTER_PHYSICS));
    assert!(b.iter().all(|b| b.pmd_type.is_none()));

    assert_eq!(model.morphs.len(), 2, "{:?}", model.morphs);
    assert_eq!(model.morphs[0].name, "bone");
    assert_eq!(model.morphs[0].panel, 4);
    let offsets = [BoneOffset { bone: 1, translation: Vec3::Y, rotation: Quat::IDENTITY }];
    assert_eq!(model.morphs[0].kind, MorphKind::Bone(offsets.to_vec()));
    assert_eq!(model.morphs[1].kind, MorphKind::Group(vec![GroupMember { morph: 0, ratio: 0.5 }]));

    // Every morph is summarised, whatever it moves.
    let list: Vec<(&str, &str, u8, MorphType, usize)> = model
        .morph_list
        .iter()
        .map(|m| (m.name.as_str(), m.name_en.as_str(), m.panel, m.kind, m.offsets))
        .collect();
    let mut expected = vec![
        ("v", "", 1, MorphType::Vertex, 1),
        ("bone", "bm", 4, MorphType::Bone, 2),
        ("group", "", 4, MorphType::Group, 2),
        ("vgroup", "", 4, MorphType::Group, 1),
        ("mat", "", 4, MorphType::Material, 1),
        ("uv", "", 4, MorphType::Uv, 1),
    ];
    if version > 2.0 {
        expected.extend([
            ("flip", "", 4, MorphType::Flip, 1),
            ("impulse", "", 4, MorphType::Impulse, 1),
        ]);
    }
    assert_eq!(list, expected);

    let soft = version > 2.0;
    let c = model.counts;
    assert_eq!((c.vertices, c.face_indices, c.textures, c.materials), (2 + soft as usize, 3, 1, 2));
    assert_eq!(
        (c.morphs, c.display_frames, c.rigid_bodies, c.joints),
        (6 + 2 * soft as usize, 1, 1, 1)
    );
    assert_eq!(c.soft_bodies, soft as usize);
}

#[test]
fn pmx_2_0_and_2_1_read_in_both_encodings_and_every_index_width() {
    for version in [2.0, 2.1] {
        for utf8 in [false, true] {
            for sizes in SIZES {
                let data = pmx_fixture(version, utf8, sizes);
                let model = Model::parse(&data)
                    .unwrap_or_else(|e| panic!("{version} {utf8} {sizes:?}: {e}"));
                assert_eq!(model.format, ModelFormat::Pmx { version, utf8 });
                check_fixture_model(&model, version);
            }
        }
    }
}

#[test]
fn model_prefixes_and_byte_flips_give_typed_errors() {
    for data in
        [pmx_fixture(2.1, false, [1; 6]), pmx_fixture(2.0, true, [2, 1, 4, 1, 2, 4]), pmd_fixture()]
    {
        for len in 0..data.len() {
            // A PMX 2.1 may end before its soft bodies, so some prefixes are whole files.
            if let Err(e) = Model::parse(&data[..len]) {
                assert!(e.offset <= len as u64, "{len}: {e}");
                assert!(!e.to_string().is_empty());
            }
        }
        let mut damaged = data.clone();
        for i in 0..data.len() {
            for flip in [0x01, 0x80, 0xFF] {
                damaged[i] ^= flip;
                let _ = Model::parse(&damaged);
                damaged[i] = data[i];
            }
        }
    }
}

#[test]
fn model_damage_is_reported_with_section_record_and_offset() {
    let data = pmx_fixture(2.0, true, [1; 6]);
    let bones_at = find(&data, b"\x06\x00\x00\x00\x0c\x00\x00\x00\xe3\x82\xbb");
    // An enormous bone count is refused before allocating.
    let mut big = data.clone();
    big[bones_at..bones_at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    let e = Model::parse(&big).unwrap_err();
    assert_eq!((e.section, e.record, e.offset), (ModelSection::Bones, None, bones_at as u64));
    assert!(matches!(e.kind, ModelErrorKind::CountTooLarge { .. }), "{e}");
    // A parent index past the table.
    let mut bad = data.clone();
    let parent_at = bones_at + 4 + 4 + 12 + 4 + 6 + 12;
    assert_eq!(bad[parent_at], 0xFF);
    bad[parent_at] = 9;
    let e = Model::parse(&bad).unwrap_err();
    assert_eq!((e.section, e.record, e.offset), (ModelSection::Bones, Some(0), parent_at as u64));
    assert_eq!(e.kind, ModelErrorKind::BadIndex { what: "parent bone", index: 9, count: 6 });
    assert_eq!(e.to_string(), format!("bones section, record 0, byte offset {parent_at}: parent bone index 9 is out of range (there are 6)"));
    // An unknown vertex weight type.
    let mut bad = data.clone();
    // magic, version, globals, four texts ("テスト", "Test", "comment", ""), vertex count
    let vertices_at = 4 + 4 + 1 + 8 + (4 + 9) + (4 + 4) + (4 + 7) + 4 + 4;
    assert_eq!(&bad[vertices_at - 4..vertices_at], &2i32.to_le_bytes());
    bad[vertices_at + 48] = 7;
    let e = Model::parse(&bad).unwrap_err();
    assert_eq!(
        (e.section, e.record, e.offset),
        (ModelSection::Vertices, Some(0), vertices_at as u64 + 48)
    );
    assert_eq!(e.kind, ModelErrorKind::UnknownKind { what: "weight type", value: 7 });
    // Not a model at all.
    let e = Model::parse(b"Vocaloid Motion Data 0002").unwrap_err();
    assert!(matches!(e.kind, ModelErrorKind::NotAModel { .. }));
}
