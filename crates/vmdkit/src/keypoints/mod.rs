//! 3D keypoints: joint positions per frame, as pose estimators, motion capture and the
//! retargeting's inverse give them, with the layouts that name their joints.
//!
//! * [`Keypoints`]: F frames × J joints of positions (NaN where a joint is missing), optional
//!   confidences, and whatever the file says of itself (joint names, frame rate, units, up axis).
//! * [`Role`](crate::roles::Role) (module [`roles`](crate::roles)): what a joint is
//!   anatomically; [`JointLayout`] (`layout.rs`, tables in `layouts.rs`): a named joint order
//!   mapped to roles, built in (`h36m`, `lftd17`, `coco17`, `blazepose33`, `body25`,
//!   `body25b`, `smpl24`; with hands and faces `mediapipe_hand`, `mediapipe_hands`, `holistic`,
//!   `holistic_iris`, `mediapipe_face`, `mediapipe_face_iris`, `coco_wholebody`, `smplx`) or
//!   read from a user mapping file, and detected from joint names or counts where that is
//!   unambiguous; a face mesh is a [`FaceBlock`] of role-less joints (`face.rs`).
//! * Conditioning (`filter/`): [`resample`], [`repair_swaps`], [`reject_outliers`],
//!   [`fill_gaps`] and zero-phase [`smooth`]ing of positions, and [`smooth_rotations`] for the
//!   rotations solved from them.
//! * Files (`io/`): `.npy`/`.npz` (never unpickled), wide CSV, JSON, OpenSim `.trc`, and
//!   `pose-format` `.pose`, read by [`Keypoints::read_file`]; NPY, CSV and JSON written by
//!   [`Keypoints::write_file`].
//!
//! Coordinates are stored as the file has them; [`Units`] and [`UpAxis`] say how to read them,
//! and the retargeting turns them into MMD's frame.

mod face;
mod filter;
mod io;
mod layout;
mod layouts;

pub use face::{FaceBlock, FaceMesh};
pub use filter::{
    fill_gaps, quaternion_continuity, reject_outliers, repair_swaps, resample, resample_owned,
    smooth, smooth_rotations, FilterError, GapReport, Smoothing,
};
pub use io::{KeypointError, KeypointErrorKind, KeypointFileError, KeypointFormat, Location};
pub use layout::{JointLayout, JointLayoutError, LayoutJoint, SyntheticPoint};

use crate::text::UnknownName;
use glam::Vec3;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// Joint positions over time: `positions[frame * joint_count + joint]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Keypoints {
    /// The number of frames.
    pub frame_count: usize,
    /// The number of joints per frame.
    pub joint_count: usize,
    /// Frame-major positions, in the file's units and axes; NaN components mark a missing joint.
    pub positions: Vec<Vec3>,
    /// Per position, a confidence or visibility from 0 to 1, when the file has them.
    pub confidence: Option<Vec<f32>>,
    /// Joint names, when the file carries them (CSV headers, TRC markers, `.pose` points).
    pub names: Option<Vec<String>>,
    /// Frames per second, when the file says.
    pub fps: Option<f64>,
    /// Length units, when the file says.
    pub units: Option<Units>,
    /// The up axis, when the file says.
    pub up: Option<UpAxis>,
}

impl Keypoints {
    /// `frame_count` × `joint_count` missing joints, with nothing else known.
    pub fn missing(frame_count: usize, joint_count: usize) -> Keypoints {
        Keypoints {
            frame_count,
            joint_count,
            positions: vec![Vec3::NAN; frame_count * joint_count],
            ..Keypoints::default()
        }
    }

    /// One frame's positions.
    pub fn frame(&self, frame: usize) -> &[Vec3] {
        &self.positions[frame * self.joint_count..(frame + 1) * self.joint_count]
    }

    /// Whether a joint is present at a frame: finite, and confident when confidences exist
    /// (above `min_confidence`).
    pub fn is_present(&self, frame: usize, joint: usize, min_confidence: f32) -> bool {
        let i = frame * self.joint_count + joint;
        self.positions[i].is_finite()
            && self.confidence.as_ref().is_none_or(|c| c[i] > min_confidence)
    }
}

/// Length units of keypoint coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Units {
    /// Millimetres.
    Millimetres,
    /// Centimetres.
    Centimetres,
    /// Metres.
    Metres,
    /// Any other unit, given as metres per unit (CMU BVH: 0.056444).
    MetresPer(f64),
}

impl Units {
    /// The names [`Units::from_str`] reads besides a number of metres per unit (and the long
    /// spellings TRC headers write).
    pub const NAMES: &'static [&'static str] = &["mm", "cm", "m"];

    /// Metres per unit.
    pub fn metres(self) -> f64 {
        match self {
            Units::Millimetres => 0.001,
            Units::Centimetres => 0.01,
            Units::Metres => 1.0,
            Units::MetresPer(m) => m,
        }
    }

    /// `mm`, `cm`, `m` (also `millimeters`…, as TRC headers write them), or a number of metres.
    pub fn parse(text: &str) -> Option<Units> {
        match text.trim().to_ascii_lowercase().as_str() {
            "mm" | "millimeter" | "millimeters" | "millimetre" | "millimetres" => {
                Some(Units::Millimetres)
            }
            "cm" | "centimeter" | "centimeters" | "centimetre" | "centimetres" => {
                Some(Units::Centimetres)
            }
            "m" | "meter" | "meters" | "metre" | "metres" => Some(Units::Metres),
            other => other
                .parse::<f64>()
                .ok()
                .filter(|m| m.is_finite() && *m > 0.0)
                .map(Units::MetresPer),
        }
    }
}

impl FromStr for Units {
    type Err = UnknownName;

    /// As [`Units::parse`].
    fn from_str(text: &str) -> Result<Self, UnknownName> {
        Units::parse(text).ok_or_else(|| UnknownName {
            number: Some("a positive number of metres per unit"),
            ..UnknownName::new(text, Self::NAMES)
        })
    }
}

/// Which input axis points up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum UpAxis {
    /// +Y up (BVH, OpenSim, MMD).
    Y,
    /// −Y up, that is Y down (MediaPipe world landmarks, image-style axes).
    NegY,
    /// +Z up (Human3.6M camera-free data, many robotics frames).
    Z,
    /// −Z up.
    NegZ,
}

impl UpAxis {
    /// The names [`UpAxis::from_str`] reads (`+y` and `+z` too): each axis's [`label`](Self::label).
    pub const NAMES: &'static [&'static str] = &["y", "-y", "z", "-z"];

    /// `y`, `-y`, `z` or `-z`.
    pub fn parse(text: &str) -> Option<UpAxis> {
        match text.trim().to_ascii_lowercase().as_str() {
            "y" | "+y" => Some(UpAxis::Y),
            "-y" => Some(UpAxis::NegY),
            "z" | "+z" => Some(UpAxis::Z),
            "-z" => Some(UpAxis::NegZ),
            _ => None,
        }
    }

    /// The name [`UpAxis::parse`] reads.
    pub fn label(self) -> &'static str {
        match self {
            UpAxis::Y => "y",
            UpAxis::NegY => "-y",
            UpAxis::Z => "z",
            UpAxis::NegZ => "-z",
        }
    }
}

impl FromStr for UpAxis {
    type Err = UnknownName;

    /// As [`UpAxis::parse`].
    fn from_str(text: &str) -> Result<Self, UnknownName> {
        UpAxis::parse(text).ok_or_else(|| UnknownName::new(text, Self::NAMES))
    }
}
