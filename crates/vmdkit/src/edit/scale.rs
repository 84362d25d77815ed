//! Scaling translations, to fit a motion to a larger or smaller model.
//!
//! Bone translations are multiplied by K; so are the camera's target and distance, which live
//! in the same space (pass `camera: false` to leave a camera alone). Rotations, morphs, light
//! and self-shadow keys are unchanged. Curves are kept: every value between two keys is
//! lerp(K·a, K·b, w) = K·lerp(a, b, w), so the scaled motion is the original times K at every
//! time (up to one f32 rounding).

use crate::format::Motion;

/// `motion` with translations (and, when `camera`, the camera's target and distance) times
/// `factor`.
pub fn scale(motion: &Motion, factor: f32, camera: bool) -> Motion {
    let mut out = motion.clone();
    for key in &mut out.bones {
        key.translation *= factor;
    }
    if camera {
        for key in &mut out.cameras {
            key.target *= factor;
            key.distance *= factor;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::MotionSampler;

    #[test]
    fn scaled_motion_is_scaled_at_every_time() {
        let motion = crate::example::example_motion();
        let big = scale(&motion, 2.0, true);
        let (a, b) = (MotionSampler::new(&motion), MotionSampler::new(&big));
        for t in 0..=60 {
            let t = f64::from(t) * 0.5;
            for (ta, tb) in a.bone_tracks().iter().zip(b.bone_tracks()) {
                assert_eq!(ta.sample(t).translation * 2.0, tb.sample(t).translation);
                assert_eq!(ta.sample(t).rotation, tb.sample(t).rotation);
            }
            let (ca, cb) = (a.sample_camera(t).unwrap(), b.sample_camera(t).unwrap());
            assert!(
                (ca.target * 2.0 - cb.target).length() < 1e-5
                    && (ca.distance * 2.0 - cb.distance).abs() < 1e-4
            );
        }
    }
}
