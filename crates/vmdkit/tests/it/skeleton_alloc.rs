//! Posing allocates nothing per frame: `Poser::pose_at` (sampling, morphs, append, IK) is run
//! under the binary's global allocator, which counts this thread's allocations.

use crate::common::skeleton as skeleton_common;

use skeleton_common::*;
use test_corpus::alloc::allocations;
use vmdkit::eval::MotionSampler;
use vmdkit::skeleton::{Binding, Pose, PoseEvaluator, Poser, Skeleton};

#[test]
fn skeleton_pose_at_does_not_allocate() {
    let Some(manifest) = test_corpus::corpus_or_skip("skeleton_pose_at_does_not_allocate") else {
        return;
    };
    for (model_path, motion_path) in [(MIKU, WAVEFILE), (TRACE, SAMPLE2)] {
        let model = model(&manifest.dir.join(model_path));
        let motion = motion(&manifest.dir.join(motion_path));
        let skeleton = Skeleton::new(&model);
        let sampler = MotionSampler::new(&motion);
        let binding = Binding::new(&skeleton, &sampler);
        let mut poser = Poser::new(&skeleton, &sampler, &binding);
        let mut pose = Pose::new(&skeleton);
        let evaluator = PoseEvaluator::new(&skeleton);
        let before = allocations();
        let last = sampler.last_frame().unwrap_or(0);
        for f in (0..=last).step_by(7) {
            poser.pose_at(f64::from(f) + 0.25, &mut pose);
            evaluator.evaluate(poser.input(), &mut pose);
        }
        assert_eq!(allocations() - before, 0, "{model_path} + {motion_path}");
    }
}
