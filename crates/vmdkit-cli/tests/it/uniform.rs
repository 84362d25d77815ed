//! One behaviour for all commands (issue 12): `-o OUT` wherever a file is written, `-` for
//! stdin and stdout with the format told by the bytes, folders named as folders, a closed pipe
//! ending quietly, and `--lenient` wherever a motion is read.
#![cfg(unix)]

use crate::common;

use common::{assert_no_panic, example_bytes, run_in, stderr, vmdkit, write};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// BIG of the issue: the corpus's largest dance (2.6 MB, 23,720 bone keys).
const BIG: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";
/// MIKU of the issue: a PMX model.
const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";

/// A folder holding the example motion as `e.vmd`.
fn example_in_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "e.vmd", &example_bytes());
    let path = dir.path().to_path_buf();
    (dir, path)
}

/// A bones-only model (PmxEditor's bone CSV) with the example's 右腕, for `pose`.
fn arm_model(dir: &Path) -> PathBuf {
    let row =
        "Bone,右腕,,0,0,0,0,0,1,0,0,1,1,,1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578";
    write(dir, "model.csv", format!(";Bone,x\r\n{row}\r\n").as_bytes())
}

/// The commands that write a motion file, each as the arguments before OUT and after it.
const WRITERS: [(&[&str], &[&str]); 9] = [
    (&["convert", "e.vmd"], &[]),
    (&["mirror", "e.vmd"], &[]),
    (&["retime", "e.vmd"], &["--fps", "60"]),
    (&["trim", "e.vmd"], &["--from", "10", "--to", "40"]),
    (&["shift", "e.vmd"], &["--frames", "5"]),
    (&["filter", "e.vmd"], &["--drop", "まばたき"]),
    (&["scale", "e.vmd"], &["--translation", "2"]),
    (&["reduce", "e.vmd"], &[]),
    (&["example"], &[]),
];

#[test]
fn every_writer_takes_dash_o_and_the_positional_out_as_its_alias() {
    let (_dir, d) = example_in_dir();
    for (before, after) in WRITERS {
        let args = |out: &[&'static str]| -> Vec<&'static str> { [before, out, after].concat() };
        let positional = run_in(&d, &args(&["a.vmd"]));
        assert!(positional.status.success(), "{before:?}: {}", stderr(&positional));
        let flagged = run_in(&d, &args(&["-o", "b.vmd"]));
        assert!(flagged.status.success(), "{before:?} -o: {}", stderr(&flagged));
        let long = run_in(&d, &args(&["--output", "c.vmd"]));
        assert!(long.status.success(), "{before:?} --output: {}", stderr(&long));
        let (a, b, c) = (d.join("a.vmd"), d.join("b.vmd"), d.join("c.vmd"));
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "{before:?}");
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&c).unwrap(), "{before:?}");

        let both = run_in(&d, &args(&["x.vmd", "-o", "y.vmd"]));
        assert_eq!(both.status.code(), Some(2), "{before:?}: {}", stderr(&both));
        assert!(stderr(&both).contains("cannot be used with"), "{}", stderr(&both));
        let neither = run_in(&d, &args(&[]));
        assert_eq!(neither.status.code(), Some(2), "{before:?}: {}", stderr(&neither));
        assert!(stderr(&neither).contains("<OUT>"), "{}", stderr(&neither));
        assert!(!d.join("x.vmd").exists() && !d.join("y.vmd").exists());
    }
}

#[test]
fn dash_writes_vmd_to_stdout_unless_a_format_is_asked_for() {
    let (_dir, d) = example_in_dir();
    for (before, after) in WRITERS {
        let file = run_in(&d, &[before, &["f.vmd"], after].concat());
        assert!(file.status.success(), "{before:?}: {}", stderr(&file));
        let stdout = run_in(&d, &[before, &["-o", "-"], after].concat());
        assert!(stdout.status.success(), "{before:?}: {}", stderr(&stdout));
        assert_eq!(stdout.stdout, std::fs::read(d.join("f.vmd")).unwrap(), "{before:?}");
    }
    // An edit's --format, and convert's and example's --to, pick text instead.
    let text = run_in(&d, &["mirror", "e.vmd", "-o", "-", "--format", "json"]);
    assert!(text.stdout.starts_with(b"{"), "{}", stderr(&text));
    let text = run_in(&d, &["convert", "e.vmd", "-", "--to", "csv"]);
    assert!(text.stdout.starts_with(b"section,"), "{}", stderr(&text));
    // Keypoints go to stdout as JSON, or as --to says.
    let file = run_in(&d, &["keypoints", "e.vmd", "--layout", "h36m", "-o", "k.csv"]);
    assert!(file.status.success(), "{}", stderr(&file));
    let json = run_in(&d, &["keypoints", "e.vmd", "--layout", "h36m", "-o", "-"]);
    assert!(json.stdout.starts_with(b"{"), "{}", stderr(&json));
    let csv = run_in(&d, &["keypoints", "e.vmd", "--layout", "h36m", "-o", "-", "--to", "csv"]);
    assert_eq!(csv.stdout, std::fs::read(d.join("k.csv")).unwrap(), "{}", stderr(&csv));
    // Edits name stdout as such in their summaries.
    let mirrored = run_in(&d, &["mirror", "e.vmd", "-"]);
    assert!(stderr(&mirrored).starts_with("stdout: swapped"), "{}", stderr(&mirrored));
}

/// Runs `command` on a terminal (util-linux's `script`, which gives it a pty), with what it
/// prints there.
fn on_terminal(dir: &Path, command: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let bin = assert_cmd::cargo::cargo_bin("vmdkit");
    let line = format!("{} {command}", bin.display());
    let output = Command::new("script")
        .current_dir(dir)
        .envs(env.iter().copied())
        .args(["-qec", &line, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's script runs commands on a terminal for these tests");
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn binary_vmd_is_refused_on_a_terminal_and_text_is_not() {
    let (_dir, d) = example_in_dir();
    for command in [
        "mirror e.vmd -",
        "example -",
        "convert e.vmd -",
        "retime e.vmd - --fps 60",
        "keypoints e.vmd --layout h36m -o - --to npy",
    ] {
        let (code, shown) = on_terminal(&d, command, &[]);
        assert_eq!(code, Some(2), "{command}: {shown}");
        assert!(shown.contains("refusing to write binary"), "{shown}");
        assert!(!shown.contains("Vocaloid Motion Data"), "{command} wrote it anyway");
    }
    let (code, shown) = on_terminal(&d, "convert e.vmd - --to json", &[]);
    assert_eq!(code, Some(0), "{shown}");
    assert!(shown.contains("\"vmdkit-motion\""), "{shown}");
}

#[test]
fn dash_reads_stdin_in_any_format_told_by_its_bytes() {
    let (_dir, d) = example_in_dir();
    let json = run_in(&d, &["convert", "e.vmd", "e.json"]);
    assert!(json.status.success());
    assert!(run_in(&d, &["convert", "e.vmd", "e.csv"]).status.success());
    for name in ["e.vmd", "e.json", "e.csv"] {
        let bytes = std::fs::read(d.join(name)).unwrap();
        // No --from: the bytes say which format.
        let back = vmdkit()
            .current_dir(&d)
            .args(["convert", "-", "-"])
            .write_stdin(bytes.clone())
            .output();
        let back = back.unwrap();
        assert!(back.status.success(), "{name}: {}", stderr(&back));
        assert_eq!(back.stdout, example_bytes(), "{name}");
        for args in [
            &["info", "-"][..],
            &["check", "-"],
            &["dump", "-"],
            &["sample", "-", "--frame", "15"],
            &["mirror", "-", "-o", "m.vmd"],
        ] {
            let output = vmdkit().current_dir(&d).args(args).write_stdin(bytes.clone()).output();
            let output = output.unwrap();
            assert!(output.status.success(), "{args:?} < {name}: {}", stderr(&output));
        }
        let output = vmdkit().current_dir(&d).args(["check", "-"]).write_stdin(bytes).output();
        let stdout = String::from_utf8(output.unwrap().stdout).unwrap();
        assert!(stdout.contains("1 ok, 0 damaged"), "{name}: {stdout}");
    }
    // Empty stdin, a model, a pose, where only a motion will do: each said for what it is.
    let cases: [(&[u8], &str); 3] = [
        (b"", "-: this is an empty file; motions are VMD, JSON or CSV"),
        (b"PMX \x00\x00\x00\x40rest", "-: this is a PMX model; motions are VMD, JSON or CSV"),
        (b"Vocaloid Pose Data file\r\n", "-: this is a VPD pose; motions are VMD, JSON or CSV"),
    ];
    for (bytes, said) in cases {
        let output = vmdkit().args(["mirror", "-", "-o", "-"]).write_stdin(bytes).output();
        let output = output.unwrap();
        assert_eq!(output.status.code(), Some(1), "{said}");
        assert!(stderr(&output).contains(said), "{}", stderr(&output));
    }
    // A model named like a motion is told apart by its bytes too.
    write(&d, "model.vmd", b"PMX \x00\x00\x00\x40rest");
    let output = run_in(&d, &["dump", "model.vmd"]);
    assert!(stderr(&output).contains("model.vmd: this is a PMX model; motions are"), "{output:?}");
    // stdin can be read once.
    let output = run_in(&d, &["info", "-", "-"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
}

#[test]
fn a_folder_where_a_file_is_expected_is_called_a_directory() {
    let (_dir, d) = example_in_dir();
    std::fs::create_dir(d.join("folder")).unwrap();
    let model = arm_model(&d);
    let model = model.to_str().unwrap();
    let cases: [&[&str]; 9] = [
        &["dump", "folder"],
        &["sample", "folder", "--frame", "0"],
        &["convert", "folder", "out.json"],
        &["convert", "--from", "json", "folder", "out.vmd"],
        &["bake", "folder", "--fps", "60", "-o", "out.vmd"],
        &["mirror", "folder", "out.vmd"],
        &["merge", "e.vmd", "folder", "-o", "out.vmd"],
        &["pose", "--model", "folder", "e.vmd", "--frame", "0"],
        &["pose", "--model", model, "folder", "--frame", "0"],
    ];
    for args in cases {
        let output = run_in(&d, args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let said = stderr(&output);
        assert!(said.contains("folder: is a directory"), "{args:?}: {said}");
        assert!(!said.contains("os error"), "{args:?}: {said}");
    }
}

/// Starts `args`, reads a little of its stdout and closes the pipe, as `| head` does.
fn close_early(args: &[&str]) -> Output {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("vmdkit"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 512];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    let Some(manifest) = test_corpus::corpus_or_skip("closed pipe") else { return };
    let big = manifest.dir.join(BIG);
    let big = big.to_str().unwrap();
    for args in [
        &["dump", "--json", big][..],
        &["dump", big],
        &["convert", "--to", "csv", big, "-"],
        &["convert", "--to", "json", big, "-"],
        &["mirror", big, "-o", "-"],
        &["info", big, big, big, big, big, big],
    ] {
        let output = close_early(args);
        assert_no_panic(&output);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", stderr(&output));
        assert!(!stderr(&output).contains("error"), "{args:?}: {}", stderr(&output));
    }
}

/// The example cut inside its last record: damaged, and readable leniently.
fn damaged(dir: &Path) -> PathBuf {
    let bytes = example_bytes();
    write(dir, "cut.vmd", &bytes[..bytes.len() - 3])
}

#[test]
fn every_command_that_reads_a_motion_takes_lenient() {
    let (_dir, d) = example_in_dir();
    damaged(&d);
    let model = arm_model(&d);
    let model = model.to_str().unwrap();
    let cases: [&[&str]; 16] = [
        &["info", "cut.vmd"],
        &["check", "cut.vmd"],
        &["dump", "cut.vmd"],
        &["convert", "cut.vmd", "out.vmd"],
        &["sample", "cut.vmd", "--frame", "3"],
        &["pose", "--model", model, "cut.vmd", "--frame", "3"],
        &["keypoints", "cut.vmd", "--layout", "h36m", "-o", "k.json"],
        &["bake", "cut.vmd", "--fps", "60", "-o", "out.vmd"],
        &["mirror", "cut.vmd", "out.vmd"],
        &["retime", "cut.vmd", "out.vmd", "--fps", "60"],
        &["trim", "cut.vmd", "out.vmd", "--from", "0", "--to", "30"],
        &["shift", "cut.vmd", "out.vmd", "--frames", "3"],
        &["merge", "cut.vmd", "e.vmd", "-o", "out.vmd"],
        &["filter", "cut.vmd", "out.vmd", "--keep", "*"],
        &["scale", "cut.vmd", "out.vmd", "--translation", "2"],
        &["reduce", "cut.vmd", "out.vmd"],
    ];
    for args in cases {
        let strict = run_in(&d, args);
        assert_eq!(strict.status.code(), Some(1), "{args:?}: {}", stderr(&strict));
        // check says why on stdout, in its FAIL line.
        let said = format!("{}{}", String::from_utf8_lossy(&strict.stdout), stderr(&strict));
        assert!(said.contains("--lenient"), "{args:?}: {said}");
        let lenient = run_in(&d, &[args, &["--lenient"]].concat());
        assert!(lenient.status.success(), "{args:?} --lenient: {}", stderr(&lenient));
    }
    // retarget's --lenient is for a motion input, with --source-model.
    let keypoints = run_in(&d, &["keypoints", "e.vmd", "--layout", "h36m", "-o", "k.json"]);
    assert!(keypoints.status.success(), "{}", stderr(&keypoints));
    let output = run_in(&d, &["retarget", "k.json", "-o", "out.vmd", "--lenient"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--source-model"), "{}", stderr(&output));
}

#[test]
fn retarget_reads_a_damaged_source_motion_leniently_and_keypoints_from_stdin() {
    let Some(manifest) = test_corpus::corpus_or_skip("retarget lenient") else { return };
    let (_dir, d) = example_in_dir();
    let miku = manifest.dir.join(MIKU);
    let miku = miku.to_str().unwrap();
    let big = std::fs::read(manifest.dir.join(BIG)).unwrap();
    // BIG cut to its first second of keys, then cut inside a record.
    write(&d, "big.vmd", &big);
    let trimmed = run_in(&d, &["trim", "big.vmd", "short.vmd", "--from", "0", "--to", "30"]);
    assert!(trimmed.status.success(), "{}", stderr(&trimmed));
    let short = std::fs::read(d.join("short.vmd")).unwrap();
    write(&d, "cut.vmd", &short[..short.len() - 3]);
    let args = ["retarget", "cut.vmd", "--source-model", miku, "--model", miku, "-o", "out.vmd"];
    let strict = run_in(&d, &args);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    assert!(stderr(&strict).contains("--lenient"), "{}", stderr(&strict));
    let lenient = run_in(&d, &[&args[..], &["--lenient"]].concat());
    assert!(lenient.status.success(), "{}", stderr(&lenient));

    let keypoints = run_in(&d, &["keypoints", "short.vmd", "--layout", "h36m", "-o", "k.json"]);
    assert!(keypoints.status.success(), "{}", stderr(&keypoints));
    let from_stdin = vmdkit()
        .current_dir(&d)
        .args(["retarget", "-", "--layout", "h36m", "-o", "-"])
        .write_stdin(std::fs::read(d.join("k.json")).unwrap())
        .output()
        .unwrap();
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert!(from_stdin.stdout.starts_with(b"Vocaloid Motion Data"));
}
