//! Reads arbitrary text as a joint mapping (text or JSON form), and detects a built-in layout
//! from joint names split from the same bytes: neither may panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::keypoints::JointLayout;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(layout) = JointLayout::from_mapping("fuzz", &text) {
        for joint in &layout.joints {
            let _ = (&joint.name, joint.role);
        }
    }
    let names: Vec<String> = text.split(['\n', ',', '\t']).map(|s| s.to_string()).collect();
    for count in [names.len(), names.len().saturating_sub(1), 17, 25, 33] {
        let _ = JointLayout::detect(Some(&names), count);
    }
    let _ = JointLayout::detect(None, data.len() % 200);
});
