//! `io::remove_temporary_files`, as a signal handler calls it: in a process of its own
//! (`run_alone`), because it removes the temporary files of the whole process and refuses new
//! ones.

use crate::common::alone::run_alone;
use std::io::Write;
use vmdkit::io::{remove_temporary_files, write_atomic, write_atomic_with};

use test_corpus::files::listing as names;

#[test]
fn an_interrupted_write_leaves_no_temporary_file_and_later_ones_are_refused() {
    let name = "an_interrupted_write_leaves_no_temporary_file_and_later_ones_are_refused";
    if !run_alone(module_path!(), name) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.bin");
    std::fs::write(&out, b"old").unwrap();
    let result = write_atomic_with(&out, |w| {
        w.write_all(&[1; 100_000])?;
        assert_eq!(names(dir.path()).len(), 2, "the temporary file is there while writing");
        // What the signal handler does, from another thread, while this write goes on.
        std::thread::scope(|s| s.spawn(remove_temporary_files).join().unwrap());
        assert_eq!(names(dir.path()), ["big.bin"], "the temporary file was removed");
        w.write_all(&[2; 100_000])
    });
    // The rename finds no file: the old output stays whole.
    assert!(result.is_err());
    assert_eq!(std::fs::read(&out).unwrap(), b"old");

    // Between the sweep and the exit, a new write must not make a file nobody removes.
    let err = write_atomic(&dir.path().join("late.bin"), b"late").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::Interrupted, "{err}");
    assert_eq!(names(dir.path()), ["big.bin"]);
}
