//! Helpers shared by several modules of the library's tests.

pub mod alone;
pub mod read_checks;
pub mod skeleton;
