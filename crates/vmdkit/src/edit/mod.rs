//! Editing motions without losing their curves.
//!
//! Every edit takes a [`Motion`](crate::Motion) and returns a new one plus a report of what it
//! did, so that callers (the CLI) can tell the user about names that did not fit, keys that
//! collided or curves that had to be approximated. Nothing here reads or writes files.
//!
//! | edit | source file | curves |
//! |---|---|---|
//! | [`mirror()`] | `mirror.rs` | kept (mirroring values does not change weights) |
//! | [`shift()`], [`trim()`] | `time.rs` | kept; cut segments split with [`split_at`] |
//! | [`place()`] | `place.rs` | kept, unless a turn mixes channels of different curves |
//! | [`retime()`] | `retime.rs` | kept when keys scale to whole frames, else refitted |
//! | [`merge()`] | `merge.rs` | kept |
//! | [`append()`] | `append.rs` | kept; linear keys added at the seams |
//! | [`rename()`], [`filter()`] | `rename.rs` | kept |
//! | [`scale()`] | `scale.rs` | kept (scaling values does not change weights) |
//! | [`reduce()`] | `reduce/` | fitted, within a [`Tolerance`] ([`measure`] checks it) |
//!
//! ```
//! use vmdkit::edit::{mirror, reduce, ReduceOptions, Tolerance};
//! use vmdkit::edit::measure;
//!
//! let motion = vmdkit::example::example_motion();
//! let (mirrored, report) = mirror(&motion);
//! assert!(report.swapped.iter().any(|(from, to)| from == "右腕" && to == "左腕"));
//! assert_eq!(mirror(&mirrored).0, motion);
//!
//! // A bake has a key every frame; reduce brings it back to a few keys with fitted curves.
//! let dense = vmdkit::bake::bake(&motion, 30.0).unwrap();
//! let (small, report) = reduce(&dense, &ReduceOptions::default());
//! assert!(report.after.bones < report.before.bones / 4);
//! assert!(measure(&dense, &small).within(&Tolerance::default()));
//! ```
//!
//! **Names** are decoded and re-encoded in the motion's own encoding
//! ([`Motion::detect_encoding`](crate::Motion::detect_encoding)); a name an edit does not
//! change keeps its raw field bytes (padding included), so unrelated keys round-trip exactly.

pub(crate) mod append;
pub(crate) mod merge;
pub(crate) mod mirror;
pub(crate) mod place;
pub(crate) mod reduce;
pub(crate) mod rename;
pub(crate) mod retime;
pub(crate) mod scale;
pub(crate) mod split;
pub(crate) mod time;

pub use append::{append, AppendReport};
pub use merge::{merge, MergeReport};
pub use mirror::{mirror, mirror_rotation, MirrorReport};
pub use place::{place, PlaceReport, PlaceRoot, RigidTransform};
pub use reduce::{
    measure, measure_with, reduce, reduce_with_progress, KeyCounts, MeasuredErrors, Progress,
    ReduceMethod, ReduceOptions, ReduceReport, Tolerance, LONG_SEGMENT,
};
pub(crate) use reduce::{reduce_bone_samples, reduce_unmeasured, BoneSamples};
pub use rename::{
    filter, glob_match, rename, FilterMode, FilterReport, RenameMap, RenameReport, Renamed,
};
pub use retime::{retime, RetimeReport};
pub use scale::scale;
pub use split::{split_at, sub_curve, SubCurve, ROUNDING_BOUND};
pub use time::{shift, trim, TrimReport};

/// "a (→ b), c" for [`EditError::NameCollision`]: each old name with the new one asked for it.
fn collision_list(names: &[String], requested: &[String]) -> String {
    let parts: Vec<String> = names
        .iter()
        .zip(requested)
        .map(|(old, new)| if old == new { old.clone() } else { format!("{old} (→ {new})") })
        .collect();
    parts.join(", ")
}

/// Why an edit cannot be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// A shift would move a key before frame 0. Frames are unsigned in a VMD; trim first (or
    /// use the CLI's `--clip`) to drop what would fall off.
    #[error("shifting by {shift} frames would move the {key} key at frame {frame} before frame 0")]
    BeforeFrameZero {
        /// The key: its section, and its name in bone and morph keys (`bone "右腕"`).
        key: String,
        /// The frame of the first key, in section and file order, that would fall off.
        frame: u32,
        /// The shift asked for, in frames (negative: earlier).
        shift: i64,
    },
    /// A shift would move a key beyond the largest frame number a VMD can store, 4,294,967,295.
    #[error(
        "shifting by {shift} frames would move the {key} key at frame {frame} to frame {to}, \
         beyond the largest VMD frame number, {}",
        u32::MAX
    )]
    ShiftBeyondLastFrame {
        /// The key: its section, and its name in bone and morph keys (`bone "右腕"`).
        key: String,
        /// The frame of the first key, in section and file order, that would not fit.
        frame: u32,
        /// The shift asked for, in frames.
        shift: i64,
        /// The frame it would get.
        to: u64,
    },
    /// A frame would not fit in the file's u32 frame field.
    #[error(
        "{key} key at frame {source_frame} would move to frame {frame}, beyond the largest VMD \
         frame number (4,294,967,295)"
    )]
    FrameOverflow {
        /// The key's track (bone or morph name, or its section).
        key: String,
        /// The key's frame before the edit.
        source_frame: u32,
        /// The frame the key would have landed on (above `u32::MAX`).
        frame: u64,
    },
    /// A camera can only be turned about the vertical axis (see [`place()`]).
    #[error(
        "the camera can only be turned by a yaw: pitch and roll would change its Euler angles in \
         a way their linear blend cannot follow"
    )]
    CameraTilt,
    /// A trim range with `from > to`.
    #[error("the range {from}..={to} is empty")]
    EmptyRange {
        /// The first frame of the range asked for.
        from: u32,
        /// The last frame of the range asked for (inclusive), below `from`.
        to: u32,
    },
    /// A retime factor that is not a positive finite number.
    #[error("the time factor must be a positive finite number, not {0}")]
    BadFactor(f64),
    /// Renaming would give two different tracks the same name, merging them.
    #[error(
        "renaming would merge the {kind} tracks {} into one named {into}{}",
        collision_list(names, requested),
        if *field_full { " (a name field holds the first 15 bytes of a name; 20 for IK)" } else { "" }
    )]
    NameCollision {
        /// `bone`, `morph` or `IK`: which names collided.
        kind: &'static str,
        /// The old names that would merge, sorted.
        names: Vec<String>,
        /// The new name asked for each of `names` (the old name itself for one left as it is).
        requested: Vec<String>,
        /// Whether the stored name fills its field: the names may differ only after the cut.
        field_full: bool,
        /// The name they would all get, as stored in the field (after any shortening).
        into: String,
    },
    /// A new name has a character the motion's encoding cannot store.
    #[error("the {kind} name {name:?} cannot be encoded in the motion's encoding ({encoding})")]
    Unencodable {
        /// `bone`, `morph` or `IK`: which kind of name was being renamed.
        kind: &'static str,
        /// The new name, as given in the map.
        name: String,
        /// The motion's encoding, by its label: `shift_jis`, `gbk` or `utf-8`.
        encoding: &'static str,
    },
    /// A rename map that cannot be read.
    #[error("rename map line {line}: {message}")]
    BadMap {
        /// The line of the map text, counted from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}
