//! Every PMX, PMD and VPD in the shared corpus: each model reads with every reference in range,
//! the counts below are what the files hold (checked by reading them), and prefixes and byte
//! flips give `Ok` or a typed error, never a panic.

use test_corpus::{corpus_or_skip, Entry, Manifest};
use vmdkit::model::*;

/// (file name ending, bones, bones with IK, with append, with a fixed axis)
const BONE_FACTS: [(&str, usize, usize, usize, usize); 12] = [
    ("menu.pmd", 18, 0, 0, 0),
    ("mei.pmd", 142, 4, 14, 4),
    ("bone_flag_test.pmx", 3, 0, 0, 0),
    ("matcap_sample.pmx", 2, 0, 0, 0),
    ("uv_morph_test.pmx", 2, 0, 0, 0),
    ("初音ミク.pmx", 122, 7, 2, 0),
    ("drone.pmx", 3, 0, 0, 0),
    ("ボーンツリーテストモデル.pmx", 221, 32, 42, 6),
    ("平面3つ.pmx", 4, 0, 0, 0),
    ("曲げ柱tex.pmx", 2, 0, 0, 0),
    ("test_append_bone.pmx", 9, 0, 3, 0),
    ("trace_check_base_model.pmx", 123, 4, 28, 4),
];

/// A tool-written fixture whose vertices store BDEF1 bone indices in 2 bytes although its
/// header says bone indices are 1 byte wide. With the extra byte removed from each of its 24
/// vertices the rest of the file reads to the end, so the file, not the reader, is wrong; MMD
/// reads by the header too.
const MALFORMED: &str = "joint_orient_test.pmx";

fn models(manifest: &Manifest) -> impl Iterator<Item = &Entry> {
    manifest.of_kind("pmx").chain(manifest.of_kind("pmd"))
}

fn find<'a>(manifest: &'a Manifest, ending: &str) -> &'a Entry {
    manifest.entries.iter().find(|e| e.local_path.ends_with(ending)).expect(ending)
}

fn check_references(path: &str, model: &Model) {
    let n = model.bones.len();
    for (i, b) in model.bones.iter().enumerate() {
        let at = format!("{path}: bone {i} {:?}", b.name);
        assert!(!b.name.is_empty() && !b.name.contains('\u{FFFD}'), "{at}: name");
        assert!(!b.name_en.contains('\u{FFFD}'), "{at}: English name");
        assert!(b.parent.iter().all(|&p| p < n), "{at}: parent");
        if let Tail::Bone(Some(t)) = b.tail {
            assert!(t < n, "{at}: tail");
        }
        if let Some(a) = b.append {
            assert!(a.parent < n && a.ratio.is_finite(), "{at}: append");
        }
        if let Some(ik) = &b.ik {
            assert!(ik.target < n && ik.links.iter().all(|l| l.bone < n), "{at}: IK");
            assert!(ik.loop_count > 0 && ik.limit_angle > 0.0, "{at}: IK");
        }
        assert!(b.position.is_finite(), "{at}: position");
        if b.pmd_type.is_none() {
            assert_eq!(b.name_cp932, key_name(&b.name), "{at}: key name");
        }
    }
    for (i, m) in model.morphs.iter().enumerate() {
        match &m.kind {
            MorphKind::Bone(offsets) => {
                assert!(offsets.iter().all(|o| o.bone < n), "{path}: morph {i}")
            }
            MorphKind::Group(members) => assert!(
                members.iter().all(|g| matches!(model.morphs[g.morph].kind, MorphKind::Bone(_))),
                "{path}: morph {i}"
            ),
            // Kinds added later hold no references this test knows how to check.
            _ => {}
        }
    }
}

#[test]
fn model_corpus_every_model_reads_with_references_in_range() {
    let Some(manifest) = corpus_or_skip("model corpus") else { return };
    let mut checked = 0;
    for entry in models(&manifest) {
        let path = entry.local_path.as_str();
        if path.ends_with(MALFORMED) {
            let e = Model::parse(&entry.bytes()).unwrap_err();
            assert_eq!(
                (e.section, e.record, e.offset),
                (ModelSection::Vertices, Some(13), 683),
                "{e}"
            );
            assert_eq!(e.kind, ModelErrorKind::UnknownKind { what: "weight type", value: 63 });
            let from_file = Model::read_file(&entry.path).unwrap_err();
            assert_eq!(from_file.format_error(), Some(&e));
            continue;
        }
        let model = Model::read_file(&entry.path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(model, Model::parse(&entry.bytes()).unwrap());
        check_references(path, &model);
        let facts = BONE_FACTS
            .iter()
            .find(|f| path.ends_with(f.0))
            .unwrap_or_else(|| panic!("{path}: no facts"));
        let count = |f: fn(&Bone) -> bool| model.bones.iter().filter(|b| f(b)).count();
        let found = (
            model.bones.len(),
            count(|b| b.ik.is_some()),
            count(|b| b.append.is_some()),
            count(|b| b.fixed_axis.is_some()),
        );
        assert_eq!(found, (facts.1, facts.2, facts.3, facts.4), "{path}");
        checked += 1;
    }
    assert_eq!(checked, BONE_FACTS.len());
}

#[test]
fn model_corpus_standard_legs_and_pmd_conversion() {
    let Some(manifest) = corpus_or_skip("model corpus legs") else { return };
    let miku = Model::read_file(&find(&manifest, "初音ミク.pmx").path).unwrap();
    assert_eq!(miku.name, "初音ミク");
    assert_eq!(miku.format, ModelFormat::Pmx { version: 2.0, utf8: false });
    let leg_ik = &miku.bones[miku.bone_index("左足ＩＫ").unwrap()];
    let ik = leg_ik.ik.as_ref().unwrap();
    assert_eq!(miku.bones[ik.target].name, "左足首");
    assert_eq!((ik.loop_count, ik.limit_angle), (40, 2.0));
    let links: Vec<&str> = ik.links.iter().map(|l| miku.bones[l.bone].name.as_str()).collect();
    assert_eq!(links, ["左ひざ", "左足"]);
    let (min, max) = ik.links[0].limits.unwrap();
    assert!(
        (min.x + std::f32::consts::PI).abs() < 1e-6
            && (max.x - (-0.5f32).to_radians()).abs() < 1e-6
    );
    // Its one bone morph and the group morph that drives it; the other 17 morphs move no bones.
    let names: Vec<&str> = miku.morphs.iter().map(|m| m.name.as_str()).collect();
    assert_eq!((names.as_slice(), miku.counts.morphs), (["TestBone", "TestGroup"].as_slice(), 19));

    // PMD: control weight 0.1 × 4 and the knee limits MMD applies.
    let mei = Model::read_file(&find(&manifest, "mei.pmd").path).unwrap();
    assert_eq!(mei.format, ModelFormat::Pmd { english: true });
    let ik = mei.bones[mei.bone_index("右足ＩＫ").unwrap()].ik.clone().unwrap();
    assert_eq!((mei.bones[ik.target].name.as_str(), ik.loop_count), ("右足首", 40));
    assert!((ik.limit_angle - 0.4).abs() < 1e-6);
    let knee = ik.links[0];
    assert_eq!(mei.bones[knee.bone].name, "右ひざ");
    let (min, max) = knee.limits.unwrap();
    assert_eq!(
        (min, max),
        (
            glam::Vec3::new(-std::f32::consts::PI, 0.0, 0.0),
            glam::Vec3::new((-0.5f32).to_radians(), 0.0, 0.0)
        )
    );
    // Bone types in mei.pmd: 2 under-rotate (5), 12 follow-rotate (9), 4 twist (8).
    let of_type = |t: u8| mei.bones.iter().filter(|b| b.pmd_type == Some(t)).count();
    assert_eq!((of_type(5), of_type(9), of_type(8)), (2, 12, 4));
    for b in mei.bones.iter().filter(|b| b.pmd_type == Some(5)) {
        let a = b.append.unwrap();
        assert!(a.rotation && !a.translation && a.ratio == 1.0 && b.deform_layer >= 2, "{b:?}");
    }

    // menu.pmd: two names that share their first 15 CP932 bytes, so a VMD key cut to 15 bytes
    // binds both to the first of them.
    let menu = Model::read_file(&find(&manifest, "menu.pmd").path).unwrap();
    let a = menu.bone_index("メニューセンター").unwrap();
    let b = menu.bone_index("メニューセンター先").unwrap();
    assert_eq!(menu.bones[a].name_cp932, menu.bones[b].name_cp932);
    assert_eq!(menu.bone_for_key(&menu.bones[b].name_cp932), Some(a));
}

/// A small deterministic generator for positions and byte values.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses every prefix length in `lengths`: each is `Ok` or an error inside the prefix, and the
/// failing section and offset never move backwards as the prefix grows.
fn check_prefixes(path: &str, data: &[u8], lengths: impl Iterator<Item = usize>) {
    let mut last: Option<(ModelSection, u64)> = None;
    for len in lengths {
        match Model::parse(&data[..len]) {
            Err(e) => {
                assert!(e.offset <= len as u64, "{path} [..{len}]: {e}");
                if let Some((section, offset)) = last {
                    assert!(
                        e.section >= section && e.offset >= offset,
                        "{path} [..{len}]: {e} after {section} {offset}"
                    );
                }
                last = Some((e.section, e.offset));
            }
            Ok(_) => last = None,
        }
    }
}

#[test]
fn model_corpus_prefixes_and_byte_flips_never_panic() {
    let Some(manifest) = corpus_or_skip("model corpus damage") else { return };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for entry in models(&manifest) {
        let data = entry.bytes();
        let path = entry.local_path.as_str();
        // Several hundred lengths spread over the file, in increasing order.
        let step = (data.len() / 300).max(1);
        check_prefixes(path, &data, (0..data.len()).step_by(step));
        let mut damaged = data.clone();
        for _ in 0..120 {
            let i = rng.below(data.len());
            damaged[i] = rng.next() as u8;
            let _ = Model::parse(&damaged);
            damaged[i] = data[i];
        }
    }
    // Every length of two small models, and of mei.pmd's header and bone and IK tables.
    for name in ["test_append_bone.pmx", "bone_flag_test.pmx"] {
        let small = find(&manifest, name).bytes();
        check_prefixes(name, &small, 0..=small.len());
    }
    let mei = find(&manifest, "mei.pmd").bytes();
    let bones_at = 283 + 4 + 8983 * 38 + 4 + 43911 * 2 + 4 + 17 * 70;
    assert_eq!(u16::from_le_bytes([mei[bones_at], mei[bones_at + 1]]), 142);
    check_prefixes("mei.pmd", &mei, (0..300).chain(bones_at - 8..bones_at + 2 + 142 * 39 + 600));
}

#[test]
fn model_corpus_poses_read_and_rewrite_as_mmd_writes_them() {
    let Some(manifest) = corpus_or_skip("model corpus poses") else { return };
    let mut checked = 0;
    for entry in manifest.of_kind("vpd") {
        let data = entry.bytes();
        let pose = VpdPose::read_file(&entry.path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pose.model_file, entry.get("model_name"), "{}", entry.local_path);
        assert_eq!(pose.bones.len() as u64, entry.count("bone").unwrap(), "{}", entry.local_path);
        assert!(pose.bones.iter().all(|b| !b.name.contains('\u{FFFD}')));
        // The stored files have LF line endings; with CRLF they are exactly what we write.
        let crlf: Vec<u8> = data
            .iter()
            .flat_map(|&b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] })
            .collect();
        assert!(pose.to_bytes() == crlf, "{}: rewrite differs", entry.local_path);
        assert_eq!(VpdPose::parse(&pose.to_bytes()).unwrap(), pose);
        for len in 0..data.len().min(2000) {
            let _ = VpdPose::parse(&data[..len]);
        }
        checked += 1;
    }
    assert_eq!(checked, 2);
    let smile = VpdPose::read_file(&find(&manifest, "微笑.vpd").path).unwrap();
    assert_eq!(smile.morphs.len(), 6);
    assert_eq!(smile.morphs[0], ("ウィンク右".to_string(), 0.190476));
}
