//! `merge` keeps identical keys once, and `rename --to-english` / `--to-japanese` keep every
//! key of real dances with fingers, on corpus files read in place.

use crate::common;

use common::{assert_no_panic, vmdkit};
use std::path::PathBuf;
use test_corpus::corpus_or_skip;
use vmdkit::Motion;

const GREET: &str =
    "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Motion__mei_greeting__mei_greeting.vmd";
const WAVE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const BIG: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";

fn corpus_file(test: &str, name: &str) -> Option<PathBuf> {
    let manifest = corpus_or_skip(test)?;
    let path = manifest.dir.join(name);
    assert!(path.is_file(), "{test}: {} is missing from the corpus", path.display());
    Some(path)
}

#[test]
fn merging_a_file_with_itself_keeps_each_key_once() {
    let Some(greet) = corpus_file("merge A A", GREET) else {
        return;
    };
    let motion = Motion::read_file(&greet).unwrap();
    // The file repeats one morph key 78 times: duplicates inside a file stay as they are.
    assert_eq!(motion.morphs.len(), 98);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("twice.vmd");
    let output =
        vmdkit().arg("merge").arg(&greet).arg(&greet).arg("-o").arg(&out).output().unwrap();
    assert_no_panic(&output);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{}: 456 bone, 98 morph keys\n", out.display())), "{stderr}");
    assert!(
        stderr.contains("456 bone, 98 morph keys dropped: identical to keys of earlier files"),
        "{stderr}"
    );
    assert!(!stderr.contains("overrode"), "{stderr}");
    let merged = Motion::read_file(&out).unwrap();
    assert_eq!(merged.bones, motion.bones);
    assert_eq!(merged.morphs, motion.morphs);
    assert_eq!(merged.properties, motion.properties);
}

#[test]
fn merging_keys_that_differ_lets_the_later_file_win_and_counts_them() {
    let Some(greet) = corpus_file("merge override", GREET) else {
        return;
    };
    let motion = Motion::read_file(&greet).unwrap();
    let mut fixes = Motion::new(motion.header.model_name);
    let mut key = motion.bones[0];
    key.translation.x += 1.0;
    fixes.bones.push(key);
    fixes.bones.push(motion.bones[1]);
    let dir = tempfile::tempdir().unwrap();
    let fixes_path = dir.path().join("fixes.vmd");
    fixes.write_file(&fixes_path).unwrap();
    let out = dir.path().join("fixed.vmd");
    let output =
        vmdkit().arg("merge").arg(&greet).arg(&fixes_path).arg("-o").arg(&out).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("fixes.vmd: 1 bone keys dropped: identical"), "{stderr}");
    assert!(stderr.contains("fixes.vmd: 1 bone keys overrode different keys"), "{stderr}");
    let merged = Motion::read_file(&out).unwrap();
    assert_eq!(merged.bones.len(), motion.bones.len());
    assert_eq!(merged.bones[0], key);
}

/// Each key as (section, track name bytes, frame, values), for comparing motions whose names
/// differ only in the padding after the NUL.
fn keys(m: &Motion) -> Vec<String> {
    let bones = m.bones.iter().map(|k| {
        format!(
            "bone {:?} {} {:?} {:?} {:?}",
            k.name.bytes(),
            k.frame,
            k.translation,
            k.rotation,
            k.interpolation
        )
    });
    let morphs =
        m.morphs.iter().map(|k| format!("morph {:?} {} {}", k.name.bytes(), k.frame, k.weight));
    let ik = m.properties.iter().map(|p| {
        let states: Vec<_> =
            p.ik.iter().map(|s| (s.name.bytes().to_vec(), s.enabled_byte)).collect();
        format!("property {} {} {states:?}", p.frame, p.visible_byte)
    });
    bones.chain(morphs).chain(ik).collect()
}

#[test]
fn to_english_and_back_keeps_every_key_of_dances_with_fingers() {
    let Some(manifest) = corpus_or_skip("rename round trip") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for name in [WAVE, BIG, GREET] {
        let path = manifest.dir.join(name);
        let motion = Motion::read_file(&path).unwrap();
        for style in ["mmd", "mmd-tools"] {
            let english = dir.path().join("english.vmd");
            let output = vmdkit()
                .arg("rename")
                .arg(&path)
                .arg(&english)
                .args(["--to-english", "--english-style", style])
                .output()
                .unwrap();
            assert_no_panic(&output);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "{name} {style}: {stderr}");
            assert!(!stderr.contains("warning"), "{name} {style}: names were cut: {stderr}");
            let renamed = Motion::read_file(&english).unwrap();
            assert_eq!(renamed.bones.len(), motion.bones.len());
            let fingers = if style == "mmd" { "fore1_L" } else { "LeftIndex1" };
            if name != GREET {
                assert!(
                    renamed.bones.iter().any(|k| k.name.bytes() == fingers.as_bytes()),
                    "{name} {style}: no {fingers}"
                );
            }
            let back = dir.path().join("back.vmd");
            let output = vmdkit()
                .arg("rename")
                .arg(&english)
                .arg(&back)
                .arg("--to-japanese")
                .output()
                .unwrap();
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
            assert_eq!(keys(&Motion::read_file(&back).unwrap()), keys(&motion), "{name} {style}");
        }
    }
}

#[test]
fn a_collision_names_the_tracks_and_how_to_resolve_it() {
    let Some(wave) = corpus_file("rename collision", WAVE) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.vmd");
    let output = vmdkit()
        .arg("rename")
        .arg(&wave)
        .arg(&out)
        .args(["--to-english", "--bone", "左人指２=fore1_L"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "renaming would merge the bone tracks 左人指１ (→ fore1_L), 左人指２ (→ fore1_L) into one named fore1_L"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("give each its own name with --bone OLD=NEW"), "{stderr}");
    assert!(!out.exists());
    // Given names take precedence over the dictionary's.
    let output = vmdkit()
        .arg("rename")
        .arg(&wave)
        .arg(&out)
        .args(["--to-english", "--bone", "左人指１=LIndex1"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let renamed = Motion::read_file(&out).unwrap();
    assert!(renamed.bones.iter().any(|k| k.name.bytes() == b"LIndex1"));
    assert!(renamed.bones.iter().any(|k| k.name.bytes() == b"fore2_L"));
}

#[test]
fn to_japanese_reads_older_spellings_and_nuthouse_names_the_mmd_style() {
    let mut motion = Motion::new(vmdkit::LongName::encode("m").0);
    for (i, name) in
        ["foot_L", "LeftIndexFinge", "leg IK parent_R", "RightMiddle3", "center"].iter().enumerate()
    {
        motion.bones.push(vmdkit::BoneKey::new(vmdkit::KeyName::encode(name).0, i as u32));
    }
    let dir = tempfile::tempdir().unwrap();
    let english = dir.path().join("english.vmd");
    motion.write_file(&english).unwrap();
    let japanese = dir.path().join("japanese.vmd");
    let output =
        vmdkit().arg("rename").arg(&english).arg(&japanese).arg("--to-japanese").output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let names: Vec<String> = Motion::read_file(&japanese)
        .unwrap()
        .bones
        .iter()
        .map(|k| k.name.to_string_lossy())
        .collect();
    // A name cut by an older dictionary (LeftIndexFinger1 in 15 bytes) is not guessed at.
    assert_eq!(names, ["左足首", "LeftIndexFinge", "右足IK親", "右中指３", "センター"]);

    let out = |style: &str| {
        let path = dir.path().join(format!("{style}.vmd"));
        let output = vmdkit()
            .arg("rename")
            .arg(&japanese)
            .arg(&path)
            .args(["--to-english", "--english-style", style])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        std::fs::read(path).unwrap()
    };
    assert_eq!(out("nuthouse"), out("mmd"));
    let names: Vec<String> = Motion::parse(&out("mmd"))
        .unwrap()
        .bones
        .iter()
        .map(|k| k.name.to_string_lossy())
        .collect();
    assert_eq!(names, ["ankle_L", "LeftIndexFinge", "leg IKP_R", "middle3_R", "center"]);
}
