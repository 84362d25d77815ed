//! `Motion.from_arrays`: keys built from columns that `vmdkit/_columns.py` has checked and
//! converted to their exact dtypes (so here a column is only read, never converted).
//!
//! Names given as str are encoded in the chosen encoding and padded as MMD pads them; bytes
//! are taken as the name's bytes; `name_fields` are written as they are. A name that does not
//! fit its field or cannot be encoded is a ValueError rather than silently cut.

use glam::{Quat, Vec3};
use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use vmdkit::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, Curve, EncodeStatus, IkState,
    LightKey, MorphKey, Motion, PhysicsToggle, PropertyKey, RawName, ShadowKey, TextEncoding,
};

/// The encoding named by its label.
pub fn encoding_named(label: &str) -> PyResult<TextEncoding> {
    match label {
        "shift_jis" => Ok(TextEncoding::ShiftJis),
        "gbk" => Ok(TextEncoding::Gbk),
        "utf-8" => Ok(TextEncoding::Utf8),
        other => Err(PyValueError::new_err(format!(
            "encoding is one of shift_jis, gbk, utf-8, not {other:?}"
        ))),
    }
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
        let (field, status) = RawName::<N>::encode_as(text, encoding);
        return match status {
            EncodeStatus::Ok => Ok(field),
            EncodeStatus::Shortened => Err(PyValueError::new_err(format!(
                "{what} {text:?} takes more than the field's {N} bytes in {}",
                encoding.label()
            ))),
            _ => Err(PyValueError::new_err(format!(
                "{what} {text:?} cannot be written in {}",
                encoding.label()
            ))),
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
        Ok(Some(a.as_slice()?.to_vec()))
    }

    /// Rows of a 2-D (or, flattened per row, 3-D) column as fixed-size arrays.
    fn rows<T: numpy::Element + Copy + Default, const W: usize>(
        &self,
        column: &str,
    ) -> PyResult<Option<Vec<[T; W]>>> {
        let Some(a) = self.get(column)? else { return Ok(None) };
        let flat: Vec<T> = if let Ok(a) = a.extract::<PyReadonlyArray2<'py, T>>() {
            a.as_slice()?.to_vec()
        } else {
            let a: PyReadonlyArray3<'py, T> = a.extract()?;
            a.as_slice()?.to_vec()
        };
        Ok(Some(flat.chunks_exact(W).map(|c| c.try_into().expect("W wide")).collect()))
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

/// Per key, its name field: from `name_fields`, else `names[name_index]` (when both are
/// given, they must agree).
fn key_names(c: &Columns<'_>, encoding: TextEncoding, what: &str) -> PyResult<Vec<RawName<15>>> {
    let names: Vec<RawName<15>> = name_fields(c.get("names")?, encoding, what)?;
    let index: Option<Vec<u32>> = c.vec1("name_index")?;
    let from_index = match &index {
        Some(index) => Some(
            index
                .iter()
                .map(|&i| {
                    names.get(i as usize).copied().ok_or_else(|| {
                        PyValueError::new_err(format!("name_index {i} is not an index into names"))
                    })
                })
                .collect::<PyResult<Vec<_>>>()?,
        ),
        None => None,
    };
    match (c.rows::<u8, 15>("name_fields")?, from_index) {
        (Some(fields), check) => {
            let fields: Vec<RawName<15>> = fields.into_iter().map(RawName).collect();
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
        (Some(raw), _) => raw.into_iter().map(BoneInterpolation).collect(),
        (None, Some(rows)) => rows
            .iter()
            .map(|r| BoneInterpolation::canonical(curves(r), PhysicsToggle::On))
            .collect(),
        (None, None) => vec![BoneInterpolation::DEFAULT; frame.len()],
    };
    same_len(frame.len(), &[names.len(), position.len(), rotation.len(), blocks.len()])?;
    Ok((0..frame.len())
        .map(|i| BoneKey {
            name: names[i],
            frame: frame[i],
            translation: Vec3::from_array(position[i]),
            rotation: Quat::from_array(rotation[i]),
            interpolation: blocks[i],
        })
        .collect())
}

fn morphs(c: &Columns<'_>, encoding: TextEncoding) -> PyResult<Vec<MorphKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let names = key_names(c, encoding, "morph")?;
    let weight: Vec<f32> = c.vec1_required("weight")?;
    same_len(frame.len(), &[names.len(), weight.len()])?;
    Ok((0..frame.len())
        .map(|i| MorphKey { name: names[i], frame: frame[i], weight: weight[i] })
        .collect())
}

fn cameras(c: &Columns<'_>) -> PyResult<Vec<CameraKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let n = frame.len();
    let distance: Vec<f32> = c.vec1_required("distance")?;
    let target: Vec<[f32; 3]> = c.rows_required("target")?;
    let rotation: Vec<[f32; 3]> = c.rows_required("rotation")?;
    let raw = c.rows::<u8, 24>("interpolation")?;
    let blocks: Vec<CameraInterpolation> = match (raw, c.rows::<u8, 24>("curves")?) {
        (Some(raw), _) => raw.into_iter().map(CameraInterpolation).collect(),
        (None, Some(rows)) => rows.iter().map(|r| CameraInterpolation::new(curves(r))).collect(),
        (None, None) => vec![CameraInterpolation::DEFAULT; n],
    };
    let view_angle: Vec<u32> = c.vec1("view_angle")?.unwrap_or_else(|| vec![30; n]);
    let perspective: Vec<bool> = c.vec1("perspective")?.unwrap_or_else(|| vec![true; n]);
    let lens = [distance.len(), target.len(), rotation.len(), blocks.len()];
    same_len(n, &lens)?;
    same_len(n, &[view_angle.len(), perspective.len()])?;
    Ok((0..n)
        .map(|i| CameraKey {
            frame: frame[i],
            distance: distance[i],
            target: Vec3::from_array(target[i]),
            rotation: Vec3::from_array(rotation[i]),
            interpolation: blocks[i],
            view_angle: view_angle[i],
            perspective_byte: u8::from(!perspective[i]),
        })
        .collect())
}

fn lights(c: &Columns<'_>) -> PyResult<Vec<LightKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let color: Vec<[f32; 3]> = c.rows_required("color")?;
    let direction: Vec<[f32; 3]> = c.rows_required("direction")?;
    same_len(frame.len(), &[color.len(), direction.len()])?;
    Ok((0..frame.len())
        .map(|i| LightKey {
            frame: frame[i],
            color: Vec3::from_array(color[i]),
            direction: Vec3::from_array(direction[i]),
        })
        .collect())
}

fn shadows(c: &Columns<'_>) -> PyResult<Vec<ShadowKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let mode: Vec<u8> = c.vec1_required("mode")?;
    let distance: Vec<f32> = c.vec1_required("distance")?;
    same_len(frame.len(), &[mode.len(), distance.len()])?;
    Ok((0..frame.len())
        .map(|i| ShadowKey { frame: frame[i], mode: mode[i], distance: distance[i] })
        .collect())
}

/// An (N, K) bool column as a flat row-major vector.
fn bool_matrix(c: &Columns<'_>, column: &str) -> PyResult<Option<Vec<bool>>> {
    let Some(a) = c.get(column)? else { return Ok(None) };
    let a: PyReadonlyArray2<'_, bool> = a.extract()?;
    Ok(Some(a.as_slice()?.to_vec()))
}

fn properties(c: &Columns<'_>, encoding: TextEncoding) -> PyResult<Vec<PropertyKey>> {
    let frame: Vec<u32> = c.vec1_required("frame")?;
    let n = frame.len();
    let visible: Vec<bool> = c.vec1("visible")?.unwrap_or_else(|| vec![true; n]);
    let ik: Vec<RawName<20>> = name_fields(c.get("ik_names")?, encoding, "IK bone")?;
    let k = ik.len();
    let enabled = bool_matrix(c, "ik_enabled")?.unwrap_or_else(|| vec![true; n * k]);
    let present = bool_matrix(c, "ik_present")?.unwrap_or_else(|| vec![true; n * k]);
    same_len(n * k, &[enabled.len(), present.len()])?;
    same_len(n, &[visible.len()])?;
    Ok((0..n)
        .map(|i| PropertyKey {
            frame: frame[i],
            visible_byte: u8::from(visible[i]),
            ik: (0..k)
                .filter(|&j| present[i * k + j])
                .map(|j| IkState { name: ik[j], enabled_byte: u8::from(enabled[i * k + j]) })
                .collect(),
        })
        .collect())
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
