//! The exception hierarchy: `VmdError` for every error vmdkit raises, `ReadError` for damaged
//! or foreign files (with the section, record and byte offset as attributes), `EditError` for
//! edits that cannot be made. Files that cannot be opened raise the usual `OSError`, and bad
//! arguments `ValueError` or `TypeError`, as Python code expects.
//!
//! A panic in the library must never reach Python as pyo3's `PanicException`, which derives
//! from `BaseException` and so escapes `except Exception`: [`guard`] turns it into a
//! `VmdError`.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
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

/// The Python exception for a failed file read: `OSError` (and its subclasses such as
/// `FileNotFoundError`) when the file could not be read, `ReadError` when its bytes are bad.
pub fn file_error(py: Python<'_>, err: vmdkit::ReadError) -> PyErr {
    let label = err.path().display().to_string();
    match err {
        vmdkit::FileError::Io { error, .. } => {
            let exc = PyErr::from(error);
            let _ = exc.value(py).setattr("filename", &label);
            exc
        }
        vmdkit::FileError::Format { error, .. } => read_error(py, Some(&label), &error),
        other => VmdError::new_err(other.to_string()),
    }
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

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VmdError", m.py().get_type::<VmdError>())?;
    m.add("ReadError", m.py().get_type::<ReadError>())?;
    m.add("EditError", m.py().get_type::<EditError>())?;
    Ok(())
}
