//! Reads arbitrary bytes as a model (PMX, PMD or a PmxEditor bone CSV) and exports the built-in
//! example motion on it as BVH (`bvh::from_motion`), every bone and deforming bones only: a
//! model whose parents point forward, at themselves or in a cycle must be refused or exported
//! with those bones as roots, never panic. Every BVH written reads back with the same joints.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::bvh::{from_motion, Bvh, BvhExportOptions};
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;

/// Bigger models only cost time: the writer's bounds are what the fuzzer is after.
const MAX_BONES: usize = 2_000;

fuzz_target!(|data: &[u8]| {
    let Ok(model) = Model::parse(data) else { return };
    if model.bones.len() > MAX_BONES {
        return;
    }
    let motion = vmdkit::example::example_motion();
    let sampler = MotionSampler::new(&motion);
    for deform_only in [false, true] {
        // A low rate keeps each run short; the posing per frame is what other targets cover.
        let options = BvhExportOptions { fps: 2.0, deform_only, ..BvhExportOptions::default() };
        let Ok(bvh) = from_motion(&model, &sampler, &options) else { continue };
        let mut text = Vec::new();
        bvh.write_to(&mut text).expect("writing to memory cannot fail");
        let back = Bvh::parse(&text).expect("a BVH vmdkit wrote reads again");
        assert_eq!(back.joints.len(), bvh.joints.len());
        assert_eq!(back.frame_count, bvh.frame_count);
    }
});
