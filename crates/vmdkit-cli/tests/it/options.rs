//! Options checked the same way everywhere (issue 12): negative values reach each command's own
//! check, options that would do nothing are refused, JSON errors name the field, CSV starts
//! without a byte-order mark unless asked, and progress bars stay off stderr that is not a
//! terminal.
#![cfg(unix)]

use crate::common;

use common::{assert_no_panic, example_bytes, run_in, stderr, vmdkit, write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn example_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "e.vmd", &example_bytes());
    dir
}

/// Runs `vmdkit ARGS` in `dir` for each of `cases`, asserting that each succeeds.
fn all_succeed(dir: &Path, cases: &[&[&str]]) {
    for args in cases {
        let output = run_in(dir, args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    }
}

/// Runs the shell command `line` in `dir` on a terminal (util-linux's `script`), with
/// `VMDKIT_PROGRESS` set to `progress`.
fn on_terminal(dir: &Path, progress: &str, line: &str) -> Output {
    Command::new("script")
        .current_dir(dir)
        .env("VMDKIT_PROGRESS", progress)
        .args(["-qec", line, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's script runs commands on a terminal for these tests")
}

#[test]
fn negative_values_reach_the_commands_own_checks() {
    let dir = example_dir();
    let d = dir.path();
    let keypoints = run_in(d, &["keypoints", "e.vmd", "--layout", "h36m", "-o", "k.json"]);
    assert!(keypoints.status.success(), "{}", stderr(&keypoints));
    let cases: [(&[&str], &str); 10] = [
        (&["bake", "e.vmd", "--fps", "-30", "-o", "o.vmd"], "--fps must be a positive number"),
        (&["retime", "e.vmd", "o.vmd", "--fps", "-1"], "must be positive numbers"),
        (&["retime", "e.vmd", "o.vmd", "--speed", "-2"], "must be positive numbers"),
        (&["retime", "e.vmd", "o.vmd", "--fps", "60", "--from-fps", "-30"], "positive"),
        (&["trim", "e.vmd", "o.vmd", "--from", "-5", "--to", "3"], "frame numbers start at 0"),
        (&["reduce", "e.vmd", "o.vmd", "--max-angle-error", "-1"], "must be a number ≥ 0"),
        (&["keypoints", "e.vmd", "--layout", "h36m", "-o", "k2.json", "--fps", "-30"], "--fps"),
        (&["retarget", "k.json", "-o", "o.vmd", "--fps", "-3"], "--fps must be a positive"),
        (&["retarget", "k.json", "-o", "o.vmd", "--max-position-error", "-1"], "≥ 0"),
        (&["shift", "e.vmd", "o.vmd", "--frames", "-120"], "before frame 0"),
    ];
    for (args, said) in cases {
        let output = run_in(d, args);
        let message = stderr(&output);
        assert!(!output.status.success(), "{args:?}");
        assert!(!message.contains("unexpected argument"), "{args:?}: {message}");
        assert!(message.contains(said), "{args:?}: {message}");
    }
    // Where a negative value means something, it is taken.
    all_succeed(
        d,
        &[
            &["sample", "e.vmd", "--frame", "-3", "--bone", "右腕"],
            &["scale", "e.vmd", "o.vmd", "--translation", "-1"],
            &["shift", "e.vmd", "o.vmd", "--frames", "-10", "--clip"],
        ],
    );
}

#[test]
fn options_that_would_do_nothing_are_usage_errors() {
    let dir = example_dir();
    let d = dir.path();
    let cases: [(&[&str], &str); 10] = [
        (
            &["convert", "--pretty", "e.vmd", "o.csv"],
            "--pretty indents JSON, and the output is CSV",
        ),
        (&["convert", "--pretty", "e.vmd", "o.vmd"], "--pretty"),
        (&["convert", "--bom", "e.vmd", "o.json"], "--bom is for CSV, and the output is JSON"),
        (&["convert", "--keep-trailing", "e.vmd", "o.vmd"], "--keep-trailing is for JSON and CSV"),
        (&["example", "--pretty", "o.vmd"], "--pretty indents JSON, and the output is VMD"),
        (&["dump", "--euler", "--section", "morph", "e.vmd"], "--euler shows bone and camera"),
        (&["dump", "--lenient", "--example"], "--lenient"),
        (&["info", "--lenient", "--example"], "--lenient"),
        (&["retarget", "k.json", "-o", "o.vmd", "--lenient"], "--source-model"),
        (
            &["retarget", "e.vmd", "--source-model", "m.pmx", "--keep-handedness", "-o", "o.vmd"],
            "--keep-handedness",
        ),
    ];
    for (args, said) in cases {
        let output = run_in(d, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(said), "{args:?}: {}", stderr(&output));
    }
    assert!(!d.join("o.csv").exists() && !d.join("o.json").exists() && !d.join("o.vmd").exists());
    // An OUT whose extension names no format says which option names one.
    for (args, flag) in [
        (&["mirror", "e.vmd", "o.txt"][..], "use --format"),
        (&["convert", "e.vmd", "o.txt"], "use --to"),
        (&["example", "o.txt"], "use --to"),
    ] {
        let output = run_in(d, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(flag), "{args:?}: {}", stderr(&output));
    }
    // The same options where they apply.
    all_succeed(
        d,
        &[
            &["convert", "--pretty", "e.vmd", "o.json"],
            &["convert", "--bom", "e.vmd", "o.csv"],
            &["convert", "--keep-trailing", "e.vmd", "o.json"],
            &["dump", "--euler", "--section", "camera", "e.vmd"],
        ],
    );
}

#[test]
fn json_errors_name_the_field_path_with_the_line_and_column() {
    let dir = example_dir();
    let d = dir.path();
    assert!(run_in(d, &["convert", "--pretty", "e.vmd", "e.json"]).status.success());
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("e.json")).unwrap()).unwrap();
    doc["bones"][1]["rotation"][3] = serde_json::json!("half");
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let line = text[..text.find("\"half\"").unwrap()].lines().count();
    write(d, "bad.json", text.as_bytes());
    // A file is read again after the error, for the whole path.
    let output = run_in(d, &["convert", "bad.json", "o.vmd"]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(message.contains("bad.json: cannot read as a vmdkit JSON motion"), "{message}");
    assert!(
        message.contains(&format!("JSON line {line}, column "))
            && message.contains(": bones[1].rotation[3]: "),
        "{message}"
    );
    // stdin cannot be read again: the key is named.
    let output = vmdkit().args(["convert", "-", "o.vmd"]).current_dir(d).write_stdin(text).output();
    let message = stderr(&output.unwrap());
    assert!(
        message.contains(&format!("JSON line {line}, column ")) && message.contains(": bones[1]: "),
        "{message}"
    );
}

#[test]
fn csv_starts_without_a_byte_order_mark_unless_asked_and_reads_either_way() {
    let dir = example_dir();
    let d = dir.path();
    assert!(run_in(d, &["convert", "e.vmd", "plain.csv"]).status.success());
    assert!(run_in(d, &["convert", "--bom", "e.vmd", "-o", "marked.csv"]).status.success());
    let plain = std::fs::read(d.join("plain.csv")).unwrap();
    let marked = std::fs::read(d.join("marked.csv")).unwrap();
    assert!(plain.starts_with(b"section,name,"), "{:?}", &plain[..16]);
    assert_eq!(marked, [&b"\xEF\xBB\xBF"[..], &plain].concat());
    for name in ["plain.csv", "marked.csv"] {
        let back = run_in(d, &["convert", name, "-o", "-"]);
        assert_eq!(back.stdout, example_bytes(), "{name}: {}", stderr(&back));
    }
    // Python's csv module, which keeps a BOM as part of the first header, reads `section`.
    let python = Command::new("python3")
        .args([
            "-c",
            "import csv,sys; print(next(csv.reader(open(sys.argv[1], encoding='utf-8')))[0])",
        ])
        .arg(d.join("plain.csv"))
        .output()
        .expect("python3 runs for this test");
    assert_eq!(String::from_utf8_lossy(&python.stdout).trim(), "section", "{python:?}");
}

/// Whether `shown` has a bar counting `unit`: "12/40 tracks".
fn counts(shown: &str, unit: &str) -> bool {
    shown.match_indices(unit).any(|(at, _)| {
        let word = shown[..at].rsplit(' ').next().unwrap_or("");
        word.contains('/') && word.chars().all(|c| c.is_ascii_digit() || c == '/')
    })
}

/// Runs `args` with its stderr a pipe, as a script runs it, asking for bars even on short work.
fn without_terminal(dir: &Path, args: &[&str]) -> Output {
    let output = Command::new(assert_cmd::cargo::cargo_bin("vmdkit"))
        .current_dir(dir)
        .args(args)
        .env("VMDKIT_PROGRESS", "always")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_no_panic(&output);
    output
}

#[test]
fn progress_shows_on_a_terminal_only() {
    let dir = example_dir();
    let d = dir.path();
    // A dense motion: 13,000 keys, which a debug build reduces in about 1.5 s.
    assert!(run_in(d, &["bake", "e.vmd", "--fps", "2500", "-o", "dense.vmd"]).status.success());
    let keypoints = run_in(d, &["keypoints", "e.vmd", "--layout", "h36m", "-o", "k.json"]);
    assert!(keypoints.status.success());
    let long_work: [&[&str]; 6] = [
        &["reduce", "dense.vmd", "small.vmd"],
        &["bake", "dense.vmd", "--fps", "60", "-o", "b.vmd"],
        &["retime", "e.vmd", "o.vmd", "--fps", "24"],
        &["convert", "dense.vmd", "dense.json"],
        &["keypoints", "e.vmd", "--layout", "h36m", "-o", "k2.json"],
        &["retarget", "k.json", "-o", "r.vmd"],
    ];
    for args in long_work {
        let output = without_terminal(d, args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let said = stderr(&output);
        // Only the summary lines: no bar, no cursor movement, no carriage returns.
        assert!(!said.contains('\r') && !said.contains('\x1b'), "{args:?}: {said:?}");
        let bar =
            |l: &str| (l.contains(" tracks ") && !l.contains("kept")) || l.contains(" steps ");
        assert!(!said.lines().any(bar), "{said}");
    }
    // On a terminal (util-linux's script gives one), reduce's bar counts the tracks and
    // retarget's its steps.
    let bin = assert_cmd::cargo::cargo_bin("vmdkit");
    for (command, unit) in [
        ("reduce dense.vmd small2.vmd", " tracks "),
        ("retarget k.json -o r2.vmd", " steps "),
        ("keypoints e.vmd --layout h36m -o k3.json", " frames "),
    ] {
        let line = format!("{} {command}", bin.display());
        let shown = on_terminal(d, "always", &line);
        let shown = String::from_utf8_lossy(&shown.stdout);
        assert!(counts(&shown, unit), "{command}: {shown:?}");
    }
    // A bake without a model has no measure of its own: a spinner names it.
    let line = format!("{} bake dense.vmd --fps 60 -o b2.vmd", bin.display());
    let shown = on_terminal(d, "always", &line);
    assert!(String::from_utf8_lossy(&shown.stdout).contains("baking dense.vmd"));
    let line = format!("{} reduce dense.vmd small2.vmd", bin.display());
    // VMDKIT_PROGRESS=never hides it there too.
    let hidden = on_terminal(d, "never", &line);
    assert!(!counts(&String::from_utf8_lossy(&hidden.stdout), " tracks "));
}
