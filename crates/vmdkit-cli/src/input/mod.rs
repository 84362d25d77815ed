//! Reading inputs, shared by every command: one job per file.
//!
//! - [`format`] — the motion formats (VMD, JSON, CSV) and the words for a file of another kind;
//! - [`kind`] — whether an input holds a motion, a model or a pose;
//! - [`motion`], [`pose`], [`model`] — reading each, from a file or `-` (stdin);
//! - [`stdio`] — `-` and stdin read once into memory;
//! - [`camera`] — `--camera`, a motion whose camera a drawing looks through;
//! - [`expand`] — folders expanded to the motions under them;
//! - [`seen`] — the files the run has read, which no output may replace.
//!
//! Writing is `crate::output`'s; it reads from here, never the other way.

pub mod camera;
pub mod expand;
pub mod format;
pub mod kind;
pub mod model;
pub mod motion;
pub mod pose;
pub mod seen;
pub mod stdio;

pub use camera::camera_sampler;
pub use expand::expand_inputs;
pub use format::{wrong_kind, Format};
pub use kind::InputKind;
pub use model::read_model;
pub use motion::{
    example, load_motion, read_motion, refuse_folder, LoadError, Loaded, ALL_TRAILING, NO_TRAILING,
};
pub use pose::{load_motion_or_pose, pose_as_motion, read_pose};
pub use seen::note_input;
pub use stdio::{input_size, is_stdio};
