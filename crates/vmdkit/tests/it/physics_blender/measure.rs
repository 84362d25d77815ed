//! Figures of a trajectory that two simulations can be compared on: the angle of a body about
//! an axis, the period and peaks of an oscillation, how fast it decays, RMS differences.

use glam::{Quat, Vec3};

/// The angle (radians) of each rotation about `axis` (a unit vector): the twist part of the
/// rotation, which is the whole rotation for a body turning about that one axis.
pub fn twist_angles(rotations: &[Quat], axis: Vec3) -> Vec<f32> {
    rotations
        .iter()
        .map(|q| {
            let q = if q.w < 0.0 { -*q } else { *q };
            2.0 * Vec3::new(q.x, q.y, q.z).dot(axis).atan2(q.w)
        })
        .collect()
}

/// The times (seconds, frames `dt` apart) where `angle` crosses zero, interpolated linearly
/// between frames.
fn zero_crossings(angle: &[f32], dt: f32) -> Vec<f32> {
    let mut out = Vec::new();
    for (k, w) in angle.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if (a < 0.0 && b >= 0.0) || (a > 0.0 && b <= 0.0) {
            out.push((k as f32 + a / (a - b)) * dt);
        }
    }
    out
}

/// The oscillation's period (seconds): twice the mean time between zero crossings, over all of
/// them. `None` with fewer than three crossings.
pub fn period(angle: &[f32], dt: f32) -> Option<f32> {
    let c = zero_crossings(angle, dt);
    (c.len() >= 3).then(|| 2.0 * (c[c.len() - 1] - c[0]) / (c.len() - 1) as f32)
}

/// The peaks: the largest |angle| of each half swing between two zero crossings, with its time.
pub fn peaks(angle: &[f32], dt: f32) -> Vec<(f32, f32)> {
    let mut out = Vec::new();
    let mut best = (0.0f32, 0.0f32);
    for (k, w) in angle.windows(2).enumerate() {
        let a = w[0].abs();
        if a > best.1 {
            best = (k as f32 * dt, a);
        }
        if (w[0] < 0.0) != (w[1] < 0.0) {
            if best.1 > 0.0 {
                out.push(best);
            }
            best = (0.0, 0.0);
        }
    }
    out
}

/// The exponential decay rate (1/s) of the peaks, by a least-squares fit of ln(peak) against
/// time; `None` with fewer than three peaks.
pub fn decay_rate(peaks: &[(f32, f32)]) -> Option<f32> {
    if peaks.len() < 3 {
        return None;
    }
    let n = peaks.len() as f64;
    let (st, sl) = peaks
        .iter()
        .fold((0.0, 0.0), |(st, sl), &(t, a)| (st + f64::from(t), sl + f64::from(a).ln()));
    let (mt, ml) = (st / n, sl / n);
    let (num, den) = peaks.iter().fold((0.0, 0.0), |(num, den), &(t, a)| {
        let dt = f64::from(t) - mt;
        (num + dt * (f64::from(a).ln() - ml), den + dt * dt)
    });
    Some(-(num / den) as f32)
}

/// The root mean square of `a[k] − b[k]`.
pub fn rms(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    let sum: f64 = a.iter().zip(b).map(|(x, y)| f64::from(x - y).powi(2)).sum();
    (sum / a.len() as f64).sqrt() as f32
}

/// The root mean square of the distance between `a[k]` and `b[k]`.
pub fn rms_distance(a: &[Vec3], b: &[Vec3]) -> f32 {
    assert_eq!(a.len(), b.len());
    let sum: f64 = a.iter().zip(b).map(|(x, y)| f64::from(x.distance_squared(*y))).sum();
    (sum / a.len() as f64).sqrt() as f32
}

/// The mean of the last `n` values.
pub fn mean_of_last(values: &[f32], n: usize) -> f32 {
    let tail = &values[values.len().saturating_sub(n)..];
    tail.iter().sum::<f32>() / tail.len() as f32
}
