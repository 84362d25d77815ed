//! Frame numbers far beyond the rest: the lint warns of them (and of nothing in the corpus but
//! a genuinely damaged file), and the dense outputs they would blow up (bakes, keypoints) are
//! refused before anything of their size is allocated.

use test_corpus::alloc::largest_allocation;
use vmdkit::bake::{bake, bake_sampler, bake_size, bake_world, BakeError, BakeSettings};
use vmdkit::eval::MotionSampler;
use vmdkit::keypoints::JointLayout;
use vmdkit::limit::{DenseOutput, DEFAULT_MAX_OUTPUT_BYTES};
use vmdkit::lint::{lint, WarningKind};
use vmdkit::retarget::{keypoints_from_motion, KeypointOptions, RetargetError};
use vmdkit::skeleton::{Binding, Skeleton};
use vmdkit::{BoneKey, Motion, ReadOptions, Section};

/// Allocations a refused output may make: messages and small tables, nothing span-sized.
const SMALL: usize = 64 << 10;

const GREET: &str =
    "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Motion__mei_greeting__mei_greeting.vmd";

/// The one corpus file with a far frame: a damaged file whose lenient reading recovers a light
/// record with frame 0xFFFFFFFF (its self-shadow count is 0xFFFFFFFF too).
const DAMAGED_FAR: &str = "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Expression__mei_happiness__mei_happiness.vmd";

/// The built-in example (frames 0 to 60) with one more bone key at the largest frame.
fn far_example() -> Motion {
    let mut motion = vmdkit::example::example_motion();
    motion.bones.push(BoneKey { frame: u32::MAX, ..motion.bones[0] });
    motion
}

fn far_warnings(motion: &Motion) -> Vec<vmdkit::lint::Warning> {
    lint(motion, &[]).into_iter().filter(|w| w.kind == WarningKind::FarFrames).collect()
}

#[test]
fn a_key_at_the_last_frame_is_refused_by_every_dense_output_without_allocating_it() {
    let motion = far_example();
    let sampler = MotionSampler::new(&motion);
    let (baked, largest) = largest_allocation(|| {
        bake_sampler(&sampler, motion.header, 30.0, DEFAULT_MAX_OUTPUT_BYTES)
    });
    let Err(BakeError::TooLarge(e)) = baked else { panic!("{baked:?}") };
    assert!(largest < SMALL, "{largest} bytes allocated");
    assert_eq!((e.size.output, e.size.first, e.size.last), (DenseOutput::Keys, 0, u32::MAX));
    assert_eq!(e.size.frames, 1 << 32);
    assert!(e.size.bytes > (1 << 32) * 111, "{:?}", e.size);
    let message = e.to_string();
    assert!(
        message.starts_with("a bake of frames 0..4,294,967,295 at 30 fps would be 4,294,967,296")
            && message.contains("over the limit of 4,294,967,296 bytes (4 GiB)"),
        "{message}"
    );

    let skeleton = Skeleton::new(&vmdkit::example::standard_model());
    let binding = Binding::new(&skeleton, &sampler);
    let settings = BakeSettings::default();
    let (world, largest) =
        largest_allocation(|| bake_world(&skeleton, &sampler, &binding, &settings, |_, _| {}));
    let Err(BakeError::TooLarge(e)) = world else { panic!("a world bake of 2^32 samples") };
    assert!(largest < SMALL, "{largest} bytes allocated");
    assert_eq!((e.size.output, e.size.frames), (DenseOutput::Bones, 1 << 32));
    assert_eq!(e.size.count, skeleton.bone_count() as u64);

    let layout = JointLayout::builtin("h36m").unwrap();
    let (keypoints, largest) = largest_allocation(|| {
        keypoints_from_motion(&motion, &skeleton, &layout, &KeypointOptions::default())
    });
    let Err(RetargetError::TooLarge(e)) = keypoints else { panic!("keypoints of 2^32 frames") };
    assert!(largest < SMALL, "{largest} bytes allocated");
    assert_eq!((e.size.output, e.size.count), (DenseOutput::Joints, 17));

    let warnings = far_warnings(&motion);
    assert_eq!(warnings.len(), 1);
    assert_eq!((warnings[0].section, warnings[0].count), (Some(Section::Bone), 1));
    assert!(warnings[0].message.contains("at frame 4,294,967,295"), "{}", warnings[0]);
}

#[test]
fn a_bake_past_a_sections_u32_count_is_refused_under_any_limit() {
    // Two bone tracks from frame 0 to the last: 2^33 keys, which no count field holds.
    let mut motion = far_example();
    let other = motion.bones.iter().find(|k| k.name != motion.bones[0].name).copied().unwrap();
    motion.bones.push(BoneKey { frame: u32::MAX, ..other });
    let sampler = MotionSampler::new(&motion);
    let (baked, largest) =
        largest_allocation(|| bake_sampler(&sampler, motion.header, 30.0, u64::MAX));
    let Err(BakeError::TooManyKeys { section, keys, .. }) = baked else { panic!("{baked:?}") };
    assert_eq!((section, keys), (Section::Bone, 1 << 33));
    assert!(largest < SMALL, "{largest} bytes allocated");
}

#[test]
fn the_bake_size_is_exact_and_the_limit_inclusive() {
    let motion = vmdkit::example::example_motion();
    let sampler = MotionSampler::new(&motion);
    for fps in [30.0, 60.0, 24.0] {
        let size = bake_size(&sampler, fps).unwrap();
        let baked = bake_sampler(&sampler, motion.header, fps, size.bytes).unwrap();
        let keys =
            baked.bones.len() + baked.morphs.len() + baked.cameras.len() + baked.lights.len();
        assert_eq!(size.count, (keys + baked.shadows.len()) as u64, "{fps}");
        let records = 111 * baked.bones.len()
            + 23 * baked.morphs.len()
            + 61 * baked.cameras.len()
            + 28 * baked.lights.len()
            + 9 * baked.shadows.len();
        assert_eq!(size.bytes, records as u64, "{fps}");
        assert_eq!((size.first, size.last), (0, 60));
        let refused = bake_sampler(&sampler, motion.header, fps, size.bytes - 1);
        assert!(matches!(refused, Err(BakeError::TooLarge(_))), "{fps}");
    }
    assert_eq!(bake_size(&MotionSampler::new(&Motion::default()), 30.0).unwrap().bytes, 0);
    // A far key raises the limit's count only for its own track's span.
    let mut far = motion.clone();
    far.morphs.iter_mut().for_each(|k| k.frame += 1_000_000);
    let size = bake_size(&MotionSampler::new(&far), 30.0).unwrap();
    assert_eq!((size.first, size.last), (0, 1_000_026));
    assert!(size.bytes < 20_000, "{size:?}");
}

#[test]
fn greet_with_one_flipped_frame_byte_is_warned_of_and_refused() {
    let Some(manifest) = test_corpus::corpus_or_skip("greet with a flipped frame byte") else {
        return;
    };
    let mut motion = Motion::read_file(manifest.dir.join(GREET)).unwrap();
    assert!(far_warnings(&motion).is_empty());
    assert!(bake(&motion, 30.0).is_ok());
    // Frame 57 (0x39) with its high byte flipped to 0xD5: 0xD5000039.
    let key = motion.bones.iter_mut().find(|k| k.frame == 57).expect("a bone key at frame 57");
    key.frame = 3_573_547_065;

    let warnings = far_warnings(&motion);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!((warnings[0].section, warnings[0].count), (Some(Section::Bone), 1));
    let message = &warnings[0].message;
    assert!(
        message.starts_with("1 bone key is at frame 3,573,547,065, far beyond the rest of the")
            && message.contains("which ends at frame 60"),
        "{message}"
    );
    let (baked, largest) = largest_allocation(|| bake(&motion, 30.0));
    let Err(BakeError::TooLarge(e)) = baked else { panic!("{baked:?}") };
    assert!(largest < 16 << 20, "{largest} bytes allocated");
    assert_eq!((e.size.first, e.size.last), (0, 3_573_547_065));
}

#[test]
fn no_corpus_motion_has_far_frames_but_one_damaged_file() {
    let Some(manifest) = test_corpus::corpus_or_skip("far frames over the corpus") else {
        return;
    };
    let mut warned = Vec::new();
    let mut checked = 0;
    for entry in manifest.of_kind("vmd") {
        let Ok(parsed) = Motion::parse_with(&entry.bytes(), ReadOptions::LENIENT) else {
            continue;
        };
        checked += 1;
        if !far_warnings(&parsed.motion).is_empty() {
            warned.push(entry.local_path.clone());
        }
        if entry.parse_ok() {
            assert!(bake_size(&MotionSampler::new(&parsed.motion), 60.0).is_ok());
        }
    }
    assert!(checked >= 100, "only {checked} corpus VMDs were read");
    assert_eq!(warned, [DAMAGED_FAR], "{checked} files read");
}
