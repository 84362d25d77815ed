//! Helpers shared by the command-line tests.

pub mod bounded;
pub mod gltf;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The `vmdkit` binary built for these tests.
pub fn vmdkit() -> Command {
    Command::cargo_bin("vmdkit").expect("the vmdkit binary is built")
}

/// A temporary folder holding the built-in example, written by the binary: `example.vmd`.
pub fn example_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("example.vmd");
    vmdkit().arg("example").arg(&path).assert().success();
    (dir, path)
}

/// The example motion's bytes, made in code.
pub fn example_bytes() -> Vec<u8> {
    vmdkit::example::example_motion().to_bytes()
}

/// Writes `bytes` to `name` in `dir` and returns the path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A folder's file names, sorted.
pub use test_corpus::files::listing;

/// Asserts the process did not panic (a panic exits 101 and prints "panicked").
pub fn assert_no_panic(output: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    assert_ne!(output.status.code(), Some(101), "panic exit: {stderr}");
}

/// Runs `vmdkit ARGS` in `dir`, checking that it did not panic.
pub fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let output = vmdkit().current_dir(dir).args(args).output().unwrap();
    assert_no_panic(&output);
    output
}

/// A finished command's stderr as text.
pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub use bounded::{run_bounded, Bounded};
