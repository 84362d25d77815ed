//! Read-only NumPy arrays made from Rust vectors without copying, and the per-column cache the
//! section objects keep them in.
//!
//! The arrays are read-only because they are cached views of an immutable motion: writing to
//! one would make it disagree with the motion it came from. They do not own their memory (a
//! Rust vector does), so NumPy refuses to make them writeable again.

use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{Element, PyArray, PyArrayMethods};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

/// An empty vector with room for the product of `dims` items, or `MemoryError` naming `what`.
///
/// Every buffer whose size a caller chooses (frame arrays, key columns, keypoints) is made
/// here: Rust's ordinary allocation aborts the interpreter when the memory is not there, and a
/// zero-stride NumPy array (`np.broadcast_to`) asks for any size at no cost to the caller.
pub fn try_vec<T>(dims: &[usize], what: &str) -> PyResult<Vec<T>> {
    let len = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    let mut out = Vec::new();
    match len {
        Some(len) if out.try_reserve_exact(len).is_ok() => Ok(out),
        _ => Err(PyMemoryError::new_err(format!(
            "no memory for {what}: {} values of {} bytes",
            dims.iter().map(usize::to_string).collect::<Vec<_>>().join(" × "),
            std::mem::size_of::<T>()
        ))),
    }
}

/// Frame times copied from a caller's array into a vector made by [`try_vec`], each finite:
/// `refused` says what must hold (e.g. "frames must be finite numbers"), and the first value
/// that does not is named after it.
pub fn finite_times<'a>(
    values: impl ExactSizeIterator<Item = &'a f64>,
    refused: &str,
) -> PyResult<Vec<f64>> {
    let mut times = try_vec(&[values.len()], "the frame times")?;
    for &t in values {
        if !t.is_finite() {
            return Err(pyo3::exceptions::PyValueError::new_err(format!("{refused}, not {t}")));
        }
        times.push(t);
    }
    Ok(times)
}

/// The `len` items of `items` in a vector made by [`try_vec`].
pub fn try_collect<T>(
    len: usize,
    items: impl IntoIterator<Item = T>,
    what: &str,
) -> PyResult<Vec<T>> {
    let mut out = try_vec(&[len], what)?;
    out.extend(items);
    Ok(out)
}

/// `array` with its WRITEABLE flag cleared.
fn frozen<T: Element, D: numpy::ndarray::Dimension>(
    array: Bound<'_, PyArray<T, D>>,
) -> Py<PyArray<T, D>> {
    drop(array.readwrite().make_nonwriteable());
    array.unbind()
}

/// A read-only (N,) array over `values`.
pub fn vec1<T: Element>(py: Python<'_>, values: Vec<T>) -> Py<PyArray<T, numpy::Ix1>> {
    frozen(PyArray::from_owned_array(py, Array1::from_vec(values)))
}

/// A read-only array of `shape` over `values` (row-major, `shape`'s product long).
pub fn vec2<T: Element>(
    py: Python<'_>,
    values: Vec<T>,
    shape: [usize; 2],
) -> Py<PyArray<T, numpy::Ix2>> {
    let array = Array2::from_shape_vec(shape, values).expect("values fill the shape");
    frozen(PyArray::from_owned_array(py, array))
}

/// A read-only array of `shape` over `values` (row-major, `shape`'s product long).
pub fn vec3<T: Element>(
    py: Python<'_>,
    values: Vec<T>,
    shape: [usize; 3],
) -> Py<PyArray<T, numpy::Ix3>> {
    let array = Array3::from_shape_vec(shape, values).expect("values fill the shape");
    frozen(PyArray::from_owned_array(py, array))
}

/// The value in `cell`, made by `make` on first use.
pub fn cached<T>(py: Python<'_>, cell: &PyOnceLock<Py<T>>, make: impl FnOnce() -> Py<T>) -> Py<T> {
    cell.get_or_init(py, make).clone_ref(py)
}

/// Names as a tuple of str (kept) from which each access makes a new list, so that changing
/// the list a caller got changes nothing else.
pub fn text_tuple(py: Python<'_>, texts: Vec<String>) -> Py<PyTuple> {
    let items = texts.iter().map(|t| PyString::new(py, t));
    PyTuple::new(py, items).expect("a tuple of strings").unbind()
}

/// Raw names as a tuple of bytes.
pub fn bytes_tuple<'a>(
    py: Python<'_>,
    raw: impl ExactSizeIterator<Item = &'a [u8]>,
) -> Py<PyTuple> {
    let items = raw.map(|b| PyBytes::new(py, b));
    PyTuple::new(py, items).expect("a tuple of bytes").unbind()
}

/// A new list with the items of `tuple`.
pub fn list_of<'py>(py: Python<'py>, tuple: &Py<PyTuple>) -> Bound<'py, PyList> {
    PyList::new(py, tuple.bind(py).iter()).expect("a list")
}
