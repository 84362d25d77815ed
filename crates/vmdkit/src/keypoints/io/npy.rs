//! NumPy `.npy` and `.npz` keypoints: arrays are F × J × 3 positions, J × 3 (one frame) or
//! F × J × 4 (the fourth value a confidence), found in an archive by their member names. The
//! arrays themselves are read, bounded, by the crate's `npy` module.

use super::{KeypointError, KeypointErrorKind as Kind, KeypointFormat};
use crate::keypoints::Keypoints;
use crate::npy::{member_bytes, read_array, NpyArray as Array, NpyProblem};
use glam::Vec3;
use npyz::{DType, WriterBuilder};
use std::io::{self, Write};

/// NPZ member names that hold positions, in the order they are preferred.
const POSITION_NAMES: [&str; 8] =
    ["keypoints", "positions", "joints", "joints3d", "pose", "poses_3d", "kps", "joints_3d"];

/// NPZ member names that hold per-joint confidences.
const CONFIDENCE_NAMES: [&str; 3] = ["confidence", "scores", "score"];

pub(super) fn parse_npy(bytes: &[u8]) -> Result<Keypoints, KeypointError> {
    let array = read_array(bytes).map_err(|e| array_error(e, KeypointFormat::Npy, None))?;
    from_positions(array, None, KeypointFormat::Npy, None)
}

pub(super) fn parse_npz(bytes: &[u8]) -> Result<Keypoints, KeypointError> {
    let format = KeypointFormat::Npz;
    let zip_error = |e: io::Error| KeypointError::new(format, Kind::WrongFormat(e.to_string()));
    let mut archive = npyz::npz::NpzArchive::new(io::Cursor::new(bytes)).map_err(zip_error)?;
    let names: Vec<String> = archive.array_names().map(str::to_owned).collect();
    let chosen = match POSITION_NAMES.iter().find(|n| names.iter().any(|m| m == *n)) {
        Some(name) => name.to_string(),
        None => only_3d_array(&mut archive, &names)?,
    };
    let positions = read_member(&mut archive, &chosen)?;
    let confidence = match CONFIDENCE_NAMES.iter().find(|n| names.iter().any(|m| m == *n)) {
        Some(name) => Some((name.to_string(), read_member(&mut archive, name)?)),
        None => None,
    };
    let mut keypoints = from_positions(positions, confidence, format, Some(&chosen))?;
    if names.iter().any(|n| n == "fps") {
        let fps = read_member(&mut archive, "fps")?;
        match fps.values.as_slice() {
            [v] if super::usable_fps(f64::from(*v)) => keypoints.fps = Some(f64::from(*v)),
            _ => {
                let kind = Kind::Invalid(format!("not one number: {}", super::BAD_FPS));
                return Err(KeypointError::new(format, kind).field("fps"));
            }
        }
    }
    Ok(keypoints)
}

/// The archive's one 3-D array, or its one array of any shape, when no member has a known name.
fn only_3d_array(
    archive: &mut npyz::npz::NpzArchive<io::Cursor<&[u8]>>,
    names: &[String],
) -> Result<String, KeypointError> {
    let mut three_d = Vec::new();
    for name in names {
        // A member whose header does not parse is no candidate; it is reported if chosen.
        if let Ok((_, Some(header))) = member_bytes(archive, name, false) {
            if header.shape.len() == 3 {
                three_d.push(name.clone());
            }
        }
    }
    match (three_d.as_slice(), names) {
        ([one], _) | ([], [one]) => Ok(one.clone()),
        _ => Err(KeypointError::new(
            KeypointFormat::Npz,
            Kind::Invalid(format!(
                "no array named {} and {} 3-D arrays among [{}]: cannot tell which holds positions",
                POSITION_NAMES.join("/"),
                three_d.len(),
                crate::shown::shown_list(names)
            )),
        )),
    }
}

/// Decompresses one member, as far as [`member_bytes`] allows, and decodes it.
fn read_member(
    archive: &mut npyz::npz::NpzArchive<io::Cursor<&[u8]>>,
    name: &str,
) -> Result<Array, KeypointError> {
    let (data, _) = member_bytes(archive, name, true)
        .map_err(|e| KeypointError::new(KeypointFormat::Npz, e.into()).field(name))?;
    read_array(&data).map_err(|e| array_error(e, KeypointFormat::Npz, Some(name)))
}

/// An error of [`read_array`] at its byte offset, in `field` when the array is an NPZ member.
fn array_error(
    (problem, offset): (NpyProblem, usize),
    format: KeypointFormat,
    field: Option<&str>,
) -> KeypointError {
    let e = KeypointError::new(format, problem.into()).at_offset(offset);
    match field {
        Some(f) => e.field(f),
        None => e,
    }
}

impl From<NpyProblem> for Kind {
    fn from(problem: NpyProblem) -> Kind {
        match problem {
            NpyProblem::WrongFormat(m) => Kind::WrongFormat(m),
            NpyProblem::Unsupported(m) => Kind::Unsupported(m),
            NpyProblem::Truncated { needed, available } => Kind::Truncated { needed, available },
            NpyProblem::Syntax(m) => Kind::Syntax(m),
            NpyProblem::Invalid(m) => Kind::Invalid(m),
        }
    }
}

/// Keypoints from a positions array (and a confidence array, named by its member).
fn from_positions(
    array: Array,
    confidence: Option<(String, Array)>,
    format: KeypointFormat,
    field: Option<&str>,
) -> Result<Keypoints, KeypointError> {
    let invalid = |message: String, name: Option<&str>| {
        let e = KeypointError::new(format, Kind::Invalid(message));
        match name {
            Some(f) => e.field(f),
            None => e,
        }
    };
    let (frames, joints, width) = match array.shape[..] {
        [j, c @ (3 | 4)] => (1, j as usize, c as usize),
        [f, j, c @ (3 | 4)] => (f as usize, j as usize, c as usize),
        _ => {
            let message = format!(
                "shape {:?} is not frames × joints × 3, joints × 3 or frames × joints × 4",
                array.shape
            );
            return Err(invalid(message, field));
        }
    };
    let points = array.values.chunks_exact(width);
    let positions: Vec<Vec3> = points.clone().map(|p| Vec3::new(p[0], p[1], p[2])).collect();
    let mut keypoints =
        Keypoints { frame_count: frames, joint_count: joints, positions, ..Default::default() };
    if width == 4 {
        keypoints.confidence = Some(points.map(|p| p[3]).collect());
    }
    if let Some((name, c)) = confidence {
        let fits = c.values.len() == frames * joints
            && matches!(c.shape[..], [f, j] | [f, j, 1] if f as usize == frames && j as usize == joints);
        if !fits {
            let message = format!(
                "confidence shape {:?} does not match {frames} frames × {joints} joints",
                c.shape
            );
            return Err(invalid(message, Some(&name)));
        }
        keypoints.confidence = Some(c.values);
    }
    Ok(keypoints)
}

pub(super) fn write_npy(keypoints: &Keypoints, out: &mut dyn Write) -> io::Result<()> {
    let shape = [keypoints.frame_count as u64, keypoints.joint_count as u64, 3];
    let dtype = DType::Plain("<f4".parse().expect("a valid type string"));
    let mut writer = npyz::WriteOptions::new().dtype(dtype).shape(&shape).writer(out).begin_nd()?;
    for p in &keypoints.positions {
        writer.extend(p.to_array())?;
    }
    writer.finish()
}
