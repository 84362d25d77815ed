//! `vmdkit.read` and `vmdkit.write`: motions from paths and bytes, and to files atomically.

use crate::data::{Bytes, Data};
use crate::errors::{file_error, guard, io_error, read_error};
use crate::motion::Motion;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes};
use std::path::{Path, PathBuf};
use vmdkit::ReadOptions;

/// Reads a motion from a path (str or os.PathLike) or from bytes (or a bytearray). Strictly
/// by default: a damaged file raises ReadError with its section, record and byte offset. With
/// `lenient=True` every complete record is kept and `motion.repairs` says what was repaired.
/// A file that cannot be opened raises OSError.
#[pyfunction]
#[pyo3(signature = (source, *, lenient = false))]
fn read(py: Python<'_>, source: &Bound<'_, PyAny>, lenient: bool) -> PyResult<Motion> {
    let options = if lenient { ReadOptions::LENIENT } else { ReadOptions::STRICT };
    // bytes are kept as they are; a bytearray, which can change, is copied.
    if source.is_instance_of::<PyBytes>() || source.is_instance_of::<PyByteArray>() {
        let bytes = Bytes::Python(source.extract::<PyBackedBytes>()?);
        let data = py
            .detach(|| guard(|| Data::from_bytes(bytes, options)))?
            .map_err(|e| read_error(py, None, &e))?;
        return Ok(Motion::from_data(data));
    }
    let path: PathBuf = source.extract()?;
    let data = py.detach(|| guard(|| read_path(&path, options)))?.map_err(|e| file_error(py, e))?;
    Ok(Motion::from_data(data))
}

/// Files below this are read whole; larger ones are memory-mapped, so that reading them holds
/// no copy. Either way they are decoded on demand (see `data.rs`).
const READ_WHOLE_BELOW: u64 = 64 << 20;

/// Reads the file at `path`.
fn read_path(path: &Path, options: ReadOptions) -> Result<Data, vmdkit::ReadError> {
    let io = |e| vmdkit::ReadError::io(path, e);
    if std::fs::metadata(path).map_err(io)?.len() >= READ_WHOLE_BELOW {
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: as in the library's own reader, the file is taken not to change while it is
        // mapped; a motion file being rewritten in place under a reader is outside what any
        // reader can make safe.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        return Data::from_bytes(Bytes::Mapped(map), options).map_err(|e| e.with_path(path));
    }
    let bytes = Bytes::Owned(std::fs::read(path).map_err(io)?);
    Data::from_bytes(bytes, options).map_err(|e| e.with_path(path))
}

/// Writes `motion` to `path` atomically: through a temporary file in the same folder and a
/// rename, so a failure never leaves a partial file (devices and FIFOs are written in place).
#[pyfunction]
fn write(py: Python<'_>, motion: PyRef<'_, Motion>, path: PathBuf) -> PyResult<()> {
    let data = &motion.data;
    py.detach(|| guard(|| vmdkit::io::write_atomic(&path, &data.motion().to_bytes())))?
        .map_err(|e| io_error(py, &e, &path.display().to_string()))
}

/// Adds `read` and `write` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(write, m)?)?;
    Ok(())
}
