//! 首/頭 from the face's rigid frame when a body is solved too (holistic layout): a synthetic
//! clip (`holistic_iris`, the portrait's mesh has irises) whose body points never turn the head while its face (a real MediaPipe face mesh made
//! rigid with 頭) does, so only the face can put the turn on 頭; and a holistic clip without a
//! face, which must retarget bit for bit as the same layout with no face block; and a face
//! tilted on 頭 by a constant 15°, whose tilt the body's 頭 calibrates away.
//! `cargo test -p vmdkit --test it retarget_head -- --nocapture` prints the errors.

use super::common::skeleton::MIKU;
use glam::{DQuat, DVec3, EulerRot, Quat, Vec3};
use serde_json::Value;
use vmdkit::eval::MotionSampler;
use vmdkit::keypoints::{JointLayout, Keypoints, UpAxis};
use vmdkit::model::Model;
use vmdkit::retarget::face::{self, FaceOptions};
use vmdkit::retarget::{keypoints_from_motion, InputAxes, KeypointOptions, RetargetOptions};
use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};
use vmdkit::{BoneKey, KeyName, LongName, Motion};

const PORTRAIT: &str = "tensorflow__tfjs-models__face-landmarks-detection__test_data__portrait.jpg";
/// MediaPipe's image landmarks, as `retarget_face.rs` reads them.
const IMAGE_AXES: InputAxes = InputAxes { up: UpAxis::NegY, left_handed: false };
const AXES: InputAxes = InputAxes { up: UpAxis::Y, left_handed: false };
/// Largest error allowed on 頭's turn, degrees: the thinning's 0.5° and the face's own
/// rest frame (exact here) leave far less.
const TOLERANCE_DEGREES: f64 = 2.0;
const FRAMES: u32 = 30;

fn key(name: &str, frame: u32, rotation: Quat) -> BoneKey {
    let mut k = BoneKey::new(KeyName::encode(name).0, frame);
    k.rotation = rotation;
    k
}

/// 上半身 bends forward (so that 首's parent is turned); with `head`, 首 and 頭 turn too.
fn motion(head: bool) -> Motion {
    let mut m = Motion::new(LongName::encode("test").0);
    let deg = |d: f32| d.to_radians();
    m.bones.push(key("上半身", 0, Quat::IDENTITY));
    m.bones.push(key("上半身", FRAMES, Quat::from_rotation_x(deg(15.0))));
    if head {
        m.bones.push(key("首", 0, Quat::IDENTITY));
        m.bones.push(key("首", FRAMES, Quat::from_rotation_z(deg(8.0))));
        m.bones.push(key("頭", 0, Quat::IDENTITY));
        let turn = Quat::from_euler(EulerRot::YXZ, deg(35.0), deg(-12.0), 0.0);
        m.bones.push(key("頭", FRAMES, turn));
    }
    m
}

/// 頭's model-space rotation and position at every frame of `motion`.
fn head_track(skeleton: &Skeleton, motion: &Motion) -> Vec<(Quat, Vec3)> {
    let head = skeleton.bone_index("頭").unwrap();
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::new(skeleton, &sampler, &binding);
    let mut pose = Pose::new(skeleton);
    (0..=FRAMES)
        .map(|t| {
            poser.pose_at(t, &mut pose);
            (pose.rotation(head), pose.position(head))
        })
        .collect()
}

/// The portrait's face mesh (MMD axes, metres) turned back to rest by its own face frame and
/// centred: a face looking straight at the camera, to be carried rigidly by 頭.
fn rest_face() -> Option<Vec<DVec3>> {
    let path =
        test_corpus::pose_file_or_skip("retarget_head", &format!("handface/{PORTRAIT}.face.json"))?;
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (w, h) = (doc["width"].as_f64().unwrap(), doc["height"].as_f64().unwrap());
    let points: Vec<DVec3> = (doc["faces"][0]["landmarks"].as_array().unwrap().iter())
        .map(|p| {
            let c = |i: usize| p[i].as_f64().unwrap();
            IMAGE_AXES.to_mmd(DVec3::new(c(0) * w, c(1) * h, c(2) * w))
        })
        .collect();
    let kp = face_keypoints(std::slice::from_ref(&points));
    let block = JointLayout::builtin("mediapipe_face").unwrap().face.unwrap();
    let track = face::track(&kp, block, AXES, None);
    let own = track.frames[0].as_ref().unwrap().head.unwrap();
    let centre = points.iter().sum::<DVec3>() / points.len() as f64;
    let width = points.iter().map(|p| p.x).fold(f64::MIN, f64::max)
        - points.iter().map(|p| p.x).fold(f64::MAX, f64::min);
    // About 15 cm across (the clip is in metres).
    let scale = 0.15 / width;
    Some(points.iter().map(|p| own.inverse() * ((*p - centre) * scale)).collect())
}

/// Face-only keypoints of MMD-axes points, in `AXES`.
fn face_keypoints(frames: &[Vec<DVec3>]) -> Keypoints {
    let n = frames[0].len();
    let mut kp = Keypoints::missing(frames.len(), n);
    kp.positions =
        frames.iter().flatten().map(|p| AXES.from_mmd(*p).as_vec3()).collect::<Vec<Vec3>>();
    kp.fps = Some(30.0);
    kp
}

fn options() -> RetargetOptions {
    RetargetOptions { fps: 30.0, axes: AXES, ..RetargetOptions::default() }
}

/// The turn between two rotations, degrees.
fn angle(a: Quat, b: Quat) -> f64 {
    (a.as_dquat().inverse() * b.as_dquat()).normalize().angle_between(DQuat::IDENTITY).to_degrees()
}

/// What the tests with a body share: 初音ミク, the `holistic_iris` layout and its face block,
/// keypoint options in `AXES`, and the rest face.
struct Scene {
    model: Model,
    skeleton: Skeleton,
    layout: JointLayout,
    block: vmdkit::keypoints::FaceBlock,
    kp_options: KeypointOptions,
    rest: Vec<DVec3>,
}

fn scene() -> Option<Scene> {
    test_corpus::corpus_or_skip("retarget_head")?;
    let rest = rest_face()?;
    let model = Model::read_file(test_corpus::corpus_dir().join(MIKU)).unwrap();
    let skeleton = Skeleton::new(&model);
    let layout = JointLayout::builtin("holistic_iris").unwrap();
    let block = layout.face.unwrap();
    let kp_options = KeypointOptions { axes: AXES, ..KeypointOptions::default() };
    Some(Scene { model, skeleton, layout, block, kp_options, rest })
}

#[test]
fn the_face_turns_the_head_of_a_solved_body() {
    let Some(Scene { model, skeleton, layout, block, kp_options, rest }) = scene() else { return };
    // The body's points keep the head still; only the face turns.
    let mut kp = keypoints_from_motion(&motion(false), &skeleton, &layout, &kp_options).unwrap();
    let truth = head_track(&skeleton, &motion(true));
    assert_eq!(kp.frame_count, truth.len());
    put_face(&mut kp, block.first, &rest, &truth, DQuat::IDENTITY);
    let face_options =
        FaceOptions { model_morphs: Some(face::model_morphs(&model)), ..FaceOptions::default() };
    let options = RetargetOptions { face: face_options, ..options() };
    let out = vmdkit::retarget::retarget(&kp, &layout, &skeleton, &options).unwrap();
    let body_only = JointLayout { face: None, ..layout.clone() };
    let body = vmdkit::retarget::retarget(&kp, &body_only, &skeleton, &options).unwrap();
    let error = |m: &Motion| {
        let played = head_track(&skeleton, m);
        (truth.iter().zip(&played)).map(|(a, b)| angle(a.0, b.0)).fold(0.0, f64::max)
    };
    let (with_face, without) = (error(&out.motion), error(&body.motion));
    let report = out.report.face.as_ref().unwrap();
    let count = |m: &Motion, name: &str| {
        let n = KeyName::encode(name).0;
        m.bones.iter().filter(|k| k.name == n).count()
    };
    println!(
        "頭 turn error: face {with_face:.2}°, body alone {without:.2}°; 首/頭 keys {}/{} (body alone {}/{}); head bones {:?}",
        count(&out.motion, "首"),
        count(&out.motion, "頭"),
        count(&body.motion, "首"),
        count(&body.motion, "頭"),
        report.head_bones
    );
    assert!(with_face < TOLERANCE_DEGREES, "頭 off by {with_face:.2}°");
    // The body's points never turned the head: without the face the turn is lost.
    assert!(without > 20.0, "the body alone turned 頭 by {without:.2}°");
    assert_eq!(report.head_bones, ["首", "頭"]);
    // Replaced, not duplicated: one key per frame at most.
    assert!(count(&out.motion, "頭") <= FRAMES as usize + 1);
    // No key twice at one frame.
    let mut frames: Vec<u32> = (out.motion.bones.iter())
        .filter(|k| k.name == KeyName::encode("頭").0)
        .map(|k| k.frame)
        .collect();
    let n = frames.len();
    frames.dedup();
    assert_eq!(frames.len(), n);
    // Read with the wrong handedness, or upside down: the body is put right and the face
    // with it, so the turn still lands on 頭.
    for axes in [
        InputAxes { up: UpAxis::Y, left_handed: true },
        InputAxes { up: UpAxis::NegY, left_handed: false },
    ] {
        let wrong = RetargetOptions { axes, ..options.clone() };
        let out = vmdkit::retarget::retarget(&kp, &layout, &skeleton, &wrong).unwrap();
        let (check, error) = (out.report.handedness, error(&out.motion));
        println!("read as {axes:?}: {check:?}, 頭 turn error {error:.2}°");
        assert_eq!(check.corrected, axes.left_handed);
        assert_eq!(check.turned_upright, axes.up == UpAxis::NegY);
        assert!(error < TOLERANCE_DEGREES, "{axes:?}: 頭 off by {error:.2}°");
    }
}

#[test]
fn a_holistic_clip_without_a_face_keys_the_body_as_before() {
    let Some(_) = test_corpus::corpus_or_skip("retarget_head") else { return };
    let model = Model::read_file(test_corpus::corpus_dir().join(MIKU)).unwrap();
    let skeleton = Skeleton::new(&model);
    let layout = JointLayout::builtin("holistic").unwrap();
    let kp_options = KeypointOptions { axes: AXES, ..KeypointOptions::default() };
    let kp = keypoints_from_motion(&motion(true), &skeleton, &layout, &kp_options).unwrap();
    let block = layout.face.unwrap();
    assert!((0..kp.frame_count).all(|f| kp.frame(f)[block.first].is_nan()), "a face was made");
    let with_block = vmdkit::retarget::retarget(&kp, &layout, &skeleton, &options()).unwrap();
    let body_only = JointLayout { face: None, ..layout.clone() };
    let without = vmdkit::retarget::retarget(&kp, &body_only, &skeleton, &options()).unwrap();
    assert_eq!(with_block.motion, without.motion);
    assert_eq!(with_block.report.face.unwrap().head_bones, Vec::<String>::new());
}

/// `kp` with `rest` carried by 頭 along `truth`, turned by `tilt` within 頭's frame: 10 cm in
/// front of 頭's head (−Z), turning with it.
fn put_face(kp: &mut Keypoints, first: usize, rest: &[DVec3], truth: &[(Quat, Vec3)], tilt: DQuat) {
    let metres = vmdkit::skeleton::METRES_PER_UNIT;
    for (f, (q, p)) in truth.iter().enumerate() {
        let (q, at) = (q.as_dquat() * tilt, p.as_dvec3() * metres);
        for (i, r) in rest.iter().enumerate() {
            let point = at + q * (*r + DVec3::new(0.0, 0.0, -0.1));
            kp.positions[f * kp.joint_count + first + i] = AXES.from_mmd(point).as_vec3();
        }
    }
}

/// A face mesh tilted by a constant 15° within 頭's frame (its landmarks not square to the
/// model's head) on a body whose points turn the head as the face does: calibrated against
/// the body's 頭, the tilt lands on neither 首 nor 頭.
#[test]
fn a_face_tilted_on_its_head_turns_the_head_as_an_untilted_one() {
    let Some(Scene { skeleton, layout, block, kp_options, rest, .. }) = scene() else { return };
    // The body's points turn the head with the face this time: the face's own tilt is the
    // only difference between them.
    let body = keypoints_from_motion(&motion(true), &skeleton, &layout, &kp_options).unwrap();
    let truth = head_track(&skeleton, &motion(true));
    let played = |tilt: DQuat| {
        let mut kp = body.clone();
        put_face(&mut kp, block.first, &rest, &truth, tilt);
        let out = vmdkit::retarget::retarget(&kp, &layout, &skeleton, &options()).unwrap();
        head_track(&skeleton, &out.motion)
    };
    let untilted = played(DQuat::IDENTITY);
    let tilted = played(DQuat::from_rotation_x(15f64.to_radians()));
    let worst = |a: &[(Quat, Vec3)], b: &[(Quat, Vec3)]| {
        (a.iter().zip(b)).map(|(a, b)| angle(a.0, b.0)).fold(0.0, f64::max)
    };
    let (apart, off) = (worst(&tilted, &untilted), worst(&tilted, &truth));
    println!("15° tilted face: 頭 {apart:.2}° from the untilted face's, {off:.2}° from the truth");
    assert!(apart < 1.0, "the tilt moved 頭 by {apart:.2}°");
    assert!(off < 1.0, "頭 off by {off:.2}°");
}
