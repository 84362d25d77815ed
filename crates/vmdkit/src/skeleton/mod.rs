//! Playing motions on model skeletons: binding, forward kinematics, append transforms, IK.
//!
//! ```no_run
//! use vmdkit::eval::MotionSampler;
//! use vmdkit::model::Model;
//! use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};
//!
//! let skeleton = Skeleton::new(&Model::read_file("miku.pmx")?);
//! let motion = vmdkit::Motion::read_file("dance.vmd")?;
//! let sampler = MotionSampler::new(&motion);
//! let binding = Binding::new(&skeleton, &sampler);
//! for name in &binding.report().unbound_bone_tracks {
//!     eprintln!("no bone named {}", name.to_string_lossy());
//! }
//! let mut poser = Poser::new(&skeleton, &sampler, &binding);
//! let mut pose = Pose::new(&skeleton); // reused for every frame: no allocation per frame
//! poser.pose_at(120.5, &mut pose);
//! println!("{:?} {:?}", pose.position(0), pose.rotation(0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! * [`Skeleton`] (`rig.rs`): built once per model: rest offsets, deform order (`order.rs`),
//!   per-bone append sources and fixed axes (`bones.rs`), IK chains, bone-morph tables; what the
//!   build repaired as [`SkeletonNote`]s (`notes.rs`). Bones and morphs by name:
//!   [`Skeleton::bone_index`], [`Skeleton::morph_index`].
//! * [`Binding`] (`binding.rs`): which track drives which bone, morph and IK switch, by raw
//!   CP932 bytes including names cut at 15 (IK: 20) bytes, with a [`BindingReport`] of what bound
//!   to nothing.
//! * [`PoseEvaluator`] (`pose.rs`): a [`PoseInput`] to a [`Pose`]: every bone's model-space
//!   position, rotation and world matrix, in MMD's left-handed, Y-up coordinates (reference
//!   §8). Buffers belong to the caller; nothing is allocated per frame and nothing carries over
//!   between frames.
//! * [`Poser`] / [`SharedPoser`] (`poser.rs`): a motion at a time to a [`Pose`], through a
//!   [`Binding`]; [`Poser`] borrows the skeleton, sampler and binding, [`SharedPoser`] holds them
//!   in [`Arc`](std::sync::Arc)s for callers that cannot keep borrows alive (other languages'
//!   bindings). Both are [`PoserBase`]; every type here is `Send + Sync`.
//! * `append.rs`, `ik.rs`, `morph.rs`: the rules, each documented where it is implemented.
//! * [`Axes`] (`axes.rs`): the coordinate frames and units outputs are written in; world-space
//!   bakes are [`bake_world`](crate::bake::bake_world).
//!
//! # Semantics, and where the players disagree
//!
//! Section numbers are those of the shared reference (`vmd-reference.md`); "§12 row n" is its
//! disagreement table. Where it recommends, this follows.
//!
//! * **Local transform** (§9.2): `translate(rest offset + keyed + morph + append offset) ·
//!   rotate(IK · morph · keyed · append)`; `world = parent.world · local`. Bones have no rest
//!   rotation, so rotations are from the bind pose and world rotations are model-space
//!   orientations. Bone morphs enter as `morph · keyed` (§9.2, BM, MMDAgent; saba and
//!   mmd-anim-runtime use `keyed · morph`: the same unless a morph and a key both rotate one bone).
//! * **Order** (§9.2, §10.3): stable by (deform layer, index), pass 1 then the after-physics
//!   pass 2; each (pass, layer) group deforms whole, then its IK bones solve in order (MMD's
//!   per-layer frame transform; BM interleaves per bone, which is the same whenever an IK bone
//!   follows its chain). A child never deforms before its parent (`order.rs` explains the
//!   repairs).
//! * **Append** (§9.2, §12 rows 16–18): rows 16 (local flag: the source's world rotation) and
//!   17 (chained: the source's full rotation) follow babylon-mmd, as the reference has no
//!   recommendation there and recommends BM as the reference implementation of §10.2; row 18
//!   (translation source: keyed + morph offset) follows the recommendation. Negative ratios turn
//!   the other way. `append.rs` has the details.
//! * **Fixed axes** (§9.2): the keyed rotation's angle about the axis, signed by side (BM).
//! * **IK** (§10.1, §10.2, §12 rows 14–15): babylon-mmd's CCD ([`IkVariant::Mmd`], default) or
//!   the plain clamp ([`IkVariant::Plain`]); the knee rule via PMD's converted limits
//!   (−180°…−0.5° about X, §9.3) and single-axis snapping. Property keys switch chains off
//!   (§10.1 "When IK runs"); [`PoseOptions::solve_ik`] switches all of them off. `ik.rs` has the
//!   details. There is no warm start: every solve begins at the identity.
//! * **No physics** (§10.3 step 4 is skipped): bones driven by rigid bodies follow their keys
//!   (or rest), and the after-physics pass runs right after pass 1. Hair, skirts and other
//!   physics bones therefore hang at their keyed pose, not where MMD's simulation would put them.
//! * **Not applied**: local axes (0x0800) and external parents (0x2000) only affect editing
//!   (§9.2); per-bone physics toggles and visibility keys have nothing to act on without physics
//!   and rendering.
//!
//! # Against mmd-anim-runtime
//!
//! `tests/it/skeleton_oracle.rs` compares world positions with mmd-anim-runtime 0.5.3 over frames of
//! the corpus pairs (初音ミク, Mei, the semi-standard trace model, the mmd_base and babylon-mmd
//! test models), feeding both the same model and local samples; it prints its figures per pair,
//! and BENCHMARKS.md ("Posing accuracy against mmd-anim-runtime") records a run. Bones no IK
//! chain moves agree to float rounding; bones under append a little less closely, because the
//! peer takes the source's angle from `acos(w)` in f32. IK-moved bones differ where the peer
//! reproduces details of MMD's own solver that the reference does not describe or decides
//! otherwise: it runs at least min(4π / limit angle, 360) iterations where §10.1 runs
//! `loop_count`, and ends a whole solve when one link's directions align where §10.1 skips the
//! link; chains that reach their goals may also differ by a turn about the root-link–goal line,
//! which CCD leaves to the path. Given the peer's iteration budget, vmdkit ends at least as close
//! to the goal in nearly every solve. The peer's own PMD reader is not usable as an oracle (it
//! stacks PMD's model-space positions as offsets), so Mei goes through a peer model built from
//! vmdkit's reading.

mod append;
mod axes;
mod binding;
mod bones;
mod ik;
mod morph;
mod notes;
mod order;
mod pose;
mod poser;
mod rig;

#[cfg(test)]
mod tests;

pub(crate) use append::scale_rotation;
pub use axes::{Axes, METRES_PER_UNIT};
pub use binding::{Binding, BindingReport};
pub use ik::IkVariant;
pub use notes::SkeletonNote;
pub use pose::{Pose, PoseEvaluator, PoseInput, PoseOptions};
pub use poser::{Poser, PoserBase, SharedPoser};
pub use rig::Skeleton;
