//! [`smooth`] and [`smooth_rotations`]: a zero-phase Butterworth low-pass over trajectories.

use crate::keypoints::Keypoints;
use crate::text::UnknownName;
use glam::{Quat, Vec3};
use std::str::FromStr;

/// How strongly [`smooth`] and [`smooth_rotations`] low-pass a trajectory.
///
/// The presets are cutoff frequencies chosen for human motion around 30 fps, where most
/// deliberate movement lies below 3–5 Hz and estimator jitter spreads up to the Nyquist
/// frequency; they are defaults to be tuned against real clips, not measured optima.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Smoothing {
    /// No filtering.
    None,
    /// 8 Hz: removes only frame-to-frame jitter; keeps fast strikes and dance accents.
    Light,
    /// 5 Hz: for typical pose-estimator output.
    Normal,
    /// 3 Hz: for noisy monocular estimates; softens quick movements.
    Strong,
    /// A cutoff of your own, in hertz. Non-positive, non-finite cutoffs, and those at or
    /// above half the frame rate, leave the trajectory unchanged.
    Custom {
        /// The filter's −3 dB frequency per pass (−6 dB, half amplitude, forward–backward).
        cutoff_hz: f64,
    },
}

impl Smoothing {
    /// The presets' names, which [`Smoothing::from_str`] reads besides a cutoff in hertz.
    pub const NAMES: &'static [&'static str] = &["none", "light", "normal", "strong"];

    /// The cutoff frequency in hertz, `None` for [`Smoothing::None`].
    pub fn cutoff_hz(self) -> Option<f64> {
        match self {
            Smoothing::None => None,
            Smoothing::Light => Some(8.0),
            Smoothing::Normal => Some(5.0),
            Smoothing::Strong => Some(3.0),
            Smoothing::Custom { cutoff_hz } => Some(cutoff_hz),
        }
    }
}

impl FromStr for Smoothing {
    type Err = UnknownName;

    /// A preset by name, in any case (`normal`), or a cutoff in hertz (`2.5`): finite and
    /// positive.
    fn from_str(text: &str) -> Result<Self, UnknownName> {
        let hz = match text.to_ascii_lowercase().as_str() {
            "none" => return Ok(Smoothing::None),
            "light" => return Ok(Smoothing::Light),
            "normal" => return Ok(Smoothing::Normal),
            "strong" => return Ok(Smoothing::Strong),
            other => other.trim().parse::<f64>().unwrap_or(f64::NAN),
        };
        if hz.is_finite() && hz > 0.0 {
            return Ok(Smoothing::Custom { cutoff_hz: hz });
        }
        Err(UnknownName {
            number: Some("a positive cutoff in hertz"),
            ..UnknownName::new(text, Self::NAMES)
        })
    }
}

/// Shorter runs of present samples are left as they are: below scipy's minimum for a
/// second-order filter (more samples than its padding of 3 · 3 = 9), the end transients
/// would dominate, and such fragments are better bridged by gap filling first.
const MIN_RUN: usize = 10;

/// Low-passes every joint's trajectory in place, per axis, without lag.
///
/// A second-order Butterworth filter runs forward and then backward over each contiguous run
/// of finite positions (missing samples split runs, and stay missing), so the phase shifts of
/// the two passes cancel: a peak stays at its frame, and the amplitude response is the
/// square of the filter's (half amplitude at the cutoff). Each run is extended at both ends
/// by its odd reflection about the end sample, as scipy's `filtfilt` does, and the filter
/// starts in its steady state for the first extended sample; a ramp therefore continues
/// straight into the padding and the ends do not droop. The price is that each run's end
/// samples keep (nearly) their own values, noise included, as with scipy. The padding is scipy's 9 samples,
/// or longer for low cutoffs (three periods of the cutoff frequency, so the start-up
/// transient dies out inside it), at most one sample less than the run.
///
/// Runs of fewer than 10 samples are left unfiltered. The computation is in f64, relative to
/// each run's first sample, so a constant trajectory comes out exactly constant.
///
/// Confidences are ignored: run [`fill_gaps`](super::fill_gaps) first if unconfident samples
/// should not be smoothed into their neighbours.
pub fn smooth(kp: &mut Keypoints, fps: f64, smoothing: Smoothing) {
    let Some(filter) = Filter::new(fps, smoothing) else {
        return;
    };
    let (frames, joints) = (kp.frame_count, kp.joint_count);
    if frames == 0 || joints == 0 {
        return;
    }
    // Joints present in every frame (after gap filling, all but the empty ones) are one run
    // each: filtered many at a time, in memory order. The others go run by run.
    let (mut whole, mut some) = (vec![true; joints], vec![false; joints]);
    for row in kp.positions.chunks_exact(joints) {
        for ((w, s), p) in whole.iter_mut().zip(&mut some).zip(row) {
            let finite = p.is_finite();
            *w &= finite;
            *s |= finite;
        }
    }
    let present: Vec<usize> = (0..joints).filter(|&j| whole[j]).collect();
    if frames >= MIN_RUN {
        let mut ext = Vec::new();
        for block in present.chunks(BLOCK) {
            filter.block(kp, block, &mut ext);
        }
    }

    let mut series = vec![0.0; frames];
    let mut scratch = Vec::with_capacity(frames + 2 * filter.pad);
    for j in (0..joints).filter(|&j| some[j] && !whole[j]) {
        for axis in 0..3 {
            for (f, s) in series.iter_mut().enumerate() {
                let p: Vec3 = kp.positions[f * joints + j];
                *s = if p.is_finite() { p[axis] as f64 } else { f64::NAN };
            }
            filter.runs(&mut series, &mut scratch);
            for (f, s) in series.iter().enumerate() {
                if s.is_finite() {
                    kp.positions[f * joints + j][axis] = *s as f32;
                }
            }
        }
    }
}

/// Joints that [`smooth`] filters together when they are present in every frame: their 24
/// coordinates side by side give the processor independent filters to interleave (each one
/// alone waits on its own previous output) and keep the working rows in cache.
const BLOCK: usize = 8;
/// The coordinates of a [`BLOCK`].
const CHANNELS: usize = 3 * BLOCK;

/// Flips each quaternion onto the hemisphere of the one before it, so that a track which
/// turns smoothly also has smoothly varying components (q and −q are the same rotation, and
/// solvers often return either). Non-finite quaternions are skipped, and the one after them
/// follows the last finite one.
pub fn quaternion_continuity(q: &mut [Quat]) {
    let mut previous: Option<Quat> = None;
    for r in q.iter_mut().filter(|r| r.is_finite()) {
        if previous.is_some_and(|p| p.dot(*r) < 0.0) {
            *r = -*r;
        }
        previous = Some(*r);
    }
}

/// Low-passes a rotation track in place, without lag.
///
/// This is the rotation-aware way to filter orientations: [`quaternion_continuity`] first,
/// after which the four components are smooth functions of time, then the filter of
/// [`smooth`] on each component, then renormalisation. For the small changes between
/// neighbouring frames this is close to filtering on the rotation manifold, and it never
/// suffers the wrap-around and gimbal problems of filtering Euler angles. Non-finite
/// quaternions split the track into runs, as missing positions do.
pub fn smooth_rotations(q: &mut [Quat], fps: f64, smoothing: Smoothing) {
    quaternion_continuity(q);
    let Some(filter) = Filter::new(fps, smoothing) else {
        return;
    };
    let original: Vec<Quat> = q.to_vec();
    let mut series = vec![0.0; q.len()];
    let mut scratch = Vec::with_capacity(q.len() + 2 * filter.pad);
    for c in 0..4 {
        for (s, r) in series.iter_mut().zip(&original) {
            *s = if r.is_finite() { r.to_array()[c] as f64 } else { f64::NAN };
        }
        filter.runs(&mut series, &mut scratch);
        for (s, r) in series.iter().zip(q.iter_mut()) {
            if s.is_finite() {
                let mut a = r.to_array();
                a[c] = *s as f32;
                *r = Quat::from_array(a);
            }
        }
    }
    for (r, o) in q.iter_mut().zip(&original) {
        if r.is_finite() {
            *r = normalise_or(*r, *o);
        }
    }
}

// A filtered quaternion cannot shrink to nothing after continuity unless the track turned by
// half a turn within a few frames; then the unfiltered rotation is the honest answer.
fn normalise_or(q: Quat, fallback: Quat) -> Quat {
    let length = q.length();
    if length > 1e-6 {
        q / length
    } else {
        fallback
    }
}

/// A second-order Butterworth low-pass (bilinear transform with pre-warping) and the padding
/// its forward–backward use needs.
#[derive(Clone, Copy, Debug)]
struct Filter {
    b: [f64; 3],
    a: [f64; 2],
    pad: usize,
}

impl Filter {
    fn new(fps: f64, smoothing: Smoothing) -> Option<Filter> {
        let cutoff = smoothing.cutoff_hz()?;
        if !(fps.is_finite() && cutoff.is_finite() && fps > 0.0 && cutoff > 0.0) {
            return None;
        }
        if cutoff >= 0.5 * fps {
            return None; // nothing to remove: every representable frequency passes
        }
        let k = (std::f64::consts::PI * cutoff / fps).tan();
        let (k2, r2) = (k * k, std::f64::consts::SQRT_2 * k);
        let norm = 1.0 / (1.0 + r2 + k2);
        let b0 = k2 * norm;
        let pad = ((3.0 * fps / cutoff).ceil() as usize).max(9);
        Some(Filter {
            b: [b0, 2.0 * b0, b0],
            a: [2.0 * (k2 - 1.0) * norm, (1.0 - r2 + k2) * norm],
            pad,
        })
    }

    /// Filters every run of finite values of `series`, leaving NaNs where they are.
    fn runs(&self, series: &mut [f64], scratch: &mut Vec<f64>) {
        let mut start = 0;
        while start < series.len() {
            if !series[start].is_finite() {
                start += 1;
                continue;
            }
            let end = series[start..]
                .iter()
                .position(|s| !s.is_finite())
                .map_or(series.len(), |n| start + n);
            self.filtfilt(&mut series[start..end], scratch);
            start = end;
        }
    }

    fn filtfilt(&self, x: &mut [f64], ext: &mut Vec<f64>) {
        let n = x.len();
        if n < MIN_RUN {
            return;
        }
        let pad = self.pad.min(n - 1);
        let (origin, last) = (x[0], x[n - 1] - x[0]);
        ext.clear();
        ext.extend((1..=pad).rev().map(|i| -(x[i] - origin)));
        ext.extend(x.iter().map(|v| v - origin));
        ext.extend((1..=pad).map(|i| 2.0 * last - (x[n - 1 - i] - origin)));
        self.pass(ext.iter_mut());
        self.pass(ext.iter_mut().rev());
        for (v, e) in x.iter_mut().zip(&ext[pad..pad + n]) {
            *v = e + origin;
        }
    }

    /// [`filtfilt`](Self::filtfilt) on the coordinates of up to [`BLOCK`] joints present in
    /// every frame (at least [`MIN_RUN`] of them), with the same arithmetic on each, row by
    /// row: `ext` holds the extended series time-major, a row of [`CHANNELS`] per sample.
    fn block(&self, kp: &mut Keypoints, block: &[usize], ext: &mut Vec<f64>) {
        let (n, joints) = (kp.frame_count, kp.joint_count);
        let pad = self.pad.min(n - 1);
        ext.clear();
        ext.resize((n + 2 * pad) * CHANNELS, 0.0);
        let mut origin = [0.0; CHANNELS];
        for (k, &j) in block.iter().enumerate() {
            for axis in 0..3 {
                origin[3 * k + axis] = kp.positions[j][axis] as f64;
            }
        }
        let (head, rest) = ext.split_at_mut(pad * CHANNELS);
        let (middle, tail) = rest.split_at_mut(n * CHANNELS);
        for (row, e) in kp.positions.chunks_exact(joints).zip(middle.chunks_exact_mut(CHANNELS)) {
            for (k, &j) in block.iter().enumerate() {
                for axis in 0..3 {
                    e[3 * k + axis] = row[j][axis] as f64 - origin[3 * k + axis];
                }
            }
        }
        // The odd reflections about each end, as `filtfilt` makes them.
        let at = |i: usize| &middle[i * CHANNELS..(i + 1) * CHANNELS];
        for i in 1..=pad {
            for (h, m) in head[(pad - i) * CHANNELS..].iter_mut().zip(at(i)) {
                *h = -m;
            }
            let out = &mut tail[(i - 1) * CHANNELS..i * CHANNELS];
            for ((t, m), last) in out.iter_mut().zip(at(n - 1 - i)).zip(at(n - 1)) {
                *t = 2.0 * last - m;
            }
        }
        self.pass_rows(ext.chunks_exact_mut(CHANNELS));
        self.pass_rows(ext.chunks_exact_mut(CHANNELS).rev());
        for (f, e) in ext[pad * CHANNELS..].chunks_exact(CHANNELS).take(n).enumerate() {
            let row = &mut kp.positions[f * joints..(f + 1) * joints];
            for (k, &j) in block.iter().enumerate() {
                for axis in 0..3 {
                    let v = e[3 * k + axis] + origin[3 * k + axis];
                    if v.is_finite() {
                        row[j][axis] = v as f32;
                    }
                }
            }
        }
    }

    /// [`pass`](Self::pass) on every channel of `rows` at once.
    fn pass_rows<'a>(&self, mut rows: impl Iterator<Item = &'a mut [f64]>) {
        let ([b0, b1, b2], [a1, a2]) = (self.b, self.a);
        let gain = (b0 + b1 + b2) / (1.0 + a1 + a2);
        let Some(first) = rows.next() else {
            return;
        };
        let (mut z1, mut z2) = ([0.0; CHANNELS], [0.0; CHANNELS]);
        for c in 0..CHANNELS {
            (z1[c], z2[c]) = ((gain - b0) * first[c], (b2 - a2 * gain) * first[c]);
        }
        for row in std::iter::once(first).chain(rows) {
            let row: &mut [f64; CHANNELS] = row.try_into().expect("a row of CHANNELS");
            for c in 0..CHANNELS {
                let x = row[c];
                let y = b0 * x + z1[c];
                z1[c] = b1 * x - a1 * y + z2[c];
                z2[c] = b2 * x - a2 * y;
                row[c] = y;
            }
        }
    }

    /// One pass in transposed direct form II, started in the steady state for a constant
    /// input equal to the first sample (scipy's `lfilter_zi` scaled by it).
    fn pass<'a>(&self, samples: impl Iterator<Item = &'a mut f64>) {
        let ([b0, b1, b2], [a1, a2]) = (self.b, self.a);
        let gain = (b0 + b1 + b2) / (1.0 + a1 + a2);
        let mut state: Option<(f64, f64)> = None;
        for x in samples {
            let (z1, z2) = state.unwrap_or(((gain - b0) * *x, (b2 - a2 * gain) * *x));
            let y = b0 * *x + z1;
            state = Some((b1 * *x - a1 * y + z2, b2 * *x - a2 * y));
            *x = y;
        }
    }
}

#[cfg(test)]
mod tests;
