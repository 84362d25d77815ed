//! vmdkit: read, write, evaluate and edit MikuMikuDance VMD motion data exactly.
//!
//! Data flows one way: bytes → format types → tracks ([`eval`]) → poses ([`skeleton`]) →
//! outputs ([`bake`]s, [`retarget`]ing, [`convert`], [`gltf`]), and back to format types only
//! through [`edit`]s and bakes.
//!
//! # Stages
//!
//! Each top-level module belongs to one stage; a module may import modules of its own stage or
//! of a lower one, never a higher one, and no two modules of one folder import each other.
//! Lowest first:
//!
//! 1. foundations: `text`, [`shown`], [`math`], [`angles`], [`limit`], [`io`], `curve`,
//!    [`names`], [`roles`], `npy`, `file_kind`, `error`
//! 2. `format` (the VMD format, re-exported at the root)
//! 3. [`eval`]
//! 4. [`model`], [`keypoints`]
//! 5. [`skeleton`]
//! 6. [`physics`]
//! 7. [`bvh`]
//! 8. [`edit`]
//! 9. [`bake`]
//! 10. [`retarget`]
//! 11. [`convert`]
//! 12. [`gltf`]
//! 13. [`lint`]
//! 14. [`example`]
//!
//! ```
//! use vmdkit::eval::MotionSampler;
//! use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};
//! use vmdkit::{Motion, ReadOptions, TextEncoding};
//!
//! // Read: strict parsing names the section, record and byte offset of any damage; lenient
//! // reading keeps every complete record and says what it repaired.
//! let bytes = vmdkit::example::example_motion().to_bytes();
//! let motion = Motion::parse(&bytes)?;
//! let parsed = Motion::parse_with(&bytes, ReadOptions::LENIENT)?;
//! assert!(parsed.repairs.is_empty());
//!
//! // Sample: values at any fractional frame, as MMD plays them.
//! let sampler = MotionSampler::new(&motion);
//! let arm = sampler.bone_track_named("右腕", TextEncoding::ShiftJis).unwrap();
//! assert!(arm.sample(7.5).rotation.is_normalized());
//!
//! // Pose: forward kinematics, append transforms and IK on a model's skeleton.
//! let skeleton = Skeleton::new(&vmdkit::example::example_model());
//! let binding = Binding::new(&skeleton, &sampler);
//! let mut poser = Poser::new(&skeleton, &sampler, &binding);
//! let mut pose = Pose::new(&skeleton);
//! poser.pose_at(15.0, &mut pose);
//! let wrist = skeleton.bone_index("右手首").unwrap();
//! assert!(pose.position(wrist).y > 10.5); // the raised arm lifts the wrist
//!
//! // Edit and write: edits keep Bézier curves; writing is the exact inverse of reading.
//! let (mirrored, _report) = vmdkit::edit::mirror(&motion);
//! assert_eq!(Motion::parse(&mirrored.to_bytes())?, mirrored);
//! assert_eq!(motion.to_bytes(), bytes);
//! # Ok::<(), vmdkit::Error>(())
//! ```
//!
//! # Where things are
//!
//! Every public item has one path. The VMD format itself is at the crate root: [`Motion`]
//! (decoded) and [`MotionView`] (zero-copy), the six key types ([`BoneKey`], [`MorphKey`],
//! [`CameraKey`], [`LightKey`], [`ShadowKey`], [`PropertyKey`]) and their in-place `*Ref`
//! readers, interpolation blocks and [`Curve`]s, name fields ([`KeyName`], [`LongName`],
//! [`TextEncoding`]), and the reading errors ([`Error`], [`FileError`]). Each later stage is a
//! module with its items directly inside:
//!
//! | module | holds |
//! |---|---|
//! | [`names`], [`roles`] | bone-name vocabulary (Japanese ⇄ English, left ⇄ right, name fields); anatomical joint roles |
//! | [`limit`] | size limits of dense outputs (bakes, keypoints), checked before they start |
//! | [`math`], [`angles`] | shared numeric helpers, MMD's panel Euler angles |
//! | [`io`], [`shown`], [`FileKind`] | atomic file output; values from files as messages show them; what a file is by its content |
//! | [`eval`] | [`MotionSampler`](eval::MotionSampler) and per-channel tracks: values at any time |
//! | [`model`] | PMX/PMD models ([`Model`](model::Model)) and VPD poses ([`VpdPose`](model::VpdPose)) |
//! | [`keypoints`] | 3D keypoint files, joint layouts and their filters |
//! | [`skeleton`] | posing a model: [`Skeleton`](skeleton::Skeleton), [`Binding`](skeleton::Binding), [`Poser`](skeleton::Poser), output axes |
//! | [`physics`] | rigid bodies and joints simulated between the deform passes |
//! | [`bvh`] | BVH motion capture: reading, FK, writing, to and from MMD motions |
//! | [`edit`] | motion → motion edits that keep curves, each with a report |
//! | [`bake`] | a value at every output frame: keys at a new rate, IK baked into keys, world-space bone arrays |
//! | [`retarget`] | keypoints or another model's motion onto a skeleton, and back |
//! | [`convert`] | JSON and CSV documents, losslessly |
//! | [`gltf`] | glTF 2.0 binaries of a model, its mesh, a motion and a camera |
//! | [`lint`] | warnings about suspicious content, and name summaries |
//! | [`example`] | a built-in motion and model |
//!
//! Names say which stage they belong to: a `*Key` is a stored keyframe, a `*Ref` a record read
//! in place, a `*Track` one channel ready to sample, a `*Sample` its value at a time, a `*Report`
//! what an edit did.
//!
//! # Features
//!
//! All are on by default; each only adds a dependency, never changes what the rest does.
//!
//! * `json`: [`convert::to_json`] and the other `*_json*` functions, motions as JSON documents
//!   (serde_json).
//! * `csv`: [`convert::write_csv`] and the other `*_csv*` functions, motions as one CSV table
//!   (csv).
//! * `gltf`: [`gltf::to_glb`], models and motions as glTF 2.0 binaries (gltf-json).
//! * `mmap`: [`Motion::read_file`] memory-maps the file and releases it as it decodes, so the
//!   peak memory is about the decoded motion alone (memmap2). Without it the file is read into
//!   memory first.

#![warn(missing_docs)]

pub(crate) mod curve;
pub(crate) mod error;
mod file_kind;
pub(crate) mod format;
pub(crate) mod npy;
pub(crate) mod text;

pub mod angles;
pub mod bake;
pub mod bvh;
pub mod convert;
pub mod edit;
pub mod eval;
pub mod example;
#[cfg(feature = "gltf")]
pub mod gltf;
pub mod io;
pub mod keypoints;
pub mod limit;
pub mod lint;
pub mod math;
pub mod model;
pub mod names;
pub mod physics;
pub mod retarget;
pub mod roles;
pub mod shown;
pub mod skeleton;

pub use curve::Curve;
pub use error::{Categorize, Category, Error, ErrorKind, FileError, ReadError};
pub use file_kind::{Expected, FileKind, WrongKind, DETECT_BYTES};
pub use format::{
    bone_refs, scan_layout, BoneCurve, BoneCurvePoints, BoneInterpolation, BoneKey, BoneRef,
    CameraCurve, CameraCurvePoints, CameraInterpolation, CameraKey, CameraRef, Header, IkState,
    Keyframe, Layout, LightKey, LightRef, MorphKey, MorphRef, Motion, MotionView, Parsed,
    PhysicsToggle, PropertyIter, PropertyKey, PropertyRef, ReadOptions, Repair, Section,
    SectionMapper, SectionSpan, SectionVisitor, ShadowKey, ShadowRef, Version, CAMERA_MODEL_NAME,
    IK_ENTRY_LEN, PROPERTY_HEAD_LEN, SIGNATURE_LEN, SIGNATURE_V1, SIGNATURE_V2,
};
pub use text::{
    detect_encoding, DecodeStatus, Decoded, EncodeStatus, Encoded, KeyName, LongName, RawName,
    TextEncoding, UnknownName, MMD_PAD,
};
