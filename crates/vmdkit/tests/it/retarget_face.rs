//! The face solver on MediaPipe 0.10.21's own results for real photos and a video
//! (`../shared/pose/handface`, read in place): morph weights against the faces' known states.
//! `cargo test -p vmdkit --test it retarget_face -- --nocapture` prints every weight measured.

use crate::common::faces::{
    json as read_json, keypoints, CALL, IMAGE_AXES, LAUGH, PORTRAIT, TWO_FACES, VIDEO, WOMAN,
};
use glam::Vec3;
use serde_json::Value;
use vmdkit::keypoints::{FaceBlock, FaceMesh, JointLayout, Keypoints, Smoothing};
use vmdkit::model::Model;
use vmdkit::retarget::face::{self, CalibrationSource, FaceOptions, FaceTrack, MorphRole};
use vmdkit::retarget::{retarget, RetargetOptions};
use vmdkit::skeleton::Skeleton;

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const TRACE: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";

const BLOCK: FaceBlock = FaceBlock { mesh: FaceMesh::MediaPipe478, first: 0 };

/// One mesh's landmarks in pixels (NaN for a missing face).
fn pixels(doc: &Value, landmarks: Option<&Value>) -> Vec<Vec3> {
    let (w, h) = (doc["width"].as_f64().unwrap() as f32, doc["height"].as_f64().unwrap() as f32);
    match landmarks.and_then(Value::as_array) {
        Some(points) => (points.iter())
            .map(|p| {
                let c = |i: usize| p[i].as_f64().unwrap() as f32;
                Vec3::new(c(0) * w, c(1) * h, c(2) * w)
            })
            .collect(),
        None => vec![Vec3::NAN; 478],
    }
}

fn json(name: &str) -> Option<Value> {
    read_json("retarget_face", name)
}

/// The `index`-th face of a `.face.json` photo, or the Holistic face of a `.holistic.json`.
fn photo(name: &str, holistic: bool, index: usize) -> Option<FaceTrack> {
    let doc = json(&format!("{name}.{}.json", if holistic { "holistic" } else { "face" }))?;
    let landmarks =
        if holistic { &doc["face_landmarks"] } else { &doc["faces"][index]["landmarks"] };
    let kp = keypoints(vec![pixels(&doc, Some(landmarks))], 30.0);
    Some(face::track(&kp, BLOCK, IMAGE_AXES, None))
}

/// Every role's weight in one frame, for the log.
fn describe(label: &str, track: &FaceTrack, frame: usize) -> String {
    let f = track.frames[frame].as_ref().expect("a face");
    let weights: Vec<String> =
        MorphRole::ALL.iter().map(|r| format!("{} {:.2}", r.name(), f.weight(*r))).collect();
    let gaze = f.gaze.map_or(String::new(), |(y, p)| format!(", gaze {y:.1}° {p:.1}°"));
    format!("{label}: {}{gaze}", weights.join(", "))
}

const VOWELS: [MorphRole; 5] =
    [MorphRole::A, MorphRole::I, MorphRole::U, MorphRole::E, MorphRole::O];
const BLINKS: [MorphRole; 3] = [MorphRole::Blink, MorphRole::BlinkLeft, MorphRole::BlinkRight];

#[test]
fn a_photo_uses_the_population_defaults() {
    let Some(track) = photo(PORTRAIT, false, 0) else { return };
    assert_eq!(track.source, CalibrationSource::Defaults { frames: 1 });
}

#[test]
fn the_smiling_portrait_smiles_with_its_mouth_not_an_open_jaw() {
    let (Some(portrait), Some(neutral)) = (photo(PORTRAIT, false, 0), photo(WOMAN, false, 0))
    else {
        return;
    };
    println!("{}", describe("portrait", &portrait, 0));
    let (p, n) = (portrait.frames[0].as_ref().unwrap(), neutral.frames[0].as_ref().unwrap());
    // MediaPipe's blendshapes: mouthSmile 0.93 / 0.91, jawOpen 0.13, blinks 0.26 / 0.30.
    let smile = p.weight(MorphRole::MouthSmile);
    assert!(smile >= 0.7 && smile > n.weight(MorphRole::MouthSmile) + 0.5, "smile {smile}");
    assert!(p.weight(MorphRole::A) <= 0.2, "あ {}", p.weight(MorphRole::A));
    for role in BLINKS {
        assert!(p.weight(role) < 0.5, "{} {}", role.name(), p.weight(role));
    }
    let eyes_closed = p.weight(MorphRole::Blink) + p.weight(MorphRole::BlinkLeft);
    assert!(eyes_closed < 0.5, "left eye closed {eyes_closed}");
}

/// MediaPipe's own blendshapes for the portrait (`portrait_expected_blendshapes.pbtxt`):
/// browDownLeft/Right 0.79 / 0.81, browInnerUp 0.0003, browOuterUpLeft/Right 0.0005,
/// mouthFunnel 0.008, mouthPucker 0.002: brows lowered, no inner brow raised, lips not rounded.
#[test]
fn the_portraits_brows_and_lips_agree_with_mediapipes_blendshapes() {
    let Some(portrait) = photo(PORTRAIT, false, 0) else { return };
    let p = portrait.frames[0].as_ref().unwrap();
    assert!(p.weight(MorphRole::BrowDown) >= 0.5, "下 {}", p.weight(MorphRole::BrowDown));
    for role in [MorphRole::BrowSad, MorphRole::BrowUp, MorphRole::U, MorphRole::O] {
        assert!(p.weight(role) <= 0.2, "{} {}", role.name(), p.weight(role));
    }
}

#[test]
fn the_laughing_face_has_its_eyes_shut_and_its_mouth_open() {
    let Some(track) = photo(LAUGH, true, 0) else { return };
    println!("{}", describe("laughing", &track, 0));
    let f = track.frames[0].as_ref().unwrap();
    assert!(f.weight(MorphRole::Blink) >= 0.7, "まばたき {}", f.weight(MorphRole::Blink));
    assert!(f.weight(MorphRole::A) >= 0.5, "あ {}", f.weight(MorphRole::A));
}

#[test]
fn neutral_faces_keep_every_vowel_and_blink_low() {
    let cases = [("woman", WOMAN, 0), ("call", CALL, 0), ("boy", TWO_FACES, 0)];
    for (label, name, index) in cases {
        let Some(track) = photo(name, false, index) else { return };
        println!("{}", describe(label, &track, 0));
        let f = track.frames[0].as_ref().unwrap();
        for role in VOWELS.iter().chain(&BLINKS) {
            assert!(f.weight(*role) <= 0.2, "{label}: {} {}", role.name(), f.weight(*role));
        }
        // Resting brows differ between people, and photos have no clip to calibrate on: only
        // the inner brows' rise (困る), which a resting face never makes, is held low.
        assert!(
            f.weight(MorphRole::BrowSad) <= 0.2,
            "{label}: 困る {}",
            f.weight(MorphRole::BrowSad)
        );
    }
}

/// The video at 30 fps, smoothed as the retargeting conditions keypoints.
fn video() -> Option<(Keypoints, FaceTrack)> {
    let doc = json(&format!("{VIDEO}.face.json"))?;
    let frames: Vec<Vec<Vec3>> = (doc["frames"].as_array().unwrap().iter())
        .map(|f| pixels(&doc, f.get(0).map(|face| &face["landmarks"])))
        .collect();
    assert_eq!(frames.len(), 195);
    let fps = doc["fps"].as_f64().unwrap();
    let mut kp = keypoints(frames, fps);
    vmdkit::keypoints::smooth(&mut kp, fps, Smoothing::Normal);
    let kp = vmdkit::keypoints::resample(&kp, fps, 30.0).unwrap();
    let track = face::track(&kp, BLOCK, IMAGE_AXES, None);
    Some((kp, track))
}

/// The bound on a closed mouth's vowels, and on an open eye's blink, through a whole clip.
const CLIP_BOUND: f64 = 0.2;

#[test]
fn the_video_never_blinks_and_keeps_its_mouth_closed() {
    let Some((_, track)) = video() else { return };
    println!("video: {:?}, neutral {:?}", track.source, track.neutral);
    assert!(matches!(track.source, CalibrationSource::Clip { frames } if frames > 200));
    for role in VOWELS.iter().chain(&BLINKS) {
        let max = (track.frames.iter().flatten()).map(|f| f.weight(*role)).fold(0.0, f64::max);
        println!("video: largest {} {max:.3}", role.name());
        assert!(max <= CLIP_BOUND, "{} reaches {max}", role.name());
    }
}

#[test]
fn the_video_keys_miku_and_reports_the_morphs_she_lacks() {
    let Some((_, track)) = video() else { return };
    let Some(_) = test_corpus::corpus_or_skip("retarget_face") else { return };
    let model = Model::read_file(test_corpus::corpus_dir().join(MIKU)).unwrap();
    let skeleton = Skeleton::new(&model);
    let options =
        FaceOptions { model_morphs: Some(face::model_morphs(&model)), ..FaceOptions::default() };
    let keys = face::keys(&track, &skeleton, &options, true);
    let r = &keys.report;
    println!(
        "video on Miku: {} morph keys ({} dense), {} bone keys, gaze {:?}, head {:?}, missing {:?}",
        r.morph_keys,
        r.dense_morph_keys,
        r.bone_keys,
        r.gaze_bones,
        r.head_bones,
        r.missing.iter().map(|m| m.role.name()).collect::<Vec<_>>()
    );
    let missing: Vec<&str> = r.missing.iter().map(|m| m.role.name()).collect();
    // 初音ミク.pmx has あいうお, まばたき, ウィンク, 笑い, 上/下/困る/怒り and にやり, but no え
    // and no ウィンク右.
    assert_eq!(missing, ["blink_right", "e"]);
    assert!(r.missing[1].looked_for.iter().any(|n| n == "え"));
    let driven: Vec<&str> = r.morphs.iter().map(|d| d.morph.as_str()).collect();
    assert!(driven.contains(&"まばたき") && driven.contains(&"にやり"), "{driven:?}");
    assert_eq!(r.frames_with_face, r.frames);
    assert!(r.morph_keys < r.dense_morph_keys / 4, "thinning kept {}", r.morph_keys);
    assert_eq!(r.gaze_bones, ["両目"]);
    assert_eq!(r.head_bones, ["首", "頭"]);
}

#[test]
fn a_model_without_morphs_reports_every_role_missing() {
    let Some(track) = photo(PORTRAIT, false, 0) else { return };
    let Some(_) = test_corpus::corpus_or_skip("retarget_face") else { return };
    let model = Model::read_file(test_corpus::corpus_dir().join(TRACE)).unwrap();
    let options =
        FaceOptions { model_morphs: Some(face::model_morphs(&model)), ..FaceOptions::default() };
    let keys = face::keys(&track, &Skeleton::new(&model), &options, false);
    assert!(keys.morphs.is_empty());
    assert_eq!(keys.report.missing.len(), MorphRole::ALL.len());
    assert_eq!(keys.report.missing[0].looked_for[0], "まばたき");
}

#[test]
fn the_laughing_head_tilts_down() {
    let Some(track) = photo(LAUGH, true, 0) else { return };
    let head = track.frames[0].as_ref().unwrap().head.expect("a head turn");
    // The model looks along −Z; the laughing man looks down at his phone.
    let facing = head * glam::DVec3::NEG_Z;
    println!("laughing: the face looks along {facing:.2}");
    assert!(facing.y < -0.2, "{facing}");
}

/// MediaPipe's face mesh with irises, alone, as the built-in layout has it.
fn face_layout() -> JointLayout {
    let layout = JointLayout::builtin("mediapipe_face_iris").unwrap();
    assert_eq!(layout.face, Some(BLOCK));
    layout
}

#[test]
fn a_face_alone_retargets_onto_the_face_and_leaves_the_body_at_rest() {
    let Some(doc) = json(&format!("{VIDEO}.face.json")) else { return };
    let Some(_) = test_corpus::corpus_or_skip("retarget_face") else { return };
    let frames: Vec<Vec<Vec3>> = (doc["frames"].as_array().unwrap().iter())
        .map(|f| pixels(&doc, f.get(0).map(|face| &face["landmarks"])))
        .collect();
    let kp = keypoints(frames, 25.0);
    let model = Model::read_file(test_corpus::corpus_dir().join(MIKU)).unwrap();
    let mut options = RetargetOptions { fps: 25.0, axes: IMAGE_AXES, ..RetargetOptions::default() };
    options.face.model_morphs = Some(face::model_morphs(&model));
    let out = retarget(&kp, &face_layout(), &Skeleton::new(&model), &options).unwrap();
    let face = out.report.face.as_ref().expect("a face report");
    assert_eq!(face.frames, 233);
    assert_eq!(face.frames_with_face, 233);
    let mut bones: Vec<String> = (out.motion.bones.iter())
        .map(|k| k.name.decode(vmdkit::TextEncoding::ShiftJis).text.into_owned())
        .collect();
    bones.sort();
    bones.dedup();
    assert_eq!(bones, ["両目", "頭", "首"]);
    assert_eq!(out.motion.morphs.len(), face.morph_keys);
    // The head stays within a natural turn of the camera.
    for k in &out.motion.bones {
        let angle = k.rotation.angle_between(glam::Quat::IDENTITY).to_degrees();
        assert!(angle < 30.0, "{angle}° at {}", k.frame);
    }
    println!(
        "video face-only: {} morph keys, {} bone keys, calibration {:?}",
        face.morph_keys, face.bone_keys, face.calibration
    );
}
