//! Warnings on motions made in code with the quirks real files have, and name encodings.

use crate::common;

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

/// A bone name that, printed raw, sets the terminal's title and clears its screen.
const HOSTILE_NAME: &str = "\x1b]0;pwned\x07\x1b[2J";

/// A PMX 2.0 (UTF-8, 4-byte indices) with one triangle, one material using texture `texture`,
/// and one bone named `bone`: the least a model needs to be read, posed and exported.
fn pmx(name: &str, texture: &str, bone: &str) -> Vec<u8> {
    let text = |out: &mut Vec<u8>, s: &str| {
        out.extend((s.len() as i32).to_le_bytes());
        out.extend(s.as_bytes());
    };
    let f32s = |out: &mut Vec<u8>, vs: &[f32]| vs.iter().for_each(|v| out.extend(v.to_le_bytes()));
    let i32s = |out: &mut Vec<u8>, vs: &[i32]| vs.iter().for_each(|v| out.extend(v.to_le_bytes()));
    let mut out = b"PMX ".to_vec();
    f32s(&mut out, &[2.0]);
    out.extend([8, 1, 0, 4, 4, 4, 4, 4, 4]);
    for s in [name, "", "", ""] {
        text(&mut out, s);
    }
    i32s(&mut out, &[3]);
    for i in 0..3 {
        f32s(&mut out, &[i as f32, (i % 2) as f32, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        out.push(0); // BDEF1 on bone 0
        i32s(&mut out, &[0]);
        f32s(&mut out, &[1.0]);
    }
    i32s(&mut out, &[3, 0, 1, 2, 1]);
    text(&mut out, texture);
    i32s(&mut out, &[1]);
    text(&mut out, "material");
    text(&mut out, "");
    f32s(&mut out, &[1.0; 11]);
    out.push(0);
    f32s(&mut out, &[0.0; 5]);
    i32s(&mut out, &[0, -1]); // the texture, no sphere
    out.extend([0, 1, 0]); // sphere mode, shared toon 0
    text(&mut out, "");
    i32s(&mut out, &[3, 1]); // 3 face indices; one bone
    text(&mut out, bone);
    text(&mut out, "");
    f32s(&mut out, &[0.0; 3]);
    i32s(&mut out, &[-1, 0]);
    out.extend(0x001Eu16.to_le_bytes());
    f32s(&mut out, &[0.0, 1.0, 0.0]);
    i32s(&mut out, &[0; 5]); // no morphs, frames, rigid bodies, joints (and the 5th: none)
    out
}

/// What a person sees of a run: stdout and stderr, checked to hold no ESC or BEL.
fn seen(run: &common::Bounded) -> String {
    let (out, err) = (&run.output.stdout, &run.output.stderr);
    assert!(!out.iter().chain(err).any(|&b| b == 0x1b || b == 0x07), "{run:?}", run = run.output);
    format!("{}{}", String::from_utf8_lossy(out), String::from_utf8_lossy(err))
}

#[test]
fn control_characters_in_names_are_escaped_in_info_and_in_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut motion = Motion::new(LongName::encode("model").0);
    let name = KeyName::encode(HOSTILE_NAME).0;
    motion.bones.extend([BoneKey::new(name, 0), BoneKey::new(name, 0)]);
    motion.write_file(d.join("hostile.vmd")).unwrap();
    common::write(d, "hostile.pmx", &pmx("m", "t.png", HOSTILE_NAME));
    let escaped = r"\u{1b}]0;pwned\u{7}\u{1b}[2J";
    // info's text of a motion and of a model, a warning of what did not bind, and the other
    // text printers: dump, sample and check's warnings.
    for args in [
        &["info", "hostile.vmd"][..],
        &["info", "hostile.pmx"],
        &["render", "hostile.vmd", "--frame", "0", "-o", "o.png"],
        &["dump", "hostile.vmd"],
        &["sample", "hostile.vmd", "--frame", "0"],
        &["check", "hostile.vmd"],
    ] {
        let text = seen(&common::run_bounded(d, args));
        assert!(text.contains(escaped), "{args:?}: {text}");
    }
    // JSON output stays exact: serde escapes the name as JSON does.
    let json = common::run_bounded(d, &["info", "--json", "hostile.vmd"]);
    let doc: Value = serde_json::from_slice(&json.output.stdout).unwrap();
    assert_eq!(doc["bones"][0]["name"], HOSTILE_NAME);
}

#[test]
fn huge_values_from_files_are_cut_with_their_length_stated() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Each file is made and dropped before any run: a child's peak counts from the test's.
    // A 100,000-digit BVH number.
    let digits = "7".repeat(100_000);
    let bvh = format!(
        "HIERARCHY\nROOT Hips\n{{\n OFFSET {digits} 0 0\n CHANNELS 3 Xposition Yposition \
         Zposition\n End Site\n {{\n  OFFSET 0 1 0\n }}\n}}\nMOTION\nFrames: 1\nFrame Time: 0.033\n0 0 0\n"
    );
    common::write(d, "number.bvh", bvh.as_bytes());
    drop((digits, bvh));
    // A 10 MB model name, and a 100 KB texture path glTF export warns about.
    common::write(d, "name.pmx", &pmx(&"n".repeat(10_000_000), "t.png", "bone"));
    common::write(d, "texture.pmx", &pmx("m", &format!("{}t.png", "d/".repeat(50_000)), "b"));
    // A 20 MB name in a CSV motion.
    let csv = vmdkit::convert::to_csv_string(&vmdkit::example::example_motion());
    let csv = csv.replacen("bone,右腕,", &format!("bone,{},", "x".repeat(20_000_000)), 1);
    common::write(d, "name.csv", csv.as_bytes());
    drop(csv);
    let cases: [(&[&str], &str); 4] = [
        (&["retarget", "number.bvh", "-o", "o.vmd"], "… (100000 characters)` is not a finite"),
        (&["info", "name.pmx"], "… (10000000 characters)\""),
        (&["convert", "texture.pmx", "o.glb"], "… (100005 characters) left out"),
        (&["convert", "name.csv", "o.vmd"], "… (20000000 characters)\" is longer than 15 bytes"),
    ];
    for (args, said) in cases {
        let text = seen(&common::run_bounded(d, args));
        assert!(text.contains(said), "{args:?}: {}", &text[..text.len().min(2000)]);
        assert!(text.len() < 2000, "{args:?}: {} bytes of messages", text.len());
    }
}

#[test]
fn sixty_thousand_npz_members_are_listed_as_a_few() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A stored zip of 60,000 empty members, none of them a known positions array.
    let (mut local, mut central) = (Vec::new(), Vec::new());
    for i in 0..60_000u32 {
        let name = format!("m{i:05}.npy");
        let offset = local.len() as u32;
        local.extend(b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0");
        local.extend([0; 12]);
        local.extend((name.len() as u16).to_le_bytes());
        local.extend([0, 0]);
        local.extend(name.as_bytes());
        central.extend(b"PK\x01\x02\x14\0\x14\0\0\0\0\0\0\0\0\0");
        central.extend([0; 12]);
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0; 12]);
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let mut zip = local;
    let start = zip.len() as u32;
    zip.extend(&central);
    zip.extend(b"PK\x05\x06\0\0\0\0");
    zip.extend([0x60, 0xEA, 0x60, 0xEA]); // 60,000 entries, twice
    zip.extend((central.len() as u32).to_le_bytes());
    zip.extend(start.to_le_bytes());
    zip.extend([0, 0]);
    common::write(d, "many.npz", &zip);
    drop((zip, central));
    let run = common::run_bounded(d, &["retarget", "many.npz", "-o", "o.vmd"]);
    let text = seen(&run);
    assert!(text.contains(" and 59992 more]"), "{}", &text[..text.len().min(2000)]);
    assert!(text.len() < 1000, "{} bytes of messages", text.len());
}
