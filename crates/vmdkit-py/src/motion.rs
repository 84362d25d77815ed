//! `Motion`: a VMD motion read from a path or bytes, written back byte for byte.

use crate::errors::read_error;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use vmdkit::ReadOptions;

/// A VMD motion.
#[pyclass(module = "vmdkit", frozen)]
pub struct Motion {
    pub inner: vmdkit::Motion,
}

#[pymethods]
impl Motion {
    /// The motion as VMD bytes: a file read strictly comes back byte for byte.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    fn __repr__(&self) -> String {
        let m = &self.inner;
        format!(
            "<vmdkit.Motion {:?}: {} bone, {} morph, {} camera keys>",
            m.header.model_name.to_string_lossy(),
            m.bones.len(),
            m.morphs.len(),
            m.cameras.len()
        )
    }
}

/// Reads a motion from a path (str or os.PathLike) or from bytes.
#[pyfunction]
#[pyo3(signature = (source, *, lenient = false))]
fn read(py: Python<'_>, source: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Motion> {
    let options = if lenient { ReadOptions::LENIENT } else { ReadOptions::STRICT };
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let data = bytes.as_bytes();
        let parsed = py
            .detach(|| vmdkit::Motion::parse_with(data, options))
            .map_err(|e| read_error(py, None, &e))?;
        return Ok(Motion { inner: parsed.motion });
    }
    let path: PathBuf = source.extract()?;
    let label = path.display().to_string();
    let parsed =
        py.detach(|| vmdkit::Motion::read_file_with(&path, options)).map_err(|e| match e {
            vmdkit::FileError::Io { error, .. } => PyErr::from(error),
            vmdkit::FileError::Format { error, .. } => read_error(py, Some(&label), &error),
            other => crate::errors::VmdError::new_err(other.to_string()),
        })?;
    Ok(Motion { inner: parsed.motion })
}

/// Adds `Motion` and `read` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Motion>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    Ok(())
}
