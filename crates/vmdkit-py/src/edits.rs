//! The edits of `vmdkit::edit`, each run without the GIL and returning the new motion with its
//! report as a dict (the Rust report's fields, by the same names).

use crate::data::Data;
use crate::errors::{edit_error, guard};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use vmdkit::edit::{self, FilterMode, KeyCounts, MeasuredErrors, ReduceMethod, Tolerance};
use vmdkit::{Motion, Section};

/// A new motion and the report of the edit that made it.
pub type Edited<'py> = (Motion, Bound<'py, PyDict>);

/// The tolerance of `reduce` and `retime`, checked.
pub fn tolerance(position: f64, angle_degrees: f64, morph: f64) -> PyResult<Tolerance> {
    for (name, v) in [("position", position), ("angle_degrees", angle_degrees), ("morph", morph)] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "the {name} tolerance must be a finite number ≥ 0, not {v}"
            )));
        }
    }
    Ok(Tolerance { position, angle_degrees, morph })
}

fn counts<'py>(py: Python<'py>, c: &KeyCounts) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("bones", c.bones)?;
    d.set_item("morphs", c.morphs)?;
    d.set_item("cameras", c.cameras)?;
    Ok(d)
}

fn errors<'py>(py: Python<'py>, e: &MeasuredErrors) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("position", e.position)?;
    d.set_item("angle_degrees", e.angle_degrees)?;
    d.set_item("morph", e.morph)?;
    d.set_item("camera_position", e.camera_position)?;
    d.set_item("camera_angle_degrees", e.camera_angle_degrees)?;
    d.set_item("frames", e.frames)?;
    d.set_item("sampled_gaps", e.sampled_gaps)?;
    Ok(d)
}

/// Left ⇄ right.
pub fn mirror<'py>(py: Python<'py>, data: &Data) -> PyResult<Edited<'py>> {
    let (out, r) = py.detach(|| guard(|| edit::mirror(data.motion())))?;
    let d = PyDict::new(py);
    d.set_item("swapped", r.swapped)?;
    d.set_item("unsided", r.unsided)?;
    d.set_item("not_swapped", r.not_swapped)?;
    Ok((out, d))
}

/// Every key moved by `frames`.
pub fn shift<'py>(py: Python<'py>, data: &Data, frames: i64) -> PyResult<Edited<'py>> {
    let out = py.detach(|| guard(|| edit::shift(data.motion(), frames)))?.map_err(edit_error)?;
    let d = PyDict::new(py);
    d.set_item("frames", frames)?;
    Ok((out, d))
}

/// Frames `start..=end` kept.
pub fn trim<'py>(py: Python<'py>, data: &Data, start: u32, end: u32) -> PyResult<Edited<'py>> {
    let (out, r) =
        py.detach(|| guard(|| edit::trim(data.motion(), start, end)))?.map_err(edit_error)?;
    let d = PyDict::new(py);
    d.set_item("inserted", r.inserted)?;
    d.set_item("dropped", r.dropped)?;
    d.set_item("split_curves", r.split_curves)?;
    d.set_item("max_curve_bound", r.max_curve_bound)?;
    d.set_item("clamped_curves", r.clamped_curves)?;
    Ok((out, d))
}

/// Time scaled by `factor`.
pub fn retime<'py>(
    py: Python<'py>,
    data: &Data,
    factor: f64,
    tol: Tolerance,
) -> PyResult<Edited<'py>> {
    let (out, r) =
        py.detach(|| guard(|| edit::retime(data.motion(), factor, &tol)))?.map_err(edit_error)?;
    let d = PyDict::new(py);
    d.set_item("factor", r.factor)?;
    d.set_item("segments_kept", r.segments_kept)?;
    d.set_item("segments_refitted", r.segments_refitted)?;
    d.set_item("before", counts(py, &r.before)?)?;
    d.set_item("after", counts(py, &r.after)?)?;
    d.set_item("errors", errors(py, &r.errors)?)?;
    d.set_item("dense_tracks", r.dense_tracks)?;
    Ok((out, d))
}

/// `motions` merged in order, identical keys kept once, later keys winning.
pub fn merge<'py>(py: Python<'py>, motions: &[&Data]) -> PyResult<Edited<'py>> {
    let (out, r) = py.detach(|| {
        guard(|| {
            let owned: Vec<Motion> = motions.iter().map(|d| d.motion().clone()).collect();
            edit::merge(&owned)
        })
    })?;
    let d = PyDict::new(py);
    let per_section = |counts: &[[usize; 6]]| {
        counts
            .iter()
            .map(|per| {
                let c = PyDict::new(py);
                for (section, n) in Section::ALL.iter().zip(per) {
                    c.set_item(section.name(), n)?;
                }
                Ok(c)
            })
            .collect::<PyResult<Vec<_>>>()
    };
    d.set_item("collisions", per_section(&r.collisions)?)?;
    d.set_item("duplicates", per_section(&r.duplicates)?)?;
    d.set_item("model_name", r.model_name)?;
    d.set_item("other_model_names", r.other_model_names)?;
    Ok((out, d))
}

/// Bones (and the IK entries naming them) and morphs renamed by the maps.
pub fn rename<'py>(
    py: Python<'py>,
    data: &Data,
    bones: Vec<(String, String)>,
    morphs: Vec<(String, String)>,
) -> PyResult<Edited<'py>> {
    let mut map = edit::RenameMap::new();
    for (old, new) in bones {
        map.bone(old, new);
    }
    for (old, new) in morphs {
        map.morph(old, new);
    }
    let (out, r) =
        py.detach(|| guard(|| edit::rename(data.motion(), &map)))?.map_err(edit_error)?;
    let renamed = r
        .renamed
        .iter()
        .map(|n| {
            let e = PyDict::new(py);
            e.set_item("kind", n.kind)?;
            e.set_item("old", &n.old)?;
            e.set_item("new", &n.new)?;
            e.set_item("keys", n.keys)?;
            e.set_item("shortened", n.shortened.as_ref().map(|(bytes, stored)| (bytes, stored)))?;
            Ok(e)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let d = PyDict::new(py);
    d.set_item("renamed", renamed)?;
    d.set_item("unused", r.unused)?;
    Ok((out, d))
}

/// Bone and morph keys kept (or dropped, with `drop`) by name patterns.
pub fn filter<'py>(
    py: Python<'py>,
    data: &Data,
    patterns: Vec<String>,
    drop: bool,
) -> PyResult<Edited<'py>> {
    let mode = if drop { FilterMode::Drop } else { FilterMode::Keep };
    let (out, r) = py.detach(|| guard(|| edit::filter(data.motion(), mode, &patterns)))?;
    let d = PyDict::new(py);
    d.set_item("kept_keys", r.kept_keys)?;
    d.set_item("dropped_keys", r.dropped_keys)?;
    d.set_item("dropped_names", r.dropped_names)?;
    d.set_item("unmatched", r.unmatched)?;
    Ok((out, d))
}

/// Translations (and the camera's, with `camera`) times `factor`.
pub fn scale<'py>(
    py: Python<'py>,
    data: &Data,
    factor: f32,
    camera: bool,
) -> PyResult<Edited<'py>> {
    if !factor.is_finite() {
        return Err(PyValueError::new_err(format!(
            "the scale factor must be finite, not {factor}"
        )));
    }
    let out = py.detach(|| guard(|| edit::scale(data.motion(), factor, camera)))?;
    let d = PyDict::new(py);
    d.set_item("factor", factor)?;
    d.set_item("camera", camera)?;
    Ok((out, d))
}

/// Fewer keys within `tol`.
pub fn reduce<'py>(
    py: Python<'py>,
    data: &Data,
    tol: Tolerance,
    method: &str,
    threads: usize,
) -> PyResult<Edited<'py>> {
    let method = match method {
        "fitted" => ReduceMethod::Fitted,
        "fast" => ReduceMethod::Fast,
        "baseline" => ReduceMethod::Baseline,
        other => {
            return Err(PyValueError::new_err(format!(
                "method is 'fitted', 'fast' or 'baseline', not {other:?}"
            )))
        }
    };
    let options = edit::ReduceOptions { tolerance: tol, method, threads };
    let (out, r) = py.detach(|| guard(|| edit::reduce(data.motion(), &options)))?;
    Ok((out, reduce_report(py, &r)?))
}

/// A reduction's report as a dict: `before`, `after`, `errors`, `kept_original`.
pub fn reduce_report<'py>(py: Python<'py>, r: &edit::ReduceReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("before", counts(py, &r.before)?)?;
    d.set_item("after", counts(py, &r.after)?)?;
    d.set_item("errors", errors(py, &r.errors)?)?;
    d.set_item("kept_original", &r.kept_original)?;
    Ok(d)
}
