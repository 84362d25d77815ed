//! Hostile-input reproducers run through [`run_bounded`]: each run must end with 0 or 1, not
//! panic, stay under [`HOSTILE_PEAK_MIB`] of resident memory and finish within a minute.
//!
//! The peak comes from `wait4`'s `ru_maxrss`, which Linux also raises to the memory of the
//! process that spawned the child: a child started by vfork (as `std::process::Command` does)
//! inherits its parent's high-water mark when it execs. This binary holds every command-line
//! test, so its own footprint would swamp the child's. The child is therefore started by a
//! small go-between, this same test binary run fresh on the one test [`measure_a_child`]
//! ([`test_corpus::alone`]), whose footprint is a few MiB; it reports the child's own figure.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The most a run on a small crafted file may hold resident (issue: 200 MB for a file under
/// 5 MB; the binary's own code and stack take about 10 MB of it).
pub const HOSTILE_PEAK_MIB: f64 = 200.0;

/// A run longer than this is a hang (tests assert no wall times; this only stops a stuck run).
const HANG: Duration = Duration::from_secs(60);

/// Set for the go-between: the folder holding its orders (`args`, `dir`) and its results
/// (`stdout`, `stderr`, `result`).
const ORDERS: &str = "VMDKIT_TEST_BOUNDED_RUN";

/// A finished hostile-input run. Its peak resident memory and wall time are checked and printed
/// by [`run_bounded`], not kept: no test reads them.
pub struct Bounded {
    /// The finished process's status, stdout and stderr.
    pub output: std::process::Output,
}

/// Runs `vmdkit ARGS` in `dir` as a hostile file's reproducer runs: stdin closed, killed after
/// a minute, then checked to have ended with 0 or 1, not panicked, and stayed under
/// [`HOSTILE_PEAK_MIB`]. Returns what it did.
#[cfg(unix)]
pub fn run_bounded<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Bounded {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::process::ExitStatusExt;
    let orders = tempfile::tempdir().unwrap();
    let mut joined = Vec::new();
    for arg in args {
        joined.extend_from_slice(arg.as_ref().as_bytes());
        joined.push(0);
    }
    std::fs::write(orders.path().join("args"), joined).unwrap();
    std::fs::write(orders.path().join("dir"), dir.as_os_str().as_bytes()).unwrap();
    test_corpus::alone::run_test_in_child(
        "common::bounded::measure_a_child",
        ORDERS,
        orders.path(),
    );
    let read = |name: &str| std::fs::read(orders.path().join(name)).unwrap();
    let result = String::from_utf8(read("result")).unwrap();
    assert!(result != "hung", "hung for a minute: vmdkit {}", display_args(args));
    let [status, peak_kib, seconds]: [&str; 3] =
        result.split(' ').collect::<Vec<_>>().try_into().expect("status, peak and time");
    let output = std::process::Output {
        status: std::process::ExitStatus::from_raw(status.parse().unwrap()),
        stdout: read("stdout"),
        stderr: read("stderr"),
    };
    // Linux counts ru_maxrss in KiB.
    let peak_mib = peak_kib.parse::<f64>().unwrap() / 1024.0;
    super::assert_no_panic(&output);
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "vmdkit {} ended with {:?}: {}",
        display_args(args),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        peak_mib <= HOSTILE_PEAK_MIB,
        "vmdkit {} held {peak_mib:.0} MiB (at most {HOSTILE_PEAK_MIB})",
        display_args(args)
    );
    eprintln!("bounded: {seconds} s, {peak_mib:.1} MiB: vmdkit {}", display_args(args));
    Bounded { output }
}

/// The go-between's work, done only when [`run_bounded`] starts this binary for it: runs the
/// ordered command, reaps it with `wait4` for its own peak, and writes what it saw. In an
/// ordinary test run it has no orders and does nothing.
#[cfg(unix)]
#[test]
// The child is reaped by wait4 (which also gives its peak memory), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn measure_a_child() {
    use std::os::unix::ffi::OsStrExt;
    use std::process::Stdio;
    let Some(orders) = std::env::var_os(ORDERS).map(PathBuf::from) else {
        return;
    };
    let args_bytes = std::fs::read(orders.join("args")).unwrap();
    // Each argument ends with a NUL, so the last piece of the split is the empty rest.
    let mut args: Vec<&std::ffi::OsStr> =
        args_bytes.split(|&b| b == 0).map(std::ffi::OsStr::from_bytes).collect();
    args.pop();
    let dir =
        PathBuf::from(std::ffi::OsStr::from_bytes(&std::fs::read(orders.join("dir")).unwrap()));
    let start = Instant::now();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("vmdkit"))
        .current_dir(dir)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(orders.join("stdout")).unwrap())
        .stderr(std::fs::File::create(orders.join("stderr")).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let result = loop {
        let mut status = 0;
        // SAFETY: rusage is plain data the kernel fills; pid is our own unreaped child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            let seconds = start.elapsed().as_secs_f64();
            break format!("{status} {} {seconds:.3}", usage.ru_maxrss);
        }
        assert_eq!(done, 0, "wait4 failed");
        if start.elapsed() > HANG {
            let _ = child.kill();
            break "hung".to_string();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    std::fs::write(orders.join("result"), result).unwrap();
}

fn display_args<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let words: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect();
    words.join(" ")
}
