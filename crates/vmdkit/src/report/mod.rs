//! The JSON documents the `vmdkit` command prints, as typed shapes built from library types.
//!
//! Like ripgrep's JSON wire types, the shapes live apart from any printer: each is a plain
//! `Serialize` type with public fields and a constructor from the library value it reports,
//! so other tools can produce exactly what `vmdkit` prints, and the command line only lays the
//! documents out. One source file per family of shapes:
//!
//! * `keys.rs`: keyframes as `vmdkit dump --json` lists them ([`entries`], [`ListingHead`]).
//! * `sample.rs`: a motion sampled at one time, as `vmdkit sample --json` prints it
//!   ([`SampleDoc`]).
//! * `model.rs`: a PMX/PMD model as `vmdkit info --json MODEL.pmx` prints it ([`ModelDoc`]).
//! * `vpd.rs`: a VPD pose file as `vmdkit info --json POSE.vpd` prints it ([`PoseFileDoc`]).
//! * `pose.rs`: a posed skeleton, as `vmdkit pose --json` prints it ([`PoseDoc`]).
//! * `binding.rs`: the warnings to show when a motion only partly fits a model.

pub(crate) mod binding;
pub(crate) mod keys;
pub(crate) mod model;
pub(crate) mod pose;
pub(crate) mod sample;
pub(crate) mod vpd;

pub use binding::binding_warnings;
pub use keys::{
    camera_rotation_deg, entries, kept, panel_euler_deg, round_deg, BoneEntry, CameraEntry,
    IkEntry, KeyEntry, KeyOptions, LightEntry, ListingHead, MorphEntry, PropertyEntry, ShadowEntry,
};
pub use model::{
    panel_name, AngleLimits, AppendDoc, IkDoc, IkLinkDoc, ModelBone, ModelCounts, ModelDoc,
    ModelMorph, BONE_FLAG_NAMES,
};
pub use pose::{PoseBone, PoseDoc};
pub use sample::{BoneDoc, BoneValue, CameraDoc, LightDoc, MorphDoc, Named, SampleDoc, ShadowDoc};
pub use vpd::{PoseCounts, PoseFileBone, PoseFileDoc, PoseFileMorph};
