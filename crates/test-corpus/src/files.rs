//! Helpers for tests of how files are written: what a folder holds, and device nodes to write
//! to without touching the real ones in /dev.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The names in a folder, sorted: to see that nothing (temporary files included) was left.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A node of the kernel's memory device `minor` (3 null, 7 full) in `dir`, so that a wrong
/// write could replace only this copy, never the real one in /dev. None where mknod is not
/// allowed.
pub fn memory_device(dir: &Path, name: &str, minor: u32) -> Option<PathBuf> {
    let path = dir.join(name);
    let made = Command::new("mknod").arg(&path).args(["c", "1", &minor.to_string()]).status();
    made.is_ok_and(|s| s.success()).then_some(path)
}
