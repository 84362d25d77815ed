//! Warnings on motions made in code with the quirks real files have, and name encodings.

mod common;

use common::vmdkit;
use glam::Quat;
use serde_json::Value;
use vmdkit::Motion;
use vmdkit::{BoneInterpolation, BoneKey, MorphKey, PhysicsToggle};
use vmdkit::{KeyName, LongName, RawName, TextEncoding};

fn info_json(path: &std::path::Path) -> Value {
    let output = vmdkit().args(["info", "--json"]).arg(path).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn quirks_are_warned_about_but_do_not_fail_check() {
    let mut motion = Motion::new(LongName::encode("quirky").0);
    let arm = KeyName::encode("右腕").0;
    for frame in [30, 0, 30] {
        motion.bones.push(BoneKey::new(arm, frame)); // unsorted and a duplicate
    }
    motion.bones[2].translation.x = 1.0; // that differs from the first key at frame 30
    let mut hair = BoneKey::new(KeyName::encode("髪").0, 0);
    hair.interpolation =
        BoneInterpolation::canonical(BoneInterpolation::DEFAULT.curves(), PhysicsToggle::Off);
    hair.rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let mut neck = BoneKey::new(KeyName::encode("首").0, 0);
    neck.rotation = Quat::from_xyzw(0.1, 0.0, 0.0, 0.5);
    motion.bones.extend([hair, neck]);
    // Eight two-byte characters do not fit in 15 bytes: the last is cut after its lead byte.
    let mut cut = [0x82u8; 15]; // あ is 82 A0 in CP932
    for i in 0..7 {
        cut[2 * i + 1] = 0xA0;
    }
    motion.morphs.push(MorphKey { name: RawName(cut), frame: 5, weight: 1.0 });
    motion.trailing = b"Nuthouse01".to_vec();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quirky.vmd");
    motion.write_file(&path).unwrap();

    let info = info_json(&path);
    let kinds: Vec<&str> =
        info["warnings"].as_array().unwrap().iter().map(|w| w["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "duplicate_keys",
            "unsorted_keys",
            "physics_off",
            "non_unit_quaternion",
            "zero_quaternion",
            "name_cut_mid_character",
            "trailing_bytes"
        ]
    );
    assert_eq!(info["morphs"][0]["name"], "あああああああ");
    assert_eq!(info["bones"][0], serde_json::json!({"name": "右腕", "keys": 3, "frames": [0, 30]}));

    let text = vmdkit().arg("info").arg(&path).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("duplicate_keys: bone section: 1 key repeats"), "{text}");

    let check = vmdkit().arg("check").arg(&path).output().unwrap();
    assert_eq!(check.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&check.stdout).contains("(7 warnings)"));
    let strict = vmdkit().args(["check", "--strict-warnings"]).arg(&path).output().unwrap();
    assert_eq!(strict.status.code(), Some(1));

    // dump shows the physics toggle and the panel angles.
    let dump = vmdkit().args(["dump", "--euler", "--name", "髪"]).arg(&path).output().unwrap();
    let dump = String::from_utf8(dump.stdout).unwrap();
    assert!(
        dump.contains("\"髪\" pos (0, 0, 0) rot° (0.000, 0.000, 0.000)")
            && dump.contains("physics off"),
        "{dump}"
    );
}

#[test]
fn gbk_and_utf8_names_are_detected_and_decoded() {
    let dir = tempfile::tempdir().unwrap();
    for encoding in [TextEncoding::Gbk, TextEncoding::Utf8] {
        let mut motion = Motion::new(LongName::encode_as("初音未来", encoding).0);
        motion.bones.push(BoneKey::new(KeyName::encode_as("左手腕", encoding).0, 0));
        let path = dir.path().join(format!("{}.vmd", encoding.label()));
        motion.write_file(&path).unwrap();
        let info = info_json(&path);
        assert_eq!(info["encoding"], encoding.label());
        assert_eq!(info["model_name"], "初音未来");
        assert_eq!(info["bones"][0]["name"], "左手腕");
        let dump = vmdkit().args(["dump", "--name", "左手腕"]).arg(&path).output().unwrap();
        assert!(String::from_utf8(dump.stdout).unwrap().contains("#0 frame 0 \"左手腕\""));
    }
}

#[test]
fn folders_are_searched_and_reported_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("b/c");
    std::fs::create_dir_all(&nested).unwrap();
    let bytes = vmdkit::example::example_motion().to_bytes();
    for path in ["a.vmd", "b/c/d.VMD", "b/z.vmd", "b/notes.txt"] {
        std::fs::write(dir.path().join(path), &bytes).unwrap();
    }
    let output = vmdkit().current_dir(dir.path()).args(["info", "--json", "."]).output().unwrap();
    assert!(output.status.success());
    let paths: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(paths, ["./a.vmd", "./b/c/d.VMD", "./b/z.vmd"]);
    let completions = vmdkit().args(["completions", "bash"]).output().unwrap();
    assert!(completions.status.success());
    assert!(String::from_utf8_lossy(&completions.stdout).contains("vmdkit"));
}
