//! Baking moved to [`crate::edit::bake`](mod@crate::edit::bake), beside the other edits; these names stay here until
//! the public surface is flattened.

pub use crate::edit::bake::{bake, bake_sampler, BakeError};
