//! [`resample`]: keypoints at another frame rate, by time.

use super::FilterError;
use crate::keypoints::Keypoints;
use glam::Vec3;

/// How close (in input frames) an output time must be to an input frame to take that frame
/// as it is; it absorbs the rounding of `i * from / to`, so a missing neighbour on the far
/// side does not erase a sample that lies on a measured frame.
const ON_FRAME: f64 = 1e-6;

/// `kp` sampled at `to_fps`, read as recorded at `from_fps`.
///
/// Output frame `i` lies at time `i / to_fps`; the output covers `[0, (F − 1) / from_fps]`
/// (F input frames), so it never extrapolates past the last input frame. Each joint is
/// interpolated linearly between the two input frames around that time; a joint missing
/// (non-finite) at either of them is missing (NaN) in the output, unless the time falls on an
/// input frame, where that frame alone is taken. Confidences are interpolated linearly as
/// well, with the same weights: a sample between a confident and an unconfident frame gets a
/// confidence in between, which keeps [`fill_gaps`](super::fill_gaps)'s threshold meaningful
/// after resampling.
///
/// Equal rates (within 1e-9) return a copy. The output's `fps` is `to_fps`; names, units and
/// up axis are kept.
///
/// # Errors
///
/// [`FilterError::BadRate`] when either rate is not a positive finite number.
pub fn resample(kp: &Keypoints, from_fps: f64, to_fps: f64) -> Result<Keypoints, FilterError> {
    check_rates(from_fps, to_fps)?;
    if same_rate(kp, from_fps, to_fps) {
        return Ok(Keypoints { fps: Some(to_fps), ..kp.clone() });
    }
    Ok(resample_frames(kp, from_fps, to_fps))
}

/// [`resample`], taking the keypoints: at equal rates they are returned as they are (but for
/// the `fps`), without a copy.
///
/// # Errors
///
/// [`FilterError::BadRate`] when either rate is not a positive finite number.
pub fn resample_owned(kp: Keypoints, from_fps: f64, to_fps: f64) -> Result<Keypoints, FilterError> {
    check_rates(from_fps, to_fps)?;
    if same_rate(&kp, from_fps, to_fps) {
        return Ok(Keypoints { fps: Some(to_fps), ..kp });
    }
    Ok(resample_frames(&kp, from_fps, to_fps))
}

fn check_rates(from_fps: f64, to_fps: f64) -> Result<(), FilterError> {
    for rate in [from_fps, to_fps] {
        if !(rate.is_finite() && rate > 0.0) {
            return Err(FilterError::BadRate(rate));
        }
    }
    Ok(())
}

/// Whether [`resample`] has nothing to interpolate.
fn same_rate(kp: &Keypoints, from_fps: f64, to_fps: f64) -> bool {
    (from_fps - to_fps).abs() <= 1e-9 || kp.frame_count == 0
}

/// [`resample`] between two different valid rates of a clip with frames.
fn resample_frames(kp: &Keypoints, from_fps: f64, to_fps: f64) -> Keypoints {
    let joints = kp.joint_count;
    let step = from_fps / to_fps; // input frames per output frame
    let last = (kp.frame_count - 1) as f64;
    let frames = (last / step + ON_FRAME).floor() as usize + 1;
    let mut positions = Vec::with_capacity(frames * joints);
    let mut confidence = kp.confidence.as_ref().map(|_| Vec::with_capacity(frames * joints));

    for i in 0..frames {
        let s = (i as f64 * step).min(last);
        let nearest = s.round();
        let (lo, hi, t) = if (s - nearest).abs() <= ON_FRAME {
            let f = nearest as usize;
            (f, f, 0.0)
        } else {
            let lo = s.floor() as usize;
            (lo, lo + 1, s - lo as f64)
        };
        let (a, b) = (lo * joints, hi * joints);
        positions.extend((0..joints).map(|j| {
            let (p, q) = (kp.positions[a + j], kp.positions[b + j]);
            if p.is_finite() && q.is_finite() {
                lerp(p, q, t)
            } else {
                Vec3::NAN
            }
        }));
        if let (Some(out_c), Some(c)) = (confidence.as_mut(), kp.confidence.as_ref()) {
            out_c.extend(
                (0..joints).map(|j| (c[a + j] as f64 * (1.0 - t) + c[b + j] as f64 * t) as f32),
            );
        }
    }
    Keypoints {
        frame_count: frames,
        joint_count: joints,
        positions,
        confidence,
        names: kp.names.clone(),
        fps: Some(to_fps),
        units: kp.units,
        up: kp.up,
    }
}

fn lerp(p: Vec3, q: Vec3, t: f64) -> Vec3 {
    let mix = |a: f32, b: f32| (a as f64 + (b as f64 - a as f64) * t) as f32;
    Vec3::new(mix(p.x, q.x), mix(p.y, q.y), mix(p.z, q.z))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(frames: usize) -> Keypoints {
        let mut kp = Keypoints::missing(frames, 2);
        for f in 0..frames {
            kp.positions[f * 2] = Vec3::new(f as f32, 0.0, -(f as f32));
            kp.positions[f * 2 + 1] = Vec3::splat(1.0);
        }
        kp.confidence = Some((0..frames * 2).map(|i| (i % 2) as f32).collect());
        kp
    }

    #[test]
    fn equal_rates_copy() {
        let kp = ramp(5);
        let out = resample(&kp, 30.0, 30.0 + 1e-12).unwrap();
        assert_eq!(out.positions, kp.positions);
        assert_eq!(out.fps, Some(30.0 + 1e-12));
        let owned = resample_owned(kp.clone(), 30.0, 30.0 + 1e-12).unwrap();
        assert_eq!(owned, out);
    }

    #[test]
    fn owned_resamples_as_borrowed() {
        let mut kp = ramp(7);
        kp.names = Some(vec!["a".into(), "b".into()]);
        for (from, to) in [(60.0, 30.0), (30.0, 50.0), (24.0, 30.0)] {
            assert_eq!(resample_owned(kp.clone(), from, to), resample(&kp, from, to));
        }
        assert!(resample_owned(kp, 0.0, 30.0).is_err());
    }

    #[test]
    fn bad_rates_are_errors() {
        let kp = ramp(5);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(resample(&kp, bad, 30.0), Err(FilterError::BadRate(_))));
            assert!(resample(&kp, 30.0, bad).is_err());
        }
    }

    #[test]
    fn by_time_and_covering_the_clip() {
        // 60 → 30 fps takes every other frame; 5 frames last 4/60 s, so 3 output frames.
        let out = resample(&ramp(5), 60.0, 30.0).unwrap();
        assert_eq!(out.frame_count, 3);
        assert_eq!(out.positions[4], Vec3::new(4.0, 0.0, -4.0));
        // 30 → 50 fps: 4 frames last 0.1 s, output frames at 0, 0.02, …, 0.1.
        let out = resample(&ramp(4), 30.0, 50.0).unwrap();
        assert_eq!(out.frame_count, 6);
        assert!((out.positions[2].x - 0.6).abs() < 1e-6);
        assert!((out.positions[10].x - 3.0).abs() < 1e-6);
        let c = out.confidence.unwrap();
        assert_eq!((c[2], c[3]), (0.0, 1.0));
        assert_eq!(out.positions.len(), 12);
    }

    #[test]
    fn missing_neighbour_makes_missing() {
        let mut kp = ramp(4);
        kp.positions[2] = Vec3::NAN; // frame 1, joint 0
        let out = resample(&kp, 30.0, 60.0).unwrap();
        assert_eq!(out.frame_count, 7);
        assert!(out.positions[2].is_nan()); // t = 0.5 frames: frame 1 is a neighbour
        assert!(out.positions[4].is_nan()); // on frame 1 itself
        assert!(out.positions[6].is_nan()); // 1.5
        assert_eq!(out.positions[8], Vec3::new(2.0, 0.0, -2.0)); // on frame 2
        assert!(out.positions[3].is_finite());
    }
}
