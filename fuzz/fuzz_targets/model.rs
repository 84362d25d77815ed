//! Reads arbitrary bytes as a model (PMX, PMD or a PmxEditor bone CSV); every model that reads
//! builds a skeleton, poses at rest and at one frame of the built-in example motion, and goes
//! through the retargeting rig's inverse (`keypoints_from_motion`), which may refuse the model
//! but must not panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::eval::MotionSampler;
use vmdkit::keypoints::JointLayout;
use vmdkit::model::Model;
use vmdkit::retarget::keypoints_from_motion;
use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};

/// Bigger models only cost time: the readers' bounds are what the fuzzer is after.
const MAX_BONES: usize = 2_000;

fuzz_target!(|data: &[u8]| {
    let model = match Model::parse(data) {
        Ok(model) => model,
        Err(err) => {
            assert!(!err.to_string().is_empty());
            assert!(err.offset <= data.len() as u64 || data.is_empty(), "{err}");
            return;
        }
    };
    if model.bones.len() > MAX_BONES {
        return;
    }
    let skeleton = Skeleton::new(&model);
    let motion = vmdkit::example::example_motion();
    let sampler = MotionSampler::new(&motion);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::new(&skeleton, &sampler, &binding);
    let mut pose = Pose::new(&skeleton);
    poser.pose_at(0.0, &mut pose);
    poser.pose_at(15.5, &mut pose);
    for i in 0..skeleton.bone_count() {
        let _ = (pose.position(i), pose.rotation(i));
    }
    let layout = JointLayout::builtin("h36m").unwrap();
    if let Ok(k) = keypoints_from_motion(&motion, &skeleton, &layout, &Default::default()) {
        assert_eq!(k.positions.len(), k.frame_count * k.joint_count);
    }
});
