//! [`FingerReport`]: how well the played-back fingers follow the input's, measured in each
//! palm's own frame so that the figures are the fingers' alone (the wrist's place and turn are
//! the body's residuals).

use crate::math::frame_rotation;
use crate::roles::{Role, Side};
use glam::{DQuat, DVec3};
use serde::Serialize;

/// The fingers' part of a retargeting report.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FingerReport {
    /// Frames whose hand was solved from its points, left then right.
    pub solved_frames: [usize; 2],
    /// Frames whose hand was held from the frame before, the points being too few.
    pub held_frames: [usize; 2],
    /// Finger joints' distance from the input's, each hand's points taken relative to its
    /// wrist in its palm's frame, mean over joints and frames, model units.
    pub joint_error_mean: f64,
    /// Largest of those, model units.
    pub joint_error_max: f64,
    /// Angle between each finger segment of the input and of the played-back motion (in the
    /// palm's frame), mean, degrees.
    pub direction_mean_degrees: f64,
    /// Largest of those, degrees.
    pub direction_max_degrees: f64,
    /// Finger joints held at the backward-bend limit, summed over frames.
    pub clamps: usize,
}

/// The hand's wrist and the index, middle and little fingers' MCPs in `Role::hand_points`.
const PALM: [usize; 4] = [0, 5, 9, 17];

/// Fills the error figures of `report` from the input as solved (`observed`) and the motion
/// played back (`played`), both indexed by [`Role`] with weight 0 where missing.
pub(crate) fn measure<O: AsRef<[(DVec3, f64)]>>(
    observed: &[O],
    played: &[O],
    report: &mut FingerReport,
) {
    let (mut joints, mut directions) = (Stats::default(), Stats::default());
    for (o, p) in observed.iter().zip(played) {
        let (o, p) = (o.as_ref(), p.as_ref());
        for side in Side::BOTH {
            let roles = Role::hand_points(side);
            let (Some(fo), Some(fp)) = (palm_frame(o, &roles), palm_frame(p, &roles)) else {
                continue;
            };
            let at = |x: &[(DVec3, f64)], frame: (DVec3, DQuat), k: usize| {
                let (q, w) = x[roles[k] as usize];
                (w > 0.0).then(|| frame.1 * (q - frame.0))
            };
            for finger in 0..5 {
                let first = 1 + 4 * finger;
                let a: [Option<DVec3>; 4] = std::array::from_fn(|k| at(o, fo, first + k));
                let b: [Option<DVec3>; 4] = std::array::from_fn(|k| at(p, fp, first + k));
                for (x, y) in a.iter().zip(&b) {
                    if let (Some(x), Some(y)) = (x, y) {
                        joints.add((*x - *y).length());
                    }
                }
                for k in 0..3 {
                    let (Some(a0), Some(a1), Some(b0), Some(b1)) = (a[k], a[k + 1], b[k], b[k + 1])
                    else {
                        continue;
                    };
                    if let Some(angle) = angle_degrees(a1 - a0, b1 - b0) {
                        directions.add(angle);
                    }
                }
            }
        }
    }
    (report.joint_error_mean, report.joint_error_max) = joints.mean_max();
    (report.direction_mean_degrees, report.direction_max_degrees) = directions.mean_max();
}

/// The wrist and the rotation that takes a hand's points into its palm's frame.
fn palm_frame(x: &[(DVec3, f64)], roles: &[Role; 21]) -> Option<(DVec3, DQuat)> {
    let [w, i, m, p] = PALM.map(|k| x[roles[k] as usize]);
    if w.1 <= 0.0 || i.1 <= 0.0 || p.1 <= 0.0 {
        return None;
    }
    let m = if m.1 > 0.0 { m.0 } else { (i.0 + p.0) / 2.0 };
    Some((w.0, frame_rotation(DVec3::X, DVec3::Y, m - w.0, i.0 - p.0).inverse()))
}

fn angle_degrees(u: DVec3, v: DVec3) -> Option<f64> {
    if u.length_squared() < 1e-18 || v.length_squared() < 1e-18 {
        return None;
    }
    Some(u.cross(v).length().atan2(u.dot(v)).to_degrees())
}

#[derive(Default)]
struct Stats {
    sum: f64,
    max: f64,
    n: usize,
}

impl Stats {
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.max = self.max.max(x);
        self.n += 1;
    }

    fn mean_max(&self) -> (f64, f64) {
        (if self.n == 0 { 0.0 } else { self.sum / self.n as f64 }, self.max)
    }
}
