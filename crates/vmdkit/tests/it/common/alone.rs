//! Tests that need the whole process to themselves (process-wide state, or a figure taken over
//! all threads) run again in a child process of this test binary, alone
//! ([`test_corpus::alone`]).

/// Set in the child process to the test it runs.
const ALONE: &str = "VMDKIT_TEST_ALONE";

/// Whether the calling test should run its body: true in the child process started for it.
/// Otherwise runs this binary's test `name` of `module` (as `module_path!()` gives it) in that
/// child, fails if it fails or does not run there, and returns false.
pub fn run_alone(module: &str, name: &str) -> bool {
    // `module_path!()` starts with the crate's name, which test filters do not.
    let path = module.split_once("::").map_or(module, |(_, rest)| rest);
    let test = format!("{path}::{name}");
    if std::env::var(ALONE).is_ok_and(|running| running == test) {
        return true;
    }
    let output = test_corpus::alone::run_test_in_child(&test, ALONE, &test);
    print!("{}", String::from_utf8_lossy(&output.stdout));
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    false
}
