//! Edits cost in proportion to the keys, not the frame span: a key at frame 4,294,967,295, or a
//! frame number damaged by one flipped byte, must not make reduction, retiming or measuring
//! sample billions of frames or allocate gigabytes. The long gap is kept exactly instead.

use crate::common::alone::run_alone;
use test_corpus::alloc::largest_in_process;
use vmdkit::edit::{measure, reduce, retime, EditError, ReduceOptions, Tolerance, LONG_SEGMENT};
use vmdkit::{BoneKey, MorphKey, Motion};

/// Runs `f`, failing if any single allocation exceeds 64 MiB.
fn bounded<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let (out, largest) = largest_in_process(f);
    assert!(largest < 64 << 20, "{what}: an allocation of {largest} bytes");
    out
}

/// The built-in example with one more key of an existing bone and morph far away.
fn example_with_far_keys(frame: u32) -> Motion {
    let mut motion = vmdkit::example::example_motion();
    let mut bone = motion.bones[0];
    bone.frame = frame;
    bone.translation.x += 1.0;
    motion.bones.push(bone);
    if let Some(morph) = motion.morphs.first() {
        motion.morphs.push(MorphKey { frame: frame - 4, weight: 0.25, ..*morph });
    }
    motion
}

fn far_key(motion: &Motion, frame: u32) -> &BoneKey {
    motion.bones.iter().find(|k| k.frame == frame).expect("the far key is kept")
}

#[test]
fn reduce_keeps_a_key_at_the_last_frame_number_exactly_and_cheaply() {
    if !run_alone(module_path!(), "reduce_keeps_a_key_at_the_last_frame_number_exactly_and_cheaply")
    {
        return;
    }
    let motion = example_with_far_keys(u32::MAX);
    let dense = vmdkit::bake::bake(&vmdkit::example::example_motion(), 30.0).unwrap();
    // The dense part reduces as before; the far key comes along unchanged.
    let mut input = dense.clone();
    input.bones.push(*motion.bones.last().unwrap());
    input.morphs.extend(motion.morphs.last().cloned());
    let options = ReduceOptions { threads: 1, ..ReduceOptions::default() };
    let (out, report) = bounded("reduce", || reduce(&input, &options));
    assert!(report.errors.within(&options.tolerance), "{report:?}");
    assert_eq!(report.errors.sampled_gaps, 0, "the long gap is the input's, kept exactly");
    assert_eq!(far_key(&out, u32::MAX), input.bones.last().unwrap());
    assert!(report.after.total() < report.before.total(), "{report:?}");
    // Measuring the other way round, and against a motion that differs in the gap.
    let again = bounded("measure", || measure(&out, &input));
    assert_eq!(again.sampled_gaps, 0);
    let mut moved = out.clone();
    moved.bones.iter_mut().find(|k| k.frame == u32::MAX).unwrap().translation.x += 2.0;
    let e = bounded("measure a different gap", || measure(&input, &moved));
    assert!(e.sampled_gaps >= 1, "{e:?}");
    assert!(e.position > 1.0, "the difference is seen at the sampled frames: {e:?}");
}

#[test]
fn retime_carries_a_long_segment_and_refuses_to_overflow() {
    if !run_alone(module_path!(), "retime_carries_a_long_segment_and_refuses_to_overflow") {
        return;
    }
    let motion = example_with_far_keys(u32::MAX - 1);
    let tol = Tolerance::default();
    let (half, report) = bounded("retime 0.5", || retime(&motion, 0.5, &tol)).unwrap();
    assert!(report.errors.within(&tol), "{report:?}");
    assert_eq!(report.errors.sampled_gaps, 0, "{report:?}");
    let far = far_key(&half, (u32::MAX - 1) / 2);
    let source = motion.bones.last().unwrap();
    assert_eq!((far.translation, far.interpolation), (source.translation, source.interpolation));
    // The far key adds one key, and the long segment no samples.
    let (plain, _) = retime(&vmdkit::example::example_motion(), 0.5, &tol).unwrap();
    assert_eq!(half.bones.len(), plain.bones.len() + 1);

    let err = bounded("retime 2", || retime(&motion, 2.0, &tol)).unwrap_err();
    assert!(matches!(err, EditError::FrameOverflow { .. }), "{err}");
}

/// A segment just over the limit is a long one; the reduction of the rest is unchanged.
#[test]
fn a_gap_just_over_the_limit_is_kept_and_one_at_it_is_fitted() {
    for gap in [LONG_SEGMENT, LONG_SEGMENT + 1] {
        let mut motion = vmdkit::bake::bake(&vmdkit::example::example_motion(), 30.0).unwrap();
        let last = motion.bones.iter().map(|k| k.frame).max().unwrap();
        let extra: Vec<BoneKey> = motion
            .bones
            .iter()
            .filter(|k| k.frame == last)
            .map(|k| BoneKey { frame: last + gap, ..*k })
            .collect();
        motion.bones.extend(extra);
        let options = ReduceOptions { threads: 1, ..ReduceOptions::default() };
        let (out, report) = reduce(&motion, &options);
        assert!(report.errors.within(&options.tolerance), "gap {gap}: {report:?}");
        assert_eq!(report.errors.sampled_gaps, 0, "gap {gap}");
        assert!(out.bones.iter().any(|k| k.frame == last + gap));
    }
}

/// The damaged file of the issue: the mei_greeting motion with one frame byte flipped, so
/// that its last key is at frame 3,573,547,065. Reducing it took 24 GB and was killed.
#[test]
fn reduce_a_motion_with_one_damaged_frame_number() {
    if !run_alone(module_path!(), "reduce_a_motion_with_one_damaged_frame_number") {
        return;
    }
    let Some(manifest) = test_corpus::corpus_or_skip("damaged frame number") else { return };
    let entry = manifest
        .of_kind("vmd")
        .find(|e| e.local_path.ends_with("mei_greeting__mei_greeting.vmd"))
        .expect("the corpus has mei_greeting.vmd");
    let mut motion = Motion::parse(&entry.bytes()).unwrap();
    let last = motion.bones.iter().map(|k| k.frame).max().unwrap();
    let key = motion.bones.iter_mut().find(|k| k.frame == last).unwrap();
    key.frame = 3_573_547_065;
    let options = ReduceOptions { threads: 1, ..ReduceOptions::default() };
    let (out, report) = bounded("reduce greeting", || reduce(&motion, &options));
    assert!(report.errors.within(&options.tolerance), "{report:?}");
    assert_eq!(report.errors.sampled_gaps, 0);
    assert!(out.bones.iter().any(|k| k.frame == 3_573_547_065));
    let (_, report) =
        bounded("retime greeting", || retime(&motion, 1.0 / 1.3, &Tolerance::default())).unwrap();
    assert!(report.errors.within(&Tolerance::default()), "{report:?}");
}
