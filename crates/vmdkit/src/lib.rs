//! vmdkit: read, write and evaluate MikuMikuDance VMD motion data exactly.
//!
//! Data flows one way: bytes → format types ([`format`]) → tracks → poses → outputs.
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
