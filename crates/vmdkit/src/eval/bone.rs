//! Bone tracks: translation per axis with its own curve, rotation by shortest-arc slerp.
//!
//! Rules (reference §2, §2.1, §6.2–6.4):
//!
//! * Curves come from their own rows of the 64-byte block
//!   ([`BoneInterpolation::curve`](crate::format::BoneInterpolation::curve)), never from row 0
//!   alone, whose bytes 2–3 hold the physics toggle (§2.1, §12 row 2).
//! * The later key's curve shapes the segment (§6.2, §12 row 4).
//! * Translation: each axis is `lerp(a, b, weight)` with its own curve (X, Y, Z). The result is
//!   the keyed offset from the bone's rest position, as in the file.
//! * Rotation: `slerp(qa, qb, w)` with w from the rotation curve, along the shorter arc (if
//!   qa·qb < 0, −qb is used; every player does this, §6.4). Stored quaternions are normalised when
//!   the track is built, and a zero or non-finite one counts as the identity (§2: MT and BM).
//!   The result may be −q of what another player returns; it is the same rotation.
//! * Keys one frame apart interpolate like any other segment (§6.4: BM, SB and MA; only
//!   three.js holds them).
//! * The physics toggle is a step: the earlier key's value holds through the segment (§6.7, BM).

use super::track::{Cursor, Segment, Timeline, WeightCache, TRACK_WEIGHTS};
use crate::curve::Curve;
use crate::format::{BoneKey, PhysicsToggle};
use crate::math::{lerp, normalized_rotation, slerp};
use crate::text::KeyName;
use glam::{Quat, Vec3};

/// One bone's value at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneSample {
    /// Offset from the bone's rest position, in the parent's frame (MMD's left-handed axes).
    pub translation: Vec3,
    /// Local rotation, unit length.
    pub rotation: Quat,
    /// The earlier key's physics toggle.
    pub physics: PhysicsToggle,
}

impl Default for BoneSample {
    /// The rest pose: no offset, no rotation, physics on.
    fn default() -> Self {
        BoneSample { translation: Vec3::ZERO, rotation: Quat::IDENTITY, physics: PhysicsToggle::On }
    }
}

/// The keys of one bone, sorted by frame: the frames in one array (all that a search reads)
/// and each key's values and curves in another, so that a segment's two keys are adjacent in
/// memory (two or three cache lines per sample, rather than one per field).
#[derive(Clone, Debug, PartialEq)]
pub struct BoneTrack {
    name: KeyName,
    timeline: Timeline,
    keys: Box<[Key]>,
}

/// One key as the evaluator uses it (48 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key {
    rotation: Quat,
    translation: Vec3,
    physics: PhysicsToggle,
    /// X, Y, Z, rotation: key i's curves shape the segment from key i − 1 to key i.
    curves: [Curve; 4],
}

impl Key {
    /// A key as the evaluator holds it: rotation normalised, curves and toggle from the block.
    #[inline]
    fn of(key: &BoneKey) -> Key {
        let block = &key.interpolation;
        Key {
            rotation: normalized_rotation(key.rotation),
            translation: key.translation,
            physics: block.physics(),
            curves: block.curves(),
        }
    }
}

impl BoneTrack {
    /// A track from `keys[k]` for each k in `order` (sorted by frame, one key per frame), named
    /// by the field `name`.
    pub(crate) fn new(name: KeyName, keys: &[BoneKey], order: &[usize]) -> Self {
        BoneTrack {
            name,
            timeline: Timeline::new(order.iter().map(|&k| keys[k].frame).collect()),
            keys: order.iter().map(|&k| Key::of(&keys[k])).collect(),
        }
    }

    /// The track of `keys`, which come sorted by frame, one per frame: what
    /// [`BoneTrack::new`] builds of them, without their having to be stored first.
    pub(crate) fn of_sorted(name: KeyName, keys: impl ExactSizeIterator<Item = BoneKey>) -> Self {
        let (mut frames, mut values) =
            (Vec::with_capacity(keys.len()), Vec::with_capacity(keys.len()));
        for key in keys {
            frames.push(key.frame);
            values.push(Key::of(&key));
        }
        BoneTrack { name, timeline: Timeline::new(frames.into()), keys: values.into() }
    }

    /// A track with a key at every frame from `first`, of the default curves, from values
    /// already as a built track holds them (`rotation` unit length): what a solver's output
    /// becomes without being written as keys and read back, which would give the same track.
    pub(crate) fn dense(
        name: KeyName,
        first: u32,
        translation: &[Vec3],
        rotation: &[Quat],
        physics: &[PhysicsToggle],
    ) -> Self {
        let curves = BoneKey::new(name, first).interpolation.curves();
        let keys = (translation.iter().zip(rotation).zip(physics))
            .map(|((&translation, &rotation), &physics)| Key {
                rotation,
                translation,
                physics,
                curves,
            })
            .collect::<Box<[Key]>>();
        let frames = (first..).take(keys.len()).collect();
        BoneTrack { name, timeline: Timeline::new(frames), keys }
    }

    /// The name field of the track's first key in file order.
    pub fn name(&self) -> &KeyName {
        &self.name
    }

    super::accessors::timeline_accessors!();

    /// The number of keys (never 0).
    pub fn len(&self) -> usize {
        self.frames().len()
    }

    /// Always false: a track has at least one key.
    pub fn is_empty(&self) -> bool {
        self.frames().is_empty()
    }

    /// Key `i`'s value (rotation normalised).
    pub fn key(&self, i: usize) -> BoneSample {
        let k = &self.keys[i];
        BoneSample { translation: k.translation, rotation: k.rotation, physics: k.physics }
    }

    /// Key `i`'s four curves (X, Y, Z, rotation), which shape the segment ending at key `i`.
    pub fn curves(&self, i: usize) -> [Curve; 4] {
        self.keys[i].curves
    }

    /// The value at frame `t` (30 fps; any fraction), found through the track's index.
    pub fn sample(&self, t: impl Into<f64>) -> BoneSample {
        let mut out = BoneSample::default();
        self.sample_to(None, t.into(), &mut out, &mut WeightCache::<TRACK_WEIGHTS>::new());
        out
    }

    /// The value at frame `t`, walking from `cursor`: O(1) when t moves forward by less than a
    /// segment.
    #[inline]
    pub fn sample_with(&self, cursor: &mut Cursor, t: impl Into<f64>) -> BoneSample {
        let mut out = BoneSample::default();
        self.sample_to(Some(cursor), t.into(), &mut out, &mut WeightCache::<TRACK_WEIGHTS>::new());
        out
    }

    /// The value at `t` written field by field into `out`, walking from `cursor` if given, with
    /// curve weights through `weights`. The all-bones loops use this: returning the 48-byte
    /// sample by value and copying it into the caller's buffer stalled on store forwarding once
    /// per sample.
    #[inline]
    pub(crate) fn sample_to<const N: usize>(
        &self,
        cursor: Option<&mut Cursor>,
        t: f64,
        out: &mut BoneSample,
        weights: &mut WeightCache<N>,
    ) {
        let segment = match cursor {
            Some(cursor) => cursor.locate(&self.timeline, t),
            None => self.timeline.locate(t),
        };
        match segment {
            Segment::Key(i) => {
                let k = &self.keys[i];
                out.translation = k.translation;
                out.rotation = k.rotation;
                out.physics = k.physics;
            }
            Segment::Between { i, p } => self.interpolate_to(i, p, out, weights),
        }
    }

    #[inline]
    fn interpolate_to<const N: usize>(
        &self,
        i: usize,
        p: f64,
        out: &mut BoneSample,
        weights: &mut WeightCache<N>,
    ) {
        let (a, b) = (&self.keys[i], &self.keys[i + 1]);
        let [cx, cy, cz, cr] = b.curves;
        // A channel that does not change needs no curve: lerp(a, a, w) = a exactly, and most
        // bones of a dance are never translated.
        let mut axis = |a: f32, b: f32, c: Curve| {
            if a == b {
                a
            } else {
                lerp(a, b, weights.weight(c, p))
            }
        };
        let (ta, tb) = (a.translation, b.translation);
        out.translation =
            Vec3::new(axis(ta.x, tb.x, cx), axis(ta.y, tb.y, cy), axis(ta.z, tb.z, cz));
        out.rotation = if a.rotation == b.rotation {
            a.rotation
        } else {
            slerp(a.rotation, b.rotation, weights.weight(cr, p) as f32)
        };
        out.physics = a.physics;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::BoneInterpolation;
    use crate::math::quat_angle as angle;

    fn key(frame: u32, translation: Vec3, rotation: Quat, curves: [Curve; 4]) -> BoneKey {
        BoneKey {
            name: KeyName::encode("センター").0,
            frame,
            translation,
            rotation,
            interpolation: BoneInterpolation::canonical(curves, PhysicsToggle::On),
        }
    }

    fn track(keys: &[BoneKey]) -> BoneTrack {
        BoneTrack::new(keys[0].name, keys, &(0..keys.len()).collect::<Vec<_>>())
    }

    #[test]
    fn reference_full_bone_example() {
        // §6.8: frame 0 at rest; frame 30 at (0, 10, 0) and 90° about +Y, Y curve linear, R curve
        // (127, 0, 0, 127). At t = 7.5: Y = 2.5, w = 0.029725, q = (0, 0.023344, 0, 0.999728).
        let ease = Curve::new(127, 0, 0, 127);
        let h = std::f32::consts::FRAC_1_SQRT_2; // the reference's 0.707107
        let q90 = Quat::from_xyzw(0.0, h, 0.0, h);
        let keys = [
            key(0, Vec3::ZERO, Quat::IDENTITY, [Curve::LINEAR; 4]),
            key(
                30,
                Vec3::new(0.0, 10.0, 0.0),
                q90,
                [Curve::LINEAR, Curve::LINEAR, Curve::LINEAR, ease],
            ),
        ];
        let s = track(&keys).sample(7.5f32);
        assert!((s.translation - Vec3::new(0.0, 2.5, 0.0)).length() < 1e-6, "{s:?}");
        let want = Quat::from_xyzw(0.0, 0.023344, 0.0, 0.999728);
        assert!(angle(s.rotation, want) < 2e-6, "{s:?}");
        // 2.675° about Y.
        assert!((angle(s.rotation, Quat::IDENTITY).to_degrees() - 2.675).abs() < 1e-3);
        // With the Y curve (36, 0, 93, 127) the translation would be 1.6927.
        let mut keys = keys;
        keys[1].interpolation = BoneInterpolation::canonical(
            [Curve::LINEAR, Curve::new(36, 0, 93, 127), Curve::LINEAR, ease],
            PhysicsToggle::On,
        );
        assert!((track(&keys).sample(7.5).translation.y - 1.6927).abs() < 1e-4);
    }

    #[test]
    fn each_axis_uses_its_own_curve_from_its_own_row() {
        let curves = [
            Curve::new(127, 0, 0, 127),
            Curve::LINEAR,
            Curve::new(0, 127, 0, 127),
            Curve::new(64, 0, 64, 127),
        ];
        let mut keys = [
            key(0, Vec3::ZERO, Quat::IDENTITY, [Curve::LINEAR; 4]),
            key(10, Vec3::new(1.0, 2.0, 4.0), Quat::from_rotation_x(1.0), curves),
        ];
        // The physics-off flag overwrites bytes 2–3 (row 0's copies of Z.x1 and R.x1): the
        // curves must not change.
        keys[1].interpolation = BoneInterpolation::canonical(curves, PhysicsToggle::Off);
        let t = track(&keys);
        for p in [0.1, 0.25, 0.5, 0.9] {
            let s = t.sample(10.0 * p);
            let w = curves.map(|c| c.weight_f64(p));
            assert!((f64::from(s.translation.x) - w[0]).abs() < 1e-6);
            assert!((f64::from(s.translation.y) - 2.0 * w[1]).abs() < 1e-6);
            assert!((f64::from(s.translation.z) - 4.0 * w[2]).abs() < 1e-6);
            assert!((angle(s.rotation, Quat::IDENTITY) - w[3]).abs() < 1e-5);
        }
        // The physics toggle steps on the earlier key.
        assert_eq!(t.sample(9.99).physics, PhysicsToggle::On);
        assert_eq!(t.sample(10.0).physics, PhysicsToggle::Off);
    }

    #[test]
    fn the_later_key_curve_governs_and_ends_hold() {
        let keys = [
            key(10, Vec3::ZERO, Quat::IDENTITY, [Curve::new(127, 0, 127, 0); 4]),
            key(20, Vec3::X, Quat::IDENTITY, [Curve::LINEAR; 4]),
            key(30, Vec3::ZERO, Quat::IDENTITY, [Curve::new(0, 127, 0, 127); 4]),
        ];
        let t = track(&keys);
        assert_eq!(t.sample(15.0).translation.x, 0.5); // key 20's linear curve
        let w = Curve::new(0, 127, 0, 127).weight_f64(0.5);
        assert!((f64::from(t.sample(25.0).translation.x) - (1.0 - w)).abs() < 1e-6);
        assert_eq!(t.sample(0.0).translation, Vec3::ZERO);
        assert_eq!(t.sample(20.0).translation, Vec3::X);
        assert_eq!(t.sample(1e6).translation, Vec3::ZERO);
    }

    #[test]
    fn slerp_takes_the_short_way_across_q_and_minus_q() {
        let a = Quat::from_rotation_y(0.2);
        let b = Quat::from_rotation_y(1.0);
        for w in [0.0f32, 0.25, 0.5, 0.75, 1.0] {
            let want = Quat::from_rotation_y(0.2 + 0.8 * w);
            assert!(angle(slerp(a, b, w), want) < 1e-6);
            // −b is the same rotation: the result must be too, not the 360° − 0.8 long way.
            assert!(angle(slerp(a, -b, w), want) < 1e-6, "w = {w}");
            assert!(angle(slerp(-a, b, w), want) < 1e-6, "w = {w}");
        }
        // Keys stored with opposite signs interpolate the short way inside a track.
        let keys = [
            key(0, Vec3::ZERO, Quat::from_rotation_z(0.1), [Curve::LINEAR; 4]),
            key(10, Vec3::ZERO, -Quat::from_rotation_z(0.5), [Curve::LINEAR; 4]),
        ];
        assert!(angle(track(&keys).sample(5.0).rotation, Quat::from_rotation_z(0.3)) < 1e-6);
    }

    #[test]
    fn stored_quaternions_are_normalised_and_zero_is_identity() {
        let keys = [
            key(0, Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), [Curve::LINEAR; 4]),
            key(10, Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 2.0, 0.0), [Curve::LINEAR; 4]),
        ];
        let t = track(&keys);
        assert_eq!(t.sample(0.0).rotation, Quat::IDENTITY);
        assert_eq!(t.sample(10.0).rotation, Quat::from_xyzw(0.0, 0.0, 1.0, 0.0));
        // Halfway from identity to 180° about Z is 90° about Z.
        assert!(
            angle(t.sample(5.0).rotation, Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))
                < 1e-6
        );
        assert_eq!(normalized_rotation(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)), Quat::IDENTITY);
    }

    #[test]
    fn sub_frame_times_in_f32_and_f64_agree() {
        let keys = [
            key(0, Vec3::ZERO, Quat::IDENTITY, [Curve::LINEAR; 4]),
            key(1, Vec3::splat(3.0), Quat::from_rotation_y(0.3), [Curve::new(36, 0, 93, 127); 4]),
        ];
        let t = track(&keys);
        // Keys one frame apart interpolate (no cut for bones).
        assert_eq!(t.sample(0.5f32), t.sample(0.5f64));
        let w = Curve::new(36, 0, 93, 127).weight_f64(0.5) as f32;
        assert!((t.sample(0.5).translation.x - 3.0 * w).abs() < 1e-6);
    }
}
