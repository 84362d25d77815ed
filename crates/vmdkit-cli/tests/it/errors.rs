//! Damaged inputs made in code and bad usage: exit 1 with the file, section, record and byte
//! offset (and a --lenient hint where it helps), exit 2 for usage, never a panic.

use crate::common;

use common::{assert_no_panic, example_bytes, vmdkit, write};
use serde_json::Value;

/// The example cut inside its fourth bone record (bones start at byte 54, 111 bytes each).
fn truncated() -> Vec<u8> {
    example_bytes()[..54 + 3 * 111 + 40].to_vec()
}

fn run(args: &[&str], dir: &std::path::Path) -> (Option<i32>, String, String) {
    let output = vmdkit().current_dir(dir).args(args).output().unwrap();
    assert_no_panic(&output);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

#[test]
fn a_truncated_file_names_file_section_record_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "cut.vmd", &truncated());
    let expected = "cut.vmd: bone section, record 3, byte offset 387: count 7 needs 777 bytes but only 373 remain";
    for args in [
        &["info", "cut.vmd"][..],
        &["info", "--json", "cut.vmd"],
        &["dump", "cut.vmd"],
        &["convert", "cut.vmd", "out.json"],
    ] {
        let (code, _, stderr) = run(args, dir.path());
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(stderr.contains("--lenient"), "{args:?}: {stderr}");
    }
    let (code, stdout, _) = run(&["check", "cut.vmd"], dir.path());
    assert_eq!(code, Some(1));
    assert!(stdout.contains(&format!("FAIL  {expected}")), "{stdout}");

    // --json still gives one line for the file, saying what went wrong.
    let (_, stdout, _) = run(&["info", "--json", "cut.vmd"], dir.path());
    let line: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(line["path"], "cut.vmd");
    assert_eq!(line["lenient_may_help"], true);
    assert!(line["error"].as_str().unwrap().contains("byte offset 387"));
}

#[test]
fn lenient_reading_keeps_the_complete_records_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "cut.vmd", &truncated());
    let (code, stdout, stderr) = run(&["info", "--json", "--lenient", "cut.vmd"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    let info: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(info["counts"]["bone"], 3);
    assert_eq!(info["warnings"][0]["kind"], "repaired");
    assert_eq!(info["warnings"][0]["section"], "bone");

    let (code, _, stderr) = run(&["convert", "--lenient", "cut.vmd", "fixed.vmd"], dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("cut.vmd: repaired by lenient reading: bone section"), "{stderr}");
    let fixed = vmdkit::Motion::read_file(dir.path().join("fixed.vmd"))
        .expect("the repaired file reads strictly");
    assert_eq!(fixed.bones, vmdkit::example::example_motion().bones[..3]);
    assert_eq!(run(&["check", "fixed.vmd"], dir.path()).0, Some(0));
}

#[test]
fn garbage_empty_and_cut_headers_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    // Deterministic noise.
    let mut state = 0x2545_f491_u32;
    let noise: Vec<u8> = (0..300)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        })
        .collect();
    write(dir.path(), "noise.vmd", &noise);
    write(dir.path(), "empty.vmd", b"");
    write(dir.path(), "head.vmd", &example_bytes()[..40]);
    write(dir.path(), "text.vmd", b"hello, this is not a motion\n");
    let cases = [
        ("noise.vmd", "noise.vmd: header, byte offset 0: not a VMD file"),
        ("empty.vmd", "empty.vmd: header, byte offset 0: not a VMD file: the file is empty"),
        ("head.vmd", "head.vmd: header, byte offset 40: file ends inside the header"),
        ("text.vmd", "text.vmd: header, byte offset 0: not a VMD file: text starting \"hello, this is not a motion\""),
    ];
    for (file, expected) in cases {
        for command in ["info", "dump", "check"] {
            let (code, stdout, stderr) = run(&[command, file], dir.path());
            assert_eq!(code, Some(1), "{command} {file}");
            let said = if command == "check" { stdout } else { stderr };
            assert!(said.contains(expected), "{command} {file}: {said}");
            // Lenient reading cannot help when there is no VMD header.
            assert!(!said.contains("--lenient"), "{command} {file}: {said}");
        }
    }
}

#[test]
fn absurd_counts_fail_without_allocating() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = example_bytes();
    // The morph count follows the seven bone records.
    let morph_count = 54 + 7 * 111;
    bytes[morph_count..morph_count + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    write(dir.path(), "count.vmd", &bytes);
    let (code, _, stderr) = run(&["info", "count.vmd"], dir.path());
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("count.vmd: morph section, record 12, byte offset 1111: count 4294967295"),
        "{stderr}"
    );

    // A property record claiming more IK entries than the file holds.
    let mut bytes = example_bytes();
    let ik_count = bytes.len() - 2 * 21 - 4;
    bytes[ik_count..ik_count + 4].copy_from_slice(&1000u32.to_le_bytes());
    write(dir.path(), "ik.vmd", &bytes);
    let (code, _, stderr) = run(&["info", "ik.vmd"], dir.path());
    assert_eq!(code, Some(1));
    assert!(stderr.contains("ik.vmd: property section, record 0"), "{stderr}");
}

#[test]
fn missing_files_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(&["info", "nope.vmd"], dir.path());
    assert_eq!(code, Some(1));
    assert!(stderr.contains("nope.vmd"), "{stderr}");
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let (code, _, stderr) = run(&["check", "empty"], dir.path());
    assert_eq!(code, Some(1));
    assert!(stderr.contains("empty: no .vmd files in this folder"), "{stderr}");
    // One bad file among good ones: the others are still reported, in order, and the run fails.
    write(dir.path(), "a.vmd", &example_bytes());
    write(dir.path(), "c.vmd", &example_bytes());
    let (code, stdout, stderr) = run(&["info", "--json", "a.vmd", "nope.vmd", "c.vmd"], dir.path());
    assert_eq!(code, Some(1));
    let paths: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(paths, ["a.vmd", "nope.vmd", "c.vmd"]);
    assert!(stderr.contains("nope.vmd"));
}

#[test]
fn bad_usage_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "x.vmd", &example_bytes());
    let cases: [&[&str]; 12] = [
        &[],
        &["frobnicate"],
        &["info"],
        &["check"],
        &["info", "--bogus", "x.vmd"],
        &["dump", "--section", "nope", "x.vmd"],
        &["dump", "--section", "camera", "--name", "右腕", "x.vmd"],
        &["info", "--example", "x.vmd"],
        &["convert", "x.vmd"],
        &["convert", "x.vmd", "out.json", "-o", "out.json"],
        &["convert", "x.vmd", "out.txt"],
        &["completions", "nosh"],
    ];
    for args in cases {
        let (code, _, stderr) = run(args, dir.path());
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(!stderr.is_empty(), "{args:?} says why");
    }
    assert!(!dir.path().join("out.json").exists());
    let (code, stdout, _) = run(&["convert", "--help"], dir.path());
    assert_eq!(code, Some(0));
    assert!(stdout.contains("Examples:"));
}

/// A zip's local header for a stored, empty member called `name`: what an NPZ starts with.
fn zip_member(name: &str) -> Vec<u8> {
    let mut bytes = b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0".to_vec();
    bytes.extend([0; 12]); // crc, compressed and uncompressed sizes: empty
    bytes.extend((name.len() as u16).to_le_bytes());
    bytes.extend([0, 0]);
    bytes.extend(name.as_bytes());
    bytes
}

/// Files of every kind that is not a motion, made in code, with what `FileKind` calls them and
/// whether `retarget` reads them (as capture) or names them too.
fn wrong_kinds() -> Vec<(&'static str, Vec<u8>, &'static str, bool)> {
    let bvh =
        "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n \
               End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033\n0 0 0\n";
    let pose = [&0.1f32.to_le_bytes()[..], &[0; 12]].concat();
    vec![
        ("a.bvh", bvh.as_bytes().to_vec(), "a BVH file", true),
        ("a.npy", b"\x93NUMPY\x01\x00\x76\x00{'descr'".to_vec(), "an NPY array", true),
        ("a.npz", zip_member("keypoints.npy"), "an NPZ archive", true),
        ("a.pose", pose, "a .pose file", true),
        ("a.trc", b"PathFileType\t4\t(X/Y/Z)\ta.trc\n".to_vec(), "a TRC file", true),
        ("a.glb", b"glTF\x02\0\0\0\x0c\0\0\0".to_vec(), "a glTF binary (GLB)", false),
        ("a.html", b"<!DOCTYPE html>\n<html><body>".to_vec(), "an HTML page", false),
        ("a.jpg", b"\xFF\xD8\xFF\xE0\0\x10JFIF\0".to_vec(), "a JPEG image", false),
        ("miku.pmx", b"PMX \0\0\0\x40\x08\0".to_vec(), "a PMX model", false),
    ]
}

#[test]
fn a_file_of_another_kind_is_named_for_what_it_is_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, bytes, kind, capture) in wrong_kinds() {
        write(d, name, &bytes);
        let motion_commands: [&[&str]; 3] =
            [&["info", name], &["convert", name, "o.json"], &["render", name, "-o", "o.png"]];
        for args in motion_commands {
            // `info` reads models; every other wrong kind is refused as what it is.
            if name.ends_with(".pmx") && args[0] == "info" {
                continue;
            }
            let run = common::run_bounded(d, args);
            let stderr = String::from_utf8_lossy(&run.output.stderr);
            assert_eq!(run.output.status.code(), Some(1), "{args:?}: {stderr}");
            let said = format!("{name}: this is {kind}; motions are VMD, JSON or CSV");
            assert!(stderr.contains(&said), "{args:?}: {stderr}");
            assert!(!stderr.contains("CSV line") && !stderr.contains("utf-8"), "{stderr}");
        }
        let run = common::run_bounded(d, &["retarget", name, "-o", "o.vmd"]);
        let stderr = String::from_utf8_lossy(&run.output.stderr);
        assert_eq!(run.output.status.code(), Some(1), "retarget {name}: {stderr}");
        // Capture is read by its own reader, whose error (the crafted files are incomplete)
        // names its format; anything else is named as what it is.
        let refused = format!("{name}: this is {kind}; motion capture is BVH, or keypoints");
        assert_eq!(stderr.contains(&refused), !capture, "retarget {name}: {stderr}");
        assert!(!stderr.contains("CSV,") && !stderr.contains("CSV:"), "retarget {name}: {stderr}");
    }
    // The command line's hint says where such a file goes.
    let run = common::run_bounded(d, &["info", "a.bvh"]);
    let stderr = String::from_utf8_lossy(&run.output.stderr);
    assert!(stderr.contains("; `vmdkit retarget` takes BVH"), "{stderr}");
}

#[test]
fn an_empty_bvh_and_a_text_vmd_are_named_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "empty.bvh", b"");
    write(d, "text.vmd", b"hello\n");
    let cases: [(&[&str], &str); 4] = [
        (&["info", "empty.bvh"], "empty.bvh: this is an empty file; motions are VMD"),
        (
            &["retarget", "empty.bvh", "-o", "o.vmd"],
            "empty.bvh: this is an empty file; motion capture",
        ),
        (&["retarget", "text.vmd", "-o", "o.vmd"], "text.vmd: this is text of no known kind"),
        (
            &["info", "text.vmd"],
            "text.vmd: header, byte offset 0: not a VMD file: text starting \"hello\"",
        ),
    ];
    for (args, said) in cases {
        let run = common::run_bounded(d, args);
        let stderr = String::from_utf8_lossy(&run.output.stderr);
        assert_eq!(run.output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("CSV,") && !stderr.contains("`hello`"), "{args:?}: {stderr}");
    }
}
