//! Edits that change frame numbers never wrap or saturate them: a key at the last frame a VMD
//! can store, moved further, is an error; edits that do not move keys leave it where it is.

use vmdkit::edit::{retime, scale, shift, EditError, Tolerance};
use vmdkit::{BoneKey, Motion};

/// The built-in example (frames 0 to 60) with one more bone key at the largest frame.
fn far_example() -> Motion {
    let mut motion = vmdkit::example::example_motion();
    motion.bones.push(BoneKey { frame: u32::MAX, ..motion.bones[0] });
    motion
}

#[test]
fn shifting_the_last_frame_by_one_is_an_error_naming_the_key() {
    let err = shift(&far_example(), 1).unwrap_err();
    let EditError::ShiftBeyondLastFrame { key, frame, to, .. } = &err else { panic!("{err:?}") };
    assert_eq!((key.as_str(), *frame, *to), ("bone \"右腕\"", u32::MAX, 1 << 32));
}

#[test]
fn retiming_the_last_frame_slower_is_an_error() {
    // Twice as slow: the key would land on frame 8,589,934,590. The error comes from the keys'
    // frames, before any per-frame work over the span.
    let err = retime(&far_example(), 2.0, &Tolerance::default()).unwrap_err();
    let EditError::FrameOverflow { key, source_frame, frame } = &err else { panic!("{err:?}") };
    assert_eq!((key.as_str(), *source_frame, *frame), ("bone \"右腕\"", u32::MAX, 8_589_934_590));
    assert!(err.to_string().starts_with("bone \"右腕\" key at frame 4294967295"), "{err}");
}

#[test]
fn scaling_translations_moves_no_key_in_time() {
    let motion = far_example();
    let big = scale(&motion, 2.0, true);
    let frames = |m: &Motion| m.bones.iter().map(|k| k.frame).collect::<Vec<_>>();
    assert_eq!(frames(&big), frames(&motion));
    assert_eq!(big.frame_range(), Some((0, u32::MAX)));
}
