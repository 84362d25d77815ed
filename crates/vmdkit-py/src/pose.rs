//! `Pose`: a VPD pose file (MMD's one-frame pose), to and from a `Motion`. `vmdkit.capture`
//! gives one for a photo; it is `vmdkit::model::VpdPose`, with its reader and writer.

use crate::calls::{detached, library_motion, os_error, python_motion};
use crate::errors::{io_error, ReadError, VmdError};
use crate::motion::Motion;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use vmdkit::model::VpdPose;

/// A VPD pose: each listed bone's translation and rotation (in the bone's local frame, as in a
/// VMD key) and morph weights, for the model named by `model_file`.
#[pyclass(module = "vmdkit", frozen)]
pub struct Pose {
    pose: VpdPose,
}

#[pymethods]
impl Pose {
    /// Reads a VPD file from a path (str or os.PathLike) or from bytes. A malformed file
    /// raises ReadError naming the line; a file that cannot be opened raises OSError.
    #[staticmethod]
    fn read(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Pose> {
        if let Ok(bytes) = source.cast::<PyBytes>() {
            let data = bytes.as_bytes();
            let parsed = detached(py, || VpdPose::parse(data))?;
            return parsed.map(|pose| Pose { pose }).map_err(|e| ReadError::new_err(e.to_string()));
        }
        let path: PathBuf = source.extract()?;
        let read = detached(py, || VpdPose::read_file(&path))?;
        read.map(|pose| Pose { pose }).map_err(|e| {
            let label = e.path().display().to_string();
            match e {
                vmdkit::FileError::Io { error, .. } => os_error(py, &label, error),
                vmdkit::FileError::Format { error, .. } => {
                    ReadError::new_err(format!("{label}: {error}"))
                }
                other => VmdError::new_err(other.to_string()),
            }
        })
    }

    /// The pose `motion` gives at `frame` (fractions allowed), as MMD plays it: every bone and
    /// morph track sampled, in the motion's track order. A NaN or infinite frame is a
    /// ValueError, as `Model.pose` and the CLI's `--frame` refuse it.
    #[staticmethod]
    #[pyo3(signature = (motion, frame = 0.0))]
    fn from_motion(py: Python<'_>, motion: PyRef<'_, Motion>, frame: f64) -> PyResult<Pose> {
        if !frame.is_finite() {
            return Err(PyValueError::new_err(format!("frame must be a number, not {frame}")));
        }
        let motion = library_motion(&motion);
        detached(py, || Pose { pose: VpdPose::from_motion(motion, frame) })
    }

    /// The pose as a motion with one key per bone and morph, all at `frame`.
    #[pyo3(signature = (frame = 0))]
    fn to_motion(&self, py: Python<'_>, frame: u32) -> PyResult<Motion> {
        let (motion, _notes) = detached(py, || self.pose.to_motion(frame))?;
        Ok(python_motion(motion))
    }

    /// The file's bytes, as MMD writes a VPD (Shift-JIS).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.pose.to_bytes())
    }

    /// Writes the pose to `path` atomically (a temporary file and a rename).
    fn write(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let pose = &self.pose;
        detached(py, || pose.write_file(&path))?
            .map_err(|e| io_error(py, &e, &path.display().to_string()))
    }

    /// The model file the pose was saved from, e.g. `初音ミク.osm`.
    #[getter]
    fn model_file(&self) -> &str {
        &self.pose.model_file
    }

    /// The bones' names, in file order.
    #[getter]
    fn bone_names(&self) -> Vec<String> {
        self.pose.bones.iter().map(|b| b.name.clone()).collect()
    }

    /// The bones' translations, (N, 3) float32, in file order.
    #[getter]
    fn translations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let flat = self.pose.bones.iter().flat_map(|b| b.translation.to_array()).collect();
        PyArray1::from_vec(py, flat).reshape(vec![self.pose.bones.len(), 3])
    }

    /// The bones' rotations as quaternions (x, y, z, w), (N, 4) float32, in file order.
    #[getter]
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let flat = self.pose.bones.iter().flat_map(|b| b.rotation.to_array()).collect();
        PyArray1::from_vec(py, flat).reshape(vec![self.pose.bones.len(), 4])
    }

    /// The morph weights by name, in file order.
    #[getter]
    fn morphs(&self) -> Vec<(String, f32)> {
        self.pose.morphs.clone()
    }

    /// The number of bones.
    fn __len__(&self) -> usize {
        self.pose.bones.len()
    }

    fn __repr__(&self) -> String {
        format!("<Pose of {} bones for {:?}>", self.pose.bones.len(), self.pose.model_file)
    }
}

/// Adds `Pose` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Pose>()
}
