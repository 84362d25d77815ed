//! Playing a motion on a skeleton at many times, and the largest difference between two such
//! plays: what the bake tests compare.

use vmdkit::eval::MotionSampler;
use vmdkit::skeleton::{Binding, Pose, PoseOptions, Poser, Skeleton};
use vmdkit::Motion;

/// Plays `motion` on `skeleton` at each of `times` with `options`.
pub fn poses(
    skeleton: &Skeleton,
    motion: &Motion,
    options: PoseOptions,
    times: &[f64],
) -> Vec<Pose> {
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::with_options(skeleton, &sampler, &binding, options);
    times
        .iter()
        .map(|&t| {
            let mut pose = Pose::new(skeleton);
            poser.pose_at(t, &mut pose);
            pose
        })
        .collect()
}

/// The largest model-space position distance between matching bones of two pose lists.
pub fn worst(a: &[Pose], b: &[Pose]) -> (f32, usize, usize) {
    let mut worst = (0.0f32, 0, 0);
    for (f, (pa, pb)) in a.iter().zip(b).enumerate() {
        for (bone, (p, q)) in pa.positions().iter().zip(pb.positions()).enumerate() {
            let d = p.distance(*q);
            if d > worst.0 || d.is_nan() {
                worst = (d, f, bone);
            }
        }
    }
    worst
}
