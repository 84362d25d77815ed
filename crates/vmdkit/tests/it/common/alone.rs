//! Tests that need the whole process to themselves (process-wide state, or a figure taken over
//! all threads) run again in a child process of this test binary, alone: the tests of one
//! binary otherwise share the process with every other module's tests.

use std::process::Command;

/// Set in the child process to the test it runs.
const ALONE: &str = "VMDKIT_TEST_ALONE";

/// Whether the calling test should run its body: true in the child process started for it.
/// Otherwise starts that child (this binary, filtered to the one test `name` of `module`, as
/// `module_path!()` gives it, on one thread), fails if the test fails or does not run there,
/// and returns false.
pub fn run_alone(module: &str, name: &str) -> bool {
    // `module_path!()` starts with the crate's name, which test filters do not.
    let path = module.split_once("::").map_or(module, |(_, rest)| rest);
    let test = format!("{path}::{name}");
    if std::env::var(ALONE).is_ok_and(|running| running == test) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = Command::new(exe)
        .args([test.as_str(), "--exact", "--test-threads=1", "--nocapture"])
        .env(ALONE, &test)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(output.status.success(), "{test}, run alone, failed");
    assert!(stdout.contains("1 passed"), "{test} did not run alone: {stdout}");
    false
}
