//! The `vmdkit._vmdkit` extension module: vmdkit's library for Python, with NumPy arrays.
//!
//! pyo3 lives here and never in the core crate. Each file registers one part of the API; the
//! Python package (`python/vmdkit`) re-exports them and adds the pure-Python helpers.

#![warn(missing_docs)]

use pyo3::prelude::*;

mod arrays;
mod build;
mod calls;
mod data;
mod edits;
mod errors;
mod io;
mod model;
mod motion;
mod names;
mod physics;
mod pose;
mod reports;
mod retarget;
mod sample;
mod sections;
mod sections_unnamed;

/// The extension module.
#[pymodule]
fn _vmdkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    motion::register(m)?;
    io::register(m)?;
    model::register(m)?;
    retarget::register(m)?;
    pose::register(m)?;
    physics::register(m)?;
    Ok(())
}
