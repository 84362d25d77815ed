//! `check --strict-warnings` with `--allow` and `--deny`: harmless kinds pass by default, over
//! the whole corpus and on small motions made in code.

use crate::common;

use common::{assert_no_panic, vmdkit};
use test_corpus::corpus_or_skip;
use vmdkit::lint::WarningKind;
use vmdkit::{BoneKey, KeyName, LongName, Motion};

/// The summary line of `check`, and its exit status.
fn check(args: &[&str], files: &[&std::path::Path]) -> (String, Option<i32>) {
    let output = vmdkit().arg("check").arg("--quiet").args(args).args(files).output().unwrap();
    assert_no_panic(&output);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (stdout, output.status.code())
}

fn summary(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or("")
}

#[test]
fn strict_warnings_fails_only_on_kinds_that_change_how_a_motion_plays() {
    let Some(manifest) = corpus_or_skip("check --strict-warnings corpus") else {
        return;
    };
    let dir = manifest.dir.as_path();
    let (plain, status) = check(&[], &[dir]);
    assert_eq!(status, Some(1), "{plain}");
    let damaged = manifest.of_kind("vmd").filter(|e| !e.parse_ok()).count();
    let vmds = manifest.of_kind("vmd").count();
    assert!(
        summary(&plain).starts_with(&format!(
            "{vmds} files checked: {} ok, {damaged} damaged",
            vmds - damaged
        )),
        "{}",
        summary(&plain)
    );

    let (strict, status) = check(&["--strict-warnings"], &[dir]);
    assert_eq!(status, Some(1));
    let failing: Vec<&str> = strict.lines().filter(|l| l.contains("denied warnings:")).collect();
    // Every failing file has a kind that is not harmless, and only such kinds are named.
    for line in &failing {
        let kinds = line.rsplit("denied warnings: ").next().unwrap();
        for kind in kinds.split(", ") {
            let kind = WarningKind::from_name(kind).unwrap_or_else(|| panic!("{line}"));
            assert!(!kind.is_harmless(), "{line}");
        }
    }
    // The corpus's warnings are mostly unsorted and identical repeated keys; two files repeat
    // keys that differ (measured: 2 of 134 fail on warnings, 85 did when every kind failed).
    assert_eq!(failing.len(), 2, "{strict}");
    assert!(summary(&strict).contains(", 2 with denied warnings"), "{}", summary(&strict));

    // Allowing the one kind left passes every readable file; denying a harmless one fails more.
    let (allowed, _) = check(&["--strict-warnings", "--allow", "duplicate_keys"], &[dir]);
    assert!(summary(&allowed).contains(", 0 with denied warnings"), "{}", summary(&allowed));
    let (denied, _) = check(&["--strict-warnings", "--deny", "unsorted_keys"], &[dir]);
    let unsorted = denied.lines().filter(|l| l.contains("denied warnings:")).count();
    assert!(unsorted > 50, "{denied}");
}

#[test]
fn allow_and_deny_on_a_motion_with_unsorted_and_conflicting_keys() {
    let mut motion = Motion::new(LongName::encode("m").0);
    let arm = KeyName::encode("右腕").0;
    motion.bones.push(BoneKey::new(arm, 10));
    motion.bones.push(BoneKey::new(arm, 0)); // unsorted
    let dir = tempfile::tempdir().unwrap();
    let unsorted = dir.path().join("unsorted.vmd");
    motion.write_file(&unsorted).unwrap();
    let mut other = BoneKey::new(arm, 0);
    other.translation.x = 1.0;
    motion.bones.push(other); // a key at frame 0 that differs
    let conflicting = dir.path().join("conflicting.vmd");
    motion.write_file(&conflicting).unwrap();

    let (out, status) = check(&["--strict-warnings"], &[&unsorted]);
    assert_eq!(status, Some(0), "{out}");
    let (out, status) = check(&["--deny", "unsorted_keys"], &[&unsorted]);
    assert_eq!(status, Some(1), "{out}");
    assert!(
        out.contains("FAIL  ") && out.contains("(1 warning): denied warnings: unsorted_keys"),
        "{out}"
    );
    let (out, status) = check(&["--strict-warnings"], &[&conflicting]);
    assert_eq!(status, Some(1), "{out}");
    assert!(out.contains("denied warnings: duplicate_keys"), "{out}");
    let (out, status) = check(&["--strict-warnings", "--allow", "duplicate_keys"], &[&conflicting]);
    assert_eq!(status, Some(0), "{out}");
    // Without --strict-warnings, warnings do not fail.
    let (_, status) = check(&[], &[&conflicting]);
    assert_eq!(status, Some(0));
}

#[test]
fn unknown_or_contradictory_kinds_are_usage_errors() {
    let (_, example) = common::example_dir();
    for (args, expected) in [
        (
            &["--strict-warnings", "--allow", "unsorted"][..],
            "unknown warning kind \"unsorted\"; the kinds are repaired, name_cut_mid_character",
        ),
        (&["--deny", "nope"][..], "--deny: unknown warning kind \"nope\""),
        (
            &["--strict-warnings", "--allow", "far_frames", "--deny", "far_frames"][..],
            "far_frames is both allowed and denied",
        ),
        (&["--allow", "far_frames"][..], "--strict-warnings"),
    ] {
        let output = vmdkit().arg("check").args(args).arg(&example).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn help_lists_every_warning_kind() {
    for command in ["info", "check"] {
        let output = vmdkit().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&output.stdout);
        for kind in WarningKind::ALL {
            assert!(help.contains(kind.name()), "{command} --help lacks {}", kind.name());
        }
    }
}
