//! Light, self-shadow and property (visibility, IK on/off) tracks (reference §3.3–3.5, §6.7).
//!
//! * **Light**: colour and direction blended linearly per component, no curve (§6.7: the MMD
//!   manual says light keys interpolate; mmd_tools imports them as linear). mmd_tools' extra
//!   rule, holding keys one frame apart that differ by more than 0.1, is not followed.
//! * **Self-shadow** (\[unverified\] in §6.7; no checked player evaluates it; this follows the
//!   reference's suggestion): the mode steps (the earlier key holds), and the distance is
//!   blended linearly between keys of equal mode. The stored value (10000 − L)/100000 is affine
//!   in the panel's range L, so blending either is the same. Across a change of mode the distance
//!   holds with the mode.
//! * **Property keys**: the model's visibility and each IK bone's on/off are steps (§6.7: SB,
//!   BM and MMDAgent): the last key at or before t wins, and before the first key the first
//!   key's value applies. IK states are tracked per IK name (raw bytes up to the NUL), from the
//!   property keys that list that name.

use super::track::{Cursor, Segment, StepTrack, Timeline};
use crate::format::{LightKey, ShadowKey};
use crate::math::lerp;
use crate::text::LongName;
use glam::Vec3;

/// The light at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LightSample {
    /// RGB as stored: the panel's 0–255 divided by 256.
    pub color: Vec3,
    /// The direction the light travels, MMD's left-handed axes (not normalised).
    pub direction: Vec3,
}

impl LightSample {
    /// MMD's light when a motion has no light keys: colour 154/256, direction (−0.5, −1, 0.5)
    /// (§3.3).
    pub const MMD_DEFAULT: LightSample =
        LightSample { color: Vec3::splat(154.0 / 256.0), direction: Vec3::new(-0.5, -1.0, 0.5) };
}

/// The light keys, sorted by frame.
#[derive(Clone, Debug, PartialEq)]
pub struct LightTrack {
    timeline: Timeline,
    keys: Box<[LightSample]>,
}

impl LightTrack {
    pub(crate) fn new(keys: &[LightKey], order: &[usize]) -> Self {
        LightTrack {
            timeline: Timeline::new(order.iter().map(|&k| keys[k].frame).collect()),
            keys: order
                .iter()
                .map(|&k| LightSample { color: keys[k].color, direction: keys[k].direction })
                .collect(),
        }
    }

    super::accessors::timeline_accessors!(LightSample, "light");

    /// The light at frame `t`, walking from `cursor`.
    pub fn sample_with(&self, cursor: &mut Cursor, t: impl Into<f64>) -> LightSample {
        match cursor.locate(&self.timeline, t.into()) {
            Segment::Key(i) => self.keys[i],
            Segment::Between { i, p } => {
                let (a, b) = (self.keys[i], self.keys[i + 1]);
                let v = |a: Vec3, b: Vec3| {
                    Vec3::new(lerp(a.x, b.x, p), lerp(a.y, b.y, p), lerp(a.z, b.z, p))
                };
                LightSample { color: v(a.color, b.color), direction: v(a.direction, b.direction) }
            }
        }
    }
}

/// The self-shadow at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShadowSample {
    /// 0 = off, 1 = mode 1, 2 = mode 2.
    pub mode: u8,
    /// As stored: (10000 − L)/100000 for the panel's shadow range L.
    pub distance: f32,
}

impl ShadowSample {
    /// The panel's shadow range L = 10000 − distance × 100000 (§3.4).
    pub fn range(&self) -> f32 {
        (10000.0 - f64::from(self.distance) * 100000.0) as f32
    }
}

/// The self-shadow keys, sorted by frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ShadowTrack {
    timeline: Timeline,
    keys: Box<[ShadowSample]>,
}

impl ShadowTrack {
    pub(crate) fn new(keys: &[ShadowKey], order: &[usize]) -> Self {
        ShadowTrack {
            timeline: Timeline::new(order.iter().map(|&k| keys[k].frame).collect()),
            keys: order
                .iter()
                .map(|&k| ShadowSample { mode: keys[k].mode, distance: keys[k].distance })
                .collect(),
        }
    }

    super::accessors::timeline_accessors!(ShadowSample, "self-shadow");

    /// The self-shadow at frame `t`, walking from `cursor`.
    pub fn sample_with(&self, cursor: &mut Cursor, t: impl Into<f64>) -> ShadowSample {
        match cursor.locate(&self.timeline, t.into()) {
            Segment::Key(i) => self.keys[i],
            Segment::Between { i, p } => {
                let (a, b) = (self.keys[i], self.keys[i + 1]);
                if a.mode == b.mode {
                    ShadowSample { mode: a.mode, distance: lerp(a.distance, b.distance, p) }
                } else {
                    a
                }
            }
        }
    }
}

/// One IK bone's on/off keys, from the property keys that list it.
#[derive(Clone, Debug, PartialEq)]
pub struct IkTrack {
    pub(crate) name: LongName,
    pub(crate) track: StepTrack<bool>,
}

impl IkTrack {
    /// The IK bone's name field as first seen.
    pub fn name(&self) -> &LongName {
        &self.name
    }

    /// The on/off keys.
    pub fn track(&self) -> &StepTrack<bool> {
        &self.track
    }

    /// Whether the IK is on at frame `t`.
    pub fn sample(&self, t: impl Into<f64>) -> bool {
        self.track.sample(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_is_linear() {
        let keys = [
            LightKey { frame: 0, color: Vec3::ZERO, direction: Vec3::new(-1.0, -1.0, 1.0) },
            LightKey { frame: 10, color: Vec3::ONE, direction: Vec3::new(1.0, -1.0, 0.0) },
        ];
        let track = LightTrack::new(&keys, &[0, 1]);
        let s = track.sample(2.5f32);
        assert_eq!(s.color, Vec3::splat(0.25));
        assert_eq!(s.direction, Vec3::new(-0.5, -1.0, 0.75));
        assert_eq!(
            track.sample(-1.0),
            LightSample { color: Vec3::ZERO, direction: keys[0].direction }
        );
    }

    #[test]
    fn shadow_mode_steps_and_distance_blends_within_a_mode() {
        let d = |l: f32| (10000.0 - l) / 100000.0;
        let keys = [
            ShadowKey { frame: 0, mode: 1, distance: d(8000.0) },
            ShadowKey { frame: 10, mode: 1, distance: d(9000.0) },
            ShadowKey { frame: 20, mode: 2, distance: d(0.0) },
        ];
        let track = ShadowTrack::new(&keys, &[0, 1, 2]);
        let s = track.sample(5.0);
        assert_eq!(s.mode, 1);
        assert!((s.range() - 8500.0).abs() < 0.01, "{}", s.range());
        assert_eq!(track.sample(15.0), ShadowSample { mode: 1, distance: d(9000.0) });
        assert_eq!(track.sample(20.0).mode, 2);
    }
}
