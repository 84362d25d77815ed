//! The arguments several commands share, declared once: clap argument groups
//! (`#[derive(clap::Args)]` structs that commands flatten into theirs) and value parsers, as
//! ripgrep keeps every flag in one place. A flag only one command takes stays in its file;
//! what commands share that is not an argument is `crate::shared`'s.
//!
//! - [`frames`] — FILE and `--frame`, checks of `--frame` and `--fps`;
//! - [`limit`] — `--max-output-size`;
//! - [`ik`] — `--ik`;
//! - [`figure`] — `--model`, `--bones`, `--ik`, `--lenient`, `--view` of the commands that draw;
//! - [`size`] — `--size`;
//! - [`layout`] — `--layout` and the target model of keypoints;
//! - [`axes`] — `--units` and `--up`;
//! - [`tolerance`] — the error tolerances of the commands that fit keys;
//! - [`physics`] — `--physics` and its step, settling and reset, for every command that plays a
//!   motion on a model.

pub mod axes;
pub mod figure;
pub mod frames;
pub mod ik;
pub mod layout;
pub mod limit;
pub mod physics;
pub mod size;
pub mod tolerance;
