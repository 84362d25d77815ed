//! `--ik`: the CCD solver the commands that pose a model use.

use clap::ValueEnum;
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
    /// The library's posing options for this mode: a solver read by its name
    /// (`vmdkit::skeleton::IkVariant`'s `FromStr`), or none.
    pub fn options(self) -> PoseOptions {
        if self == IkMode::Off {
            return PoseOptions { solve_ik: false, ..PoseOptions::default() };
        }
        let name = self.to_possible_value().expect("every mode has a name");
        let variant: IkVariant = name.get_name().parse().expect("the solvers are the library's");
        PoseOptions { ik_variant: variant, solve_ik: true }
    }
}
