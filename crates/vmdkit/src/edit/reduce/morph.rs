//! Morph tracks: weights blend linearly between keys (reference §6.5), so there is no curve to
//! fit; a segment fits when the straight line between its end weights stays within the
//! tolerance (an absolute weight difference) at every frame inside.

use super::segment::Track;
use crate::eval::MotionSampler;
use crate::format::{MorphKey, Motion};
use crate::math::lerp;
use crate::text::KeyName;

/// A morph's reference weights at consecutive frames starting at `first`.
#[derive(Clone, Debug)]
pub(crate) struct MorphSamples {
    pub name: KeyName,
    pub first: u32,
    pub weights: Vec<f32>,
}

pub(crate) struct MorphFit<'r> {
    r: &'r MorphSamples,
    tol: f64,
    breaks: Vec<bool>,
}

impl<'r> MorphFit<'r> {
    pub fn new(r: &'r MorphSamples, tol: f64) -> Self {
        MorphFit { r, tol, breaks: vec![false; r.weights.len()] }
    }

    pub fn force_break(&mut self, i: usize) {
        self.breaks[i] = true;
    }

    pub fn keys(&self, plan: &[(usize, ())]) -> Vec<MorphKey> {
        plan.iter()
            .map(|&(i, ())| MorphKey {
                name: self.r.name,
                frame: self.r.first + i as u32,
                weight: self.r.weights[i],
            })
            .collect()
    }

    /// The worst frame of a..b played linearly, with its error.
    fn worst(&self, a: usize, b: usize) -> (f64, usize) {
        let w = &self.r.weights;
        let mut worst = (0.0, a);
        for k in a + 1..b {
            let p = (k - a) as f64 / (b - a) as f64;
            let e = f64::from((lerp(w[a], w[b], p) - w[k]).abs());
            if e > worst.0 {
                worst = (e, k);
            }
        }
        worst
    }

    /// The baseline's split rule: the worst frame if it is over tolerance.
    pub fn linear_split(&self, a: usize, b: usize) -> Option<usize> {
        let (e, k) = self.worst(a, b);
        (e > self.tol).then_some(k)
    }
}

impl Track for MorphFit<'_> {
    type Curves = ();

    fn len(&self) -> usize {
        self.r.weights.len()
    }

    fn is_break(&self, i: usize) -> bool {
        self.breaks[i]
    }

    fn linear(&self) {}

    fn fit(&self, a: usize, b: usize) -> Result<(), usize> {
        self.linear_split(a, b).map_or(Ok(()), Err)
    }

    fn violations(&self, plan: &[(usize, ())]) -> Vec<usize> {
        let mut motion = Motion::new(Default::default());
        motion.morphs = self.keys(plan);
        let sampler = MotionSampler::new(&motion);
        let track = &sampler.morph_tracks()[0];
        let mut cursor = crate::eval::Cursor::default();
        (0..self.len())
            .filter(|&i| {
                let got = track.sample_with(&mut cursor, f64::from(self.r.first + i as u32));
                f64::from((got - self.r.weights[i]).abs()) > self.tol
            })
            .collect()
    }
}
