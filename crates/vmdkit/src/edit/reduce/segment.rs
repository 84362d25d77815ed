//! Choosing key frames: greedy segmentation, then verification by the library's own sampler
//! and repair where it fails.
//!
//! A [`Track`] is one bone, morph or the camera, given as reference values at consecutive
//! integer frames (indices 0..len). A plan is a list of key indices, each with the curves of
//! the segment ending there; the key values are the reference values at those frames.
//!
//! **Greedy.** Between consecutive mandatory keys (the ends, and frames where a step such as
//! the physics toggle changes), start at the left key, first try the whole stretch, then grow
//! the segment by doubling its length while it still fits and binary-search the last length
//! that fits; place a key there and continue from it. When "fits" is hereditary (a piece of a
//! fitting segment fits), extending each segment as far as it goes gives the fewest keys; for
//! MMD curves it nearly is (a piece of a curve is a curve, up to rounding, see
//! [`split`](crate::edit::split)). A segment one frame long has no frame inside, so it always
//! fits and the loop always ends.
//!
//! **Verification and repair.** The planned keys are played back by
//! [`MotionSampler`](crate::eval::MotionSampler) at every reference frame and compared with the
//! reference. A segment that misses the tolerance is split at its worst frame and both halves
//! refitted (splitting again where they do not fit), and the whole track is checked again. If a
//! miss remains after a few rounds, or falls on a key itself (a value the file cannot store
//! exactly, such as a fractional view angle), the plan is abandoned and the caller keeps the
//! track's original keys: the bound is guaranteed either way.

/// One track to reduce (see the module documentation).
pub(crate) trait Track {
    type Curves: Copy;

    /// Reference frames.
    fn len(&self) -> usize;
    /// Whether frame `i` must be a key.
    fn is_break(&self, i: usize) -> bool;
    /// The curves of the segment from `a` to `b` (a < b) when some curves keep every frame
    /// inside within tolerance; otherwise the frame that failed worst (a < frame < b).
    fn fit(&self, a: usize, b: usize) -> Result<Self::Curves, usize>;
    /// Curves for a segment played with linear weights (the first key's, and the baseline's).
    fn linear(&self) -> Self::Curves;
    /// Reference frames where `plan`, played by the library's sampler, misses the tolerance.
    fn violations(&self, plan: &[(usize, Self::Curves)]) -> Vec<usize>;
}

/// How many verify-and-repair rounds before giving up on a track.
const REPAIR_ROUNDS: usize = 4;

/// Mandatory keys: the ends and every break.
pub(crate) fn breaks<T: Track>(track: &T) -> Vec<usize> {
    let n = track.len();
    let mut out = vec![0];
    out.extend((1..n.saturating_sub(1)).filter(|&i| track.is_break(i)));
    if n > 1 {
        out.push(n - 1);
    }
    out
}

/// The greedy plan (see the module documentation), not yet verified.
pub(crate) fn greedy<T: Track>(track: &T) -> Vec<(usize, T::Curves)> {
    let mut plan = vec![(0, track.linear())];
    for pair in breaks(track).windows(2) {
        let (start, end) = (pair[0], pair[1]);
        let mut a = start;
        while a < end {
            // The whole stretch is tried once per stretch: trying it again from every key would
            // cost O(n) per key on long dense tracks.
            if a == start || end - a <= 64 {
                if let Ok(c) = track.fit(a, end) {
                    plan.push((end, c));
                    break;
                }
            }
            let (mut good, mut curves) = (a + 1, fit_one(track, a));
            let mut bad = end;
            let mut len = 2;
            while a + len < end {
                match track.fit(a, a + len) {
                    Ok(c) => {
                        (good, curves) = (a + len, c);
                        len *= 2;
                    }
                    Err(_) => {
                        bad = a + len;
                        break;
                    }
                }
            }
            while bad - good > 1 {
                let mid = good + (bad - good) / 2;
                match track.fit(a, mid) {
                    Ok(c) => (good, curves) = (mid, c),
                    Err(_) => bad = mid,
                }
            }
            plan.push((good, curves));
            a = good;
        }
    }
    plan
}

/// Removes keys whose two neighbouring segments fit as one: greedy places each key as far as
/// its segment reaches, which can leave a key that a later, differently placed segment would
/// have made unnecessary.
pub(crate) fn prune<T: Track>(
    track: &T,
    mut plan: Vec<(usize, T::Curves)>,
) -> Vec<(usize, T::Curves)> {
    let mut i = 1;
    while i + 1 < plan.len() {
        if !track.is_break(plan[i].0) {
            if let Ok(c) = track.fit(plan[i - 1].0, plan[i + 1].0) {
                plan.remove(i);
                plan[i].1 = c;
                continue;
            }
        }
        i += 1;
    }
    plan
}

/// A one-frame segment: nothing inside, so any fitter accepts it.
fn fit_one<T: Track>(track: &T, a: usize) -> T::Curves {
    track.fit(a, a + 1).unwrap_or_else(|_| track.linear())
}

/// Fits a..b, splitting at the worst frame wherever a piece does not fit.
pub(crate) fn fit_or_split<T: Track>(
    track: &T,
    a: usize,
    b: usize,
    out: &mut Vec<(usize, T::Curves)>,
) {
    if b == a + 1 {
        out.push((b, fit_one(track, a)));
        return;
    }
    match track.fit(a, b) {
        Ok(c) => out.push((b, c)),
        Err(k) => {
            let k = k.clamp(a + 1, b - 1);
            fit_or_split(track, a, k, out);
            fit_or_split(track, k, b, out);
        }
    }
}

/// Checks `plan` with the sampler and repairs it; `None` when the bound cannot be met with
/// keys at reference frames (the caller then keeps the original keys).
pub(crate) fn verified<T: Track>(
    track: &T,
    mut plan: Vec<(usize, T::Curves)>,
) -> Option<Vec<(usize, T::Curves)>> {
    for _ in 0..REPAIR_ROUNDS {
        let misses = track.violations(&plan);
        if misses.is_empty() {
            return Some(plan);
        }
        let mut repaired = Vec::with_capacity(plan.len() + misses.len());
        repaired.push(plan[0]);
        let mut misses = misses.into_iter().peekable();
        for pair in plan.windows(2) {
            let (a, b) = (pair[0].0, pair[1].0);
            // The worst… any miss inside this segment: split there.
            let mut inside = None;
            while let Some(&m) = misses.peek() {
                if m > b {
                    break;
                }
                misses.next();
                if m == a || m == b {
                    return None; // a key's own value misses: no split can help
                }
                inside.get_or_insert(m);
            }
            match inside {
                Some(m) => {
                    fit_or_split(track, a, m, &mut repaired);
                    fit_or_split(track, m, b, &mut repaired);
                }
                None => repaired.push(pair[1]),
            }
        }
        if misses.next().is_some() {
            return None; // a miss outside every segment: only the first key can be there
        }
        plan = repaired;
    }
    track.violations(&plan).is_empty().then_some(plan)
}

/// Curves for the segment `a..b`: its hint when the exact `check` passes it, else curves fitted
/// by `bands` at shrinking widths until `check` passes them (the bands approximate the exact
/// error; tighten them when the exact check disagrees). A one-frame segment needs no fit.
pub(crate) fn fit_hinted<C: Copy>(
    (a, b): (usize, usize),
    hint: Option<&C>,
    linear: C,
    check: impl Fn(&C) -> Result<(), usize>,
    bands: impl Fn(f64) -> Result<C, usize>,
) -> Result<C, usize> {
    if b == a + 1 {
        return Ok(hint.copied().unwrap_or(linear));
    }
    if let Some(h) = hint {
        if check(h).is_ok() {
            return Ok(*h);
        }
    }
    let mut last = Err(a + 1);
    for shrink in [1.0, 0.8, 0.5] {
        let curves = bands(shrink)?;
        match check(&curves) {
            Ok(()) => return Ok(curves),
            Err(k) => last = Err(k),
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy scalar track fitted by straight lines only.
    struct Line(Vec<f64>, f64);

    impl Track for Line {
        type Curves = ();
        fn len(&self) -> usize {
            self.0.len()
        }
        fn is_break(&self, _: usize) -> bool {
            false
        }
        fn fit(&self, a: usize, b: usize) -> Result<(), usize> {
            let err = |k: usize| {
                let p = (k - a) as f64 / (b - a) as f64;
                (self.0[a] + (self.0[b] - self.0[a]) * p - self.0[k]).abs()
            };
            match (a + 1..b).max_by(|&x, &y| err(x).total_cmp(&err(y))) {
                Some(k) if err(k) > self.1 => Err(k),
                _ => Ok(()),
            }
        }
        fn linear(&self) {}
        fn violations(&self, plan: &[(usize, ())]) -> Vec<usize> {
            let mut out = Vec::new();
            for pair in plan.windows(2) {
                let (a, b) = (pair[0].0, pair[1].0);
                if let Err(k) = self.fit(a, b) {
                    out.push(k);
                }
            }
            out
        }
    }

    #[test]
    fn greedy_places_keys_at_corners() {
        // Up 10 frames, flat 10, down 10.
        let v: Vec<f64> = (0..=30)
            .map(|k| match k {
                0..=10 => k as f64,
                11..=20 => 10.0,
                _ => (30 - k) as f64,
            })
            .collect();
        let plan = greedy(&Line(v.clone(), 1e-9));
        assert_eq!(plan.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0, 10, 20, 30]);
        assert_eq!(verified(&Line(v, 1e-9), plan.clone()), Some(plan));
    }

    #[test]
    fn repair_splits_segments_that_miss() {
        let v: Vec<f64> = (0..=8).map(|k| if k == 4 { 1.0 } else { 0.0 }).collect();
        let track = Line(v, 0.1);
        let repaired = verified(&track, vec![(0, ()), (8, ())]).unwrap();
        assert!(repaired.iter().any(|p| p.0 == 4), "{repaired:?}");
    }
}
