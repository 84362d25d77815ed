//! Golden outputs of `info`, `dump` and `sample` for the built-in example motion, written to a temporary
//! folder by `vmdkit example` (never a corpus file). Regenerate after an intended change with
//! `UPDATE_GOLDEN=1 cargo test -p vmdkit-cli --test golden` and review the diff.

use crate::common;

use common::{example_dir, vmdkit};
use std::path::Path;

const CASES: [(&str, &[&str]); 12] = [
    ("info.txt", &["info", "example.vmd"]),
    ("info.jsonl", &["info", "--json", "example.vmd"]),
    ("dump.txt", &["dump", "example.vmd"]),
    ("dump-euler.txt", &["dump", "--euler", "example.vmd"]),
    ("dump.json", &["dump", "--json", "example.vmd"]),
    ("dump-euler-name.json", &["dump", "--json", "--euler", "--name", "右腕", "example.vmd"]),
    // The sample documents are shapes of the CLI's report module; these pin their bytes.
    ("sample.txt", &["sample", "example.vmd", "--frame", "12.5"]),
    ("sample.json", &["sample", "example.vmd", "--frame", "12.5", "--json"]),
    ("sample-bone.json", &["sample", "example.vmd", "--frame", "7.5", "--bone", "右腕", "--json"]),
    ("sample-morph.txt", &["sample", "example.vmd", "--frame", "22", "--morph", "まばたき"]),
    ("sample-camera.json", &["sample", "example.vmd", "--frame", "30", "--camera", "--json"]),
    ("sample-light.txt", &["sample", "example.vmd", "--frame", "30", "--light"]),
];

#[test]
fn info_dump_and_sample_of_the_example_match_the_golden_files() {
    let (dir, _) = example_dir();
    let golden_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut mismatches = Vec::new();
    for (file, args) in CASES {
        // Run inside the folder so the output names the file `example.vmd`, not a temp path.
        let output = vmdkit().current_dir(dir.path()).args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        let actual = String::from_utf8(output.stdout).expect("UTF-8 output");
        let path = golden_dir.join(file);
        if update {
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (run with UPDATE_GOLDEN=1 to create it)", path.display())
        });
        if actual != expected {
            mismatches.push(format!(
                "{file} ({args:?}):\n--- expected\n{expected}\n--- actual\n{actual}"
            ));
        }
    }
    assert!(mismatches.is_empty(), "golden mismatch:\n{}", mismatches.join("\n"));
}

#[test]
fn the_built_in_example_flag_matches_the_written_file() {
    // `info --example` is README's main command: it must agree with the file `example` writes.
    let (dir, _) = example_dir();
    let from_file =
        vmdkit().current_dir(dir.path()).args(["info", "--json", "example.vmd"]).output().unwrap();
    let built_in = vmdkit().args(["info", "--json", "--example"]).output().unwrap();
    let strip_path = |out: &[u8]| {
        let mut v: serde_json::Value = serde_json::from_slice(out).unwrap();
        v.as_object_mut().unwrap().remove("path");
        v
    };
    assert_eq!(strip_path(&from_file.stdout), strip_path(&built_in.stdout));
    let dump = vmdkit().args(["dump", "--example"]).output().unwrap();
    assert!(dump.status.success());
    assert!(String::from_utf8(dump.stdout).unwrap().starts_with("<example>: version 2"));
}

/// Issue 27: negative zero printed as `-0` (`rot (0, 0, -0, 1)` in `dump --example` and in a
/// VPD's `info`). The text outputs print 0; only the JSON keeps the stored bits.
#[test]
fn text_outputs_print_zero_without_a_sign() {
    let dir = tempfile::tempdir().unwrap();
    let dump = common::run_bounded(dir.path(), &["dump", "--example"]);
    let text = String::from_utf8(dump.output.stdout).unwrap();
    assert!(text.contains("rot (0, 0, 0, 1)"), "{text}");
    let signed_zero = |t: &str| t.split([' ', ',', '(', ')']).any(|w| w == "-0");
    assert!(!signed_zero(&text), "{text}");
    // A pose whose zeros are written with a sign, as VPD writers often do.
    let pose = "Vocaloid Pose Data file\r\n\r\nmiku.osm;\r\n1;\r\n\r\nBone0{center\r\n  \
                -0.000000,0.000000,-0.000000;\r\n  0.000000,-0.000000,-0.000000,1.000000;\r\n\
                }\r\n\r\nMorph0{smile\r\n  -0.000000;\r\n}\r\n";
    std::fs::write(dir.path().join("signed.vpd"), pose).unwrap();
    let info = common::run_bounded(dir.path(), &["info", "signed.vpd"]);
    let text = String::from_utf8(info.output.stdout).unwrap();
    assert!(text.contains("pos (0, 0, 0) rot (0, 0, 0, 1)  center"), "{text}");
    assert!(!signed_zero(&text), "{text}");
}
