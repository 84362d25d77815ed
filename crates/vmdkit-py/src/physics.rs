//! `vmdkit.bake_physics`: a model's physics baked into a motion's keys, and the settings that
//! `Model.pose(..., physics=True)` and `Model.save_world(..., physics=True)` share.

use crate::calls::{detached, library_motion, python_motion};
use crate::edits::reduce_report;
use crate::errors::bake_error;
use crate::model::{pose_options, IkArg, Model};
use crate::motion::Motion;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use vmdkit::bake::{bake_physics as library_bake, PhysicsBakeOptions};
use vmdkit::edit::{ReduceOptions, Tolerance};
use vmdkit::physics::PhysicsSettings;

/// The simulation steps accepted, seconds: below, a long dance would take hours; above, hair
/// explodes (the CLI's `--physics-step` takes the same).
const STEP_RANGE: (f32, f32) = (1.0 / 2000.0, 1.0 / 20.0);
/// The longest settling accepted, seconds.
const MAX_SETTLE: f32 = 60.0;

/// The simulation's settings from Python's arguments, checked.
pub fn settings(step: f32, settle: f32, reset_distance: Option<f32>) -> PyResult<PhysicsSettings> {
    if !(STEP_RANGE.0..=STEP_RANGE.1).contains(&step) {
        return Err(PyValueError::new_err(format!(
            "step must be between 1/2000 and 1/20 seconds, not {step}"
        )));
    }
    if !(settle.is_finite() && (0.0..=MAX_SETTLE).contains(&settle)) {
        return Err(PyValueError::new_err(format!(
            "settle must be between 0 and {MAX_SETTLE} seconds, not {settle}"
        )));
    }
    if let Some(d) = reset_distance.filter(|d| !(d.is_finite() && *d > 0.0)) {
        return Err(PyValueError::new_err(format!(
            "reset_distance must be a positive distance or None (never), not {d}"
        )));
    }
    Ok(PhysicsSettings { step, settle_seconds: settle, reset_distance, ..Default::default() })
}

/// Bakes the physics of `model` playing `motion` into keys: returns `(baked, report)`, a motion
/// that plays with physics off (MMD's physics switch off, engines and Blender without a
/// rigid-body world) as `motion` plays with physics on, within 1e-4 units, and a dict of what
/// was done (the library's `PhysicsBakeReport` by field).
///
/// Every bone a simulated rigid body moves gets a key at every frame from 0 through the
/// motion's last key; every other track is kept, except IK chains over those bones (hair IK),
/// switched off. `ik` is `Model.pose`'s. `step` is the simulation's fixed step in seconds,
/// `settle` the seconds the bodies settle on the first frame's pose, `reset_distance` how far
/// the model's root may jump between two frames before the bodies are reset (None: never).
/// `reduce` thins the baked keys within `max_position_error` (units) and `max_angle_error`
/// (degrees) per bone. The work runs without the GIL.
#[pyfunction]
#[pyo3(signature = (
    motion, model, *, ik = IkArg::On(true), step = 1.0 / 120.0, settle = 1.0,
    reset_distance = Some(10.0), reduce = false, max_position_error = 0.05, max_angle_error = 0.5
))]
#[pyo3(text_signature = "(motion, model, *, ik=True, step=0.008333333333333333, settle=1.0, \
    reset_distance=10.0, reduce=False, max_position_error=0.05, max_angle_error=0.5)")]
#[allow(clippy::too_many_arguments)]
fn bake_physics<'py>(
    py: Python<'py>,
    motion: PyRef<'py, Motion>,
    model: PyRef<'py, Model>,
    ik: IkArg,
    step: f32,
    settle: f32,
    reset_distance: Option<f32>,
    reduce: bool,
    max_position_error: f64,
    max_angle_error: f64,
) -> PyResult<(Motion, Bound<'py, PyDict>)> {
    let reduce = match reduce {
        true => {
            let tolerance = crate::edits::tolerance(
                max_position_error,
                max_angle_error,
                Tolerance::default().morph,
            )?;
            Some(ReduceOptions { tolerance, ..ReduceOptions::default() })
        }
        false => None,
    };
    let options = PhysicsBakeOptions {
        physics: settings(step, settle, reset_distance)?,
        pose: pose_options(&ik)?,
        reduce,
        ..PhysicsBakeOptions::default()
    };
    let (source, library, skeleton) = (library_motion(&motion), model.library(), model.skeleton());
    let (baked, r) = detached(py, || library_bake(source, library, skeleton, &options, |_, _| {}))?
        .map_err(bake_error)?;
    let d = PyDict::new(py);
    d.set_item("bodies", r.physics.bodies)?;
    d.set_item("joints", r.physics.joints)?;
    d.set_item("frames", r.frames)?;
    d.set_item("steps", r.physics.steps)?;
    d.set_item("resets", r.physics.resets)?;
    d.set_item("max_joint_error", r.physics.max_joint_error)?;
    d.set_item("baked_bones", &r.baked_bones)?;
    d.set_item("chains_switched_off", r.chains_switched_off)?;
    d.set_item("unkeyable_bones", &r.unkeyable_bones)?;
    d.set_item("keys", r.keys)?;
    d.set_item("max_position_error", r.max_position_error)?;
    d.set_item("max_rotation_error_degrees", r.max_rotation_error_degrees)?;
    d.set_item("reduce", r.reduce.as_ref().map(|r| reduce_report(py, r)).transpose()?)?;
    Ok((python_motion(baked), d))
}

/// Adds `bake_physics` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bake_physics, m)?)?;
    Ok(())
}
