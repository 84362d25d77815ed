//! Evaluating motions as MMD plays them: tracks, sampling at any time, camera views, baking.
//!
//! Build a [`MotionSampler`] once per motion, then ask it for values at any frame. Times are
//! frames at 30 fps (reference §6.1) given as `f32` or `f64` (or integers), with any fraction;
//! [`math::frame_at_seconds`](crate::math::frame_at_seconds) converts from seconds.
//!
//! ```
//! use vmdkit::eval::MotionSampler;
//! use vmdkit::KeyName;
//!
//! let motion = vmdkit::example::example_motion();
//! let sampler = MotionSampler::new(&motion);
//! let arm = sampler.bone_track(KeyName::encode("右腕").0.bytes()).unwrap();
//! let pose = arm.sample(7.5f32); // halfway to the 35° key at frame 15, on an eased curve
//! let camera = sampler.sample_camera(30.0).unwrap().view(); // eye, forward, up, fov
//! assert!(pose.rotation.is_normalized() && camera.forward.is_normalized());
//! ```
//!
//! # Semantics, and where the players disagree
//!
//! Where implementations disagree, this follows the recommendation of the shared reference
//! (`vmd-reference.md`; section numbers below are its sections, "§12 row n" its disagreement
//! table). Each module says more about its own channel.
//!
//! * **Curves** (§6.3): [`Curve::weight`](crate::curve::Curve::weight) solves x(s) = p by
//!   Newton with a bisection fallback, in f64, to |s − s*| ≤ 1e-10, with a shortcut for linear
//!   curves. three.js and babylon-mmd instead bisect 15 times to |x(s) − p| < 1e-5
//!   ([`Curve::weight_bisect15`](crate::curve::Curve::weight_bisect15)), which is off most near
//!   flat spots of x(s) and at vertical tangents; the curve module says why, and
//!   `BENCHMARKS.md` ("Curve solver against the players") how far. mmd-anim-runtime bisects 12
//!   times with no tolerance, so its s is good to 2⁻¹³; `tests/it/eval_oracle.rs` turns that into
//!   a bound on the weight and asserts it.
//! * **Tracks** (`track.rs`): grouped by raw name bytes up to the NUL, sorted by frame. Duplicate
//!   (name, frame) keys: the last in file order wins (§4, §12 row 11) and the others are listed
//!   in [`MotionSampler::duplicates`]. Before the first key and after the last, the end key's
//!   value (§6.2). The later key's curve shapes each segment (§6.2, §12 row 4; saba uses the
//!   earlier).
//! * **Bones** ([`BoneTrack`], §6.4): per-axis translation curves, shortest-arc slerp by the rotation
//!   curve, curves from their own rows (§2.1, §12 row 2), stored quaternions normalised and zero
//!   ones taken as the identity, the physics toggle as a step on the earlier key (§6.7). Keys one
//!   frame apart interpolate (§6.4).
//! * **Morphs** ([`MorphTrack`], §6.5): linear.
//! * **Camera** ([`CameraTrack`], §6.6, §7): target, distance and view angle with their own curves,
//!   Euler angles blended linearly by the rotation curve (§12 row 6), keys one frame apart held
//!   as a cut (§12 row 7), the view from C = Ry(−ry)·Rx(−rx)·Rz(−rz) (§12 row 5).
//! * **Light, self-shadow, property keys** ([`LightTrack`], [`ShadowTrack`], [`IkTrack`], §6.7): light linear; shadow mode a step
//!   with the distance blended within a mode; visibility and IK on/off steps.
//! * **Baking** ([`bake::bake`](crate::bake::bake())): dense keys at any frame rate, frame numbers counting at that rate.
//!
//! Values are evaluated in f64 (progress, weights, blends) and rounded to f32 once, so a sample
//! exactly on a key returns the key's stored value.
//!
//! Sampling allocates nothing: [`MotionSampler::sample_bones`] and friends write into slices the
//! caller owns, and a [`Playhead`] (or a [`Cursor`] per track) remembers each track's segment so
//! that playback with increasing times steps forward instead of searching; any other time is
//! found through each track's [`Timeline`] index (a bucket per average key gap), so even
//! stateless sampling does not binary-search.

mod accessors;
pub(crate) mod bone;
pub(crate) mod camera;
pub(crate) mod light;
mod lookup;
pub(crate) mod morph;
mod sampled_key;
pub(crate) mod sampler;
pub(crate) mod track;

pub use bone::{BoneSample, BoneTrack};
pub use camera::{CameraSample, CameraTrack, CameraView};
pub use light::{IkTrack, LightSample, LightTrack, ShadowSample, ShadowTrack};
pub use lookup::TrackLabels;
pub use morph::MorphTrack;
pub(crate) use sampled_key::{property_key, SampledKey};
pub use sampler::{MotionSample, MotionSampler, Playhead};
pub use track::{Cursor, Duplicate, Segment, StepTrack, Timeline};
