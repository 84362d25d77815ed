//! The command line over every VMD in the shared corpus, read in place: `info --json` agrees
//! with the manifest, conversions round-trip byte for byte, and `check` tells good files from
//! damaged ones without panicking.

use crate::common;

use common::{assert_no_panic, vmdkit};
use serde_json::Value;
use std::path::Path;
use test_corpus::{corpus_or_skip, Entry};

/// Manifest count columns and the `counts` keys of `info --json`, in section order.
const COUNTS: [(&str, &str); 6] = [
    ("bone", "bone"),
    ("morph", "morph"),
    ("camera", "camera"),
    ("light", "light"),
    ("shadow", "self_shadow"),
    ("property", "property"),
];

#[test]
fn info_json_matches_the_manifest() {
    let Some(manifest) = corpus_or_skip("cli info corpus") else {
        return;
    };
    let good: Vec<&Entry> = manifest.of_kind("vmd").filter(|e| e.parse_ok()).collect();
    assert!(good.len() >= 100, "only {} readable corpus VMDs", good.len());
    // One invocation for all files: parallel reading, output in input order.
    let output =
        vmdkit().arg("info").arg("--json").args(good.iter().map(|e| &e.path)).output().unwrap();
    assert_no_panic(&output);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<Value> = output
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), good.len());
    for (entry, info) in good.iter().zip(&lines) {
        let at = &entry.local_path;
        assert_eq!(info["path"], entry.path.display().to_string(), "output order");
        let present: Vec<&str> = info["sections_present"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        for (column, key) in COUNTS {
            let expected = entry.count(column);
            assert_eq!(info["counts"][key].as_u64(), Some(expected.unwrap_or(0)), "{at}: {key}");
            assert_eq!(present.contains(&key), expected.is_some(), "{at}: {key} presence");
        }
        assert_eq!(info["version"].to_string(), entry.get("vmd_version"), "{at}: version");
        assert_eq!(info["bytes"].as_u64(), entry.count("bytes"), "{at}: bytes");
        assert_eq!(
            info["trailing_bytes"].as_u64(),
            Some(entry.count("trailing_bytes").unwrap_or(0)),
            "{at}"
        );
        let last = info["frame_range"].get(1).and_then(Value::as_u64);
        assert_eq!(last, entry.count("max_frame"), "{at}: last frame");
        if let Some(n) = entry.count("unique_bones") {
            assert_eq!(info["bones"].as_array().unwrap().len() as u64, n, "{at}: bone names");
        }
        if let Some(n) = entry.count("unique_morphs") {
            assert_eq!(info["morphs"].as_array().unwrap().len() as u64, n, "{at}: morph names");
        }
        // The encoding is the library's detection; every name in this corpus is CP932 (names
        // cut mid-character count as CP932, not as another encoding).
        let motion = vmdkit::Motion::read_file(&entry.path).unwrap();
        assert_eq!(info["encoding"], motion.detect_encoding().label(), "{at}: encoding");
        assert_eq!(info["encoding"], "shift_jis", "{at}: encoding");
        if entry.get("model_name_sjis_ok") == "yes" {
            assert_eq!(info["model_name"], entry.get("model_name"), "{at}: model name");
        }
        let trailing =
            info["warnings"].as_array().unwrap().iter().any(|w| w["kind"] == "trailing_bytes");
        assert_eq!(
            trailing,
            entry.count("trailing_bytes").unwrap_or(0) > 0,
            "{at}: trailing warning"
        );
    }
    println!("info --json matched the manifest for {} files", lines.len());
}

#[test]
fn conversions_round_trip_byte_for_byte() {
    let Some(manifest) = corpus_or_skip("cli convert corpus") else {
        return;
    };
    let good: Vec<&Entry> = manifest.of_kind("vmd").filter(|e| e.parse_ok()).collect();
    let dir = tempfile::tempdir().unwrap();
    let failures = std::sync::Mutex::new(Vec::new());
    // A few threads: each file costs four short runs of the binary.
    let workers = std::thread::available_parallelism().map_or(4, |n| n.get()).min(8);
    let chunk = good.len().div_ceil(workers);
    std::thread::scope(|scope| {
        for (w, entries) in good.chunks(chunk).enumerate() {
            let (dir, failures) = (dir.path(), &failures);
            scope.spawn(move || {
                for (i, entry) in entries.iter().enumerate() {
                    let original = entry.bytes();
                    for ext in ["json", "csv"] {
                        let text = dir.join(format!("{w}-{i}.{ext}"));
                        let back = dir.join(format!("{w}-{i}.{ext}.vmd"));
                        let problem = round_trip(&entry.path, &text, &back, &original);
                        if let Some(problem) = problem {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("{} via {ext}: {problem}", entry.local_path));
                        }
                        let _ = std::fs::remove_file(&text);
                        let _ = std::fs::remove_file(&back);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} round trips failed:\n{}",
        failures.len(),
        2 * good.len(),
        failures.join("\n")
    );
    println!("{} corpus files round-tripped through JSON and CSV", good.len());
}

/// Runs VMD -> text -> VMD through the binary; says what went wrong, if anything.
fn round_trip(vmd: &Path, text: &Path, back: &Path, original: &[u8]) -> Option<String> {
    for (from, to) in [(vmd, text), (text, back)] {
        let out = vmdkit().arg("convert").arg(from).arg(to).output().unwrap();
        assert_no_panic(&out);
        if !out.status.success() {
            return Some(format!(
                "convert to {} failed: {}",
                to.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let rewritten = std::fs::read(back).unwrap();
    let first = original.iter().zip(&rewritten).position(|(a, b)| a != b);
    match first {
        None if rewritten.len() == original.len() => None,
        None => Some(format!("length {} instead of {}", rewritten.len(), original.len())),
        Some(at) => Some(format!("first difference at byte {at}")),
    }
}

#[test]
fn vmd_to_vmd_rewrites_identically() {
    let Some(manifest) = corpus_or_skip("cli rewrite corpus") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The CLI streams VMD output record by record; it must equal the library's encoding.
    for (i, entry) in manifest.of_kind("vmd").filter(|e| e.parse_ok()).enumerate() {
        let out_path = dir.path().join(format!("{i}.vmd"));
        vmdkit().arg("convert").arg(&entry.path).arg(&out_path).assert().success();
        assert!(std::fs::read(&out_path).unwrap() == entry.bytes(), "{}", entry.local_path);
    }
}

#[test]
fn check_passes_good_files_and_fails_damaged_ones() {
    let Some(manifest) = corpus_or_skip("cli check corpus") else {
        return;
    };
    let good: Vec<&Entry> = manifest.of_kind("vmd").filter(|e| e.parse_ok()).collect();
    let output = vmdkit().arg("check").args(good.iter().map(|e| &e.path)).output().unwrap();
    assert_no_panic(&output);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("ok    ")).count(), good.len());

    let damaged: Vec<&Entry> = manifest.of_kind("vmd").filter(|e| !e.parse_ok()).collect();
    assert!(damaged.len() >= 3);
    for entry in &damaged {
        let output = vmdkit().arg("check").arg(&entry.path).output().unwrap();
        assert_no_panic(&output);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{}: {stdout}", entry.local_path);
        let fail = stdout.lines().find(|l| l.starts_with("FAIL  ")).expect("a FAIL line");
        assert!(fail.contains(&entry.path.display().to_string()), "{fail}");
        assert!(fail.contains("byte offset"), "{fail}");
        assert!(
            fail.contains("--lenient"),
            "every damaged corpus file is one lenient reading recovers: {fail}"
        );

        // Lenient reading recovers each of them, and says what it repaired.
        let output = vmdkit().args(["check", "--lenient"]).arg(&entry.path).output().unwrap();
        assert_no_panic(&output);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{}: {stdout}", entry.local_path);
        assert!(stdout.contains("warning: repaired: lenient reading: "), "{stdout}");

        // The other commands fail the same way, without panicking.
        for args in [&["info"][..], &["dump"], &["info", "--json"]] {
            let output = vmdkit().args(args).arg(&entry.path).output().unwrap();
            assert_no_panic(&output);
            assert_eq!(output.status.code(), Some(1), "{args:?} {}", entry.local_path);
            assert!(String::from_utf8_lossy(&output.stderr).contains("byte offset"), "{args:?}");
        }
    }

    // A folder of both: every file checked, in a stable order, and the run fails.
    let output = vmdkit().arg("check").arg("--quiet").arg(&manifest.dir).output().unwrap();
    assert_no_panic(&output);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("FAIL  ")).count(),
        damaged.len(),
        "{stdout}"
    );
}
