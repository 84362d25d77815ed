//! Morph tracks: linear interpolation, no curve, clamped at the ends (reference §6.5: SB, BM,
//! three.js and MMDAgent agree). MMDAgent's special case, stepping at p = 0.5 when keys one frame
//! apart go 0→1 or 1→0 (§12 row 13), is not followed. Weights are not clamped to [0, 1]: files
//! hold values outside it (§3.1).

use super::track::{Cursor, Segment, Timeline};
use crate::format::MorphKey;
use crate::math::lerp;
use crate::text::KeyName;

/// The keys of one morph, sorted by frame.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphTrack {
    name: KeyName,
    timeline: Timeline,
    weights: Box<[f32]>,
}

impl MorphTrack {
    /// A track from `keys[k]` for each k in `order` (sorted by frame, one key per frame).
    pub(crate) fn new(name: KeyName, keys: &[MorphKey], order: &[usize]) -> Self {
        MorphTrack {
            name,
            timeline: Timeline::new(order.iter().map(|&k| keys[k].frame).collect()),
            weights: order.iter().map(|&k| keys[k].weight).collect(),
        }
    }

    /// The name field of the track's first key in file order.
    pub fn name(&self) -> &KeyName {
        &self.name
    }

    super::accessors::timeline_accessors!(f32, "weight");

    /// Key weights, in frame order.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The weight at frame `t`, walking from `cursor`.
    #[inline]
    pub fn sample_with(&self, cursor: &mut Cursor, t: impl Into<f64>) -> f32 {
        match cursor.locate(&self.timeline, t.into()) {
            Segment::Key(i) => self.weights[i],
            Segment::Between { i, p } => lerp(self.weights[i], self.weights[i + 1], p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn morphs_are_linear_and_clamped() {
        let name = KeyName::encode("まばたき").0;
        let keys = [
            MorphKey { name, frame: 10, weight: 0.0 },
            MorphKey { name, frame: 11, weight: 1.0 },
            MorphKey { name, frame: 20, weight: 1.5 },
        ];
        let track = MorphTrack::new(name, &keys, &[0, 1, 2]);
        let got = [0.0, 10.0, 10.25, 10.5, 11.0, 15.5, 20.0, 25.0].map(|t: f64| track.sample(t));
        // One frame apart, 0 → 1: a plain blend, not MMDAgent's step.
        assert_eq!(got, [0.0, 0.0, 0.25, 0.5, 1.0, 1.25, 1.5, 1.5]);
    }
}
