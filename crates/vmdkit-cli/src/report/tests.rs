//! One document of each main family, built from the built-in example motion and model.

use super::{entries, KeyOptions, ModelDoc, SampleDoc};
use vmdkit::eval::MotionSampler;
use vmdkit::Section;

#[test]
fn report_dump_listing_starts_with_the_first_bone_key() {
    let motion = vmdkit::example::example_motion();
    let options = KeyOptions { euler: true, ..KeyOptions::new(motion.detect_encoding()) };
    let first = entries(&motion, Section::Bone, &options).next().unwrap();
    let line = serde_json::to_string(&first).unwrap();
    assert!(line.starts_with(r#"{"index":0,"frame":0,"name":"右腕""#));
}

#[test]
fn report_sample_document_lists_bones_by_name() {
    let motion = vmdkit::example::example_motion();
    let sampler = MotionSampler::new(&motion);
    let labels = sampler.track_labels(motion.detect_encoding());
    let mut sample = sampler.new_sample();
    sampler.sample_into(&mut sampler.playhead(), 15.0, &mut sample);
    let text = serde_json::to_string(&SampleDoc::of_sample(15.0, &labels, &sample)).unwrap();
    assert!(text.starts_with(r#"{"frame":15.0,"bones":{"右腕":{"#));
}

#[test]
fn report_model_document_counts_bones_and_leaves_roots_without_parent() {
    let model = vmdkit::example::example_model();
    let doc = ModelDoc::new("example.pmx", &model);
    assert_eq!(doc.counts.bones, model.bones.len());
    let json = serde_json::to_value(&doc).unwrap();
    assert_eq!(json["bones"][0]["parent"], serde_json::Value::Null);
}
