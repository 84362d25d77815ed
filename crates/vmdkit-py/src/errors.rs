//! The exception hierarchy: `VmdError` for every error vmdkit raises, `ReadError` for damaged
//! or foreign files (with the section, record and byte offset as attributes), `EditError` for
//! edits that cannot be made. Files that cannot be opened raise the usual `OSError`, and bad
//! arguments `ValueError` or `TypeError`, as Python code expects.
//!
//! A panic in the library must never reach Python as pyo3's `PanicException`, which derives
//! from `BaseException` and so escapes `except Exception`: [`guard`] turns it into a
//! `VmdError`.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

create_exception!(vmdkit, VmdError, PyException, "Every error vmdkit raises.");
create_exception!(
    vmdkit,
    ReadError,
    VmdError,
    "A file that cannot be read: `path`, `section`, `record` and `offset` say where."
);
create_exception!(
    vmdkit,
    EditError,
    VmdError,
    "An edit that cannot be made (a shift before frame 0, names that would collide, ...)."
);

/// A `ReadError` for a library error, with its location as attributes.
pub fn read_error(py: Python<'_>, path: Option<&str>, err: &vmdkit::Error) -> PyErr {
    let message = match path {
        Some(p) => format!("{p}: {err}"),
        None => err.to_string(),
    };
    let exc = ReadError::new_err(message);
    let value = exc.value(py);
    let _ = value.setattr("path", path);
    let _ = value.setattr("section", err.section.map(|s| s.name()));
    let _ = value.setattr("record", err.record);
    let _ = value.setattr("offset", err.offset);
    exc
}

/// The `OSError` for `err` on `path`, of the subclass its errno gives (`FileNotFoundError`,
/// `IsADirectoryError`, ...), as Python's own file functions raise it. An error the OS did not
/// number (the library's checks) gets the errno of its kind where there is one.
pub fn io_error(py: Python<'_>, err: &std::io::Error, path: &str) -> PyErr {
    use std::io::ErrorKind as K;
    let named = match err.kind() {
        K::NotFound => Some("ENOENT"),
        K::PermissionDenied => Some("EACCES"),
        K::AlreadyExists => Some("EEXIST"),
        K::IsADirectory => Some("EISDIR"),
        K::NotADirectory => Some("ENOTDIR"),
        _ => None,
    };
    let errno = err.raw_os_error().or_else(|| {
        let module = py.import("errno").ok()?;
        module.getattr(named?).ok()?.extract::<i32>().ok()
    });
    // Rust's message ends in "(os error N)", which the errno attribute already says.
    let text = err.to_string();
    let text = match text.find(" (os error") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    };
    match errno {
        Some(errno) => PyOSError::new_err((errno, text, path.to_string())),
        None => PyOSError::new_err(format!("{path}: {text}")),
    }
}

/// The Python exception for a failed file read: `OSError` (and its subclasses such as
/// `FileNotFoundError`) when the file could not be read, `ReadError` when its bytes are bad.
pub fn file_error(py: Python<'_>, err: vmdkit::ReadError) -> PyErr {
    let label = err.path().display().to_string();
    match err {
        vmdkit::FileError::Io { error, .. } => io_error(py, &error, &label),
        vmdkit::FileError::Format { error, .. } => read_error(py, Some(&label), &error),
        other => VmdError::new_err(other.to_string()),
    }
}

/// The library's refusal of a dense output, with its usual cause where a Python user sees it
/// (Python has no limit to raise).
pub fn too_large_message(err: &vmdkit::limit::OutputTooLarge) -> String {
    format!(
        "{err}; frame numbers far beyond the rest (`Motion.warnings()` lists them) are the \
         usual cause"
    )
}

/// An `EditError` for an edit the library refused.
pub fn edit_error(err: vmdkit::edit::EditError) -> PyErr {
    EditError::new_err(err.to_string())
}

/// Runs `f`, turning a panic into a `VmdError` that names it as a bug. Used around every call
/// into the library, with or without the GIL held.
pub fn guard<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        VmdError::new_err(format!("internal error in vmdkit (please report it): {what}"))
    })
}

/// Panics inside [`guard`] with `message`: the tests' way to see a panic arrive as
/// VmdError, since no input of the library is known to make it panic.
#[pyfunction]
fn _panic(message: &str) -> PyResult<()> {
    guard(|| panic!("{message}"))
}

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VmdError", m.py().get_type::<VmdError>())?;
    m.add("ReadError", m.py().get_type::<ReadError>())?;
    m.add("EditError", m.py().get_type::<EditError>())?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    Ok(())
}

/// A bake's error as Python's.
pub fn bake_error(err: vmdkit::bake::BakeError) -> PyErr {
    match err {
        vmdkit::bake::BakeError::TooLarge(e) => VmdError::new_err(too_large_message(&e)),
        other => VmdError::new_err(other.to_string()),
    }
}
