//! BVH motion capture: reading any hierarchy, forward kinematics, writing, and both ways
//! between BVH and MMD motions.
//!
//! ```
//! use vmdkit::bvh::{Bvh, FkOptions};
//!
//! let text = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition \
//!     Zposition Zrotation Xrotation Yrotation\n JOINT Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 3 \
//!     Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 5 0\n  }\n }\n}\nMOTION\n\
//!     Frames: 1\nFrame Time: 0.0333333\n0 90 0 0 0 0 90 0 0\n";
//! let bvh = Bvh::parse(text.as_bytes())?;
//! assert_eq!(bvh.joints.len(), 3); // Hips, Spine, and Spine's End Site
//! let pose = bvh.world_pose(0, FkOptions::default());
//! // Spine turned 90° about Z: its End Site lies along −X.
//! assert!((pose[2].position - glam::DVec3::new(-5.0, 100.0, 0.0)).length() < 1e-9);
//! # Ok::<(), vmdkit::bvh::BvhError>(())
//! ```
//!
//! # Conventions
//!
//! * **Rotations** are intrinsic, in the order the joint's `CHANNELS` line lists them, in
//!   degrees: `Zrotation Xrotation Yrotation` is `Rz · Rx · Ry`. A joint's transform is
//!   `parent · T(translation) · R`.
//! * **Position channels and OFFSET** ([`PositionOffset`]): BVH files disagree on whether a
//!   joint's position channels replace its OFFSET or add to it. For the root this is the one
//!   choice that moves a whole clip: bvh-toolbox's own FK of its `walk01.bvh` matches standard
//!   FK only when the root's OFFSET is ignored because the root has position channels (adding
//!   it lifts the clip by the OFFSET, 103.5 cm there). [`PositionOffset::Replace`] (the default,
//!   as bvh-toolbox and Blender's importer read files) takes the channels as the joint's whole
//!   translation; [`PositionOffset::Add`] adds them to the OFFSET. Joints without position
//!   channels always sit at their OFFSET.
//! * **End Sites** are joints of [`JointKind::EndSite`] without channels, named after their
//!   parent with `_End` appended (`Head_End`), as bvh-toolbox names them.
//! * **Names** are the rest of the `ROOT`/`JOINT` line, trimmed, so they may hold spaces and
//!   colons (`mixamorig:Hips`). Bytes that are not UTF-8 are read as Shift-JIS when they are
//!   valid Shift-JIS (MMD tools write it), else with U+FFFD for each bad sequence.
//! * **Axes and units** are the file's own: BVH is right-handed, usually Y up, in whatever unit
//!   the capture used (centimetres, CMU's 0.056444 m, inches). [`to_keypoints`] and
//!   [`from_motion`] convert to and from MMD's left-handed frame.
//!
//! # Limits
//!
//! Parsing never panics and never allocates beyond the input: `Frames` × channels is checked
//! against the bytes present before the values are stored (every value takes at least a
//! digit and a separator), frames × joints may not exceed the input's bytes (so posing every
//! frame is bounded by the input too), and nesting is parsed without recursion. Every error is a
//! [`BvhError`] with line, column and byte offset.

mod error;
mod fk;
mod from_motion;
mod joint_map;
mod parse;
mod write;

#[cfg(test)]
mod tests;

pub use error::{BvhError, BvhErrorKind};
pub use fk::{FkOptions, JointPose, PositionOffset};
pub use from_motion::{
    from_motion, from_motion_size, BvhExportError, BvhExportOptions, BvhUnits, EulerOrder,
};
pub use joint_map::{detect_layout, to_keypoints, BvhLayoutError, NAME_TABLES};

use crate::error::{read_and_parse, FileError};
use glam::DVec3;
use std::path::Path;

/// A BVH file: its joints in file order (every parent before its children) and its motion.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bvh {
    /// Roots, joints and End Sites, in the order the file lists them.
    pub joints: Vec<Joint>,
    /// The number of frames.
    pub frame_count: usize,
    /// Seconds per frame (`Frame Time`), above 0.
    pub frame_time: f64,
    /// Channels per frame: the sum over joints.
    pub channel_count: usize,
    /// Frame-major channel values, `motion[frame * channel_count + channel]`, as written
    /// (degrees for rotations).
    pub motion: Vec<f64>,
}

/// One joint of a [`Bvh`].
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// The joint's name (an End Site's: its parent's with `_End` appended).
    pub name: String,
    /// Root, joint or End Site.
    pub kind: JointKind,
    /// The parent joint's index, `None` for a root.
    pub parent: Option<usize>,
    /// The rest offset from the parent (for a root, from the origin).
    pub offset: DVec3,
    /// The joint's channels, in file order.
    pub channels: Vec<Channel>,
    /// Where the joint's channels start within a frame.
    pub first_channel: usize,
}

/// What a [`Joint`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JointKind {
    /// A `ROOT`.
    Root,
    /// A `JOINT`.
    Joint,
    /// An `End Site`: a leaf's tip, without channels.
    EndSite,
}

/// One BVH channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Channel {
    /// Translation along X.
    Xposition,
    /// Translation along Y.
    Yposition,
    /// Translation along Z.
    Zposition,
    /// Rotation about X, degrees.
    Xrotation,
    /// Rotation about Y, degrees.
    Yrotation,
    /// Rotation about Z, degrees.
    Zrotation,
}

impl Channel {
    /// A channel name as BVH writes it, in any letter case.
    pub fn parse(name: &str) -> Option<Channel> {
        const ALL: [Channel; 6] = [
            Channel::Xposition,
            Channel::Yposition,
            Channel::Zposition,
            Channel::Xrotation,
            Channel::Yrotation,
            Channel::Zrotation,
        ];
        ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// The name BVH writes (`Zrotation`).
    pub fn name(self) -> &'static str {
        match self {
            Channel::Xposition => "Xposition",
            Channel::Yposition => "Yposition",
            Channel::Zposition => "Zposition",
            Channel::Xrotation => "Xrotation",
            Channel::Yrotation => "Yrotation",
            Channel::Zrotation => "Zrotation",
        }
    }

    /// The axis (0 for X, 1 for Y, 2 for Z) and whether the channel is a rotation.
    pub fn axis(self) -> (usize, bool) {
        match self {
            Channel::Xposition => (0, false),
            Channel::Yposition => (1, false),
            Channel::Zposition => (2, false),
            Channel::Xrotation => (0, true),
            Channel::Yrotation => (1, true),
            Channel::Zrotation => (2, true),
        }
    }
}

impl Bvh {
    /// Parses a BVH file's bytes (see the [module documentation](self) for the conventions).
    pub fn parse(data: &[u8]) -> Result<Bvh, BvhError> {
        parse::parse(data)
    }

    /// Reads and parses a BVH file.
    pub fn read_file(path: impl AsRef<Path>) -> Result<Bvh, FileError<BvhError>> {
        read_and_parse(path.as_ref(), Bvh::parse)
    }

    /// Whether `data` starts like a BVH file (`HIERARCHY`, after any byte-order mark and
    /// white space).
    pub fn sniff(data: &[u8]) -> bool {
        crate::file_kind::is_bvh(data)
    }

    /// Frames per second, from the frame time: a whole number of frames per second when the
    /// frame time is that rate's period as files round it (0.0083333 s is 120 fps, not
    /// 120.0005), else its exact inverse.
    pub fn fps(&self) -> f64 {
        let fps = 1.0 / self.frame_time;
        let whole = fps.round();
        if whole >= 1.0 && (fps - whole).abs() <= fps * 1e-5 {
            whole
        } else {
            fps
        }
    }

    /// One frame's channel values.
    pub fn frame(&self, frame: usize) -> &[f64] {
        &self.motion[frame * self.channel_count..(frame + 1) * self.channel_count]
    }

    /// The index of the joint called `name` (End Sites included), if any.
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }
}

/// A joint name's bytes as text: UTF-8, else Shift-JIS when it decodes cleanly, else UTF-8
/// with replacement characters.
pub(crate) fn decode_name(raw: &[u8]) -> String {
    if let Ok(text) = std::str::from_utf8(raw) {
        return text.to_string();
    }
    match encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(raw) {
        Some(text) => text.into_owned(),
        None => String::from_utf8_lossy(raw).into_owned(),
    }
}
