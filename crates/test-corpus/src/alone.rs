//! Running one test of the current test binary in a child process of its own: for tests that
//! need the process to themselves (process-wide state, a figure taken over all threads) or a
//! small fresh process to start another from. Each crate has one integration-test binary, so
//! its tests otherwise share one process with every other module's.

use std::ffi::OsStr;
use std::process::Command;

/// Runs the test `test` (its path as the test harness names it, `module::name`) of this test
/// binary in a child process, alone and on one thread, with the environment variable `key` set
/// to `value`; fails unless it ran there and passed. Returns what it printed.
pub fn run_test_in_child(test: &str, key: &str, value: impl AsRef<OsStr>) -> std::process::Output {
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = Command::new(exe)
        .args([test, "--exact", "--test-threads=1", "--nocapture"])
        .env(key, value)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{test}, run alone, failed: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("1 passed"), "{test} did not run alone: {stdout}");
    output
}
