//! vmdkit: read, write and evaluate MikuMikuDance VMD motion data exactly.
//!
//! Data flows one way: bytes → format types ([`format`](mod@format)) → tracks → poses → outputs.
//!
//! ```
//! use vmdkit::{format::BoneKey, text::KeyName, Motion};
//!
//! let mut motion = Motion::new(vmdkit::text::LongName::encode("初音ミク").0);
//! let mut key = BoneKey::new(KeyName::encode("センター").0, 30);
//! key.translation = glam::Vec3::new(0.0, 1.5, 0.0);
//! motion.bones.push(key);
//! let bytes = motion.to_bytes();
//! assert_eq!(vmdkit::Motion::parse(&bytes).unwrap(), motion);
//! ```
//!
//! # Features
//!
//! All are on by default; each only adds a dependency, never changes what the rest does.
//!
//! * `json`: [`convert::json`], motions as JSON documents (serde_json).
//! * `csv`: [`convert::csv`], motions as one CSV table (csv).
//! * `mmap`: [`Motion::read_file`] memory-maps the file and releases it as it decodes, so the
//!   peak memory is about the decoded motion alone (memmap2). Without it the file is read into
//!   memory first.

pub mod angles;
pub mod convert;
pub mod curve;
pub mod edit;
pub mod error;
pub mod eval;
pub mod example;
pub mod format;
pub mod io;
pub mod lint;
pub mod math;
pub mod model;
pub mod report;
pub mod skeleton;
pub mod text;

pub use error::{Error, ErrorKind, ReadError};
pub use format::{Motion, MotionView, ReadOptions};
