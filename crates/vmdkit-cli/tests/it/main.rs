//! The command line's integration tests, in one binary so that the crates are linked once: each
//! module runs the `vmdkit` binary on one idea (the module path is the file name); `common` holds
//! what several share.

mod bvh;
mod check_kinds;
mod common;
mod convert;
mod corpus;
mod errors;
mod gltf;
mod gltf_readers;
mod golden;
mod layouts;
mod limits;
mod merge_rename;
mod models;
mod options;
mod outputs;
mod physics;
mod reduce;
mod render;
mod retarget;
mod retarget_face;
mod retarget_hands;
mod staples;
mod uniform;
mod view;
mod warnings;
