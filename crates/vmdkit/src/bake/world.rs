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

use super::BakeError;
use crate::eval::MotionSampler;
use crate::limit::{bone_samples_size, DenseSize, DEFAULT_MAX_OUTPUT_BYTES};
use crate::npy::{self, Array, Data};
use crate::physics::PhysicsSettings;
use crate::skeleton::{Axes, Binding, Pose, PoseOptions, Poser, Skeleton, METRES_PER_UNIT};
use glam::Vec3;
use std::io::{self, Seek, Write};

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
    /// Play the model's rigid bodies too. Physics needs the model, not only its skeleton:
    /// [`bake_world_with_physics`](super::bake_world_with_physics) bakes it into the motion
    /// first ([`bake_physics`](super::bake_physics)) and then poses that; [`bake_world`] refuses
    /// it with [`BakeError::PhysicsNeedsModel`].
    pub physics: Option<PhysicsSettings>,
}

impl Default for BakeSettings {
    fn default() -> Self {
        BakeSettings {
            fps: 30.0,
            scale: 1.0,
            axes: Axes::Mmd,
            pose: PoseOptions::default(),
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            physics: None,
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
    Ok(bone_samples_size(sampler.last_frame(), fps, skeleton.bone_count(), 7 * 4, 8))
}

/// Poses `sampler` on `skeleton` at every sample, calling `progress(done, total)` now and then.
/// Fails, before allocating, when the rate is not a positive finite number, the arrays would
/// be larger than `settings.max_output_bytes`, or physics is asked for (it needs the model).
pub fn bake_world(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    binding: &Binding,
    settings: &BakeSettings,
    mut progress: impl FnMut(usize, usize),
) -> Result<WorldBake, BakeError> {
    if settings.physics.is_some() {
        return Err(BakeError::PhysicsNeedsModel);
    }
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
        npy::write_npz(
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
    use crate::skeleton::Axes;
    use std::io::{Seek, Write};

    fn bake() -> WorldBake {
        WorldBake {
            fps: 30.0,
            scale: 1.0,
            axes: Axes::Mmd,
            frames: vec![0.0, 1.0],
            names: vec!["センター".into(), "a".into()],
            parents: vec![-1, 0],
            positions: (0..12).map(|i| i as f32).collect(),
            rotations: [0.0, 0.0, 0.0, 1.0].repeat(4),
        }
    }

    fn u16_at(b: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([b[at], b[at + 1]])
    }

    #[test]
    fn skeleton_npz_members_carry_zip64_headers_and_a_fixed_time() {
        let mut out = io::Cursor::new(Vec::new());
        bake().write_npz(&mut out).unwrap();
        let zip = out.into_inner();
        // The first local header: stored, at the zip epoch, its 32-bit sizes the Zip64
        // placeholder, and a 20-byte Zip64 extra field (id 1) after the name holding the real
        // sizes. (zip 0.6 leaves "version needed" at 2.0; readers go by the extra field.)
        let u32_at = |at: usize| u32::from_le_bytes(zip[at..at + 4].try_into().unwrap());
        let u64_at = |at: usize| u64::from_le_bytes(zip[at..at + 8].try_into().unwrap());
        assert_eq!(&zip[..4], b"PK\x03\x04");
        assert_eq!(u16_at(&zip, 8), 0, "stored");
        assert_eq!((u16_at(&zip, 10), u16_at(&zip, 12)), (0, (1 << 5) | 1));
        assert_eq!((u32_at(18), u32_at(22)), (u32::MAX, u32::MAX));
        let (name_len, extra_len) = (usize::from(u16_at(&zip, 26)), u16_at(&zip, 28));
        assert_eq!((&zip[30..30 + name_len], extra_len), (&b"positions.npy"[..], 20));
        let extra = 30 + name_len;
        assert_eq!((u16_at(&zip, extra), u16_at(&zip, extra + 2)), (0x0001, 16));
        // Header (128 bytes) and 12 f4 values.
        assert_eq!((u64_at(extra + 4), u64_at(extra + 12)), (128 + 48, 128 + 48));
        let mut again = io::Cursor::new(Vec::new());
        bake().write_npz(&mut again).unwrap();
        assert_eq!(again.into_inner(), zip, "the same bake gives the same bytes");
    }

    #[test]
    fn skeleton_npz_reads_back_through_npyz() {
        let mut out = io::Cursor::new(Vec::new());
        let bake = bake();
        bake.write_npz(&mut out).unwrap();
        out.set_position(0);
        let mut npz = npyz::npz::NpzArchive::new(out).unwrap();
        let mut names: Vec<&str> = npz.array_names().collect();
        names.sort_unstable();
        let mut expected = [
            "positions",
            "rotations",
            "names",
            "parents",
            "fps",
            "frames",
            "scale",
            "units",
            "axes",
        ];
        expected.sort_unstable();
        assert_eq!(names, expected);
        let positions = npz.by_name("positions").unwrap().unwrap();
        assert_eq!(
            (positions.shape(), positions.dtype().descr()),
            (&[2, 2, 3][..], "'<f4'".into())
        );
        assert_eq!(positions.into_vec::<f32>().unwrap(), bake.positions);
        let names = npz.by_name("names").unwrap().unwrap();
        assert_eq!(names.dtype().descr(), "'<U4'");
        let names: Vec<String> = names.into_vec::<String>().unwrap();
        assert_eq!(names, bake.names);
        let units = npz.by_name("units").unwrap().unwrap();
        assert_eq!(units.shape(), &[] as &[u64]);
        assert_eq!(units.into_vec::<String>().unwrap(), ["mmd_units"]);
        let parents = npz.by_name("parents").unwrap().unwrap().into_vec::<i32>().unwrap();
        assert_eq!(parents, bake.parents);
    }

    /// A writer that fails from its `fails_at`th byte on, counting the calls made after that.
    struct Failing {
        written: u64,
        fails_at: u64,
        calls_after: usize,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.written >= self.fails_at {
                self.calls_after += 1;
                return Err(io::Error::new(io::ErrorKind::StorageFull, "full"));
            }
            let n = buf.len().min((self.fails_at - self.written) as usize);
            self.written += n as u64;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Seek for Failing {
        fn seek(&mut self, _: io::SeekFrom) -> io::Result<u64> {
            Ok(self.written)
        }
    }

    /// A full disk: the first error is returned, and the zip writer's drop (which would print
    /// `ZipWriter drop failed: …` when finishing the archive fails again) writes nothing more.
    #[test]
    fn skeleton_npz_on_a_full_disk_stops_at_the_first_error() {
        for fails_at in [0, 10, 100, 300] {
            let mut out = Failing { written: 0, fails_at, calls_after: 0 };
            let e = bake().write_npz(&mut out).expect_err("the disk is full");
            assert!(e.to_string().contains("full"), "{e}");
            assert_eq!(out.calls_after, 1, "failing at byte {fails_at}: written on after it");
        }
    }
}
