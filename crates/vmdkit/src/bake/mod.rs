//! Baking: a value at every output frame, worked out from a motion by sampling or posing it.
//!
//! | bake | source file | output |
//! |---|---|---|
//! | [`bake()`], [`bake_sampler`] | `keys.rs` | a motion with a linear key at every frame of a new rate |
//! | [`bake_ik()`] | `ik.rs` | a motion that plays the same with IK off |
//! | [`bake_physics()`] | `physics.rs` | a motion that plays the same with physics off |
//! | [`bake_world`], [`bake_world_with_physics`] | `world.rs`, `physics.rs` | every bone's model-space position and rotation, as NPZ, CSV or JSON |
//!
//! Each works its output's size out from the frame span first ([`bake_size`],
//! [`world_bake_size`]) and refuses one above its limit with [`BakeError::TooLarge`] before
//! sampling or allocating anything. The two pose bakes share one solver (`solve.rs`): keys
//! whose forward pose reproduces a target pose, bone by bone in its parent's frame.

pub(crate) mod ik;
pub(crate) mod keys;
pub(crate) mod physics;
pub(crate) mod solve;
pub(crate) mod world;

pub use ik::{bake_ik, IkBakeOptions, IkBakeReport};
pub use keys::{bake, bake_sampler, bake_size};
pub use physics::{bake_physics, bake_world_with_physics, PhysicsBakeOptions, PhysicsBakeReport};
pub use solve::MAX_ROUNDS;
pub use world::{bake_world, world_bake_size, BakeSettings, WorldBake};

use crate::format::Section;
use crate::limit::OutputTooLarge;

/// Why a motion cannot be baked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BakeError {
    /// The rate is not a positive finite number.
    #[error("the frame rate must be a positive finite number, not {0}")]
    BadFrameRate(f64),
    /// The last key would land beyond the u32 frame field at this rate.
    #[error("frame {frame} at {fps} fps is beyond the largest VMD frame number")]
    TooLong {
        /// The last key's frame in the source, at MMD's 30 fps.
        frame: u32,
        /// The rate asked for, in keys per second.
        fps: f64,
    },
    /// The motion has no bone keys: posing it on a model would give rest poses only.
    #[error("the motion has no bone keys; nothing to pose")]
    NoBoneKeys,
    /// Physics was asked of a bake given a skeleton only: the simulation needs the model's rigid
    /// bodies and joints.
    #[error("physics needs the model's rigid bodies, and this bake was given its skeleton only")]
    PhysicsNeedsModel,
    /// The output would be larger than the limit; nothing was sampled.
    #[error(transparent)]
    TooLarge(#[from] OutputTooLarge),
    /// A section would get more keys than its u32 count field holds (only under a limit
    /// raised past about 100 GB); nothing was sampled.
    #[error(
        "a bake at {fps} fps would write {keys} {section} keys, more than the {} a VMD section \
         holds",
        u32::MAX
    )]
    TooManyKeys {
        /// The section.
        section: Section,
        /// The keys it would get.
        keys: u64,
        /// The rate asked for, in keys per second.
        fps: f64,
    },
}
