//! `--ik`: the CCD solver the commands that pose a model use.

use vmdkit::skeleton::{IkVariant, PoseOptions};

/// The CCD solver to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum IkMode {
    /// MMD's (babylon-mmd's) CCD: per-link limit growing along the chain, knee snapping
    #[default]
    Mmd,
    /// Plain CCD clamp (three.js, saba, MMDAgent)
    Plain,
    /// No IK: the keyed (forward kinematics) pose
    Off,
}

impl IkMode {
    /// The library's posing options for this mode.
    pub fn options(self) -> PoseOptions {
        match self {
            IkMode::Mmd => PoseOptions { ik_variant: IkVariant::Mmd, solve_ik: true },
            IkMode::Plain => PoseOptions { ik_variant: IkVariant::Plain, solve_ik: true },
            IkMode::Off => PoseOptions { solve_ik: false, ..PoseOptions::default() },
        }
    }
}
