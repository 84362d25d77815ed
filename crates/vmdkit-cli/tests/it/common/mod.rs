//! Helpers shared by the command-line tests.

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

/// A finished hostile-input run. Its peak resident memory and wall time are checked and printed
/// by [`run_bounded`], not kept: no test reads them.
pub struct Bounded {
    /// The finished process's status, stdout and stderr.
    pub output: std::process::Output,
}

/// The most a run on a small crafted file may hold resident (issue: 200 MB for a file under
/// 5 MB; the binary's own code and stack take about 10 MB of it).
pub const HOSTILE_PEAK_MIB: f64 = 200.0;

/// Runs `vmdkit ARGS` in `dir` as a hostile file's reproducer runs: stdin closed, killed after
/// a minute (a hang, not a slow run: tests assert no wall times), then checked to have ended
/// with 0 or 1, not panicked, and stayed under [`HOSTILE_PEAK_MIB`]. Returns what it cost.
#[cfg(unix)]
// The child is reaped by wait4 (which also gives its peak memory), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn run_bounded<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Bounded {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let bin = assert_cmd::cargo::cargo_bin("vmdkit");
    let start = std::time::Instant::now();
    let mut child = std::process::Command::new(bin)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let pid = child.id() as libc::pid_t;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: rusage is plain data the kernel fills; pid is our own unreaped child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break (status, usage);
        }
        assert!(done == 0, "wait4 failed on {args:?}", args = display_args(args));
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("hung for a minute: vmdkit {}", display_args(args));
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let output = std::process::Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    // Linux counts ru_maxrss in KiB.
    let peak_mib = usage.ru_maxrss as f64 / 1024.0;
    assert_no_panic(&output);
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
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
    eprintln!(
        "bounded: {:.3} s, {peak_mib:.1} MiB: vmdkit {}",
        elapsed.as_secs_f64(),
        display_args(args)
    );
    Bounded { output }
}

fn display_args<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let words: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect();
    words.join(" ")
}
