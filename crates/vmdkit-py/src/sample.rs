//! Sampling a motion at many times into NumPy arrays, as MMD plays it (`vmdkit::eval`).
//!
//! The times are checked and the tracks chosen with the GIL held; the sampling itself runs
//! without it, into vectors that become the arrays without a copy.

use crate::arrays::{finite_times, try_vec, vec1, vec2, vec3};
use crate::data::Data;
use crate::errors::guard;
use numpy::{AllowTypeChange, PyArrayLike1};
use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use vmdkit::eval::{BoneSample, Cursor, MotionSampler};

/// Positions (F, B, 3) and rotations (F, B, 4).
pub type BoneSamples = (Py<numpy::PyArray3<f32>>, Py<numpy::PyArray3<f32>>);

/// The times asked for, as f64, each finite.
pub fn frame_times(frames: PyArrayLike1<'_, f64, AllowTypeChange>) -> PyResult<Vec<f64>> {
    finite_times(frames.as_array().iter(), "frame times must be finite")
}

/// The tracks of `wanted` (str names as text in the motion's encoding, bytes as raw names),
/// by `find_text` and `find_raw`; a name the motion has no track of is a KeyError.
fn chosen(
    wanted: &Bound<'_, PyAny>,
    what: &str,
    find_text: impl Fn(&str) -> Option<usize>,
    find_raw: impl Fn(&[u8]) -> Option<usize>,
) -> PyResult<Vec<usize>> {
    if wanted.is_instance_of::<PyString>() || wanted.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!("{what}s must be a list of names, not one name")));
    }
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for name in wanted.try_iter()? {
        let name = name?;
        let found = if let Ok(text) = name.cast::<PyString>() {
            find_text(&text.to_cow()?)
        } else if let Ok(raw) = name.cast::<PyBytes>() {
            find_raw(raw.as_bytes())
        } else {
            let ty = name.get_type().name()?;
            return Err(PyTypeError::new_err(format!("{what} names are str or bytes, not {ty}")));
        };
        match found {
            Some(i) => out.push(i),
            None => missing.push(name.repr()?.to_string()),
        }
    }
    if !missing.is_empty() {
        let list = missing.join(", ");
        return Err(PyKeyError::new_err(format!("the motion has no {what} named {list}")));
    }
    Ok(out)
}

/// Indices of the bone tracks for `bones` (every track when None).
fn bone_tracks(
    data: &Data,
    sampler: &MotionSampler,
    bones: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<usize>> {
    let tracks = sampler.bone_tracks();
    let Some(bones) = bones else { return Ok((0..tracks.len()).collect()) };
    let encoding = data.encoding();
    let index_of = |t: &vmdkit::eval::BoneTrack| tracks.iter().position(|u| std::ptr::eq(u, t));
    chosen(
        bones,
        "bone",
        |name| sampler.bone_track_named(name, encoding).and_then(index_of),
        |raw| sampler.bone_track(raw).and_then(index_of),
    )
}

/// Bone positions (F, B, 3) and rotations (F, B, 4) at `times`.
pub fn sample_bones<'py>(
    py: Python<'py>,
    data: &Data,
    times: Vec<f64>,
    bones: Option<&Bound<'py, PyAny>>,
) -> PyResult<BoneSamples> {
    let sampler = py.detach(|| guard(|| data.sampler()))?;
    let chosen = bone_tracks(data, sampler, bones)?;
    let every = bones.is_none();
    let (f, b) = (times.len(), chosen.len());
    let mut positions = try_vec(&[f, b, 3], "the sampled positions")?;
    let mut rotations = try_vec(&[f, b, 4], "the sampled rotations")?;
    let (positions, rotations) = py.detach(|| {
        guard(|| {
            let mut row = vec![BoneSample::default(); b];
            // A playhead (or a cursor per track) steps forward through increasing times
            // instead of searching each one.
            let mut playhead = sampler.playhead();
            let mut cursors = vec![Cursor::default(); b];
            let tracks = sampler.bone_tracks();
            for &t in &times {
                if every {
                    sampler.sample_bones_with(&mut playhead, t, &mut row);
                } else {
                    for ((out, &i), cursor) in row.iter_mut().zip(&chosen).zip(&mut cursors) {
                        *out = tracks[i].sample_with(cursor, t);
                    }
                }
                for s in &row {
                    positions.extend_from_slice(&s.translation.to_array());
                    rotations.extend_from_slice(&s.rotation.to_array());
                }
            }
            (positions, rotations)
        })
    })?;
    Ok((vec3(py, positions, [f, b, 3]), vec3(py, rotations, [f, b, 4])))
}

/// Morph weights (F, M) at `times`.
pub fn sample_morphs<'py>(
    py: Python<'py>,
    data: &Data,
    times: Vec<f64>,
    morphs: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<numpy::PyArray2<f32>>> {
    let sampler = py.detach(|| guard(|| data.sampler()))?;
    let tracks = sampler.morph_tracks();
    let chosen = match morphs {
        None => (0..tracks.len()).collect(),
        Some(morphs) => {
            let encoding = data.encoding();
            let index_of =
                |t: &vmdkit::eval::MorphTrack| tracks.iter().position(|u| std::ptr::eq(u, t));
            chosen(
                morphs,
                "morph",
                |name| sampler.morph_track_named(name, encoding).and_then(index_of),
                |raw| sampler.morph_track(raw).and_then(index_of),
            )?
        }
    };
    let mut weights = try_vec(&[times.len(), chosen.len()], "the sampled weights")?;
    let weights = py.detach(|| {
        guard(|| {
            let mut cursors = vec![Cursor::default(); chosen.len()];
            for &t in &times {
                for (&i, cursor) in chosen.iter().zip(&mut cursors) {
                    weights.push(tracks[i].sample_with(cursor, t));
                }
            }
            weights
        })
    })?;
    Ok(vec2(py, weights, [times.len(), chosen.len()]))
}

/// The camera at `times` as a dict of arrays, or None without camera keys.
pub fn sample_camera<'py>(
    py: Python<'py>,
    data: &Data,
    times: Vec<f64>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let sampler = py.detach(|| guard(|| data.sampler()))?;
    let Some(track) = sampler.camera_track() else { return Ok(None) };
    struct Columns {
        target: Vec<f32>,
        distance: Vec<f32>,
        rotation: Vec<f32>,
        fov: Vec<f32>,
        perspective: Vec<bool>,
        eye: Vec<f32>,
        forward: Vec<f32>,
        up: Vec<f32>,
    }
    let f = times.len();
    let floats = |width| try_vec::<f32>(&[f, width], "the sampled camera");
    let mut c = Columns {
        target: floats(3)?,
        distance: floats(1)?,
        rotation: floats(3)?,
        fov: floats(1)?,
        perspective: try_vec(&[f], "the sampled camera")?,
        eye: floats(3)?,
        forward: floats(3)?,
        up: floats(3)?,
    };
    let c = py.detach(|| {
        guard(|| {
            let mut cursor = Cursor::default();
            for &t in &times {
                let s = track.sample_with(&mut cursor, t);
                let view = s.view();
                c.target.extend_from_slice(&s.target.to_array());
                c.distance.push(s.distance);
                c.rotation.extend_from_slice(&s.rotation.to_array());
                c.fov.push(s.fov);
                c.perspective.push(s.perspective);
                c.eye.extend_from_slice(&view.eye.to_array());
                c.forward.extend_from_slice(&view.forward.to_array());
                c.up.extend_from_slice(&view.up.to_array());
            }
            c
        })
    })?;
    let d = PyDict::new(py);
    d.set_item("target", vec2(py, c.target, [f, 3]))?;
    d.set_item("distance", vec1(py, c.distance))?;
    d.set_item("rotation", vec2(py, c.rotation, [f, 3]))?;
    d.set_item("fov", vec1(py, c.fov))?;
    d.set_item("perspective", vec1(py, c.perspective))?;
    d.set_item("eye", vec2(py, c.eye, [f, 3]))?;
    d.set_item("forward", vec2(py, c.forward, [f, 3]))?;
    d.set_item("up", vec2(py, c.up, [f, 3]))?;
    Ok(Some(d))
}
