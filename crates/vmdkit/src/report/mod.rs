//! The JSON documents the `vmdkit` command prints, as typed shapes built from library types.
//!
//! Like ripgrep's JSON wire types, the shapes live apart from any printer: each is a plain
//! `Serialize` type with public fields and a constructor from the library value it reports,
//! so other tools can produce exactly what `vmdkit` prints, and the command line only lays the
//! documents out. One module per family of shapes:
//!
//! * [`keys`]: keyframes as `vmdkit dump --json` lists them.
//! * [`sample`]: a motion sampled at one time, as `vmdkit sample --json` prints it.
//! * [`pose`]: a posed skeleton, as `vmdkit pose --json` prints it.
//! * [`curves`]: interpolation curves, shared with the convert JSON format.
//! * [`binding`]: the warnings to show when a motion only partly fits a model.

pub mod binding;
pub mod curves;
pub mod keys;
pub mod pose;
pub mod sample;
