//! Keypoint files: which format a file is, the error every reader reports, and the checks that
//! every reader's result passes before it is handed out.
//!
//! Each format has its own file; they all build a [`Keypoints`] and end in [`validate`], so that
//! zero frames, zero joints and files without a single present joint are refused the same way
//! whatever the format.

mod error;
mod json;
mod npy;
mod pose;
mod trc;
mod wide_csv;

#[cfg(test)]
mod tests;

pub use error::{KeypointError, KeypointErrorKind, KeypointFileError, Location};

use super::Keypoints;
use crate::FileKind;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

/// A keypoint file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeypointFormat {
    /// NumPy `.npy`: one F × J × 3 (or J × 3, or F × J × 4 with confidence) array.
    Npy,
    /// NumPy `.npz`: a zip of `.npy` arrays, one of them the positions.
    Npz,
    /// Wide CSV: one row per frame, `<joint>_x`, `_y`, `_z` (and `_vis`) columns.
    Csv,
    /// JSON: nested arrays, an object with `frames`, or one object per frame.
    Json,
    /// OpenSim marker trajectories (`.trc`).
    Trc,
    /// The `pose-format` library's binary `.pose` (versions 0.1 and 0.2).
    Pose,
}

impl KeypointFormat {
    /// Every format, in the order [`KeypointFormat::detect`] tries their signatures.
    pub const ALL: [KeypointFormat; 6] = [
        KeypointFormat::Npy,
        KeypointFormat::Npz,
        KeypointFormat::Pose,
        KeypointFormat::Trc,
        KeypointFormat::Json,
        KeypointFormat::Csv,
    ];

    /// The format named by a file extension or a user's word: `npy`, `npz`, `csv`, `json`,
    /// `trc` or `pose` (any case, with or without the dot).
    pub fn from_name(name: &str) -> Option<KeypointFormat> {
        let name = name.trim().trim_start_matches('.').to_ascii_lowercase();
        KeypointFormat::ALL.into_iter().find(|f| f.extension() == name)
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            KeypointFormat::Npy => "npy",
            KeypointFormat::Npz => "npz",
            KeypointFormat::Csv => "csv",
            KeypointFormat::Json => "json",
            KeypointFormat::Trc => "trc",
            KeypointFormat::Pose => "pose",
        }
    }

    /// The format the bytes announce themselves as, by signature alone: the NPY magic, a zip
    /// local header, a `pose-format` version, TRC's `PathFileType` line, or JSON's opening
    /// bracket. CSV has no signature, so it is never detected here.
    pub fn detect(bytes: &[u8]) -> Option<KeypointFormat> {
        match crate::file_kind::keypoint_signature(bytes)? {
            FileKind::Zip => Some(KeypointFormat::Npz),
            FileKind::Json => Some(KeypointFormat::Json),
            kind => KeypointFormat::of_kind(kind),
        }
    }

    /// The keypoint format a file of `kind` is in, if it is keypoints (BVH is not: it is read
    /// as a skeleton).
    pub fn of_kind(kind: FileKind) -> Option<KeypointFormat> {
        match kind {
            FileKind::Npy => Some(KeypointFormat::Npy),
            FileKind::Npz => Some(KeypointFormat::Npz),
            FileKind::Pose => Some(KeypointFormat::Pose),
            FileKind::Trc => Some(KeypointFormat::Trc),
            FileKind::KeypointJson => Some(KeypointFormat::Json),
            FileKind::KeypointCsv => Some(KeypointFormat::Csv),
            _ => None,
        }
    }

    /// The format for a file: its signature first ([`KeypointFormat::detect`]), then its
    /// extension, and CSV when neither says.
    pub fn guess(bytes: &[u8], path: Option<&Path>) -> KeypointFormat {
        KeypointFormat::detect(bytes)
            .or_else(|| {
                path.and_then(|p| p.extension())
                    .and_then(|e| e.to_str())
                    .and_then(KeypointFormat::from_name)
            })
            .unwrap_or(KeypointFormat::Csv)
    }
}

impl fmt::Display for KeypointFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeypointFormat::Npy => "NPY",
            KeypointFormat::Npz => "NPZ",
            KeypointFormat::Csv => "CSV",
            KeypointFormat::Json => "JSON",
            KeypointFormat::Trc => "TRC",
            KeypointFormat::Pose => "pose-format",
        })
    }
}

impl Keypoints {
    /// Reads a keypoint file, in the format its bytes (or else its extension) say
    /// ([`KeypointFormat::guess`]). A file that is plainly something else (a motion, a model, a BVH, an image, a page) is
    /// named as what it is rather than reported as the format guessed for it.
    pub fn read_file(path: &Path) -> Result<Keypoints, KeypointFileError> {
        crate::error::read_and_parse(path, |bytes| {
            let format = KeypointFormat::guess(bytes, Some(path));
            match crate::FileKind::detect(bytes) {
                crate::FileKind::Json
                | crate::FileKind::Text
                | crate::FileKind::Binary
                | crate::FileKind::Empty => {}
                kind if !kind.is_keypoints() => {
                    let what = format!("this is {kind}, not keypoints");
                    return Err(KeypointError::new(format, KeypointErrorKind::WrongFormat(what)));
                }
                _ => {}
            }
            Keypoints::parse(bytes, format)
        })
    }

    /// Parses keypoints in `format`.
    pub fn parse(bytes: &[u8], format: KeypointFormat) -> Result<Keypoints, KeypointError> {
        let keypoints = match format {
            KeypointFormat::Npy => npy::parse_npy(bytes),
            KeypointFormat::Npz => npy::parse_npz(bytes),
            KeypointFormat::Csv => wide_csv::parse(bytes),
            KeypointFormat::Json => json::parse(bytes),
            KeypointFormat::Trc => trc::parse(bytes),
            KeypointFormat::Pose => pose::parse(bytes, pose::WORLD_LANDMARKS),
        }?;
        validate(keypoints, format)
    }

    /// Parses one component of a `pose-format` file: `POSE_WORLD_LANDMARKS` (what
    /// [`Keypoints::parse`] takes), `POSE_LANDMARKS`, or any other the header names. Components
    /// named `*WORLD_LANDMARKS` are divided back by the header's width and height, which the
    /// library multiplied them by; other components stay in the file's pixels.
    pub fn parse_pose_component(bytes: &[u8], component: &str) -> Result<Keypoints, KeypointError> {
        validate(pose::parse(bytes, component)?, KeypointFormat::Pose)
    }

    /// Writes an F × J × 3 little-endian `f4` `.npy` array (positions only: NPY has no place
    /// for names, confidences or the frame rate).
    pub fn write_npy(&self, out: &mut dyn Write) -> io::Result<()> {
        npy::write_npy(self, out)
    }

    /// Writes the wide CSV [`Keypoints::parse`] reads: `frame`, `time_s` when the frame rate is
    /// known, then `<joint>_x`, `_y`, `_z` per joint and `_vis` when confidences exist; missing
    /// coordinates are empty cells.
    #[cfg(feature = "csv")]
    pub fn write_csv(&self, out: &mut dyn Write) -> io::Result<()> {
        wide_csv::write(self, out)
    }

    /// Writes the JSON object form: `fps`, `names`, `units`, `up` when known, `frames` as
    /// F × J × [x, y, z] with `null` for a missing joint, and `confidence` as F × J.
    #[cfg(feature = "json")]
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        json::write(self, out)
    }

    /// Writes a file atomically ([`crate::io::write_atomic_with`]) in `format`: NPY, CSV or
    /// JSON (the others are input-only, and CSV and JSON need their crate features).
    pub fn write_file(&self, path: &Path, format: KeypointFormat) -> io::Result<()> {
        let write: fn(&Keypoints, &mut dyn Write) -> io::Result<()> = match format {
            KeypointFormat::Npy => npy::write_npy,
            #[cfg(feature = "csv")]
            KeypointFormat::Csv => wide_csv::write,
            #[cfg(feature = "json")]
            KeypointFormat::Json => json::write,
            other => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    format!("cannot write keypoints as {other} (NPY, CSV or JSON can be written)"),
                ))
            }
        };
        crate::io::write_atomic_with(path, |w| write(self, w))
    }
}

/// The checks every reader's result passes: consistent lengths, at least one frame and joint,
/// and at least one present position (a file of nothing but missing joints is a mistake, not
/// data).
fn validate(k: Keypoints, format: KeypointFormat) -> Result<Keypoints, KeypointError> {
    let fail = |kind| Err(KeypointError::new(format, kind));
    if k.frame_count == 0 {
        return fail(KeypointErrorKind::NoFrames);
    }
    if k.joint_count == 0 {
        return fail(KeypointErrorKind::NoJoints);
    }
    debug_assert_eq!(k.positions.len(), k.frame_count * k.joint_count);
    debug_assert!(k.confidence.as_ref().is_none_or(|c| c.len() == k.positions.len()));
    debug_assert!(k.names.as_ref().is_none_or(|n| n.len() == k.joint_count));
    if !k.positions.iter().any(|p| p.is_finite()) {
        return fail(KeypointErrorKind::AllMissing);
    }
    Ok(k)
}

/// The most points (frames × joints) the text readers build per byte of input, beyond
/// [`MIN_POINT_CAP`]. Each point is present or missing in every frame, but a missing point
/// costs a text file nothing (a row cut short, a joint left out of a frame's object): without a
/// bound a few hundred kilobytes could ask for gigabytes.
const MAX_POINTS_PER_BYTE: u64 = 16;

/// The points every text input may hold whatever its size (12 MiB of positions).
const MIN_POINT_CAP: u64 = 1 << 20;

/// Refuses `frames` × `joints` points from `input_len` bytes beyond [`MAX_POINTS_PER_BYTE`]
/// (or [`MIN_POINT_CAP`]), before they are allocated.
fn check_points(
    format: KeypointFormat,
    frames: usize,
    joints: usize,
    input_len: usize,
) -> Result<(), KeypointError> {
    let points = (frames as u64).saturating_mul(joints as u64);
    let cap = (input_len as u64).saturating_mul(MAX_POINTS_PER_BYTE).max(MIN_POINT_CAP);
    if points <= cap {
        return Ok(());
    }
    let message = format!(
        "{frames} frames × {joints} joints is {points} points from {input_len} bytes: more than \
         {MAX_POINTS_PER_BYTE} a byte, so most of them cannot be in the file"
    );
    Err(KeypointError::new(format, KeypointErrorKind::Invalid(message)))
}

/// Whether a frame rate a file declares can be used: above 0 and at most
/// [`MAX_FPS`](crate::math::MAX_FPS).
fn usable_fps(fps: f64) -> bool {
    fps.is_finite() && fps > 0.0 && fps <= crate::math::MAX_FPS
}

/// What is wrong with a frame rate [`usable_fps`] refuses.
const BAD_FPS: &str = "a frame rate is a number above 0 and at most 10000";

/// Frames per second from sample times, when they are regular (within 0.1 % of one step);
/// rates within 0.01 % of a whole number are snapped to it, undoing the rounding of printed
/// times.
fn fps_from_times(times: &[f64]) -> Option<f64> {
    let (first, last) = (*times.first()?, *times.last()?);
    if times.len() < 2 || last.partial_cmp(&first) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let step = (last - first) / (times.len() - 1) as f64;
    let regular = times.windows(2).all(|w| ((w[1] - w[0]) - step).abs() <= step * 1e-3);
    if !regular {
        return None;
    }
    let fps = 1.0 / step;
    // Times microseconds apart give no rate anything samples at: no rate, rather than that one.
    if !usable_fps(fps) {
        return None;
    }
    let whole = fps.round();
    Some(if (fps - whole).abs() <= whole * 1e-4 { whole } else { fps })
}
