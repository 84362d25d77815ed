//! How the model, pose and retargeting functions call into the library: without the GIL, and
//! with panics caught, so that a bug in vmdkit raises `VmdError` instead of pyo3's
//! `PanicException` (a `BaseException`, which `except Exception` does not catch) or aborting.
//!
//! Also the one place that knows how a Python `Motion` holds its library motion, so that a change
//! there is made here only.

use crate::errors::{guard, io_error};
use crate::motion::Motion;
use pyo3::prelude::*;

/// Runs `f` with the GIL released, turning a panic into a `VmdError` ([`guard`]).
pub fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| guard(f))
}

/// An `OSError` for a file that could not be read (see [`io_error`]).
pub fn os_error(py: Python<'_>, path: &str, error: std::io::Error) -> PyErr {
    io_error(py, &error, path)
}

/// The library motion a Python `Motion` holds.
pub fn library_motion(motion: &Motion) -> &vmdkit::Motion {
    motion.data.motion()
}

/// A Python `Motion` holding `motion`.
pub fn python_motion(motion: vmdkit::Motion) -> Motion {
    Motion::new(motion, Vec::new(), None)
}
