//! World-space bakes: every bone's model-space position and rotation at every sample of a
//! motion, with bone names, parents and the sample rate, as NumPy `.npz`, CSV or JSON.
//!
//! **Units.** MMD has no official unit; by convention one unit is about 8 cm (reference §7
//! "Units": mmd_tools imports at 0.08 m per unit; NB: "1ミクセル8cm"), so [`METRES_PER_UNIT`]
//! is 0.08. [`BakeSettings::scale`] multiplies positions; rotations have no unit.
//!
//! **Axes** ([`Axes`]): MMD's own left-handed Y-up frame (+X the model's left, models face −Z),
//! or a right-handed frame (reference §8): Y up by mirroring Z (p → (x, y, −z), q → (−x, −y, z,
//! w), as three.js, saba and MMDAgent do; glTF's convention, models face +Z), or Z up as Blender
//! (p → (x, z, y), q → (−x, −z, −y, w); models face −Y, as mmd_tools imports them).
//! Rotations are from the bind pose: MMD bones have no rest orientation.
//!
//! **Layout.** Samples are taken at `fps` per second from frame 0 through the motion's last key
//! (MMD frames are 1/30 s). `positions` is frames × bones × 3, `rotations` frames × bones × 4
//! (x, y, z, w), both row-major `f32`; `parents` holds −1 for roots.
//!
//! **Size.** Samples run from frame 0, so one key at a far frame makes a long bake whatever
//! the file's size. [`bake_world`] works the arrays' size out first and fails with
//! [`BakeError::TooLarge`] above [`BakeSettings::max_output_bytes`], before allocating.

use super::binding::Binding;
use super::npz::{self, Array, Data};
use super::pose::{Pose, PoseOptions};
use super::poser::Poser;
use super::Skeleton;
use crate::edit::BakeError;
use crate::eval::MotionSampler;
use crate::limit::{DenseOutput, DenseSize, DEFAULT_MAX_OUTPUT_BYTES};
use glam::{Quat, Vec3};
use std::io::{self, Seek, Write};

/// Metres per MMD unit (1 unit ≈ 8 cm).
pub const METRES_PER_UNIT: f64 = 0.08;

/// The coordinate frame of an export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Axes {
    /// MMD's own: left-handed, Y up, models face −Z.
    #[default]
    Mmd,
    /// Right-handed, Y up: Z mirrored (glTF, three.js). Models face +Z.
    RightHandedYUp,
    /// Right-handed, Z up (Blender): MMD's Y and Z swapped. Models face −Y.
    RightHandedZUp,
}

impl Axes {
    /// A short name, written into the outputs.
    pub fn label(self) -> &'static str {
        match self {
            Axes::Mmd => "mmd_left_handed_y_up",
            Axes::RightHandedYUp => "right_handed_y_up",
            Axes::RightHandedZUp => "right_handed_z_up",
        }
    }

    /// A position (or any vector) in MMD's frame, in this one.
    pub fn position(self, p: Vec3) -> Vec3 {
        match self {
            Axes::Mmd => p,
            Axes::RightHandedYUp => Vec3::new(p.x, p.y, -p.z),
            Axes::RightHandedZUp => Vec3::new(p.x, p.z, p.y),
        }
    }

    /// A rotation in MMD's frame, in this one. Both conversions are reflections (determinant
    /// −1), under which a rotation's axis maps to −(M·axis) and its angle stays.
    pub fn rotation(self, q: Quat) -> Quat {
        match self {
            Axes::Mmd => q,
            Axes::RightHandedYUp => Quat::from_xyzw(-q.x, -q.y, q.z, q.w),
            Axes::RightHandedZUp => Quat::from_xyzw(-q.x, -q.z, -q.y, q.w),
        }
    }
}

/// How to bake.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BakeSettings {
    /// Samples per second (positive).
    pub fps: f64,
    /// Positions are multiplied by this: 1 for MMD units, [`METRES_PER_UNIT`] for metres.
    pub scale: f64,
    /// The coordinate frame positions and rotations are written in.
    pub axes: Axes,
    /// How each sample is posed (IK variant, IK on or off).
    pub pose: PoseOptions,
    /// The largest bake allowed, in bytes of its arrays ([`world_bake_size`]).
    pub max_output_bytes: u64,
}

impl Default for BakeSettings {
    fn default() -> Self {
        BakeSettings {
            fps: 30.0,
            scale: 1.0,
            axes: Axes::Mmd,
            pose: PoseOptions::default(),
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }
}

/// A baked motion: every bone at every sample.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldBake {
    /// Samples per second, as [`BakeSettings::fps`].
    pub fps: f64,
    /// What positions were multiplied by, as [`BakeSettings::scale`].
    pub scale: f64,
    /// The coordinate frame of positions and rotations.
    pub axes: Axes,
    /// The MMD frame (1/30 s) of each sample.
    pub frames: Vec<f64>,
    /// Bone names as the model stores them, by bone index.
    pub names: Vec<String>,
    /// Parent bone index, −1 for roots.
    pub parents: Vec<i32>,
    /// frames × bones × 3.
    pub positions: Vec<f32>,
    /// frames × bones × 4, (x, y, z, w).
    pub rotations: Vec<f32>,
}

/// The number of samples at `fps` from frame 0 through `last_frame` (both ends included when
/// they fall on a sample).
/// Saturates at `usize::MAX` (a rate so high that the count does not fit).
pub fn sample_count(last_frame: u32, fps: f64) -> usize {
    usize::try_from(samples(last_frame, fps)).unwrap_or(usize::MAX)
}

/// [`sample_count`] in `u64`, saturating.
pub(crate) fn samples(last_frame: u32, fps: f64) -> u64 {
    // A hair of tolerance so that e.g. 60 fps over 90 frames gives 181 samples, not 180. The
    // float-to-integer cast saturates.
    ((f64::from(last_frame) / crate::math::FPS * fps + 1e-9).floor() as u64).saturating_add(1)
}

/// The size of [`bake_world`]'s arrays: samples × bones × 7 `f32` (position and rotation) and
/// one `f64` frame per sample.
pub fn world_bake_size(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    fps: f64,
) -> Result<DenseSize, BakeError> {
    if !(fps.is_finite() && fps > 0.0) {
        return Err(BakeError::BadFrameRate(fps));
    }
    Ok(bone_samples_size(skeleton, sampler, fps, 7 * 4, 8))
}

/// The size of an output holding every bone at every sample from frame 0 through the last key
/// at `fps` (checked by the caller): `per_bone` bytes per bone and `per_sample` more per
/// sample. Shared by the world bake and the BVH export.
pub(crate) fn bone_samples_size(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    fps: f64,
    per_bone: u64,
    per_sample: u64,
) -> DenseSize {
    let last = sampler.last_frame().unwrap_or(0);
    let frames = samples(last, fps);
    let bones = skeleton.bone_count() as u64;
    let sample_bytes = bones.saturating_mul(per_bone).saturating_add(per_sample);
    DenseSize {
        output: DenseOutput::Bones,
        first: 0,
        last,
        fps,
        frames,
        count: bones,
        bytes: frames.saturating_mul(sample_bytes),
    }
}

/// Poses `sampler` on `skeleton` at every sample, calling `progress(done, total)` now and then.
/// Fails, before allocating, when the rate is not a positive finite number or the arrays would
/// be larger than `settings.max_output_bytes`.
pub fn bake_world(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    binding: &Binding,
    settings: &BakeSettings,
    mut progress: impl FnMut(usize, usize),
) -> Result<WorldBake, BakeError> {
    // No more bytes than an address space holds, so the sample count fits in usize too.
    let limit = settings.max_output_bytes.min(usize::MAX as u64);
    let count = world_bake_size(skeleton, sampler, settings.fps)?.within(limit)?.frames as usize;
    let n = skeleton.bone_count();
    let mut poser = Poser::with_options(skeleton, sampler, binding, settings.pose);
    let mut pose = Pose::new(skeleton);
    let mut bake = WorldBake {
        fps: settings.fps,
        scale: settings.scale,
        axes: settings.axes,
        frames: Vec::with_capacity(count),
        names: skeleton.bone_names().to_vec(),
        parents: (0..n).map(|b| skeleton.parent(b).map_or(-1, |p| p as i32)).collect(),
        positions: Vec::with_capacity(count * n * 3),
        rotations: Vec::with_capacity(count * n * 4),
    };
    let scale = settings.scale as f32;
    for k in 0..count {
        let frame = k as f64 * crate::math::FPS / settings.fps;
        poser.pose_at(frame, &mut pose);
        bake.frames.push(frame);
        for (p, q) in pose.positions().iter().zip(pose.rotations()) {
            // `+ 0.0` turns −0 (from sign flips) into 0, for tidier text output.
            let p = settings.axes.position(*p) * scale + Vec3::ZERO;
            let q = settings.axes.rotation(q.normalize());
            bake.positions.extend_from_slice(&p.to_array());
            bake.rotations.extend_from_slice(&[q.x + 0.0, q.y + 0.0, q.z + 0.0, q.w + 0.0]);
        }
        if k % 256 == 255 {
            progress(k + 1, count);
        }
    }
    progress(count, count);
    Ok(bake)
}

impl WorldBake {
    /// The number of samples.
    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }

    /// The number of bones in each sample.
    pub fn bone_count(&self) -> usize {
        self.names.len()
    }

    /// What the positions are measured in: "mmd_units", "metres", or "mmd_units*{scale}".
    pub fn units(&self) -> String {
        if self.scale == 1.0 {
            "mmd_units".into()
        } else if self.scale == METRES_PER_UNIT {
            "metres".into()
        } else {
            format!("mmd_units*{}", self.scale)
        }
    }

    /// NumPy `.npz`: `positions` (F, B, 3) f4, `rotations` (F, B, 4) f4, `names` (B,) unicode,
    /// `parents` (B,) i4, `fps` () f8, `frames` (F,) f8 (MMD frame of each sample), `scale`
    /// () f8, `units` and `axes` () unicode. Members are stored with Zip64 headers, so bakes past
    /// 4 GiB are written too; the zip format seeks back to fill sizes in, hence `Seek` (a
    /// `File`, a `BufWriter<File>`, or an `io::Cursor<Vec<u8>>` for output held in memory).
    pub fn write_npz<W: Write + Seek>(&self, out: W) -> io::Result<()> {
        let (f, b) = (self.frame_count(), self.bone_count());
        let fps = [self.fps];
        let scale = [self.scale];
        let units = [self.units()];
        let axes = [self.axes.label().to_string()];
        npz::write_npz(
            &[
                Array { name: "positions", shape: vec![f, b, 3], data: Data::F32(&self.positions) },
                Array { name: "rotations", shape: vec![f, b, 4], data: Data::F32(&self.rotations) },
                Array { name: "names", shape: vec![b], data: Data::Str(&self.names) },
                Array { name: "parents", shape: vec![b], data: Data::I32(&self.parents) },
                Array { name: "fps", shape: vec![], data: Data::F64(&fps) },
                Array { name: "frames", shape: vec![f], data: Data::F64(&self.frames) },
                Array { name: "scale", shape: vec![], data: Data::F64(&scale) },
                Array { name: "units", shape: vec![], data: Data::Str(&units) },
                Array { name: "axes", shape: vec![], data: Data::Str(&axes) },
            ],
            out,
        )
    }

    /// CSV, one row per (sample, bone):
    /// `sample,frame,time,bone,name,parent,x,y,z,qx,qy,qz,qw` (frame in MMD frames, time in
    /// seconds).
    #[cfg(feature = "csv")]
    pub fn write_csv(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        let header = [
            "sample", "frame", "time", "bone", "name", "parent", "x", "y", "z", "qx", "qy", "qz",
            "qw",
        ];
        w.write_record(header)?;
        let n = self.bone_count();
        let mut row: Vec<String> = Vec::with_capacity(header.len());
        for (k, frame) in self.frames.iter().enumerate() {
            for b in 0..n {
                row.clear();
                row.push(k.to_string());
                row.push(frame.to_string());
                row.push((frame / crate::math::FPS).to_string());
                row.push(b.to_string());
                row.push(self.names[b].clone());
                row.push(self.parents[b].to_string());
                let i = k * n + b;
                row.extend(self.positions[i * 3..i * 3 + 3].iter().map(f32::to_string));
                row.extend(self.rotations[i * 4..i * 4 + 4].iter().map(f32::to_string));
                w.write_record(&row)?;
            }
        }
        w.flush()
    }

    /// JSON: `{"fps", "units", "scale", "axes", "frames": [..], "bones": [{"name", "parent"}],
    /// "positions": [[[x, y, z], ..], ..], "rotations": [[[x, y, z, w], ..], ..]}`, written as
    /// it goes.
    #[cfg(feature = "json")]
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "{{\"fps\":{},\"units\":{},\"scale\":{},\"axes\":{},\"frames\":[",
            json(&self.fps),
            json(&self.units()),
            json(&self.scale),
            json(&self.axes.label())
        )?;
        for (k, f) in self.frames.iter().enumerate() {
            write!(out, "{}{}", if k == 0 { "" } else { "," }, json(f))?;
        }
        out.write_all(b"],\"bones\":[")?;
        for (b, (name, parent)) in self.names.iter().zip(&self.parents).enumerate() {
            write!(
                out,
                "{}{{\"name\":{},\"parent\":{parent}}}",
                if b == 0 { "" } else { "," },
                json(name)
            )?;
        }
        for (key, data, width) in
            [("positions", &self.positions, 3), ("rotations", &self.rotations, 4)]
        {
            write!(out, "],\"{key}\":[")?;
            for (k, frame) in data.chunks(self.bone_count().max(1) * width).enumerate() {
                out.write_all(if k == 0 { b"[" } else { b",[" })?;
                for (b, v) in frame.chunks(width).enumerate() {
                    out.write_all(if b == 0 { b"[" } else { b",[" })?;
                    for (c, x) in v.iter().enumerate() {
                        write!(out, "{}{}", if c == 0 { "" } else { "," }, json(x))?;
                    }
                    out.write_all(b"]")?;
                }
                out.write_all(b"]")?;
            }
        }
        out.write_all(b"]}\n")
    }
}

/// One JSON scalar without building a document: serde_json's formatting (shortest round-trip
/// floats, escaped strings, `null` for non-finite numbers).
#[cfg(feature = "json")]
fn json(v: &impl serde::Serialize) -> String {
    // Numbers and strings always serialise; the fallback only keeps the output well formed.
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skeleton_export_axes_convert_rotations_consistently() {
        // Rotating a vector then converting equals converting both then rotating.
        let q = Quat::from_axis_angle(Vec3::new(0.3, -0.5, 0.8).normalize(), 0.9);
        let v = Vec3::new(1.0, 2.0, -0.5);
        for axes in [Axes::Mmd, Axes::RightHandedYUp, Axes::RightHandedZUp] {
            let a = axes.position(q * v);
            let b = axes.rotation(q) * axes.position(v);
            assert!((a - b).length() < 1e-5, "{axes:?}: {a} vs {b}");
        }
        // §8's worked rule for the Z mirror.
        assert_eq!(
            Axes::RightHandedYUp.rotation(Quat::from_xyzw(0.1, 0.2, 0.3, 0.9)),
            Quat::from_xyzw(-0.1, -0.2, 0.3, 0.9)
        );
        assert_eq!(sample_count(90, 60.0), 181);
        assert_eq!(sample_count(0, 24.0), 1);
        assert_eq!(sample_count(100, 30.0), 101);
        assert_eq!(sample_count(u32::MAX, 1e300), usize::MAX);
    }
}
