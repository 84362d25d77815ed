//! The `pose-format` library's binary `.pose` files (sign-language-processing), versions 0.1
//! and 0.2, all little-endian:
//!
//! * header: version `f32`; width, height, depth `u16`; a `u16` count of components, each a
//!   name and a point format (strings are a `u16` byte length and UTF-8), `u16` counts of
//!   points, limbs and colours, the point names, limbs as two `u16`, colours as three `u16`;
//! * body: fps (`u16` in 0.1, `f32` in 0.2), a frame count (`u16` in 0.1, where it is unreliable
//!   and the count follows from the bytes left; `u32` in 0.2), a `u16` person count, then
//!   `f32` data frames × people × points × dims and `f32` confidences frames × people × points.
//!   Points run through all components in header order; dims is the longest point format
//!   (`XYZC`) less its confidence letter.
//!
//! The library stores world landmarks with x multiplied by the header width and y by its height
//! (z as is); reading divides them back so that the values are MediaPipe's metres again. A
//! confidence of 0 is the library's mask for a point not detected: such points are missing.

use super::{KeypointError, KeypointErrorKind as Kind, KeypointFormat};
use crate::keypoints::Keypoints;
use glam::Vec3;

const FORMAT: KeypointFormat = KeypointFormat::Pose;

/// The component [`Keypoints::parse`] takes from a `.pose` file.
pub(super) const WORLD_LANDMARKS: &str = "POSE_WORLD_LANDMARKS";

/// A little-endian cursor that reports how far it got when the bytes run out.
struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], KeypointError> {
        match self.bytes.get(self.offset..self.offset.saturating_add(n)) {
            Some(slice) => {
                self.offset += n;
                Ok(slice)
            }
            None => {
                let kind = Kind::Truncated {
                    needed: (self.offset as u64).saturating_add(n as u64),
                    available: self.bytes.len() as u64,
                };
                Err(KeypointError::new(FORMAT, kind).at_offset(self.offset).field(what))
            }
        }
    }

    fn u16(&mut self, what: &str) -> Result<u16, KeypointError> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().expect("two bytes")))
    }

    fn u32(&mut self, what: &str) -> Result<u32, KeypointError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().expect("four bytes")))
    }

    fn f32(&mut self, what: &str) -> Result<f32, KeypointError> {
        Ok(f32::from_le_bytes(self.take(4, what)?.try_into().expect("four bytes")))
    }

    fn string(&mut self, what: &str) -> Result<String, KeypointError> {
        let len = self.u16(what)?;
        let start = self.offset;
        let bytes = self.take(len.into(), what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| {
            KeypointError::new(FORMAT, Kind::Syntax("a string is not UTF-8".into()))
                .at_offset(start)
                .field(what)
        })
    }
}

struct Component {
    name: String,
    points: Vec<String>,
    /// The point format's length, confidence letter included (`XYZC`: 4).
    format_len: usize,
}

pub(super) fn parse(bytes: &[u8], wanted: &str) -> Result<Keypoints, KeypointError> {
    let mut r = Reader { bytes, offset: 0 };
    let version = r.f32("version")?;
    let v02 = if version.to_le_bytes() == 0.2f32.to_le_bytes() {
        true
    } else if version.to_le_bytes() == 0.1f32.to_le_bytes() {
        false
    } else {
        let kind =
            Kind::Unsupported(format!("pose-format version {version} (0.1 and 0.2 are read)"));
        return Err(KeypointError::new(FORMAT, kind).at_offset(0).field("version"));
    };
    let (width, height, _depth) = (r.u16("width")?, r.u16("height")?, r.u16("depth")?);
    let component_count = r.u16("components")?;
    let mut components = Vec::new();
    for _ in 0..component_count {
        let name = r.string("component name")?;
        let format = r.string("point format")?;
        let (points, limbs, colors) = (r.u16("points")?, r.u16("limbs")?, r.u16("colors")?);
        // Each name takes at least its two length bytes, so the vector is bounded by the input.
        let mut names = Vec::new();
        for _ in 0..points {
            names.push(r.string("point name")?);
        }
        r.take(usize::from(limbs) * 4, "limbs")?;
        r.take(usize::from(colors) * 6, "colors")?;
        components.push(Component { name, points: names, format_len: format.chars().count() });
    }
    let Some(index) = components.iter().position(|c| c.name == wanted) else {
        let names: Vec<&str> = components.iter().map(|c| c.name.as_str()).collect();
        let message = format!("no {wanted} component (there are {})", names.join(", "));
        return Err(KeypointError::new(FORMAT, Kind::WrongFormat(message)).field("components"));
    };
    let first_point: usize = components[..index].iter().map(|c| c.points.len()).sum();
    let total_points: usize = components.iter().map(|c| c.points.len()).sum();
    let dims = components.iter().map(|c| c.format_len).max().unwrap_or(0).saturating_sub(1);
    if dims < 3 {
        let kind = Kind::Unsupported(format!("{dims}-D points: keypoints are 3-D"));
        return Err(KeypointError::new(FORMAT, kind).field("point format"));
    }

    let fps_at = r.offset;
    let (fps, declared_frames) = if v02 {
        (f64::from(r.f32("fps")?), Some(r.u32("frames")?))
    } else {
        (f64::from(r.u16("fps")?), r.u16("frames").map(|_| None)?)
    };
    // 0 (or NaN) says "unknown"; a finite rate beyond any capture is damage.
    if fps.is_finite() && fps > crate::math::MAX_FPS {
        let kind = Kind::Invalid(format!("{fps}: {}", super::BAD_FPS));
        return Err(KeypointError::new(FORMAT, kind).at_offset(fps_at).field("fps"));
    }
    let people = usize::from(r.u16("people")?);
    let per_frame = [total_points, dims + 1, 4].iter().fold(people, |n, &m| n.saturating_mul(m));
    let left = bytes.len() - r.offset;
    let frames = match declared_frames {
        Some(f) => f as usize,
        // 0.1's u16 count overflows on long videos, so its readers count by the bytes left.
        None => left.checked_div(per_frame).unwrap_or(0),
    };
    if people == 0 || total_points == 0 {
        return Err(KeypointError::new(FORMAT, Kind::NoFrames).field("people"));
    }
    let needed = (frames as u64).saturating_mul(per_frame as u64);
    if needed > left as u64 {
        let kind = Kind::Truncated { needed, available: left as u64 };
        return Err(KeypointError::new(FORMAT, kind).at_offset(r.offset).field("frames"));
    }

    let component = &components[index];
    let joints = component.points.len();
    // World landmarks were multiplied by the frame size; image landmarks are pixels as is.
    let world = wanted.ends_with("WORLD_LANDMARKS");
    let scale = if world {
        Vec3::new(f32::from(width).max(1.0), f32::from(height).max(1.0), 1.0)
    } else {
        Vec3::ONE
    };
    let data = &bytes[r.offset..];
    let f32_at = |i: usize| f32::from_le_bytes(data[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
    let confidence_start = frames * people * total_points * dims;
    let mut positions = Vec::with_capacity(frames * joints);
    let mut confidence = Vec::with_capacity(frames * joints);
    for f in 0..frames {
        // The first person only: frame f, person 0, point first_point + j.
        for j in 0..joints {
            let point = (f * people) * total_points + first_point + j;
            let c = f32_at(confidence_start + point);
            let p =
                Vec3::new(f32_at(point * dims), f32_at(point * dims + 1), f32_at(point * dims + 2));
            positions.push(if c == 0.0 { Vec3::NAN } else { p / scale });
            confidence.push(c);
        }
    }
    Ok(Keypoints {
        frame_count: frames,
        joint_count: joints,
        positions,
        confidence: Some(confidence),
        names: Some(component.points.clone()),
        fps: Some(fps).filter(|f| f.is_finite() && *f > 0.0),
        // MediaPipe defines its world landmarks: metres, origin between the hips, y down.
        // Image-space components say nothing of the kind.
        units: world.then_some(crate::keypoints::Units::Metres),
        up: world.then_some(crate::keypoints::UpAxis::NegY),
    })
}
