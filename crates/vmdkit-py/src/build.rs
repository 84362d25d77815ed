//! `Motion.from_arrays`: keys built from columns that `vmdkit/_columns.py` has checked and
//! converted to their exact dtypes (so here a column is only read, never converted).
//!
//! Names given as str are encoded in the chosen encoding and padded as MMD pads them; bytes
//! are taken as the name's bytes; `name_fields` are written as they are. A name that does not
//! fit its field, cannot be encoded or holds a NUL (which would end it) is a ValueError rather
//! than silently cut. Every buffer sized by the columns is allocated fallibly (`MemoryError`).

use crate::arrays::{try_collect, try_vec};
use glam::{Quat, Vec3};
use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use vmdkit::names::{encode_name, NameFit};
use vmdkit::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, Curve, IkState, LightKey, MorphKey,
    Motion, PhysicsToggle, PropertyKey, RawName, ShadowKey, TextEncoding,
};

/// The encoding named by its label.
pub fn encoding_named(label: &str) -> PyResult<TextEncoding> {
    label.parse().map_err(|_| {
        let accepted = TextEncoding::NAMES.join(", ");
        PyValueError::new_err(format!("encoding is one of {accepted}, not {label:?}"))
    })
}

/// A name field from a str (encoded) or bytes (as they are).
pub fn name_field<const N: usize>(
    name: &Bound<'_, PyAny>,
    encoding: TextEncoding,
    what: &str,
) -> PyResult<RawName<N>> {
    if let Ok(text) = name.cast::<PyString>() {
        let text = text.to_cow()?;
        let text = &*text;
        let label = encoding.label();
        // A NUL ends a name in its field: what follows it would be silently lost.
        if text.contains('\0') {
            return Err(PyValueError::new_err(format!(
                "{what} {} cannot be written as it is: a NUL ends a name",
                name.repr()?
            )));
        }
        let (field, fit) = encode_name::<N>(text, encoding);
        return match fit {
            NameFit::Ok => Ok(field),
            NameFit::Shortened { bytes } => Err(PyValueError::new_err(format!(
                "{what} {text:?} takes {bytes} bytes in {label}, more than the field's {N} bytes"
            ))),
            _ => {
                Err(PyValueError::new_err(format!("{what} {text:?} cannot be written in {label}")))
            }
        };
    }
    let raw = name.cast::<PyBytes>()?.as_bytes();
    if raw.len() > N || raw.contains(&0) {
        return Err(PyValueError::new_err(format!(
            "{what} {raw:?}: raw names are at most {N} bytes, without NUL"
        )));
    }
    Ok(RawName::from_bytes_mmd(raw))
}

/// The fields of a `names` list.
fn name_fields<const N: usize>(
    list: Option<Bound<'_, PyAny>>,
    encoding: TextEncoding,
    what: &str,
) -> PyResult<Vec<RawName<N>>> {
    let Some(list) = list else { return Ok(Vec::new()) };
    list.cast::<PyList>()?.iter().map(|n| name_field::<N>(&n, encoding, what)).collect()
}

/// One section's checked columns.
struct Columns<'py>(Bound<'py, PyDict>);

impl<'py> Columns<'py> {
    fn get(&self, column: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.0.get_item(column)
    }

    fn vec1<T: numpy::Element + Copy>(&self, column: &str) -> PyResult<Option<Vec<T>>> {
        let Some(a) = self.get(column)? else { return Ok(None) };
        let a: PyReadonlyArray1<'py, T> = a.extract()?;
        Ok(Some(copied(a.as_slice()?, column)?))
    }

    /// Rows of a 2-D (or, flattened per row, 3-D) column as fixed-size arrays.
    fn rows<T: numpy::Element + Copy + Default, const W: usize>(
        &self,
        column: &str,
    ) -> PyResult<Option<Vec<[T; W]>>> {
        let Some(a) = self.get(column)? else { return Ok(None) };
        let rows = |flat: &[T]| {
            let rows = flat.chunks_exact(W).map(|c| c.try_into().expect("W wide"));
            try_collect(flat.len() / W, rows, column)
        };
        if let Ok(a) = a.extract::<PyReadonlyArray2<'py, T>>() {
            rows(a.as_slice()?).map(Some)
        } else {
            let a: PyReadonlyArray3<'py, T> = a.extract()?;
            rows(a.as_slice()?).map(Some)
        }
    }

    fn rows_required<T: numpy::Element + Copy + Default, const W: usize>(
        &self,
        column: &str,
    ) -> PyResult<Vec<[T; W]>> {
        self.rows(column)?.ok_or_else(|| PyValueError::new_err(format!("{column} is required")))
    }

    fn vec1_required<T: numpy::Element + Copy>(&self, column: &str) -> PyResult<Vec<T>> {
        self.vec1(column)?.ok_or_else(|| PyValueError::new_err(format!("{column} is required")))
    }
}

/// A copy of `values` (the column `what`), or MemoryError.
fn copied<T: Copy>(values: &[T], what: &str) -> PyResult<Vec<T>> {
    try_collect(values.len(), values.iter().copied(), what)
}

/// `n` copies of `value` (a column's default), or MemoryError.
fn repeated<T: Copy>(value: T, n: usize, what: &str) -> PyResult<Vec<T>> {
    try_collect(n, std::iter::repeat_n(value, n), what)
}

/// Per key, its name field: from `name_fields`, else `names[name_index]` (when both are
/// given, they must agree).
fn key_names(c: &Columns<'_>, encoding: TextEncoding, what: &str) -> PyResult<Vec<RawName<15>>> {
    let names: Vec<RawName<15>> = name_fields(c.get("names")?, encoding, what)?;
    let index: Option<Vec<u32>> = c.vec1("name_index")?;
    let from_index = match &index {
        Some(index) => {
            let mut out = try_vec(&[index.len()], "the key names")?;
            for &i in index {
                out.push(names.get(i as usize).copied().ok_or_else(|| {
                    PyValueError::new_err(format!("name_index {i} is not an index into names"))
                })?);
            }
            Some(out)
        }
        None => None,
    };
    match (c.rows::<u8, 15>("name_fields")?, from_index) {
        (Some(fields), check) => {
            let fields = try_collect(fields.len(), fields.into_iter().map(RawName), "names")?;
            if let Some(check) = check {
                if let Some(row) =
                    fields.iter().zip(&check).position(|(f, n)| f.bytes() != n.bytes())
                {
                    return Err(PyValueError::new_err(format!(
                        "{what}s: name_fields row {row} names another {what} than names[name_index]"
                    )));
                }
            }
            Ok(fields)
        }
        (None, Some(names)) => Ok(names),
        (None, None) => Err(PyValueError::new_err(format!("{what}s need names or name_fields"))),
    }
}

/// The `K` curves of a row of control points (x1, y1, x2, y2 per curve).
fn curves<const K: usize, const W: usize>(row: &[u8; W]) -> [Curve; K] {
    std::array::from_fn(|c| Curve {
        x1: row[4 * c],
        y1: row[4 * c + 1],
        x2: row[4 * c + 2],
        y2: row[4 * c + 3],
    })
}

/// Fails unless every column has `n` rows (the Python side checks it; this keeps a bad call
/// from indexing out of bounds).
fn same_len(n: usize, lens: &[usize]) -> PyResult<()> {
    if lens.iter().all(|&l| l == n) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!("columns of {lens:?} rows, expected {n}")))
    }
}

fn bones(c: &Columns<'_>, encoding: TextEncoding) -> PyResult<Vec<BoneKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let names = key_names(c, encoding, "bone")?;
    let position: Vec<[f32; 3]> = c.rows_required("position")?;
    let rotation: Vec<[f32; 4]> = c.rows_required("rotation")?;
    let raw = c.rows::<u8, 64>("interpolation")?;
    let blocks: Vec<BoneInterpolation> = match (raw, c.rows::<u8, 16>("curves")?) {
        (Some(raw), _) => try_collect(raw.len(), raw.into_iter().map(BoneInterpolation), "curves")?,
        (None, Some(rows)) => {
            let blocks =
                rows.iter().map(|r| BoneInterpolation::canonical(curves(r), PhysicsToggle::On));
            try_collect(rows.len(), blocks, "curves")?
        }
        (None, None) => repeated(BoneInterpolation::DEFAULT, frame.len(), "curves")?,
    };
    same_len(frame.len(), &[names.len(), position.len(), rotation.len(), blocks.len()])?;
    let keys = (0..frame.len()).map(|i| BoneKey {
        name: names[i],
        frame: frame[i],
        translation: Vec3::from_array(position[i]),
        rotation: Quat::from_array(rotation[i]),
        interpolation: blocks[i],
    });
    try_collect(frame.len(), keys, "the bone keys")
}

fn morphs(c: &Columns<'_>, encoding: TextEncoding) -> PyResult<Vec<MorphKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let names = key_names(c, encoding, "morph")?;
    let weight: Vec<f32> = c.vec1_required("weight")?;
    same_len(frame.len(), &[names.len(), weight.len()])?;
    let keys =
        (0..frame.len()).map(|i| MorphKey { name: names[i], frame: frame[i], weight: weight[i] });
    try_collect(frame.len(), keys, "the morph keys")
}

fn cameras(c: &Columns<'_>) -> PyResult<Vec<CameraKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let n = frame.len();
    let distance: Vec<f32> = c.vec1_required("distance")?;
    let target: Vec<[f32; 3]> = c.rows_required("target")?;
    let rotation: Vec<[f32; 3]> = c.rows_required("rotation")?;
    let raw = c.rows::<u8, 24>("interpolation")?;
    let blocks: Vec<CameraInterpolation> = match (raw, c.rows::<u8, 24>("curves")?) {
        (Some(raw), _) => {
            try_collect(raw.len(), raw.into_iter().map(CameraInterpolation), "curves")?
        }
        (None, Some(rows)) => try_collect(
            rows.len(),
            rows.iter().map(|r| CameraInterpolation::new(curves(r))),
            "curves",
        )?,
        (None, None) => repeated(CameraInterpolation::DEFAULT, n, "curves")?,
    };
    let view_angle: Vec<u32> = match c.vec1("view_angle")? {
        Some(v) => v,
        None => repeated(30, n, "view_angle")?,
    };
    let perspective: Vec<bool> = match c.vec1("perspective")? {
        Some(v) => v,
        None => repeated(true, n, "perspective")?,
    };
    let lens = [distance.len(), target.len(), rotation.len(), blocks.len()];
    same_len(n, &lens)?;
    same_len(n, &[view_angle.len(), perspective.len()])?;
    let keys = (0..n).map(|i| CameraKey {
        frame: frame[i],
        distance: distance[i],
        target: Vec3::from_array(target[i]),
        rotation: Vec3::from_array(rotation[i]),
        interpolation: blocks[i],
        view_angle: view_angle[i],
        perspective_byte: u8::from(!perspective[i]),
    });
    try_collect(n, keys, "the camera keys")
}

fn lights(c: &Columns<'_>) -> PyResult<Vec<LightKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let color: Vec<[f32; 3]> = c.rows_required("color")?;
    let direction: Vec<[f32; 3]> = c.rows_required("direction")?;
    same_len(frame.len(), &[color.len(), direction.len()])?;
    let keys = (0..frame.len()).map(|i| LightKey {
        frame: frame[i],
        color: Vec3::from_array(color[i]),
        direction: Vec3::from_array(direction[i]),
    });
    try_collect(frame.len(), keys, "the light keys")
}

fn shadows(c: &Columns<'_>) -> PyResult<Vec<ShadowKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let mode: Vec<u8> = c.vec1_required("mode")?;
    let distance: Vec<f32> = c.vec1_required("distance")?;
    same_len(frame.len(), &[mode.len(), distance.len()])?;
    let keys = (0..frame.len()).map(|i| ShadowKey {
        frame: frame[i],
        mode: mode[i],
        distance: distance[i],
    });
    try_collect(frame.len(), keys, "the self-shadow keys")
}

/// An (N, K) bool column as a flat row-major vector.
fn bool_matrix(c: &Columns<'_>, column: &str) -> PyResult<Option<Vec<bool>>> {
    let Some(a) = c.get(column)? else { return Ok(None) };
    let a: PyReadonlyArray2<'_, bool> = a.extract()?;
    Ok(Some(copied(a.as_slice()?, column)?))
}

fn properties(c: &Columns<'_>, encoding: TextEncoding) -> PyResult<Vec<PropertyKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let n = frame.len();
    let visible: Vec<bool> = match c.vec1("visible")? {
        Some(v) => v,
        None => repeated(true, n, "visible")?,
    };
    let ik: Vec<RawName<20>> = name_fields(c.get("ik_names")?, encoding, "IK bone")?;
    let k = ik.len();
    let all = |column| -> PyResult<Vec<bool>> {
        match bool_matrix(c, column)? {
            Some(v) => Ok(v),
            None => repeated(true, n.saturating_mul(k), column),
        }
    };
    let (enabled, present) = (all("ik_enabled")?, all("ik_present")?);
    same_len(n * k, &[enabled.len(), present.len()])?;
    same_len(n, &[visible.len()])?;
    let mut keys = try_vec(&[n], "the property keys")?;
    for i in 0..n {
        let start = i * k;
        let count = present[start..start + k].iter().filter(|&&p| p).count();
        let states = (0..k)
            .filter(|&j| present[start + j])
            .map(|j| IkState { name: ik[j], enabled_byte: u8::from(enabled[start + j]) });
        keys.push(PropertyKey {
            frame: frame[i],
            visible_byte: u8::from(visible[i]),
            ik: try_collect(count, states, "the IK states")?,
        });
    }
    Ok(keys)
}

/// The motion of `prepared` (what `_columns.prepare` returned), named `model_name`.
pub fn build(
    model_name: &Bound<'_, PyAny>,
    encoding: TextEncoding,
    prepared: &Bound<'_, PyDict>,
) -> PyResult<Motion> {
    let name: RawName<20> = name_field(model_name, encoding, "model name")?;
    let mut motion = Motion::new(name);
    let section = |key: &str| -> PyResult<Option<Columns<'_>>> {
        Ok(prepared.get_item(key)?.map(|d| d.cast_into::<PyDict>().map(Columns)).transpose()?)
    };
    if let Some(c) = section("bones")? {
        motion.bones = bones(&c, encoding)?;
    }
    if let Some(c) = section("morphs")? {
        motion.morphs = morphs(&c, encoding)?;
    }
    if let Some(c) = section("camera")? {
        motion.cameras = cameras(&c)?;
    }
    if let Some(c) = section("light")? {
        motion.lights = lights(&c)?;
    }
    if let Some(c) = section("self_shadow")? {
        motion.shadows = shadows(&c)?;
    }
    if let Some(c) = section("property")? {
        motion.properties = properties(&c, encoding)?;
    }
    Ok(motion)
}
