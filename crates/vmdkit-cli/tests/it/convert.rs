//! `convert` and `example`: formats by extension or flag, stdin/stdout, and atomic output that
//! never leaves a partial file or touches an existing one when something fails.

use crate::common;

use common::{assert_no_panic, example_bytes, listing, vmdkit, write};

#[test]
fn example_in_every_format_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["e.vmd", "e.json", "e.csv"] {
        vmdkit().current_dir(d).args(["example", name]).assert().success();
    }
    assert_eq!(std::fs::read(d.join("e.vmd")).unwrap(), example_bytes());
    for text in ["e.json", "e.csv"] {
        let back = format!("{text}.vmd");
        vmdkit().current_dir(d).args(["convert", text, &back]).assert().success();
        assert_eq!(std::fs::read(d.join(&back)).unwrap(), example_bytes(), "{text}");
    }
    // --pretty indents; the compact form is one line.
    vmdkit().current_dir(d).args(["convert", "--pretty", "e.vmd", "p.json"]).assert().success();
    let pretty = std::fs::read_to_string(d.join("p.json")).unwrap();
    assert!(pretty.lines().count() > 10);
    let compact = std::fs::read_to_string(d.join("e.json")).unwrap();
    let same: serde_json::Value = serde_json::from_str(&pretty).unwrap();
    assert_eq!(same, serde_json::from_str::<serde_json::Value>(&compact).unwrap());
}

#[test]
fn stdin_and_stdout_with_from_and_to() {
    let json = vmdkit()
        .args(["convert", "--from", "vmd", "--to", "json", "-", "-"])
        .write_stdin(example_bytes())
        .output()
        .unwrap();
    assert_no_panic(&json);
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let vmd = vmdkit()
        .args(["convert", "--from", "json", "--to", "vmd", "-", "-"])
        .write_stdin(json.stdout)
        .output()
        .unwrap();
    assert!(vmd.status.success(), "{}", String::from_utf8_lossy(&vmd.stderr));
    assert_eq!(vmd.stdout, example_bytes());
    // Extensions can be overridden: a VMD in a file called .bin.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "motion.bin", &example_bytes());
    let csv = vmdkit()
        .current_dir(dir.path())
        .args(["convert", "--from", "vmd", "motion.bin", "--to", "csv", "-"])
        .output()
        .unwrap();
    assert!(csv.status.success());
    let vmd = vmdkit()
        .args(["convert", "--from", "csv", "--to", "vmd", "-", "-"])
        .write_stdin(csv.stdout)
        .output()
        .unwrap();
    assert_eq!(vmd.stdout, example_bytes());
    // A damaged VMD on stdin is named `-` in the message.
    let cut = vmdkit()
        .args(["convert", "--from", "vmd", "--to", "json", "-", "-"])
        .write_stdin(&example_bytes()[..100])
        .output()
        .unwrap();
    assert_eq!(cut.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&cut.stderr).contains("-: bone section, record 0, byte offset 54")
    );
}

#[test]
fn a_failing_convert_leaves_no_partial_output_and_keeps_an_existing_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "cut.vmd", &example_bytes()[..500]);
    write(d, "bad.json", b"{\"not\": \"a motion\"");
    write(d, "out.json", b"precious");
    write(d, "out.vmd", b"precious");
    let before = listing(d);
    for args in [
        &["convert", "cut.vmd", "out.json"][..],
        &["convert", "bad.json", "out.vmd"],
        &["convert", "cut.vmd", "new.json"],
        &["convert", "bad.json", "new.vmd"],
    ] {
        let output = vmdkit().current_dir(d).args(args).output().unwrap();
        assert_no_panic(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(listing(d), before, "{args:?}: no new or temporary files");
    }
    assert_eq!(std::fs::read(d.join("out.json")).unwrap(), b"precious");
    assert_eq!(std::fs::read(d.join("out.vmd")).unwrap(), b"precious");

    // IN == OUT: a damaged file is left as it was (its error comes first); a good one is
    // refused as bad usage (issue 24: no command writes over its input) and left as it was.
    let output = vmdkit().current_dir(d).args(["convert", "cut.vmd", "cut.vmd"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(d.join("cut.vmd")).unwrap(), &example_bytes()[..500]);
    write(d, "good.vmd", &example_bytes());
    let output =
        vmdkit().current_dir(d).args(["convert", "good.vmd", "good.vmd"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(std::fs::read(d.join("good.vmd")).unwrap(), example_bytes());

    // An output folder that does not exist: exit 1, naming the output.
    let output =
        vmdkit().current_dir(d).args(["convert", "good.vmd", "missing/out.json"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot write missing/out.json"));

    // A successful convert replaces an existing output and leaves nothing else behind.
    vmdkit().current_dir(d).args(["convert", "good.vmd", "out.json"]).assert().success();
    assert_ne!(std::fs::read(d.join("out.json")).unwrap(), b"precious");
    let mut expected = before.clone();
    expected.push("good.vmd".into());
    expected.sort();
    assert_eq!(listing(d), expected);
}

#[test]
fn text_outputs_cap_trailing_bytes_unless_asked_to_keep_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut motion = vmdkit::example::example_motion();
    motion.trailing = (0..100_000u32).map(|i| (i % 251) as u8).collect();
    let padded = motion.to_bytes();
    write(d, "padded.vmd", &padded);
    let run = |args: &[&str]| {
        let output = vmdkit().current_dir(d).args(args).output().unwrap();
        assert_no_panic(&output);
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stderr).unwrap()
    };
    let info = vmdkit().current_dir(d).args(["info", "--json", "padded.vmd"]).output().unwrap();
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(info["trailing_bytes"], 100_000);

    // VMD to VMD keeps every byte, silently.
    assert_eq!(run(&["convert", "padded.vmd", "same.vmd"]), "");
    assert_eq!(std::fs::read(d.join("same.vmd")).unwrap(), padded);
    let cut_vmd = &padded[..padded.len() - (100_000 - 65_536)];
    for text in ["cut.json", "cut.csv"] {
        let stderr = run(&["convert", "padded.vmd", text]);
        assert!(
            stderr.contains(&format!(
                "warning: {text}: holds the first 65536 of the 100000 bytes after the last section"
            )) && stderr.contains("--keep-trailing"),
            "{stderr}"
        );
        let written = std::fs::read_to_string(d.join(text)).unwrap();
        assert!(written.contains("trailing_len"), "{text}");
        assert!(written.len() < 200_000, "{text}: {} bytes", written.len());
        // Read back, the document says what it lacks, and makes the VMD it can.
        let back = format!("{text}.vmd");
        let stderr = run(&["convert", text, &back]);
        assert!(
            stderr.contains("trailing_len: the VMD had 100000 bytes after its last section")
                && stderr.contains("lacks the other 34464"),
            "{stderr}"
        );
        assert_eq!(std::fs::read(d.join(&back)).unwrap(), cut_vmd, "{text}");
    }
    let csv = std::fs::read_to_string(d.join("cut.csv")).unwrap();
    assert!(csv.contains("\n#meta,trailing_len,") && csv.contains(",100000\n"), "{csv:.300}");

    // --keep-trailing: every byte, no warning, and the round trip is exact.
    for text in ["kept.json", "kept.csv"] {
        assert_eq!(run(&["convert", "--keep-trailing", "padded.vmd", text]), "");
        let back = format!("{text}.vmd");
        assert_eq!(run(&["convert", text, &back]), "");
        assert_eq!(std::fs::read(d.join(&back)).unwrap(), padded, "{text}");
    }
    let kept: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("kept.json")).unwrap()).unwrap();
    assert_eq!(kept["trailing"].as_array().map(Vec::len), Some(2), "two 64 KiB pieces");
}

#[test]
fn text_inputs_are_read_as_they_stream_and_errors_say_where() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    vmdkit()
        .current_dir(d)
        .args(["convert", "--pretty", "-", "e.json"])
        .arg("--from")
        .arg("vmd")
        .write_stdin(example_bytes())
        .assert()
        .success();
    let text = std::fs::read_to_string(d.join("e.json")).unwrap();
    let cut = &text[..text.len() / 2];
    write(d, "cut.json", cut.as_bytes());
    let output = vmdkit().current_dir(d).args(["convert", "cut.json", "out.vmd"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = cut.lines().count();
    assert!(
        stderr.contains("cut.json: cannot read as a vmdkit JSON motion")
            && stderr.contains(&format!("JSON line {line}, column ")),
        "{stderr}"
    );
    // The same through stdin.
    let output = vmdkit()
        .args(["convert", "--from", "json", "--to", "vmd", "-", "-"])
        .write_stdin(text.replacen("\"frame\": 0", "\"frame\": -1", 1))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("-: cannot read as a vmdkit JSON motion") && stderr.contains("JSON line "),
        "{stderr}"
    );
    vmdkit().current_dir(d).args(["convert", "e.json", "e.csv"]).assert().success();
    let csv = std::fs::read_to_string(d.join("e.csv")).unwrap().replacen(",15,", ",x,", 1);
    write(d, "bad.csv", csv.as_bytes());
    let output = vmdkit().current_dir(d).args(["convert", "bad.csv", "out.vmd"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad.csv: cannot read as a vmdkit CSV motion")
            && stderr.contains("CSV line 8, column `frame`"),
        "{stderr}"
    );
}
