//! `Model`: a PMX, PMD or bone-CSV model's skeleton as arrays, and `Model.pose`, a motion
//! played on it as world-space arrays: the same posing as `vmdkit bake --model`.

use crate::arrays::{finite_times, try_vec};
use crate::calls::{detached, library_motion, os_error};
use crate::errors::{bake_error, VmdError};
use crate::motion::Motion;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use vmdkit::bake::{bake_physics, bake_world_with_physics, BakeSettings, PhysicsBakeOptions};
use vmdkit::eval::MotionSampler;
use vmdkit::limit::sample_count;
use vmdkit::model::ModelFormat;
use vmdkit::physics::PhysicsSettings;
use vmdkit::skeleton::{
    Axes, Binding, IkVariant, Pose, PoseOptions, Poser, Skeleton, METRES_PER_UNIT,
};

create_exception!(
    vmdkit,
    ModelError,
    VmdError,
    "A model file that cannot be read: `path`, `section`, `record` and `offset` say where."
);

/// The largest output `Model.pose` makes when it picks the frames itself: a motion's frame span
/// comes from its bytes, and one key at frame 4,294,967,295 would ask for tens of gigabytes.
const MAX_IMPLICIT_BYTES: u64 = 4 << 30;

/// `Model.pose`'s result: positions and rotations.
type PoseArrays<'py> = (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<f32>>);

/// A model's skeleton: bones, parents and rest positions, ready to pose motions on.
#[pyclass(module = "vmdkit", frozen)]
pub struct Model {
    model: vmdkit::model::Model,
    skeleton: Skeleton,
}

impl Model {
    /// The model, with its skeleton built once for every pose.
    pub fn new(model: vmdkit::model::Model) -> Model {
        let skeleton = Skeleton::new(&model);
        Model { model, skeleton }
    }

    /// The library model.
    pub fn library(&self) -> &vmdkit::model::Model {
        &self.model
    }

    /// The skeleton built from it.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }
}

#[pymethods]
impl Model {
    /// Reads a PMX (2.0, 2.1), PMD or PmxEditor bone-table CSV model from a path (str or
    /// os.PathLike) or from bytes. Only the bones and bone morphs are kept for posing;
    /// `morph_names` lists every morph.
    #[staticmethod]
    fn read(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Model> {
        if let Ok(bytes) = source.cast::<PyBytes>() {
            let data = bytes.as_bytes();
            let parsed = detached(py, || vmdkit::model::Model::parse(data).map(Model::new))?;
            return parsed.map_err(|e| model_error(py, None, &e));
        }
        let path: PathBuf = source.extract()?;
        let read = detached(py, || vmdkit::model::Model::read_file(&path).map(Model::new))?;
        read.map_err(|e| {
            let label = e.path().display().to_string();
            match e {
                vmdkit::FileError::Io { error, .. } => os_error(py, &label, error),
                vmdkit::FileError::Format { error, .. } => model_error(py, Some(&label), &error),
                other => VmdError::new_err(other.to_string()),
            }
        })
    }

    /// vmdkit's built-in standard model: MMD's standard and semi-standard bones in an A-pose
    /// about 20 units tall, bones only. The default target of `vmdkit.retarget`.
    #[staticmethod]
    fn standard(py: Python<'_>) -> PyResult<Model> {
        detached(py, || Model::new(vmdkit::example::standard_model()))
    }

    /// The bone names, in the model's bone order (the order of every per-bone array).
    #[getter]
    fn bone_names(&self) -> Vec<String> {
        self.skeleton.bone_names().to_vec()
    }

    /// The English bone names (empty strings where the file has none).
    #[getter]
    fn bone_names_en(&self) -> Vec<String> {
        self.model.bones.iter().map(|b| b.name_en.clone()).collect()
    }

    /// Every morph's name, of every kind (vertex, bone, group, ...), in file order: what a
    /// VMD morph key may name (empty for a bone CSV). Only bone morphs pose the skeleton; the
    /// rest are listed so that a caller can see which facial morphs the model offers.
    #[getter]
    fn morph_names(&self) -> Vec<String> {
        self.model.morph_list.iter().map(|m| m.name.clone()).collect()
    }

    /// Each bone's parent index, (B,) int32, -1 for roots.
    #[getter]
    fn parents<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let s = &self.skeleton;
        let parents = (0..s.bone_count()).map(|b| s.parent(b).map_or(-1, |p| p as i32));
        PyArray1::from_vec(py, parents.collect())
    }

    /// Each bone's rest (bind pose) position, (B, 3) float32, model space: MMD units in MMD's
    /// left-handed frame (Y up, the model faces -Z).
    #[getter]
    fn rest_positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let s = &self.skeleton;
        let flat: Vec<f32> =
            (0..s.bone_count()).flat_map(|b| s.rest_position(b).to_array()).collect();
        PyArray1::from_vec(py, flat).reshape(vec![s.bone_count(), 3])
    }

    /// The model's name, usually Japanese (a VMD made for it carries it in its header).
    #[getter]
    fn name(&self) -> &str {
        &self.model.name
    }

    /// The model's English name (empty when the file has none).
    #[getter]
    fn name_en(&self) -> &str {
        &self.model.name_en
    }

    /// The model's comment (author, terms of use).
    #[getter]
    fn comment(&self) -> &str {
        &self.model.comment
    }

    /// The English comment (empty when the file has none).
    #[getter]
    fn comment_en(&self) -> &str {
        &self.model.comment_en
    }

    /// The file's kind: "pmx", "pmd" or "bone_csv".
    #[getter]
    fn format(&self) -> &'static str {
        match self.model.format {
            ModelFormat::Pmx { .. } => "pmx",
            ModelFormat::Pmd { .. } => "pmd",
            _ => "bone_csv",
        }
    }

    /// The index of the bone named `name`, or None.
    fn bone_index(&self, name: &str) -> Option<usize> {
        self.skeleton.bone_index(name)
    }

    /// The number of bones.
    fn __len__(&self) -> usize {
        self.skeleton.bone_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "<vmdkit.Model {:?} ({}): {} bones, {} IK chains>",
            self.model.name,
            self.format(),
            self.skeleton.bone_count(),
            self.skeleton.ik_count()
        )
    }

    /// Plays `motion` on the model and returns `(positions, rotations)`: every bone's world
    /// (model-space) position, shape `frames.shape + (B, 3)`, and rotation from the bind pose as
    /// a quaternion (x, y, z, w), shape `frames.shape + (B, 4)`, both float32 in the model's
    /// bone order.
    ///
    /// `frames` are MMD frames (1/30 s, fractions allowed), any array-like of numbers; None
    /// samples from frame 0 through the motion's last key at `fps` per second, as
    /// `vmdkit bake --model` does. `ik` is True (MMD's CCD), False (the keyed pose, no IK) or
    /// "mmd", "plain" or "off". `metres` scales positions by 0.08 (one MMD unit is about
    /// 8 cm). `up` picks the frame: None (the default) MMD's own left-handed Y up, as the CLI
    /// without `--up`; "y" right-handed Y up (Z mirrored; glTF, three.js); "z" right-handed
    /// Z up (Blender): as the CLI's `--up`. `physics=True` simulates the model's rigid bodies
    /// (hair, skirts) as MMD does: physics needs the history, so the motion is played from frame
    /// 0 through its last key with the default settings and baked into keys at every frame
    /// (`vmdkit.bake_physics`), and `frames` are posed from those (linear between whole
    /// frames), as the CLI's `--physics`. The work runs without the GIL.
    #[pyo3(signature = (
        motion, frames, *, fps = 30.0, ik = IkArg::On(true), metres = false, up = None,
        physics = false
    ))]
    // The defaults spelled out: pyo3 shows the enum ones as `...`, which stubtest rejects.
    #[pyo3(text_signature = "(self, motion, frames, *, fps=30.0, ik=True, metres=False, up=None, \
        physics=False)")]
    #[allow(clippy::too_many_arguments)]
    fn pose<'py>(
        &self,
        py: Python<'py>,
        motion: PyRef<'py, Motion>,
        frames: Option<&Bound<'py, PyAny>>,
        fps: f64,
        ik: IkArg,
        metres: bool,
        up: Option<&str>,
        physics: bool,
    ) -> PyResult<PoseArrays<'py>> {
        let axes = axes(up)?;
        let options = pose_options(&ik)?;
        let frames = match frames {
            Some(f) => Some(frame_array(py, f)?),
            None if fps.is_finite() && fps > 0.0 => None,
            None => return Err(PyValueError::new_err(format!("fps must be positive, not {fps}"))),
        };
        let job = PoseJob {
            model: &self.model,
            skeleton: &self.skeleton,
            motion: library_motion(&motion),
            physics: physics.then(PhysicsSettings::default),
            options,
            axes,
            scale: if metres { METRES_PER_UNIT as f32 } else { 1.0 },
        };
        let times = frames.as_ref().map(|(_, times)| times.as_slice());
        let baked = detached(py, || job.run(times, fps))??;
        let mut dims = match frames {
            Some((shape, _)) => shape,
            None => vec![baked.frames],
        };
        dims.push(self.skeleton.bone_count());
        let mut rotation_dims = dims.clone();
        dims.push(3);
        rotation_dims.push(4);
        let positions = PyArray1::from_vec(py, baked.positions).reshape(dims)?;
        let rotations = PyArray1::from_vec(py, baked.rotations).reshape(rotation_dims)?;
        Ok((positions, rotations))
    }
    /// Bakes `motion` on the model into the NumPy archive `path`, written atomically, and
    /// returns the number of samples: the world joints of `vmdkit bake --model … -o x.npz`,
    /// byte for byte, with the same keys and metadata (`positions`, `rotations`, `names`,
    /// `parents`, `fps`, `frames`, `scale`, `units`, `axes`; see docs/world-npz.md).
    ///
    /// Samples run from frame 0 through the motion's last key at `fps`; `ik`, `metres` and
    /// `up` are those of `pose` (None, the default: MMD's own left-handed Y-up frame), and so is
    /// `physics` (the CLI's `bake --model --physics`).
    #[pyo3(signature = (
        motion, path, *, fps = 30.0, ik = IkArg::On(true), metres = false, up = None,
        physics = false
    ))]
    #[pyo3(text_signature = "(self, motion, path, *, fps=30.0, ik=True, metres=False, up=None, \
        physics=False)")]
    #[allow(clippy::too_many_arguments)]
    fn save_world(
        &self,
        py: Python<'_>,
        motion: PyRef<'_, Motion>,
        path: PathBuf,
        fps: f64,
        ik: IkArg,
        metres: bool,
        up: Option<&str>,
        physics: bool,
    ) -> PyResult<usize> {
        if !(fps.is_finite() && fps > 0.0) {
            return Err(PyValueError::new_err(format!("fps must be positive, not {fps}")));
        }
        let settings = BakeSettings {
            fps,
            scale: if metres { METRES_PER_UNIT } else { 1.0 },
            axes: axes(up)?,
            pose: pose_options(&ik)?,
            physics: physics.then(PhysicsSettings::default),
            ..BakeSettings::default()
        };
        let (motion, model, skeleton) = (library_motion(&motion), &self.model, &self.skeleton);
        // The library's own bake and writer, so that the layout cannot drift from the CLI's.
        let (bake, _) = detached(py, || {
            bake_world_with_physics(motion, model, skeleton, &settings, |_, _, _| {})
        })?
        .map_err(bake_error)?;
        // Streamed into the temporary file: the arrays are not held twice.
        detached(py, || vmdkit::io::write_atomic_with(&path, |w| bake.write_npz(w)))?
            .map_err(|e| os_error(py, &path.display().to_string(), e))?;
        Ok(bake.frames.len())
    }
}

/// A `ModelError` for a library error, with its location as attributes.
fn model_error(py: Python<'_>, path: Option<&str>, err: &vmdkit::model::ModelError) -> PyErr {
    let message = match path {
        Some(p) => format!("{p}: {err}"),
        None => err.to_string(),
    };
    let exc = ModelError::new_err(message);
    let value = exc.value(py);
    let _ = value.setattr("path", path);
    let _ = value.setattr("section", err.section.name());
    let _ = value.setattr("record", err.record);
    let _ = value.setattr("offset", err.offset);
    exc
}

/// `up` as the CLI's `--up` reads it (None: no `--up`).
pub fn axes(up: Option<&str>) -> PyResult<Axes> {
    match up {
        None => Ok(Axes::Mmd),
        Some(u) if u.eq_ignore_ascii_case("y") => Ok(Axes::RightHandedYUp),
        Some(u) if u.eq_ignore_ascii_case("z") => Ok(Axes::RightHandedZUp),
        Some(u) => Err(PyValueError::new_err(format!(
            "up must be \"y\", \"z\" or None (MMD's own left-handed frame), not {u:?}"
        ))),
    }
}

/// An `ik` argument: on or off, or the CLI's `--ik` mode.
#[derive(FromPyObject)]
pub enum IkArg {
    On(bool),
    Mode(String),
}

/// `ik` as posing options: on or off, or a solver by the library's name, or "off".
pub fn pose_options(ik: &IkArg) -> PyResult<PoseOptions> {
    let off = PoseOptions { solve_ik: false, ..PoseOptions::default() };
    let variant = match ik {
        IkArg::On(true) => IkVariant::Mmd,
        IkArg::On(false) => return Ok(off),
        IkArg::Mode(mode) if mode.eq_ignore_ascii_case("off") => return Ok(off),
        IkArg::Mode(mode) => mode.parse().map_err(|_| {
            let other = mode.to_ascii_lowercase();
            let solvers: Vec<String> = IkVariant::NAMES.iter().map(|n| format!("{n:?}")).collect();
            let solvers = solvers.join(", ");
            PyValueError::new_err(format!(
                "ik must be True, False, {solvers} or \"off\", not {other:?}"
            ))
        })?,
    };
    Ok(PoseOptions { ik_variant: variant, solve_ik: true })
}

/// Frames as a flat list of finite numbers, with the shape they came in.
fn frame_array(py: Python<'_>, frames: &Bound<'_, PyAny>) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("asarray", (frames, numpy.getattr("float64")?))?;
    let array: PyReadonlyArrayDyn<'_, f64> = array.extract()?;
    let shape = array.shape().to_vec();
    let times = finite_times(array.as_array().iter(), "frames must be finite numbers")?;
    Ok((shape, times))
}

/// One `Model.pose` call's inputs, all plain data so that it runs without the GIL.
struct PoseJob<'a> {
    model: &'a vmdkit::model::Model,
    skeleton: &'a Skeleton,
    motion: &'a vmdkit::Motion,
    /// Physics baked into the motion first, with these settings.
    physics: Option<PhysicsSettings>,
    options: PoseOptions,
    axes: Axes,
    scale: f32,
}

/// The arrays of a pose, flat.
struct Baked {
    frames: usize,
    positions: Vec<f32>,
    rotations: Vec<f32>,
}

impl PoseJob<'_> {
    /// Poses at `times`, or at every sample at `fps` when None (as `bake_world` samples).
    fn run(&self, times: Option<&[f64]>, fps: f64) -> PyResult<Baked> {
        let baked;
        let motion = match self.physics {
            Some(physics) => {
                let options = PhysicsBakeOptions {
                    physics,
                    pose: self.options,
                    ..PhysicsBakeOptions::default()
                };
                let (out, _) =
                    bake_physics(self.motion, self.model, self.skeleton, &options, |_, _| {})
                        .map_err(bake_error)?;
                baked = out;
                &baked
            }
            None => self.motion,
        };
        let sampler = MotionSampler::new(motion);
        let binding = Binding::new(self.skeleton, &sampler);
        let bones = self.skeleton.bone_count();
        let count = match times {
            Some(t) => t.len(),
            None => {
                let count = sample_count(sampler.last_frame().unwrap_or(0), fps);
                let bytes = (count as u64).saturating_mul(bones as u64 * 7 * 4);
                if bytes > MAX_IMPLICIT_BYTES {
                    return Err(VmdError::new_err(format!(
                        "posing every frame through the last key ({}) at {fps} fps would make \
                         {count} samples, {:.1} GiB of arrays; pass the frames to pose",
                        sampler.last_frame().unwrap_or(0),
                        bytes as f64 / (1u64 << 30) as f64
                    )));
                }
                count
            }
        };
        let mut positions = try_vec(&[count, bones, 3], "the posed positions")?;
        let mut rotations = try_vec(&[count, bones, 4], "the posed rotations")?;
        let mut poser = Poser::with_options(self.skeleton, &sampler, &binding, self.options);
        let mut pose = Pose::new(self.skeleton);
        for k in 0..count {
            let frame = match times {
                Some(t) => t[k],
                None => k as f64 * vmdkit::math::FPS / fps,
            };
            poser.pose_at(frame, &mut pose);
            // Exactly what `vmdkit::bake::bake_world` writes per bone, so that the arrays
            // equal `vmdkit bake --model`'s (the tests compare them).
            for (p, q) in pose.positions().iter().zip(pose.rotations()) {
                let p = self.axes.position(*p) * self.scale + glam::Vec3::ZERO;
                let q = self.axes.rotation(q.normalize());
                positions.extend_from_slice(&p.to_array());
                rotations.extend_from_slice(&[q.x + 0.0, q.y + 0.0, q.z + 0.0, q.w + 0.0]);
            }
        }
        Ok(Baked { frames: count, positions, rotations })
    }
}

/// Adds `Model` and `ModelError` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Model>()?;
    m.add("ModelError", m.py().get_type::<ModelError>())?;
    Ok(())
}
