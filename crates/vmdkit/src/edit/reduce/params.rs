//! Curve parameters remembered across the pattern search's candidates.
//!
//! A curve's weight at progress p is Y(s) with X(s) = p, and solving for s is most of the cost
//! of a score. s depends only on the time handles (x1, x2): half of the search's moves change
//! only the value handles (y1, y2), and from one round to the next the candidates return to the
//! same time handles until one of them is taken. So the parameters are kept per pair of time
//! handles, for the band's progress values, and each candidate looks them up. Rows fill
//! lazily, as a score stops at its cutoff, each root solved from the one before (progress
//! increases along a band), so to [`Curve::solve_s`]'s bound but not always to its last bit:
//! weights agree with [`Curve::weight_f64`] within 1e-9, far inside any band that a score
//! tells apart, and every fit is still checked exactly by its caller.

use crate::curve::Curve;

/// Rows kept: the current point's time handles and those of its moves, with room for a round.
const ROWS: usize = 16;

/// Parameters per pair of time handles, for one band's progress values.
pub(super) struct Params<'p> {
    progress: &'p [f64],
    rows: Vec<Row>,
    /// The row replaced next when all are in use (oldest first).
    next: usize,
}

struct Row {
    x: (u8, u8),
    s: Vec<f64>,
}

/// Weights of one curve at the band's progress values (see [`Params::of`]).
pub(super) struct Weights<'a> {
    curve: Curve,
    progress: &'a [f64],
    s: &'a mut Vec<f64>,
}

impl<'p> Params<'p> {
    pub fn new(progress: &'p [f64]) -> Self {
        Params { progress, rows: Vec::with_capacity(ROWS), next: 0 }
    }

    /// The weights of `curve`, sharing parameters with every curve of the same time handles.
    pub fn of(&mut self, curve: Curve) -> Weights<'_> {
        // Bytes above 127 count as 127 when evaluating (`Curve` clamps them).
        let x = (curve.x1.min(127), curve.x2.min(127));
        let i = match self.rows.iter().position(|r| r.x == x) {
            Some(i) => i,
            None if self.rows.len() < ROWS => {
                self.rows.push(Row { x, s: Vec::with_capacity(self.progress.len()) });
                self.rows.len() - 1
            }
            None => {
                let i = self.next;
                self.next = (self.next + 1) % ROWS;
                self.rows[i].x = x;
                self.rows[i].s.clear();
                i
            }
        };
        Weights { curve, progress: self.progress, s: &mut self.rows[i].s }
    }
}

impl Weights<'_> {
    /// [`Curve::weight_f64`] (within 1e-9) at the `k`th progress value; the row fills up to
    /// the largest k asked so far.
    pub fn at(&mut self, k: usize) -> f64 {
        let p = self.progress[k];
        if p.is_nan() || p <= 0.0 {
            return 0.0;
        }
        if p >= 1.0 {
            return 1.0;
        }
        if self.curve.is_linear() {
            return p;
        }
        while self.s.len() <= k {
            let j = self.s.len();
            let pj = self.progress[j];
            let s = match j.checked_sub(1) {
                // Progress increases along the band, so the last root is a close start.
                Some(i) if self.progress[i] < pj && pj > 0.0 && pj < 1.0 => {
                    self.curve.solve_s_near(pj, self.s[i])
                }
                _ => self.curve.solve_s(pj),
            };
            self.s.push(s);
        }
        self.curve.weight_at_s(self.s[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_weights_are_the_curves_own() {
        let progress: Vec<f64> = (1..40).map(|k| k as f64 / 40.0).collect();
        let mut params = Params::new(&progress);
        // More time-handle pairs than rows, revisited, and some sharing time handles.
        for round in 0..3u8 {
            for x1 in (0..=127u8).step_by(9) {
                for (y1, y2) in [(0u8, 127u8), (90, 3), (x1, 60)] {
                    let c = Curve::new(x1, y1, 127 - x1 / 2, y2.wrapping_add(round));
                    let mut w = params.of(c);
                    // A score that stops early leaves a partial row behind.
                    let upto = if round == 1 { progress.len() / 2 } else { progress.len() };
                    for (k, &p) in progress.iter().enumerate().take(upto) {
                        assert!((w.at(k) - c.weight_f64(p)).abs() < 1e-9, "{c:?} at {p}");
                    }
                }
            }
        }
    }
}
