//! The bone and morph sections as columns of NumPy arrays (`motion.bones`, `motion.morphs`).
//!
//! Each column is built on first access in one pass over the keys, without a Python object
//! per key, and then kept: a motion is immutable. Rows are keys in file order and values are
//! the stored ones, f32 bits included; names are indices into the section's names (distinct
//! bytes up to the NUL, in order of first appearance, which is also the order of
//! `Motion.sample`). The unnamed sections are in `sections_unnamed.rs`.

use crate::arrays::{bytes_tuple, cached, list_of, text_tuple, vec1, vec2, vec3};
use crate::data::Data;
use numpy::{PyArray1, PyArray2, PyArray3};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Arc;

/// Puts `key: value` into `dict`, for the `to_dict` methods.
pub fn put<'py>(
    dict: &Bound<'py, PyDict>,
    key: &str,
    value: impl IntoPyObject<'py>,
) -> PyResult<()> {
    dict.set_item(key, value)
}

/// The bone keys as columns.
///
/// `frame` (N,) uint32; `name_index` (N,) uint32 into `names`; `position` (N, 3) float32;
/// `rotation` (N, 4) float32 quaternions (x, y, z, w) as stored, not normalised;
/// `interpolation` (N, 64) uint8, the raw blocks; `curves` (N, 4, 4) uint8, the Bézier control
/// points (x1, y1, x2, y2) of the X, Y, Z and rotation curves, each read from its own row of the
/// block; `name_fields` (N, 15) uint8, the raw name fields with the bytes after the NUL.
#[pyclass(module = "vmdkit", frozen)]
pub struct BoneArrays {
    data: Arc<Data>,
    core: PyOnceLock<Core>,
    interpolation: PyOnceLock<Py<PyArray2<u8>>>,
    curves: PyOnceLock<Py<PyArray3<u8>>>,
    names: Named,
}

/// The columns nearly every use of bone keys reads, built together in one pass over the keys
/// (a bone record is 111 bytes, so three passes would read the section three times).
struct Core {
    frame: Py<PyArray1<u32>>,
    position: Py<PyArray2<f32>>,
    rotation: Py<PyArray2<f32>>,
}

impl Core {
    fn new(py: Python<'_>, data: &Data) -> Self {
        let (n, frame, position, rotation) = py.detach(|| {
            let bones = data.bones();
            let n = bones.len();
            let mut frame = Vec::with_capacity(n);
            let mut position = Vec::with_capacity(n * 3);
            let mut rotation = Vec::with_capacity(n * 4);
            bones.for_each(|k| {
                frame.push(k.frame);
                position.extend_from_slice(&k.translation);
                rotation.extend_from_slice(&k.rotation);
            });
            (n, frame, position, rotation)
        });
        Core {
            frame: vec1(py, frame),
            position: vec2(py, position, [n, 3]),
            rotation: vec2(py, rotation, [n, 4]),
        }
    }
}

/// The name columns of a bone or morph section.
struct Named {
    index: PyOnceLock<Py<PyArray1<u32>>>,
    text: PyOnceLock<Py<PyTuple>>,
    raw: PyOnceLock<Py<PyTuple>>,
    fields: PyOnceLock<Py<PyArray2<u8>>>,
}

impl Named {
    fn new() -> Self {
        Named {
            index: PyOnceLock::new(),
            text: PyOnceLock::new(),
            raw: PyOnceLock::new(),
            fields: PyOnceLock::new(),
        }
    }
}

/// The `#[pymethods]` of a named section (`$what` its keys' kind, "bone" or "morph"): the
/// name columns both have, then the class's own methods. pyo3 takes a class's methods from one
/// block, so the shared getters are written into it here.
macro_rules! named_section_methods {
    ($class:ident, $kind:expr, $what:literal, $($methods:tt)*) => {
        #[pymethods]
        impl $class {
            #[doc = concat!("Per key, the index of its ", $what, "'s name in `names` (N,) uint32.")]
            #[getter]
            fn name_index(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
                self.names.index(py, &self.data, $kind)
            }

            #[doc = concat!(
                "The ", $what, " names, decoded with the motion's encoding (a new list on each ",
                "access)."
            )]
            #[getter]
            fn names<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
                self.names.text(py, &self.data, $kind)
            }

            #[doc = concat!("The ", $what, " names as bytes up to the NUL, in `names` order.")]
            #[getter]
            fn names_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
                self.names.raw(py, &self.data, $kind)
            }

            $($methods)*
        }

        impl $class {
            /// Puts the name columns into a `to_dict`'s dict as `Motion.from_arrays` takes
            /// them: `names` as bytes, with the raw fields.
            fn put_name_columns<'py>(
                &self,
                py: Python<'py>,
                d: &Bound<'py, PyDict>,
            ) -> PyResult<()> {
                put(d, "name_index", self.name_index(py))?;
                put(d, "names", self.names_raw(py))?;
                put(d, "name_fields", self.name_fields(py))
            }
        }
    };
}

/// Which of the two named sections.
#[derive(Clone, Copy)]
enum Kind {
    Bone,
    Morph,
}

impl Named {
    fn table(data: &Data, kind: Kind) -> &crate::names::NameTable<15> {
        match kind {
            Kind::Bone => data.bone_names(),
            Kind::Morph => data.morph_names(),
        }
    }

    fn index(&self, py: Python<'_>, data: &Data, kind: Kind) -> Py<PyArray1<u32>> {
        cached(py, &self.index, || {
            let index = py.detach(|| Self::table(data, kind).index.clone());
            vec1(py, index)
        })
    }

    fn text<'py>(&self, py: Python<'py>, data: &Data, kind: Kind) -> Bound<'py, PyList> {
        let tuple = cached(py, &self.text, || {
            let texts = py.detach(|| Self::table(data, kind).texts(data.encoding()));
            text_tuple(py, texts)
        });
        list_of(py, &tuple)
    }

    fn raw<'py>(&self, py: Python<'py>, data: &Data, kind: Kind) -> Bound<'py, PyList> {
        let tuple = cached(py, &self.raw, || {
            let table = py.detach(|| Self::table(data, kind));
            bytes_tuple(py, table.raw())
        });
        list_of(py, &tuple)
    }

    fn fields(&self, py: Python<'_>, fields: impl FnOnce() -> Vec<u8> + Send) -> Py<PyArray2<u8>> {
        cached(py, &self.fields, || {
            let flat = py.detach(fields);
            let n = flat.len() / 15;
            vec2(py, flat, [n, 15])
        })
    }
}

named_section_methods! {
    BoneArrays, Kind::Bone, "bone",
    /// Frame numbers (N,) uint32, in file order.
    #[getter]
    fn frame(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        self.core(py).frame.clone_ref(py)
    }

    /// The raw 15-byte name fields (N, 15) uint8, padding after the NUL included.
    #[getter]
    fn name_fields(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        let data = &self.data;
        self.names.fields(py, || {
            let mut flat = Vec::with_capacity(data.bones().len() * 15);
            data.bones().for_each(|k| flat.extend_from_slice(&k.name.0));
            flat
        })
    }

    /// Translations (N, 3) float32: offsets from the rest position, MMD's left-handed axes.
    #[getter]
    fn position(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.core(py).position.clone_ref(py)
    }

    /// Rotations (N, 4) float32, quaternions (x, y, z, w) exactly as stored.
    #[getter]
    fn rotation(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.core(py).rotation.clone_ref(py)
    }

    /// The raw 64-byte interpolation blocks (N, 64) uint8.
    #[getter]
    fn interpolation(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        let bones = self.data.bones();
        cached(py, &self.interpolation, || {
            let flat = py.detach(|| {
                let mut flat = Vec::with_capacity(bones.len() * 64);
                bones.for_each(|k| flat.extend_from_slice(k.interpolation));
                flat
            });
            vec2(py, flat, [bones.len(), 64])
        })
    }

    /// Bézier control points (N, 4, 4) uint8: (x1, y1, x2, y2) of the X, Y, Z and rotation
    /// curves, each from its own row of the block (bytes 16c + 0, 4, 8, 12).
    #[getter]
    fn curves(&self, py: Python<'_>) -> Py<PyArray3<u8>> {
        let bones = self.data.bones();
        cached(py, &self.curves, || {
            let flat = py.detach(|| {
                let mut flat = Vec::with_capacity(bones.len() * 16);
                bones.for_each(|k| {
                    let block = vmdkit::BoneInterpolation(*k.interpolation);
                    flat.extend(block.curves().iter().flat_map(|c| [c.x1, c.y1, c.x2, c.y2]));
                });
                flat
            });
            vec3(py, flat, [bones.len(), 4, 4])
        })
    }

    /// The columns `Motion.from_arrays(bones=...)` takes, as a dict (exact: with
    /// `name_fields`, and `names` as bytes).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        put(&d, "frame", self.frame(py))?;
        self.put_name_columns(py, &d)?;
        put(&d, "position", self.position(py))?;
        put(&d, "rotation", self.rotation(py))?;
        put(&d, "interpolation", self.interpolation(py))?;
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.data.bones().len()
    }

    fn __repr__(&self) -> String {
        let names = self.data.bone_names().fields.len();
        format!("<vmdkit.BoneArrays: {} keys of {names} bones>", self.__len__())
    }
}

impl BoneArrays {
    fn core(&self, py: Python<'_>) -> &Core {
        self.core.get_or_init(py, || Core::new(py, &self.data))
    }

    /// The bone columns of `data`.
    pub fn new(data: Arc<Data>) -> Self {
        BoneArrays {
            data,
            core: PyOnceLock::new(),
            interpolation: PyOnceLock::new(),
            curves: PyOnceLock::new(),
            names: Named::new(),
        }
    }
}

/// The morph (facial) keys as columns.
///
/// `frame` (N,) uint32; `name_index` (N,) uint32 into `names`; `weight` (N,) float32 as
/// stored (not clamped); `name_fields` (N, 15) uint8, the raw name fields.
#[pyclass(module = "vmdkit", frozen)]
pub struct MorphArrays {
    data: Arc<Data>,
    frame: PyOnceLock<Py<PyArray1<u32>>>,
    weight: PyOnceLock<Py<PyArray1<f32>>>,
    names: Named,
}

named_section_methods! {
    MorphArrays, Kind::Morph, "morph",
    /// Frame numbers (N,) uint32, in file order.
    #[getter]
    fn frame(&self, py: Python<'_>) -> Py<PyArray1<u32>> {
        let keys = &self.data.motion().morphs;
        cached(py, &self.frame, || vec1(py, py.detach(|| keys.iter().map(|k| k.frame).collect())))
    }

    /// The raw 15-byte name fields (N, 15) uint8, padding after the NUL included.
    #[getter]
    fn name_fields(&self, py: Python<'_>) -> Py<PyArray2<u8>> {
        let data = &self.data;
        self.names.fields(py, || data.motion().morphs.iter().flat_map(|k| k.name.0).collect())
    }

    /// Weights (N,) float32 as stored: usually 0–1, but not clamped.
    #[getter]
    fn weight(&self, py: Python<'_>) -> Py<PyArray1<f32>> {
        let keys = &self.data.motion().morphs;
        cached(py, &self.weight, || vec1(py, py.detach(|| keys.iter().map(|k| k.weight).collect())))
    }

    /// The columns `Motion.from_arrays(morphs=...)` takes, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        put(&d, "frame", self.frame(py))?;
        self.put_name_columns(py, &d)?;
        put(&d, "weight", self.weight(py))?;
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.data.motion().morphs.len()
    }

    fn __repr__(&self) -> String {
        let names = self.data.morph_names().fields.len();
        format!("<vmdkit.MorphArrays: {} keys of {names} morphs>", self.__len__())
    }
}

impl MorphArrays {
    /// The morph columns of `data`.
    pub fn new(data: Arc<Data>) -> Self {
        MorphArrays {
            data,
            frame: PyOnceLock::new(),
            weight: PyOnceLock::new(),
            names: Named::new(),
        }
    }
}
