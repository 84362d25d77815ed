//! How the model, pose and retargeting functions call into the library: without the GIL, and
//! with panics caught, so that a bug in vmdkit raises `VmdError` instead of pyo3's
//! `PanicException` (a `BaseException`, which `except Exception` does not catch) or aborting.
//!
//! Also the one place that knows how a Python `Motion` holds its library motion, so that a change
//! there is made here only.

use crate::errors::VmdError;
use crate::motion::Motion;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f` with the GIL released, turning a panic into a `VmdError`.
pub fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(f))).map_err(|payload| {
        let what = (payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        VmdError::new_err(format!("internal error in vmdkit (please report it): {what}"))
    })
}

/// An `OSError` for a file that could not be read, with `errno`, `strerror` and `filename` set
/// as Python's own `open` sets them, so that it is a `FileNotFoundError`, `PermissionError`, ...
pub fn os_error(py: Python<'_>, path: &str, error: std::io::Error) -> PyErr {
    let Some(code) = error.raw_os_error() else { return PyErr::from(error) };
    let strerror = (py.import("os").and_then(|os| os.call_method1("strerror", (code,))))
        .and_then(|s| s.extract::<String>())
        .unwrap_or_else(|_| error.to_string());
    PyOSError::new_err((code, strerror, path.to_string()))
}

/// The library motion a Python `Motion` holds.
pub fn library_motion(motion: &Motion) -> &vmdkit::Motion {
    &motion.inner
}

/// A Python `Motion` holding `motion`.
pub fn python_motion(motion: vmdkit::Motion) -> Motion {
    Motion { inner: motion }
}
