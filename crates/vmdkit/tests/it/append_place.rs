//! `edit::append` and `edit::place` on corpus motions: each part of an appended motion plays as
//! it did alone, camera seams are cuts, and a moved and turned motion poses as the original
//! under the same rigid transform.

use glam::{Quat, Vec3};
use vmdkit::edit::{append, place, EditError, PlaceRoot, RigidTransform};
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};
use vmdkit::{KeyName, Motion};

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const WAVE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const GREET: &str =
    "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Motion__mei_greeting__mei_greeting.vmd";
const MIKU_TEST: &str = "MMD-Blender__blender_mmd_tools/samples__vmd__test.vmd";

fn read(dir: &std::path::Path, name: &str) -> Motion {
    Motion::read_file(dir.join(name)).unwrap()
}

/// Asserts that `joined` from `offset` plays `part` (every bone and morph track of `part`, and
/// every track of `joined` missing from `part` at rest) over `part`'s frames `frames`.
fn plays_as(
    joined: &MotionSampler,
    part: &MotionSampler,
    offset: u32,
    frames: std::ops::RangeInclusive<u32>,
    what: &str,
) {
    for track in joined.bone_tracks() {
        let own = part.bone_track(track.name().bytes());
        for f in frames.clone() {
            let got = track.sample(f + offset);
            let want = own.map(|t| t.sample(f)).unwrap_or_default();
            assert!(
                (got.translation - want.translation).length() < 1e-5
                    && got.rotation.dot(want.rotation).abs() > 1.0 - 1e-6,
                "{what}: bone {} at frame {f}: {got:?} != {want:?}",
                track.name().to_string_lossy()
            );
        }
    }
    for track in joined.morph_tracks() {
        let own = part.morph_track(track.name().bytes());
        for f in frames.clone() {
            let want = own.map_or(0.0, |t| t.sample(f));
            assert_eq!(track.sample(f + offset), want, "{what}: morph at frame {f}");
        }
    }
}

#[test]
fn appended_corpus_motions_each_play_as_alone() {
    let Some(manifest) = test_corpus::corpus_or_skip("appended_corpus_motions_each_play_as_alone")
    else {
        return;
    };
    let (a, b) = (read(&manifest.dir, GREET), read(&manifest.dir, MIKU_TEST));
    let last = a.frame_range().unwrap().1;
    for gap in [0, 12] {
        let (joined, report) = append(&[a.clone(), b.clone()], gap).unwrap();
        let start = last + 1 + gap;
        assert_eq!(report.starts, vec![0, start]);
        assert_eq!(report.model_name, "メイ");
        assert!(!report.other_model_names.is_empty(), "{report:?}");
        let j = MotionSampler::new(&joined);
        plays_as(&j, &MotionSampler::new(&a), 0, 0..=last, "A");
        let b_last = b.frame_range().unwrap().1;
        plays_as(&j, &MotionSampler::new(&b), start, 0..=b_last + 3, "B");
        // Every key of B is there, moved, curves included.
        for key in &b.bones {
            assert!(joined.bones.contains(&vmdkit::BoneKey { frame: key.frame + start, ..*key }));
        }
    }
}

#[test]
fn a_camera_seam_is_a_cut_and_every_section_moves() {
    let a = vmdkit::example::example_motion();
    let mut b = a.clone();
    b.cameras[0].target = Vec3::new(5.0, 5.0, 5.0);
    let last = a.frame_range().unwrap().1;
    let (joined, report) = append(&[a.clone(), b.clone()], 30).unwrap();
    let start = last + 31;
    assert_eq!(report.camera_cuts, 1);
    let s = MotionSampler::new(&joined);
    let camera = s.camera_track().unwrap();
    let a_last = a.cameras.iter().map(|k| k.frame).max().unwrap();
    let a_end = MotionSampler::new(&a).camera_track().unwrap().sample(a_last);
    // Held through the gap, then B's first shot without a glide.
    for f in a_last..start {
        assert_eq!(camera.sample(f).target, a_end.target, "frame {f}");
    }
    assert_eq!(camera.sample(start).target, Vec3::new(5.0, 5.0, 5.0));
    for (section, n) in [
        ("light", joined.lights.iter().filter(|k| k.frame >= start).count()),
        ("shadow", joined.shadows.iter().filter(|k| k.frame >= start).count()),
        ("property", joined.properties.iter().filter(|k| k.frame >= start).count()),
    ] {
        assert!(n >= 1, "{section} not moved");
    }
    // Frames past the last VMD frame number are an error, as for shift.
    let mut far = a.clone();
    far.bones[0].frame = u32::MAX - 10;
    let err = append(&[far, a], 0).unwrap_err();
    assert!(matches!(err, EditError::ShiftBeyondLastFrame { .. }), "{err:?}");
}

/// Poses `motion` on `skeleton` at `frame`.
fn pose(skeleton: &Skeleton, motion: &Motion, frame: u32) -> Pose {
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::new(skeleton, &sampler, &binding);
    let mut pose = Pose::new(skeleton);
    poser.pose_at(frame, &mut pose);
    pose
}

#[test]
fn a_placed_dance_poses_as_the_original_moved_and_turned() {
    let Some(manifest) =
        test_corpus::corpus_or_skip("a_placed_dance_poses_as_the_original_moved_and_turned")
    else {
        return;
    };
    let model = Model::read_file(manifest.dir.join(MIKU)).unwrap();
    let skeleton = Skeleton::new(&model);
    let motion = read(&manifest.dir, WAVE);
    // MIKU has no 全ての親: every root bone (センター, the leg IKs, ...) is moved.
    let roots: Vec<PlaceRoot> = (0..skeleton.bone_count())
        .filter(|&b| skeleton.parent(b).is_none())
        .map(|b| PlaceRoot { name: *skeleton.bone_key_name(b), rest: skeleton.rest_position(b) })
        .collect();
    assert!(roots.len() > 2);
    let transform = RigidTransform::from_degrees(90.0, 0.0, 0.0, Vec3::new(3.0, 0.0, -4.0));
    let (placed, report) = place(&motion, &roots, transform, false).unwrap();
    assert!(report.bone_keys > 0, "{report:?}");
    for frame in [0, 100, 777, 1500, 2800] {
        let (before, after) = (pose(&skeleton, &motion, frame), pose(&skeleton, &placed, frame));
        for b in 0..skeleton.bone_count() {
            let want = transform.rotation * before.position(b) + transform.offset;
            let d = want.distance(after.position(b));
            assert!(d < 1e-4, "frame {frame} {}: off by {d}", skeleton.bone_name(b));
        }
    }
}

#[test]
fn a_turned_camera_sees_the_turned_model_as_before() {
    let motion = vmdkit::example::example_motion();
    let transform = RigidTransform::from_degrees(30.0, 0.0, 0.0, Vec3::new(1.0, 2.0, 3.0));
    let root = PlaceRoot { name: KeyName::encode("全ての親").0, rest: Vec3::ZERO };
    let (placed, report) = place(&motion, &[root], transform, true).unwrap();
    assert_eq!((report.added_keys, report.camera_keys), (1, motion.cameras.len()));
    let (a, b) = (MotionSampler::new(&motion), MotionSampler::new(&placed));
    let p = Vec3::new(0.5, 12.0, -1.0);
    for f in 0..=60 {
        let (ca, cb) = (a.camera_track().unwrap().sample(f), b.camera_track().unwrap().sample(f));
        let seen = ca.rotation_matrix().transpose() * (p - ca.target);
        let moved = transform.rotation * p + transform.offset;
        let seen_after = cb.rotation_matrix().transpose() * (moved - cb.target);
        assert!(seen.distance(seen_after) < 1e-4, "frame {f}: {seen} vs {seen_after}");
    }
    let tilt = RigidTransform::from_degrees(0.0, 10.0, 0.0, Vec3::ZERO);
    assert_eq!(place(&motion, &[root], tilt, true).unwrap_err(), EditError::CameraTilt);
    // Without a turn, a move keeps every curve byte.
    let shift = RigidTransform { rotation: Quat::IDENTITY, offset: Vec3::X };
    let (moved, _) = place(&motion, &[root], shift, false).unwrap();
    for (k, m) in motion.bones.iter().zip(&moved.bones) {
        assert_eq!(k.interpolation, m.interpolation);
    }
}

#[test]
fn ik_switches_do_not_leak_across_a_seam() {
    let dance = vmdkit::example::example_motion();
    let ik = |on: u8| vmdkit::IkState {
        name: vmdkit::LongName::encode("左足ＩＫ").0,
        enabled_byte: on,
    };
    let mut off = dance.clone();
    off.properties = vec![vmdkit::PropertyKey { frame: 0, visible_byte: 1, ik: vec![ik(0)] }];
    let mut plain = dance.clone();
    plain.properties.clear();
    let start = dance.frame_range().unwrap().1 + 1;
    let state = |m: &Motion, frame: u32| {
        let s = MotionSampler::new(m);
        s.ik_track_named("左足ＩＫ", m.detect_encoding()).map(|t| t.sample(frame))
    };
    // A switches IK off; B, with no property keys, plays with IK on, as alone.
    let (joined, _) = append(&[off.clone(), plain.clone()], 0).unwrap();
    assert_eq!(state(&joined, start - 1), Some(false));
    assert_eq!(state(&joined, start), Some(true));
    // Only B switches: A keeps the default (on) until B starts.
    let (joined, _) = append(&[plain, off], 0).unwrap();
    assert_eq!(state(&joined, 0), Some(true));
    assert_eq!(state(&joined, start - 1), Some(true));
    assert_eq!(state(&joined, start), Some(false));
}
