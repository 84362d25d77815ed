//! The camera, light, self-shadow and property sections as columns of NumPy arrays.
//!
//! As for the named sections (`sections.rs`): each column is built on first access in one
//! pass and kept, rows are keys in file order, values are the stored ones.

use crate::arrays::{bytes_tuple, cached, list_of, text_tuple, vec1, vec2, vec3};
use crate::data::Data;
use crate::sections::put;
use numpy::{PyArray1, PyArray2, PyArray3};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Arc;

/// Declares a frozen section class holding `data` and one cache per column, with `new`.
macro_rules! section_class {
    ($(#[$doc:meta])* $name:ident { $($col:ident: $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[pyclass(module = "vmdkit", frozen)]
        pub struct $name {
            data: Arc<Data>,
            $($col: PyOnceLock<Py<$ty>>,)*
        }

        impl $name {
            /// The columns of `data`.
            pub fn new(data: Arc<Data>) -> Self {
                $name { data, $($col: PyOnceLock::new(),)* }
            }
        }
    };
}

/// One value per key, in file order, as a read-only array.
macro_rules! column {
    ($self:ident, $py:ident, $section:ident, $col:ident, |$k:ident| $value:expr) => {{
        let keys = &$self.data.motion().$section;
        cached($py, &$self.$col, || {
            vec1($py, $py.detach(|| keys.iter().map(|$k| $value).collect()))
        })
    }};
    ($self:ident, $py:ident, $section:ident, $col:ident, $width:literal, |$k:ident| $value:expr) => {{
        let keys = &$self.data.motion().$section;
        cached($py, &$self.$col, || {
            let flat = $py.detach(|| keys.iter().flat_map(|$k| $value).collect());
            vec2($py, flat, [keys.len(), $width])
        })
    }};
}

section_class! {
    /// The camera keys as columns.
    ///
    /// `frame` (N,) uint32; `distance` (N,) float32 (normally negative: the eye is behind the
    /// target); `target` (N, 3) float32; `rotation` (N, 3) float32 Euler angles in radians as
    /// stored; `interpolation` (N, 24) uint8, the raw blocks; `curves` (N, 6, 4) uint8, the
    /// control points (x1, y1, x2, y2) of the X, Y, Z, rotation, distance and view-angle curves;
    /// `view_angle` (N,) uint32 degrees; `perspective` (N,) bool (False: orthographic).
    CameraArrays {
        frame: PyArray1<u32>,
        distance: PyArray1<f32>,
        target: PyArray2<f32>,
        rotation: PyArray2<f32>,
        interpolation: PyArray2<u8>,
        curves: PyArray3<u8>,
        view_angle: PyArray1<u32>,
        perspective: PyArray1<bool>,
    }
}

#[pymethods]
impl CameraArrays {
    /// Frame numbers (N,) uint32.
    #[getter]
    fn frame(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        column!(self, py, cameras, frame, |k| k.frame)
    }

    /// Signed distances from the target to the eye (N,) float32.
    #[getter]
    fn distance(&self, py: Python<'_>) -> Py<PyArray1<f32>> {
        column!(self, py, cameras, distance, |k| k.distance)
    }

    /// The points the camera orbits (N, 3) float32.
    #[getter]
    fn target(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        column!(self, py, cameras, target, 3, |k| k.target.to_array())
    }

    /// Euler angles (N, 3) float32, radians, as stored.
    #[getter]
    fn rotation(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        column!(self, py, cameras, rotation, 3, |k| k.rotation.to_array())
    }

    /// The raw 24-byte interpolation blocks (N, 24) uint8.
    #[getter]
    fn interpolation(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        column!(self, py, cameras, interpolation, 24, |k| k.interpolation.0)
    }

    /// Bézier control points (N, 6, 4) uint8: (x1, y1, x2, y2) of the X, Y, Z, rotation,
    /// distance and view-angle curves (stored x1, x2, y1, y2).
    #[getter]
    fn curves(&self, py: Python<'_>) -> Py<PyArray3<u8>> {
        let keys = &self.data.motion().cameras;
        cached(py, &self.curves, || {
            let flat = py.detach(|| {
                keys.iter()
                    .flat_map(|k| k.interpolation.curves())
                    .flat_map(|c| [c.x1, c.y1, c.x2, c.y2])
                    .collect()
            });
            vec3(py, flat, [keys.len(), 6, 4])
        })
    }

    /// Vertical fields of view (N,) uint32, whole degrees.
    #[getter]
    fn view_angle(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        column!(self, py, cameras, view_angle, |k| k.view_angle)
    }

    /// Whether each key projects in perspective (N,) bool (stored byte 0); False is
    /// orthographic.
    #[getter]
    fn perspective(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        column!(self, py, cameras, perspective, |k| k.is_perspective())
    }

    /// The columns `Motion.from_arrays(camera=...)` takes, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        put(&d, "frame", self.frame(py))?;
        put(&d, "distance", self.distance(py))?;
        put(&d, "target", self.target(py))?;
        put(&d, "rotation", self.rotation(py))?;
        put(&d, "interpolation", self.interpolation(py))?;
        put(&d, "view_angle", self.view_angle(py))?;
        put(&d, "perspective", self.perspective(py))?;
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.data.motion().cameras.len()
    }

    fn __repr__(&self) -> String {
        format!("<vmdkit.CameraArrays: {} keys>", self.__len__())
    }
}

section_class! {
    /// The light keys as columns: `frame` (N,) uint32, `color` (N, 3) float32 (the panel's
    /// 0–255 value / 256), `direction` (N, 3) float32.
    LightArrays {
        frame: PyArray1<u32>,
        color: PyArray2<f32>,
        direction: PyArray2<f32>,
    }
}

#[pymethods]
impl LightArrays {
    /// Frame numbers (N,) uint32.
    #[getter]
    fn frame(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        column!(self, py, lights, frame, |k| k.frame)
    }

    /// Colours (N, 3) float32, RGB as the panel value / 256.
    #[getter]
    fn color(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        column!(self, py, lights, color, 3, |k| k.color.to_array())
    }

    /// Directions the light travels (N, 3) float32.
    #[getter]
    fn direction(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        column!(self, py, lights, direction, 3, |k| k.direction.to_array())
    }

    /// The columns `Motion.from_arrays(light=...)` takes, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        put(&d, "frame", self.frame(py))?;
        put(&d, "color", self.color(py))?;
        put(&d, "direction", self.direction(py))?;
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.data.motion().lights.len()
    }

    fn __repr__(&self) -> String {
        format!("<vmdkit.LightArrays: {} keys>", self.__len__())
    }
}

section_class! {
    /// The self-shadow keys as columns: `frame` (N,) uint32, `mode` (N,) uint8 (0 off, 1 or
    /// 2), `distance` (N,) float32 as stored ((10000 − range) / 100000).
    ShadowArrays {
        frame: PyArray1<u32>,
        mode: PyArray1<u8>,
        distance: PyArray1<f32>,
    }
}

#[pymethods]
impl ShadowArrays {
    /// Frame numbers (N,) uint32.
    #[getter]
    fn frame(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        column!(self, py, shadows, frame, |k| k.frame)
    }

    /// Shadow modes (N,) uint8: 0 off, 1 mode 1, 2 mode 2.
    #[getter]
    fn mode(&self, py: Python<'_>) -> Py<PyArray1<u8>> {
        column!(self, py, shadows, mode, |k| k.mode)
    }

    /// Shadow distances (N,) float32 as stored.
    #[getter]
    fn distance(&self, py: Python<'_>) -> Py<PyArray1<f32>> {
        column!(self, py, shadows, distance, |k| k.distance)
    }

    /// The columns `Motion.from_arrays(self_shadow=...)` takes, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        put(&d, "frame", self.frame(py))?;
        put(&d, "mode", self.mode(py))?;
        put(&d, "distance", self.distance(py))?;
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.data.motion().shadows.len()
    }

    fn __repr__(&self) -> String {
        format!("<vmdkit.ShadowArrays: {} keys>", self.__len__())
    }
}

section_class! {
    /// The property keys (visibility and IK on/off) as columns.
    ///
    /// `frame` (N,) uint32; `visible` (N,) bool; `ik_names` (K names, the distinct IK bone names
    /// over all keys in order of first appearance); `ik_enabled` (N, K) bool, whether key i
    /// turns IK bone k on; `ik_present` (N, K) bool, whether key i lists IK bone k at all (MMD
    /// lists every IK bone in every key, so this is all True in files it writes; where it is
    /// False, `ik_enabled` is False). The order of IK entries within a key is `ik_names` order
    /// in every file MMD writes; a key listing them in another order, or one name twice, reads
    /// as its last entry per name.
    PropertyArrays {
        frame: PyArray1<u32>,
        visible: PyArray1<bool>,
        ik_enabled: PyArray2<bool>,
        ik_present: PyArray2<bool>,
        ik_text: PyTuple,
        ik_raw: PyTuple,
    }
}

impl PropertyArrays {
    /// The (N, K) matrix of `value` per IK entry (false where a key has no entry for a name).
    fn ik_matrix(
        &self,
        py: Python<'_>,
        cell: &PyOnceLock<Py<PyArray2<bool>>>,
        value: fn(&vmdkit::IkState) -> bool,
    ) -> Py<PyArray2<bool>> {
        let data = &self.data;
        cached(py, cell, || {
            let k = py.detach(|| data.ik_names().fields.len());
            let flat = py.detach(|| {
                let index = &data.ik_names().index;
                let mut flat = vec![false; data.motion().properties.len() * k];
                let mut entry = 0;
                for (row, key) in data.motion().properties.iter().enumerate() {
                    for state in &key.ik {
                        flat[row * k + index[entry] as usize] = value(state);
                        entry += 1;
                    }
                }
                flat
            });
            vec2(py, flat, [data.motion().properties.len(), k])
        })
    }
}

#[pymethods]
impl PropertyArrays {
    /// Frame numbers (N,) uint32.
    #[getter]
    fn frame(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        column!(self, py, properties, frame, |k| k.frame)
    }

    /// Whether the model is shown (N,) bool (any non-zero stored byte is shown).
    #[getter]
    fn visible(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        column!(self, py, properties, visible, |k| k.is_visible())
    }

    /// The distinct IK bone names, decoded (a new list on each access).
    #[getter]
    fn ik_names<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        let data = &self.data;
        let tuple = cached(py, &self.ik_text, || {
            text_tuple(py, py.detach(|| data.ik_names().texts(data.encoding())))
        });
        list_of(py, &tuple)
    }

    /// The distinct IK bone names as bytes up to the NUL, in `ik_names` order.
    #[getter]
    fn ik_names_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        let data = &self.data;
        let tuple = cached(py, &self.ik_raw, || {
            let table = py.detach(|| data.ik_names());
            bytes_tuple(py, table.raw())
        });
        list_of(py, &tuple)
    }

    /// IK on/off (N, K) bool per key and `ik_names` entry.
    #[getter]
    fn ik_enabled(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.ik_matrix(py, &self.ik_enabled, vmdkit::IkState::is_enabled)
    }

    /// Whether each key lists each IK bone (N, K) bool.
    #[getter]
    fn ik_present(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.ik_matrix(py, &self.ik_present, |_| true)
    }

    /// The columns `Motion.from_arrays(property=...)` takes, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        put(&d, "frame", self.frame(py))?;
        put(&d, "visible", self.visible(py))?;
        put(&d, "ik_names", self.ik_names_raw(py))?;
        put(&d, "ik_enabled", self.ik_enabled(py))?;
        put(&d, "ik_present", self.ik_present(py))?;
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.data.motion().properties.len()
    }

    fn __repr__(&self) -> String {
        let k = self.data.ik_names().fields.len();
        format!("<vmdkit.PropertyArrays: {} keys, {k} IK bones>", self.__len__())
    }
}
