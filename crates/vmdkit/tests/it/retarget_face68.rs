//! The face solver on iBUG's 68 points (COCO-WholeBody's face) from real faces: no estimator
//! output of that layout is in `../shared`, so MediaPipe 0.10.21's meshes of the handface photos
//! and video are brought to the 68 points by a published correspondence, and the same bars as the
//! 478-point tests (`retarget_face`) apply. What this checks is the 68-point path itself: its
//! point table, its face frame (nose bridge and jaw ends instead of forehead and cheeks) and its
//! lack of irises, on faces whose states are known.
//! `cargo test -p vmdkit --test it retarget_face68 -- --nocapture` prints every weight.

use crate::common::faces::{
    json as read_json, keypoints, CALL, IMAGE_AXES, LAUGH, PORTRAIT, TWO_FACES, VIDEO, WOMAN,
};
use glam::Vec3;
use serde_json::Value;
use vmdkit::keypoints::{FaceBlock, FaceMesh, Smoothing};
use vmdkit::retarget::face::{self, CalibrationSource, FaceTrack, MorphRole};

const BLOCK: FaceBlock = FaceBlock { mesh: FaceMesh::Ibug68, first: 0 };

/// Each iBUG point (0-based, the subject's right first) as the mean of these MediaPipe mesh
/// points: the correspondence of PeizhiYan's Mediapipe_2_Dlib_Landmarks for the jaw, brows and
/// nose; for the eyes and lips the mesh's own eye-contour and lip-contour points
/// (`FACEMESH_LEFT_EYE`, `FACEMESH_LIPS`) at the six-point eye and the lip corners and centres.
const IBUG_FROM_MESH: [&[usize]; 68] = [
    // Jaw 0–16, chin 8.
    &[127],
    &[234],
    &[93],
    &[132, 58],
    &[58, 172],
    &[136],
    &[150],
    &[176],
    &[152],
    &[400],
    &[379],
    &[365],
    &[397, 288],
    &[361],
    &[323],
    &[454],
    &[356],
    // Brows 17–21 (right, outer to inner), 22–26 (left, inner to outer).
    &[70],
    &[63],
    &[105],
    &[66],
    &[107],
    &[336],
    &[296],
    &[334],
    &[293],
    &[300],
    // Nose bridge 27–30, nostrils 31–35.
    &[168, 6],
    &[197, 195],
    &[5],
    &[4],
    &[75],
    &[97],
    &[2],
    &[326],
    &[305],
    // Right eye 36–41: outer corner, upper lid, inner corner, lower lid.
    &[33],
    &[160],
    &[158],
    &[133],
    &[153],
    &[144],
    // Left eye 42–47: inner corner, upper lid, outer corner, lower lid.
    &[362],
    &[385],
    &[387],
    &[263],
    &[373],
    &[380],
    // Outer lips 48–59 from the right corner over the upper lip and back.
    &[61],
    &[39],
    &[37],
    &[0],
    &[267],
    &[269],
    &[291],
    &[405],
    &[314],
    &[17],
    &[84],
    &[181],
    // Inner lips 60–67.
    &[78],
    &[82],
    &[13],
    &[312],
    &[308],
    &[317],
    &[14],
    &[87],
];

/// One mesh in pixels (aspect kept, as MediaPipe's z is on the width's scale) brought to the 68
/// points; all NaN for a frame without a face.
fn ibug68(doc: &Value, landmarks: Option<&Value>) -> Vec<Vec3> {
    let (w, h) = (doc["width"].as_f64().unwrap() as f32, doc["height"].as_f64().unwrap() as f32);
    let Some(points) = landmarks.and_then(Value::as_array) else { return vec![Vec3::NAN; 68] };
    let at = |i: usize| {
        let c = |k: usize| points[i][k].as_f64().unwrap() as f32;
        Vec3::new(c(0) * w, c(1) * h, c(2) * w)
    };
    (IBUG_FROM_MESH.iter())
        .map(|from| from.iter().map(|&i| at(i)).sum::<Vec3>() / from.len() as f32)
        .collect()
}

fn json(name: &str) -> Option<Value> {
    read_json("retarget_face68", name)
}

/// The first face of a photo's `.face.json`, or its Holistic face.
fn photo(name: &str, holistic: bool) -> Option<FaceTrack> {
    let doc = json(&format!("{name}.{}.json", if holistic { "holistic" } else { "face" }))?;
    let landmarks = if holistic { &doc["face_landmarks"] } else { &doc["faces"][0]["landmarks"] };
    let kp = keypoints(vec![ibug68(&doc, Some(landmarks))], 30.0);
    Some(face::track(&kp, BLOCK, IMAGE_AXES, None))
}

fn weight(track: &FaceTrack, role: MorphRole) -> f64 {
    track.frames[0].as_ref().expect("a face").weight(role)
}

fn describe(label: &str, track: &FaceTrack) -> String {
    let f = track.frames[0].as_ref().expect("a face");
    let weights: Vec<String> =
        MorphRole::ALL.iter().map(|r| format!("{} {:.2}", r.name(), f.weight(*r))).collect();
    format!("{label} (68 points): {}", weights.join(", "))
}

const VOWELS: [MorphRole; 5] =
    [MorphRole::A, MorphRole::I, MorphRole::U, MorphRole::E, MorphRole::O];
const BLINKS: [MorphRole; 3] = [MorphRole::Blink, MorphRole::BlinkLeft, MorphRole::BlinkRight];

#[test]
fn the_portrait_smiles_on_68_points_with_its_eyes_open() {
    let (Some(portrait), Some(neutral)) = (photo(PORTRAIT, false), photo(WOMAN, false)) else {
        return;
    };
    println!("{}", describe("portrait", &portrait));
    let smile = weight(&portrait, MorphRole::MouthSmile);
    let neutral_smile = weight(&neutral, MorphRole::MouthSmile);
    assert!(smile >= 0.7 && smile > neutral_smile + 0.5, "smile {smile} vs {neutral_smile}");
    assert!(weight(&portrait, MorphRole::A) <= 0.2);
    for role in BLINKS {
        assert!(weight(&portrait, role) < 0.5, "{} {}", role.name(), weight(&portrait, role));
    }
    // MediaPipe's blendshapes for it: brows down (0.79 / 0.81), inner brows not raised
    // (0.0003), lips not rounded (funnel 0.008, pucker 0.002); see `retarget_face`.
    assert!(weight(&portrait, MorphRole::BrowDown) >= 0.5);
    for role in [MorphRole::BrowSad, MorphRole::BrowUp, MorphRole::U, MorphRole::O] {
        assert!(weight(&portrait, role) <= 0.2, "{} {}", role.name(), weight(&portrait, role));
    }
    // No irises among the 68 points: no gaze, never an invented one.
    assert!(portrait.frames[0].as_ref().unwrap().gaze.is_none());
}

#[test]
fn the_laughing_face_on_68_points_shuts_its_eyes_and_opens_its_mouth() {
    let Some(track) = photo(LAUGH, true) else { return };
    println!("{}", describe("laughing", &track));
    assert!(
        weight(&track, MorphRole::Blink) >= 0.7,
        "まばたき {}",
        weight(&track, MorphRole::Blink)
    );
    assert!(weight(&track, MorphRole::A) >= 0.5, "あ {}", weight(&track, MorphRole::A));
    // The face frame from the nose bridge and the jaw still sees the head bent down.
    let facing = track.frames[0].as_ref().unwrap().head.expect("a head turn") * glam::DVec3::NEG_Z;
    assert!(facing.y < -0.2, "{facing}");
}

#[test]
fn neutral_faces_on_68_points_keep_every_vowel_and_blink_low() {
    for (label, name) in [("woman", WOMAN), ("call", CALL), ("boy", TWO_FACES)] {
        let Some(track) = photo(name, false) else { return };
        println!("{}", describe(label, &track));
        for role in VOWELS.iter().chain(&BLINKS) {
            let w = weight(&track, *role);
            assert!(w <= 0.2, "{label}: {} {w}", role.name());
        }
        assert!(weight(&track, MorphRole::BrowSad) <= 0.2, "{label}: 困る");
    }
}

#[test]
fn the_video_on_68_points_never_blinks_and_keeps_its_mouth_closed() {
    let Some(doc) = json(&format!("{VIDEO}.face.json")) else { return };
    let frames: Vec<Vec<Vec3>> = (doc["frames"].as_array().unwrap().iter())
        .map(|f| ibug68(&doc, f.get(0).map(|face| &face["landmarks"])))
        .collect();
    let fps = doc["fps"].as_f64().unwrap();
    let mut kp = keypoints(frames, fps);
    vmdkit::keypoints::smooth(&mut kp, fps, Smoothing::Normal);
    let kp = vmdkit::keypoints::resample(&kp, fps, 30.0).unwrap();
    let track = face::track(&kp, BLOCK, IMAGE_AXES, None);
    println!("video (68 points): {:?}, neutral {:?}", track.source, track.neutral);
    assert!(matches!(track.source, CalibrationSource::Clip { frames } if frames > 200));
    for role in VOWELS.iter().chain(&BLINKS) {
        let max = (track.frames.iter().flatten()).map(|f| f.weight(*role)).fold(0.0, f64::max);
        println!("video (68 points): largest {} {max:.3}", role.name());
        assert!(max <= 0.2, "{} reaches {max}", role.name());
    }
    assert!(track.frames.iter().flatten().all(|f| f.gaze.is_none()));
}
