//! The exception hierarchy: `VmdError` for every error vmdkit raises, `ReadError` for damaged
//! or foreign files (with the section, record and byte offset as attributes).

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(vmdkit, VmdError, PyException, "Every error vmdkit raises.");
create_exception!(
    vmdkit,
    ReadError,
    VmdError,
    "A file that cannot be read: `path`, `section`, `record` and `offset` say where."
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

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VmdError", m.py().get_type::<VmdError>())?;
    m.add("ReadError", m.py().get_type::<ReadError>())?;
    Ok(())
}
