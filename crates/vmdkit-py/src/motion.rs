//! `Motion`: a VMD motion read from a path or bytes (`io.rs`) or built from arrays, its
//! sections as NumPy columns, sampling, edits, and its bytes.
//!
//! The methods here only take and check arguments; the work is in `sections*.rs`,
//! `sample.rs`, `edits.rs` and `build.rs`, each call into the library guarded so that a panic
//! becomes a `VmdError`.

use crate::build::{build, encoding_named};
use crate::data::Data;
use crate::edits::{self, tolerance, Edited};
use crate::errors::guard;
use crate::reports::{LintWarning, Repair};
use crate::sample::{frame_times, sample_bones, sample_camera, sample_morphs, BoneSamples};
use crate::sections::{BoneArrays, MorphArrays};
use crate::sections_unnamed::{CameraArrays, LightArrays, PropertyArrays, ShadowArrays};
use numpy::{AllowTypeChange, PyArray2, PyArrayLike1};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple, PyType};
use std::sync::Arc;

/// A VMD motion: immutable, safe to share between threads.
///
/// Read one with `vmdkit.read`, build one with `Motion.from_arrays`. The sections are columns
/// of read-only NumPy arrays (`bones`, `morphs`, `camera`, `light`, `self_shadow`,
/// `property`), built on first access and kept. Edits return a new Motion whose `report`
/// says what the edit did.
#[pyclass(module = "vmdkit", frozen)]
pub struct Motion {
    pub data: Arc<Data>,
    report: Option<Py<PyDict>>,
    bones: PyOnceLock<Py<BoneArrays>>,
    morphs: PyOnceLock<Py<MorphArrays>>,
    camera: PyOnceLock<Py<CameraArrays>>,
    light: PyOnceLock<Py<LightArrays>>,
    self_shadow: PyOnceLock<Py<ShadowArrays>>,
    property: PyOnceLock<Py<PropertyArrays>>,
}

impl Motion {
    /// A Python motion over `motion`, read with `repairs`, made by an edit that reported
    /// `report`.
    pub fn new(
        motion: vmdkit::Motion,
        repairs: Vec<vmdkit::Repair>,
        report: Option<Bound<'_, PyDict>>,
    ) -> Self {
        Motion {
            report: report.map(Bound::unbind),
            ..Motion::from_data(Data::new(motion, repairs))
        }
    }

    /// A Python motion over `data`, as read.
    pub fn from_data(data: Data) -> Self {
        Motion {
            data: Arc::new(data),
            report: None,
            bones: PyOnceLock::new(),
            morphs: PyOnceLock::new(),
            camera: PyOnceLock::new(),
            light: PyOnceLock::new(),
            self_shadow: PyOnceLock::new(),
            property: PyOnceLock::new(),
        }
    }

    fn edited(edited: Edited<'_>) -> Motion {
        Motion::new(edited.0, Vec::new(), Some(edited.1))
    }

    /// The section object in `cell`, made on first use.
    fn section<T: pyo3::PyClass + Sync>(
        &self,
        py: Python<'_>,
        cell: &PyOnceLock<Py<T>>,
        make: fn(Arc<Data>) -> T,
    ) -> PyResult<Py<T>>
    where
        pyo3::PyClassInitializer<T>: From<T>,
    {
        let made = cell.get_or_try_init(py, || Py::new(py, make(self.data.clone())))?;
        Ok(made.clone_ref(py))
    }
}

#[pymethods]
impl Motion {
    /// The motion as VMD bytes: a file read strictly comes back byte for byte.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| guard(|| self.data.motion().to_bytes()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The model name, decoded with the motion's encoding (`カメラ・照明` for a camera/light
    /// motion).
    #[getter]
    fn model_name(&self) -> String {
        self.data.header().model_name.decode(self.data.encoding()).text.into_owned()
    }

    /// The model name's bytes up to the NUL.
    #[getter]
    fn model_name_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.data.header().model_name.bytes())
    }

    /// The encoding of the names: `shift_jis`, `gbk` or `utf-8`, detected over every name.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.data.encoding().label()
    }

    /// The format version the signature announces: 1 (10-byte model names) or 2.
    #[getter]
    fn version(&self) -> u8 {
        match self.data.header().version() {
            vmdkit::Version::V1 => 1,
            _ => 2,
        }
    }

    /// Whether this is a camera/light motion (model name `カメラ・照明`).
    #[getter]
    fn is_camera_motion(&self) -> bool {
        self.data.header().is_camera_motion()
    }

    /// The lowest and highest key frame over every section, or None without keys.
    #[getter]
    fn frame_range(&self) -> Option<(u32, u32)> {
        self.data.motion().frame_range()
    }

    /// What lenient reading repaired to read this motion (a new list of `Repair`; empty for a
    /// sound file or a motion not read from a file).
    #[getter]
    fn repairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self.data.repairs.iter().map(Repair::new);
        PyList::new(py, items.map(|r| Py::new(py, r)).collect::<PyResult<Vec<_>>>()?)
    }

    /// The report of the edit that made this motion, as a dict; None for a motion read or
    /// built from arrays.
    #[getter]
    fn report(&self, py: Python<'_>) -> Option<Py<PyDict>> {
        self.report.as_ref().map(|r| r.clone_ref(py))
    }

    /// The bone keys as columns (`BoneArrays`).
    #[getter]
    fn bones(&self, py: Python<'_>) -> PyResult<Py<BoneArrays>> {
        self.section(py, &self.bones, BoneArrays::new)
    }

    /// The morph keys as columns (`MorphArrays`).
    #[getter]
    fn morphs(&self, py: Python<'_>) -> PyResult<Py<MorphArrays>> {
        self.section(py, &self.morphs, MorphArrays::new)
    }

    /// The camera keys as columns (`CameraArrays`).
    #[getter]
    fn camera(&self, py: Python<'_>) -> PyResult<Py<CameraArrays>> {
        self.section(py, &self.camera, CameraArrays::new)
    }

    /// The light keys as columns (`LightArrays`).
    #[getter]
    fn light(&self, py: Python<'_>) -> PyResult<Py<LightArrays>> {
        self.section(py, &self.light, LightArrays::new)
    }

    /// The self-shadow keys as columns (`ShadowArrays`).
    #[getter]
    fn self_shadow(&self, py: Python<'_>) -> PyResult<Py<ShadowArrays>> {
        self.section(py, &self.self_shadow, ShadowArrays::new)
    }

    /// The property keys (visibility, IK on/off) as columns (`PropertyArrays`).
    #[getter]
    fn property(&self, py: Python<'_>) -> PyResult<Py<PropertyArrays>> {
        self.section(py, &self.property, PropertyArrays::new)
    }

    /// The bone names in first-appearance order: what `bones.name_index` indexes, and the
    /// order of `sample`'s bone axis.
    #[getter]
    fn bone_names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.bones(py)?.bind(py).getattr("names")
    }

    /// The bone names as bytes up to the NUL, in `bone_names` order.
    #[getter]
    fn bone_names_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.bones(py)?.bind(py).getattr("names_raw")
    }

    /// The morph names in first-appearance order (`morphs.name_index`, `sample_morphs`).
    #[getter]
    fn morph_names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.morphs(py)?.bind(py).getattr("names")
    }

    /// The morph names as bytes up to the NUL, in `morph_names` order.
    #[getter]
    fn morph_names_raw<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.morphs(py)?.bind(py).getattr("names_raw")
    }

    /// Warnings about what reads correctly but is worth knowing (duplicate or unsorted keys,
    /// names that do not decode, odd quaternions, trailing bytes, repairs ...), one per kind
    /// and section: a list of `LintWarning`.
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let data = &self.data;
        let found = py.detach(|| guard(|| vmdkit::lint::lint(data.motion(), &data.repairs)))?;
        let items = found.iter().map(|w| Py::new(py, LintWarning::new(w)));
        PyList::new(py, items.collect::<PyResult<Vec<_>>>()?)
    }

    /// MMD's bone panel angles (X, Y, Z) in degrees per bone key (N, 3) float64, in
    /// `bones` order (see `vmdkit::angles`: X in [-90, 90], Y and Z in (-180, 180]).
    fn euler<'py>(&self, py: Python<'py>) -> PyResult<Py<PyArray2<f64>>> {
        let bones = self.data.bones();
        let flat = py.detach(|| {
            guard(|| {
                let mut flat = Vec::with_capacity(bones.len() * 3);
                bones.for_each(|k| {
                    let q = glam::Quat::from_array(k.rotation).as_dquat();
                    flat.extend(vmdkit::angles::dquat_to_mmd_euler_deg(q).to_array());
                });
                flat
            })
        })?;
        Ok(crate::arrays::vec2(py, flat, [bones.len(), 3]))
    }

    /// Bone values at `frames` (array-like of float frame times at 30 fps), as MMD plays them:
    /// `(positions (F, B, 3), rotations (F, B, 4))` float32, rotations normalised (x, y, z, w).
    /// The bone axis is `bones` (names as str, or raw bytes) in that order, or every bone track
    /// in `bone_names` order. A name the motion has no track of raises KeyError.
    #[pyo3(signature = (frames, bones = None))]
    fn sample<'py>(
        &self,
        py: Python<'py>,
        frames: PyArrayLike1<'py, f64, AllowTypeChange>,
        bones: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<BoneSamples> {
        sample_bones(py, &self.data, frame_times(frames)?, bones)
    }

    /// Morph weights at `frames`: (F, M) float32, the morph axis `morphs` in that order or
    /// every morph track in `morph_names` order.
    #[pyo3(signature = (frames, morphs = None))]
    fn sample_morphs<'py>(
        &self,
        py: Python<'py>,
        frames: PyArrayLike1<'py, f64, AllowTypeChange>,
        morphs: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Py<PyArray2<f32>>> {
        sample_morphs(py, &self.data, frame_times(frames)?, morphs)
    }

    /// The camera at `frames` as a dict of arrays: `target`, `eye`, `forward`, `up` (F, 3),
    /// `rotation` (F, 3) radians, `distance` and `fov` (F,) float32, `perspective` (F,) bool.
    /// None when the motion has no camera keys.
    fn sample_camera<'py>(
        &self,
        py: Python<'py>,
        frames: PyArrayLike1<'py, f64, AllowTypeChange>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        sample_camera(py, &self.data, frame_times(frames)?)
    }

    /// Left and right swapped: names (右 ⇄ 左), X translations, rotations, camera and light.
    /// The report lists the names swapped, without a side, and not swapped (and why).
    fn mirror(&self, py: Python<'_>) -> PyResult<Motion> {
        Ok(Motion::edited(edits::mirror(py, &self.data)?))
    }

    /// Every key moved by `frames` (negative: earlier). EditError if a key would fall before
    /// frame 0; trim first.
    fn shift(&self, py: Python<'_>, frames: i64) -> PyResult<Motion> {
        Ok(Motion::edited(edits::shift(py, &self.data, frames)?))
    }

    /// Only frames `start` to `end` (inclusive), with keys inserted at the cuts so the motion
    /// plays the same inside the range. Frames keep their numbers (shift to start at 0).
    fn trim(&self, py: Python<'_>, start: u32, end: u32) -> PyResult<Motion> {
        Ok(Motion::edited(edits::trim(py, &self.data, start, end)?))
    }

    /// Time scaled by `factor` (2: twice as long, half as fast), curves kept where keys land
    /// on whole frames and refitted within the tolerance elsewhere.
    #[pyo3(signature = (factor, *, position = 0.05, angle_degrees = 0.5, morph = 0.01))]
    fn retime(
        &self,
        py: Python<'_>,
        factor: f64,
        position: f64,
        angle_degrees: f64,
        morph: f64,
    ) -> PyResult<Motion> {
        let tol = tolerance(position, angle_degrees, morph)?;
        Ok(Motion::edited(edits::retime(py, &self.data, factor, tol)?))
    }

    /// This motion and `others` merged in order; where two inputs key the same track at the
    /// same frame, identical keys are kept once (counted in the report's `duplicates`) and
    /// otherwise the later one wins (counted in `collisions`).
    #[pyo3(signature = (*others))]
    fn merge(&self, py: Python<'_>, others: &Bound<'_, PyTuple>) -> PyResult<Motion> {
        let others: Vec<Bound<'_, Motion>> =
            others.iter().map(|o| o.cast_into::<Motion>()).collect::<Result<_, _>>()?;
        let mut all: Vec<&Data> = vec![&self.data];
        all.extend(others.iter().map(|o| &*o.get().data));
        Ok(Motion::edited(edits::merge(py, &all)?))
    }

    /// Bones (and the IK entries naming them) and morphs renamed by the dicts old → new.
    /// EditError if a new name cannot be encoded or two tracks would get the same name.
    #[pyo3(signature = (bones = None, morphs = None))]
    fn rename(
        &self,
        py: Python<'_>,
        bones: Option<std::collections::BTreeMap<String, String>>,
        morphs: Option<std::collections::BTreeMap<String, String>>,
    ) -> PyResult<Motion> {
        let bones = bones.unwrap_or_default().into_iter().collect();
        let morphs = morphs.unwrap_or_default().into_iter().collect();
        Ok(Motion::edited(edits::rename(py, &self.data, bones, morphs)?))
    }

    /// Only the bone and morph keys whose names match one of `patterns` (`*` any run of
    /// characters, `?` one), or, with `drop=True`, all but those. Other sections are kept.
    #[pyo3(signature = (patterns, *, drop = false))]
    fn filter(&self, py: Python<'_>, patterns: Vec<String>, drop: bool) -> PyResult<Motion> {
        Ok(Motion::edited(edits::filter(py, &self.data, patterns, drop)?))
    }

    /// Bone translations (and, with `camera`, the camera's target and distance) times
    /// `factor`, to fit a larger or smaller model.
    #[pyo3(signature = (factor, *, camera = true))]
    fn scale(&self, py: Python<'_>, factor: f32, camera: bool) -> PyResult<Motion> {
        Ok(Motion::edited(edits::scale(py, &self.data, factor, camera)?))
    }

    /// Fewer keys with fitted curves, within the tolerance at every frame (position in model
    /// units, angles in degrees, morph weight). Returns `(motion, report)`; the report has the
    /// key counts before and after and the errors measured by playing both. `method` is
    /// "fitted", "fast" (more keys, several times quicker, as retargeting uses) or "baseline".
    #[pyo3(signature = (
        *, position = 0.05, angle_degrees = 0.5, morph = 0.01, method = "fitted", threads = 0
    ))]
    fn reduce<'py>(
        &self,
        py: Python<'py>,
        position: f64,
        angle_degrees: f64,
        morph: f64,
        method: &str,
        threads: usize,
    ) -> PyResult<(Motion, Py<PyDict>)> {
        let tol = tolerance(position, angle_degrees, morph)?;
        let (motion, report) = edits::reduce(py, &self.data, tol, method, threads)?;
        Ok((Motion::new(motion, Vec::new(), Some(report.clone())), report.unbind()))
    }

    /// A motion from columns, one mapping (or section object, e.g. `other.bones`) per section;
    /// missing sections are empty. See the README for the columns; str names are encoded in
    /// `encoding` (`shift_jis`, `gbk`, `utf-8`). Wrong dtypes raise TypeError, wrong shapes,
    /// lengths and names ValueError.
    #[classmethod]
    #[pyo3(signature = (
        *, model_name = None, bones = None, morphs = None, camera = None, light = None,
        self_shadow = None, property = None, encoding = "shift_jis"
    ))]
    #[allow(clippy::too_many_arguments)]
    fn from_arrays(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        model_name: Option<&Bound<'_, PyAny>>,
        bones: Option<&Bound<'_, PyAny>>,
        morphs: Option<&Bound<'_, PyAny>>,
        camera: Option<&Bound<'_, PyAny>>,
        light: Option<&Bound<'_, PyAny>>,
        self_shadow: Option<&Bound<'_, PyAny>>,
        property: Option<&Bound<'_, PyAny>>,
        encoding: &str,
    ) -> PyResult<Motion> {
        let empty = pyo3::types::PyString::new(py, "").into_any();
        let model_name = model_name.unwrap_or(&empty);
        let sections = PyDict::new(py);
        for (key, value) in [
            ("bones", bones),
            ("morphs", morphs),
            ("camera", camera),
            ("light", light),
            ("self_shadow", self_shadow),
            ("property", property),
        ] {
            sections.set_item(key, value)?;
        }
        let prepared = py
            .import("vmdkit._columns")?
            .call_method1("prepare", (model_name, encoding, sections))?;
        let encoding = encoding_named(encoding)?;
        let motion = build(model_name, encoding, prepared.cast::<PyDict>()?)?;
        Ok(Motion::new(motion, Vec::new(), None))
    }

    /// The sections as pyarrow tables: a dict from section name (`bone`, `morph`, `camera`,
    /// `light`, `self_shadow`, `property`) to table. Needs pyarrow (ImportError otherwise).
    fn to_arrow<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py().import("vmdkit._arrow")?.call_method1("motion_tables", (slf,))
    }

    /// Pickles as the motion's bytes (the edit report and repairs are not kept).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let read = py.import("vmdkit._vmdkit")?.getattr("read")?;
        Ok((read, (slf.get().to_bytes(py)?,)))
    }

    fn __repr__(&self) -> String {
        let m = self.data.motion();
        format!(
            "<vmdkit.Motion {:?}: {} bone, {} morph, {} camera, {} light, {} self-shadow, \
             {} property keys>",
            self.model_name(),
            m.bones.len(),
            m.morphs.len(),
            m.cameras.len(),
            m.lights.len(),
            m.shadows.len(),
            m.properties.len()
        )
    }
}

/// Adds the classes of this file to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Motion>()?;
    m.add_class::<BoneArrays>()?;
    m.add_class::<MorphArrays>()?;
    m.add_class::<CameraArrays>()?;
    m.add_class::<LightArrays>()?;
    m.add_class::<ShadowArrays>()?;
    m.add_class::<PropertyArrays>()?;
    m.add_class::<Repair>()?;
    m.add_class::<LintWarning>()?;
    Ok(())
}
