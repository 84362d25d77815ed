//! `retarget`: NumPy keypoints onto a model as a `Motion`, with the report as a dict; and
//! `keypoints`, the inverse: a motion played on a model, read off as a layout's joints. Both are
//! `vmdkit::retarget`'s, with the options of `vmdkit retarget` and `vmdkit keypoints`.

use crate::arrays::try_collect;
use crate::calls::{detached, library_motion, python_motion};
use crate::errors::VmdError;
use crate::model::Model;
use crate::motion::Motion;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use vmdkit::edit::Tolerance;
use vmdkit::keypoints::{JointLayout, Keypoints, Smoothing, Units, UpAxis};
use vmdkit::retarget::face::{model_morphs, FaceOptions, MorphMap};
use vmdkit::retarget::{
    FloorMode, InputAxes, KeyMode, KeypointOptions, RetargetError as LibraryError, RetargetOptions,
    ScaleMode,
};

create_exception!(
    vmdkit,
    RetargetError,
    VmdError,
    "A retargeting that cannot be done: an unknown or undetectable layout, keypoints that do \
     not fit it, a model without the bones a body needs, no usable frame."
);

/// The built-in standard model, built once: `retarget` and `keypoints` use it when given no
/// model.
fn standard(py: Python<'_>) -> PyResult<&'static Model> {
    static STANDARD: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
    detached(py, || STANDARD.get_or_init(|| Model::new(vmdkit::example::standard_model())))
}

/// A `layout` argument: a built-in name, "auto", or a mapping file.
#[derive(FromPyObject)]
enum LayoutArg {
    Name(String),
    Path(PathBuf),
}

/// A `units` argument: "mm", "cm", "m", or metres per unit.
#[derive(FromPyObject)]
enum UnitsArg {
    Name(String),
    Metres(f64),
}

/// A `smooth` argument: a level's name or a cutoff in hertz.
#[derive(FromPyObject)]
enum SmoothArg {
    Level(String),
    Hz(f64),
}

/// The keypoints' joint order: "auto" (from `names`, else the joint count), a built-in layout's
/// name, or a mapping file's path.
fn layout(
    spec: &LayoutArg,
    names: Option<&[String]>,
    joints: Option<usize>,
    hand: Option<&str>,
) -> PyResult<JointLayout> {
    let hand = match hand {
        None => None,
        Some("left") => Some(vmdkit::roles::Side::Left),
        Some("right") => Some(vmdkit::roles::Side::Right),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "hand must be \"left\", \"right\" or None, not {other:?}"
            )))
        }
    };
    let failed = |e: vmdkit::keypoints::JointLayoutError| {
        let hint = if e.choosing_a_layout_may_help() {
            "; pass layout= to name one (a built-in name or a mapping file)"
        } else if e.giving_the_hand_side_may_help() {
            "; pass hand=\"left\" or hand=\"right\""
        } else {
            ""
        };
        RetargetError::new_err(format!("{e}{hint}"))
    };
    let path = match spec {
        LayoutArg::Name(text) if text.eq_ignore_ascii_case("auto") => {
            let Some(joints) = joints else {
                return Err(PyValueError::new_err("layout must be named here, not \"auto\""));
            };
            return JointLayout::detect_with(names, joints, hand).map_err(failed);
        }
        LayoutArg::Name(text) if !std::path::Path::new(text).is_file() => {
            return JointLayout::builtin_for(text, hand, joints).map_err(failed);
        }
        LayoutArg::Name(text) => std::path::Path::new(text),
        LayoutArg::Path(path) => path.as_path(),
    };
    JointLayout::from_file(path)
        .map_err(|e| RetargetError::new_err(format!("{}: {e}", path.display())))
}

/// The library's names as Python literals for a message: `"y", "-y", "z" or "-z"`, or with
/// `more` ("a positive cutoff in Hz") as the last choice.
fn choices(names: &[&str], more: Option<&str>) -> String {
    let mut quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    if let Some(more) = more {
        quoted.push(more.to_string());
    }
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// `units` as the library's.
fn units(value: &UnitsArg) -> PyResult<Units> {
    let parsed = match value {
        UnitsArg::Metres(m) if m.is_finite() && *m > 0.0 => Some(Units::MetresPer(*m)),
        UnitsArg::Metres(_) => None,
        UnitsArg::Name(text) => text.parse().ok(),
    };
    parsed.ok_or_else(|| {
        let given = match value {
            UnitsArg::Metres(m) => m.to_string(),
            UnitsArg::Name(text) => format!("{text:?}"),
        };
        let accepted = choices(Units::NAMES, Some("a positive number of metres per unit"));
        PyValueError::new_err(format!("units must be {accepted}, not {given}"))
    })
}

fn up_axis(text: &str) -> PyResult<UpAxis> {
    text.parse().map_err(|_| {
        PyValueError::new_err(format!("up must be {}, not {text:?}", choices(UpAxis::NAMES, None)))
    })
}

/// `smooth` as the library's: a level's name, or a cutoff in hertz given as a number or as
/// text ("2.5"), which must be finite and positive either way.
fn smoothing(value: &SmoothArg) -> PyResult<Smoothing> {
    let parsed = match value {
        SmoothArg::Hz(hz) if hz.is_finite() && *hz > 0.0 => {
            Ok(Smoothing::Custom { cutoff_hz: *hz })
        }
        SmoothArg::Hz(hz) => Err(hz.to_string()),
        SmoothArg::Level(level) => level.parse().map_err(|_| format!("{level:?}")),
    };
    parsed.map_err(|given| {
        let accepted = choices(Smoothing::NAMES, Some("a positive cutoff in Hz"));
        PyValueError::new_err(format!("smooth must be {accepted}, not {given}"))
    })
}

fn floor(text: &str) -> PyResult<FloorMode> {
    text.parse().map_err(|_| {
        let accepted = choices(FloorMode::NAMES, None);
        PyValueError::new_err(format!("floor must be {accepted}, not {text:?}"))
    })
}

/// A float32 array of `obj`, as NumPy converts it.
fn float32<'py>(obj: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArrayDyn<'py, f32>> {
    let numpy = obj.py().import("numpy")?;
    numpy.call_method1("asarray", (obj, numpy.getattr("float32")?))?.extract()
}

/// The library's error as a `RetargetError` (or `ValueError` for an option out of range).
fn retarget_error(err: LibraryError) -> PyErr {
    match err {
        LibraryError::Option(message) => PyValueError::new_err(message),
        LibraryError::TooLarge(e) => RetargetError::new_err(crate::errors::too_large_message(&e)),
        other => RetargetError::new_err(other.to_string()),
    }
}

/// Retargets 3D keypoints onto a model: returns `(motion, report)`, a 30 fps `Motion` and a
/// dict of what was done and how well the motion fits (scale, floor, contacts, keys, per-joint
/// residuals, direction errors, handedness; model units), as `vmdkit retarget --json` prints.
///
/// `keypoints` is an (F, J, 3) array (NaN marks a missing joint) in the joint order of
/// `layout`: "auto" (detected from `names`, else from J), a built-in name (h36m, lftd17,
/// coco17, blazepose33, body25, body25b, smpl24, mediapipe_hand, mediapipe_hands, holistic,
/// holistic_iris, mediapipe_face, mediapipe_face_iris, coco_wholebody, smplx) or a mapping
/// file; `hand` ("left" or "right") is the side of a lone hand whose names do not say it
/// (MediaPipe's unprefixed `wrist`, `thumb_cmc`, …). `model` defaults to
/// vmdkit's standard model. `fps` is the input rate; `units` ("mm", "cm", "m" or metres per
/// unit) only sets the report's metres; `up` is the input's up axis ("y", "-y", "z", "-z") and
/// `left_handed` says the input is left-handed, as MMD is. `confidence` (F, J) weighs joints;
/// at or below `min_confidence` they count as missing. `smooth` is "none", "light", "normal",
/// "strong" or a cutoff in Hz; `ik` keys leg IK (else it is switched off); `dense` keeps one key
/// per frame, else keys are thinned within `max_position_error` (model units) and
/// `max_angle_error` (degrees). `scale` fixes model units per input unit instead of estimating
/// it; `floor="keep"` keeps the input's placement. `detect_handedness` mirrors back or turns
/// upright an input whose anatomy says its axes are wrong. For a face, `morph_map` is a file
/// of `role = morph name` lines (roles blink, blink_left, blink_right, smile_eyes, a, i, u, e,
/// o, brow_up, brow_down, brow_sad, brow_angry, mouth_smile) naming the model's morph for a
/// role over the standard names, and `calibrate` takes the neutral face from the first that
/// many frames (at 30 fps) instead of the whole clip's medians; the report's `face` (morphs
/// driven, missing, gaze and head bones) and `fingers` sections are None when the input has no
/// face or no hands. Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (
    keypoints, layout = LayoutArg::Name("auto".into()), model = None, fps = 30.0, units = None,
    up = "y", *, confidence = None, names = None, left_handed = false, detect_handedness = true,
    smooth = SmoothArg::Level("normal".into()), ik = true, dense = false, max_position_error = None, max_angle_error = None,
    scale = None, floor = "estimate", min_confidence = 0.3, hand = None, morph_map = None,
    calibrate = None
))]
// The defaults spelled out: pyo3 shows the enum ones as `...`, which stubtest rejects.
#[pyo3(text_signature = "(keypoints, layout='auto', model=None, fps=30.0, units=None, up='y', \
    *, confidence=None, names=None, left_handed=False, detect_handedness=True, smooth='normal', \
    ik=True, dense=False, max_position_error=None, max_angle_error=None, scale=None, \
    floor='estimate', min_confidence=0.3, hand=None, morph_map=None, calibrate=None)")]
#[allow(clippy::too_many_arguments)]
fn retarget<'py>(
    py: Python<'py>,
    keypoints: &Bound<'py, PyAny>,
    layout: LayoutArg,
    model: Option<PyRef<'py, Model>>,
    fps: f64,
    units: Option<UnitsArg>,
    up: &str,
    confidence: Option<&Bound<'py, PyAny>>,
    names: Option<Vec<String>>,
    left_handed: bool,
    detect_handedness: bool,
    smooth: SmoothArg,
    ik: bool,
    dense: bool,
    max_position_error: Option<f64>,
    max_angle_error: Option<f64>,
    scale: Option<f64>,
    floor: &str,
    min_confidence: f32,
    hand: Option<&str>,
    morph_map: Option<PathBuf>,
    calibrate: Option<usize>,
) -> PyResult<(Motion, Bound<'py, PyDict>)> {
    let input = keypoint_input(keypoints, confidence)?;
    let morph_map = morph_map.as_deref().map(self::morph_map).transpose()?;
    if calibrate == Some(0) {
        return Err(PyValueError::new_err("calibrate must be a number of frames ≥ 1"));
    }
    if let Some(n) = &names {
        if n.len() != input.joint_count {
            return Err(PyValueError::new_err(format!(
                "names has {} entries but the keypoints have {} joints",
                n.len(),
                input.joint_count
            )));
        }
    }
    let layout = self::layout(&layout, names.as_deref(), Some(input.joint_count), hand)?;
    let keys = if dense {
        KeyMode::Dense
    } else {
        let default = Tolerance::default();
        let tolerance = Tolerance {
            position: max_position_error.unwrap_or(default.position),
            angle_degrees: max_angle_error.unwrap_or(default.angle_degrees),
            ..default
        };
        let valid = |v: f64| v.is_finite() && v >= 0.0;
        if !(valid(tolerance.position) && valid(tolerance.angle_degrees)) {
            return Err(PyValueError::new_err(
                "max_position_error and max_angle_error must be ≥ 0",
            ));
        }
        KeyMode::Thinned(tolerance)
    };
    let target: &Model = match &model {
        Some(m) => m,
        None => standard(py)?,
    };
    // Options the library gains later (such as output size limits) keep their defaults.
    #[allow(clippy::needless_update)]
    let options = RetargetOptions {
        fps,
        axes: InputAxes { up: up_axis(up)?, left_handed },
        units: units.as_ref().map(self::units).transpose()?,
        scale: match scale {
            Some(s) => ScaleMode::Fixed(s),
            None => ScaleMode::Estimate,
        },
        smoothing: smoothing(&smooth)?,
        ik,
        keys,
        floor: self::floor(floor)?,
        min_confidence,
        model_name: target.library().name.clone(),
        detect_handedness,
        // The face solver keys only the morphs it knows the model has.
        face: FaceOptions {
            model_morphs: Some(model_morphs(target.library())),
            morph_map,
            calibrate_frames: calibrate,
        },
        ..RetargetOptions::default()
    };
    let skeleton = target.skeleton();
    let out = detached(py, || vmdkit::retarget::retarget(&input, &layout, skeleton, &options))?
        .map_err(retarget_error)?;
    // Through JSON text, so that the dict's keys keep the report's order, as the CLI prints it.
    let report = serde_json::to_string(&out.report)
        .map_err(|e| VmdError::new_err(format!("the report could not be converted: {e}")))?;
    let report = py.import("json")?.call_method1("loads", (report,))?.cast_into::<PyDict>()?;
    Ok((python_motion(out.motion), report))
}

/// A `morph_map` file: `role = morph name` lines, read and checked before any work.
fn morph_map(path: &std::path::Path) -> PyResult<MorphMap> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!(
            "cannot read the morph map {}: {e}",
            path.display()
        ))
    })?;
    MorphMap::parse(&text).map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))
}

/// Keypoints from the arrays the caller gave.
fn keypoint_input(
    keypoints: &Bound<'_, PyAny>,
    confidence: Option<&Bound<'_, PyAny>>,
) -> PyResult<Keypoints> {
    let array = float32(keypoints)?;
    let shape = array.shape().to_vec();
    let [frames, joints, 3] = shape[..] else {
        return Err(PyValueError::new_err(format!(
            "keypoints must be an (F, J, 3) array, not of shape {shape:?}"
        )));
    };
    let view = array.as_array();
    let flat = try_collect(view.len(), view.iter().copied(), "the keypoints")?;
    let points = flat.chunks_exact(3).map(|c| glam::Vec3::new(c[0], c[1], c[2]));
    let positions = try_collect(frames * joints, points, "the keypoints")?;
    // Freed before the confidences are copied.
    drop(flat);
    let confidence = match confidence {
        Some(c) if !c.is_none() => {
            let c = float32(c)?;
            if c.shape() != [frames, joints] {
                return Err(PyValueError::new_err(format!(
                    "confidence must be an (F, J) array of shape {:?}, not {:?}",
                    [frames, joints],
                    c.shape()
                )));
            }
            let view = c.as_array();
            Some(try_collect(view.len(), view.iter().copied(), "the confidences")?)
        }
        _ => None,
    };
    Ok(Keypoints {
        frame_count: frames,
        joint_count: joints,
        positions,
        confidence,
        ..Keypoints::default()
    })
}

/// Plays `motion` on `model` (None: vmdkit's standard model) and reads off the joints of
/// `layout` (a built-in name or a mapping file; `hand`, "left" or "right", the side
/// `mediapipe_hand` writes), the inverse of `retarget`. Returns
/// `(positions, names)`: an (F, J, 3) float32 array, NaN where the model cannot place a joint,
/// and the layout's joint names. Samples run from frame 0 through the last key at `fps`
/// (None: 30); model units become metres at 8 cm per unit before `units` applies; `up` and
/// `left_handed` pick the output axes (default right-handed, Y up, as estimators write), so
/// `retarget` with the same arguments reads the result back. Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (motion, model, layout, *, fps = None, units = None, up = "y", left_handed = false, hand = None))]
#[allow(clippy::too_many_arguments)]
fn keypoints<'py>(
    py: Python<'py>,
    motion: PyRef<'py, Motion>,
    model: Option<PyRef<'py, Model>>,
    layout: LayoutArg,
    fps: Option<f64>,
    units: Option<UnitsArg>,
    up: &str,
    left_handed: bool,
    hand: Option<&str>,
) -> PyResult<(Bound<'py, PyArrayDyn<f32>>, Vec<String>)> {
    let layout = self::layout(&layout, None, None, hand)?;
    // As in `retarget`: options the library gains later keep their defaults.
    #[allow(clippy::needless_update)]
    let options = KeypointOptions {
        fps: fps.unwrap_or(30.0),
        axes: InputAxes { up: up_axis(up)?, left_handed },
        units: units.as_ref().map(self::units).transpose()?.unwrap_or(Units::Metres),
        ..KeypointOptions::default()
    };
    let target: &Model = match &model {
        Some(m) => m,
        None => standard(py)?,
    };
    let (skeleton, motion) = (target.skeleton(), library_motion(&motion));
    let kp = detached(py, || {
        vmdkit::retarget::keypoints_from_motion(motion, skeleton, &layout, &options)
    })?
    .map_err(retarget_error)?;
    let flat: Vec<f32> = kp.positions.iter().flat_map(|p| p.to_array()).collect();
    let array = PyArray1::from_vec(py, flat).reshape(vec![kp.frame_count, kp.joint_count, 3])?;
    let names = layout.joints.iter().map(|j| j.name.clone()).collect();
    Ok((array, names))
}

/// Adds `retarget`, `keypoints` and `RetargetError` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(retarget, m)?)?;
    m.add_function(wrap_pyfunction!(keypoints, m)?)?;
    m.add("RetargetError", m.py().get_type::<RetargetError>())?;
    Ok(())
}
