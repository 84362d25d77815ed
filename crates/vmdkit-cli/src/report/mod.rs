//! The JSON documents the `vmdkit` command prints, as typed shapes built from library types.
//!
//! Like ripgrep's JSON wire types, the shapes live apart from any printer: each is a plain
//! `Serialize` type with public fields and a constructor from the library value it reports,
//! so other tools can produce exactly what `vmdkit` prints, and the command line only lays the
//! documents out. They are private to the command line (as ripgrep keeps its wire types in its
//! printer); `tests.rs` pins one document of each main family. One source file per family of
//! shapes:
//!
//! * `keys.rs`: keyframes as `vmdkit dump --json` lists them ([`entries`], [`ListingHead`]).
//! * `sample.rs`: a motion sampled at one time, as `vmdkit sample --json` prints it
//!   ([`SampleDoc`]).
//! * `model.rs`: a PMX/PMD model as `vmdkit info --json MODEL.pmx` prints it ([`ModelDoc`]).
//! * `model_physics.rs`: a model's rigid bodies and joints, part of [`ModelDoc`].
//! * `vpd.rs`: a VPD pose file as `vmdkit info --json POSE.vpd` prints it ([`PoseFileDoc`]).
//! * `pose.rs`: a posed skeleton, as `vmdkit pose --json` prints it ([`PoseDoc`]).
//! * `binding.rs`: the warnings to show when a motion only partly fits a model.

pub(crate) mod binding;
pub(crate) mod keys;
pub(crate) mod model;
pub(crate) mod model_physics;
pub(crate) mod pose;
pub(crate) mod sample;
pub(crate) mod vpd;

#[cfg(test)]
mod tests;

pub use binding::binding_warnings;
pub use keys::{entries, kept, panel_euler_deg, round_deg, KeyOptions, ListingHead};
pub use model::{panel_name, ModelBone, ModelDoc};
pub use pose::PoseDoc;
pub use sample::{BoneDoc, CameraDoc, LightDoc, MorphDoc, SampleDoc};
pub use vpd::PoseFileDoc;
