//! Reads arbitrary bytes as a BVH. A failure must say where, within the input; a success gives
//! a consistent file (parents before children, channel ranges inside each frame, every value
//! finite, values and frames × joints bounded by the input's size), whose FK is finite for moderate values, which writes back and reads again with the
//! same hierarchy and values within the decimals written, and whose joint map (when the names
//! make one) gives keypoints of the right size.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::bvh::{detect_layout, to_keypoints, Bvh, FkOptions, JointKind, PositionOffset};

fuzz_target!(|data: &[u8]| {
    let bvh = match Bvh::parse(data) {
        Ok(bvh) => bvh,
        Err(err) => {
            assert!(err.line >= 1 && err.column >= 1 && err.offset <= data.len(), "{err}");
            let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
            assert!(err.line <= lines, "{err}: only {lines} lines");
            assert!(!err.to_string().is_empty());
            return;
        }
    };
    // Never more values than the input could spell, nor more poses than it has bytes.
    assert!(bvh.motion.len() <= data.len() / 2 + 1);
    assert!(bvh.frame_count * bvh.joints.len() <= data.len());
    assert_eq!(bvh.motion.len(), bvh.frame_count * bvh.channel_count);
    assert!(bvh.frame_time > 0.0 && bvh.frame_time.is_finite());
    for (j, joint) in bvh.joints.iter().enumerate() {
        assert!(joint.parent.is_none_or(|p| p < j), "parent after child");
        assert_eq!(joint.parent.is_none(), joint.kind == JointKind::Root);
        assert!(joint.first_channel + joint.channels.len() <= bvh.channel_count);
        assert!(joint.offset.is_finite());
    }
    assert!(bvh.motion.iter().all(|v| v.is_finite()));
    let moderate = bvh.motion.iter().all(|v| v.abs() < 1e6)
        && bvh.joints.iter().all(|j| j.offset.abs().max_element() < 1e6);
    let frames = bvh.frame_count.min(4);
    for position_offset in [PositionOffset::Replace, PositionOffset::Add] {
        for f in 0..frames {
            let pose = bvh.world_pose(f, FkOptions { position_offset });
            assert_eq!(pose.len(), bvh.joints.len());
            if moderate {
                assert!(pose.iter().all(|p| p.position.is_finite() && p.rotation.is_finite()));
            }
        }
    }
    let mut text = Vec::new();
    bvh.write_to(&mut text).unwrap();
    let again = Bvh::parse(&text).unwrap_or_else(|e| panic!("written BVH does not read: {e}"));
    assert_eq!(again.joints.len(), bvh.joints.len());
    assert_eq!(again.frame_count, bvh.frame_count);
    // Written depth first: the same joints when the file was (names lose their white space).
    let depth_first = bvh.joints.iter().zip(&again.joints).all(|(a, b)| a.parent == b.parent);
    if depth_first {
        for (a, b) in bvh.joints.iter().zip(&again.joints) {
            assert_eq!(a.kind, b.kind);
            assert_eq!(a.channels, b.channels);
            assert!(
                (a.offset - b.offset).abs().max_element()
                    <= 1e-7 * (1.0 + a.offset.abs().max_element())
            );
        }
        for (a, b) in bvh.motion.iter().zip(&again.motion) {
            assert!((a - b).abs() <= 1e-6 * (1.0 + a.abs()), "{a} reads back as {b}");
        }
    }
    if let Ok(layout) = detect_layout(&bvh) {
        let kp = to_keypoints(&bvh, &layout, FkOptions::default()).unwrap();
        assert_eq!(kp.positions.len(), bvh.frame_count * layout.joints.len());
    }
});
