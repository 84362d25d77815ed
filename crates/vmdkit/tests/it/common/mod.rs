//! Helpers shared by several modules of the library's tests.

pub mod alone;
pub mod faces;
pub mod hand_judge;
pub mod handface;
pub mod physics_models;
pub mod poses;
pub mod read_checks;
pub mod skeleton;
