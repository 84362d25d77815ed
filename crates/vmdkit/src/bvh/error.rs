//! [`BvhError`]: what is wrong with a BVH file, and where (line, column and byte offset).

use crate::error::{Categorize, Category};

/// A BVH file that cannot be read, with the place of the damage.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("line {line}, column {column} (byte {offset}): {kind}")]
pub struct BvhError {
    /// 1-based line of the damage.
    pub line: usize,
    /// 1-based column, counted in characters of that line.
    pub column: usize,
    /// Byte offset from the start of the file.
    pub offset: usize,
    /// What is wrong there.
    pub kind: BvhErrorKind,
}

/// The kinds of [`BvhError`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BvhErrorKind {
    /// A keyword, brace or value other than the one the grammar needs.
    #[error("expected {expected}, found `{}`", crate::shown::Shown(.found))]
    Expected {
        /// What the grammar needs here.
        expected: &'static str,
        /// The word found, shortened.
        found: String,
    },
    /// The file ends where the grammar needs more.
    #[error("the file ends where {expected} should follow")]
    UnexpectedEnd {
        /// What should follow.
        expected: &'static str,
    },
    /// A number that does not parse, or is not finite.
    #[error("`{}` is not a finite number", crate::shown::Shown(.0))]
    BadNumber(String),
    /// A channel name other than the six BVH defines.
    #[error("unknown channel `{}` (BVH has Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation)", crate::shown::Shown(.0))]
    UnknownChannel(String),
    /// A channel listed twice for one joint.
    #[error("channel {} is listed twice for this joint", crate::shown::Shown(.0))]
    RepeatedChannel(String),
    /// A `CHANNELS` count above six.
    #[error("CHANNELS {0}: a joint has at most 6 channels")]
    TooManyChannels(u64),
    /// A joint declared twice with the same `CHANNELS` line, or a second `OFFSET`.
    #[error("a second {0} line for one joint")]
    Repeated(&'static str),
    /// A joint without its `OFFSET`.
    #[error("joint `{}` has no OFFSET", crate::shown::Shown(.0))]
    MissingOffset(String),
    /// A `JOINT` or `ROOT` with no name.
    #[error("a joint without a name")]
    MissingName,
    /// `Frames:` that is not a whole number.
    #[error("`Frames: {}` is not a whole number of frames", crate::shown::Shown(.0))]
    BadFrameCount(String),
    /// `Frame Time:` that is not a finite number of seconds of at least 1/10,000
    /// ([`MAX_FPS`](crate::math::MAX_FPS) frames a second).
    #[error(
        "`Frame Time: {}` is not a number of seconds of at least 0.0001 (10000 fps)",
        crate::shown::Shown(.0)
    )]
    BadFrameTime(String),
    /// The declared frames need more values than the bytes left could hold (each value takes
    /// at least two bytes: a digit and a separator), so nothing is allocated for them.
    #[error(
        "Frames: {frames} × {channels} channels need {values} values, more than the {bytes} \
         bytes after the header can hold"
    )]
    DataTooShort {
        /// Declared frames.
        frames: u64,
        /// Channels per frame.
        channels: usize,
        /// Values needed.
        values: u64,
        /// Bytes left in the file.
        bytes: usize,
    },
    /// More joint poses (frames × joints) than the file has bytes: only a file of joints without
    /// channels can declare that, and posing it would take work out of all proportion to it.
    #[error(
        "Frames: {frames} × {joints} joints is more joint poses than the file's {bytes} bytes \
         justify"
    )]
    TooManyFrames {
        /// Declared frames.
        frames: u64,
        /// Joints, End Sites included.
        joints: usize,
        /// The file's size.
        bytes: usize,
    },
    /// The motion data ends before every declared frame is complete.
    #[error("the motion data holds {found} of the {expected} values that Frames declares")]
    TooFewValues {
        /// Values declared (frames × channels).
        expected: u64,
        /// Values present.
        found: u64,
    },
    /// More values follow the last declared frame.
    #[error("more values than the {expected} that Frames declares")]
    TooManyValues {
        /// Values declared (frames × channels).
        expected: u64,
    },
}

impl Categorize for BvhError {
    fn category(&self) -> Category {
        match self.kind {
            BvhErrorKind::UnexpectedEnd { .. }
            | BvhErrorKind::DataTooShort { .. }
            | BvhErrorKind::TooFewValues { .. } => Category::Truncated,
            BvhErrorKind::Expected { .. } if self.offset == 0 => Category::WrongFormat,
            _ => Category::Invalid,
        }
    }
}

impl BvhError {
    /// An error of `kind` at byte `offset` of `data`, with its line and column counted.
    pub(crate) fn at(data: &[u8], offset: usize, kind: BvhErrorKind) -> BvhError {
        let offset = offset.min(data.len());
        let before = &data[..offset];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + String::from_utf8_lossy(&before[line_start..]).chars().count();
        BvhError { line, column, offset, kind }
    }
}
