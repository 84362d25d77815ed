//! The face photos and the face video of `../shared/pose/handface` (its SOURCES.md says what
//! each shows), as the face tests read them in place: MediaPipe 0.10.21's image landmarks.

#![allow(dead_code)] // each test module uses a part

use glam::Vec3;
use serde_json::Value;
use vmdkit::keypoints::{Keypoints, UpAxis};
use vmdkit::retarget::InputAxes;

/// The smiling portrait, with MediaPipe's expected blendshapes beside it.
pub const PORTRAIT: &str =
    "tensorflow__tfjs-models__face-landmarks-detection__test_data__portrait.jpg";
/// The laughing man: eyes shut, mouth open (read from its Holistic result).
pub const LAUGH: &str =
    "google-ai-edge__mediapipe-samples__examples__pose_landmarker__ios__PoseLandmarkerTests__test_image.jpg";
/// A neutral woman.
pub const WOMAN: &str =
    "yanghaku__mediapipe-rs-dev__assets__testdata__img__google_sample_woman_hands.jpg";
/// HaGRID's `call`: a neutral face.
pub const CALL: &str = "google-ai-edge__mediapipe__mediapipe__model_maker__python__vision__gesture_recognizer__testdata__raw_data__call__17b3aa02-dc4d-448d-8601-e2b67193d436.jpg";
/// Two faces; the first, a boy, is neutral.
pub const TWO_FACES: &str =
    "google-ai-edge__mediapipe-samples__examples__face_detector__ios__FaceDetectorTests__testImg.jpeg";
/// The video with a neutral face that never blinks.
pub const VIDEO: &str = super::handface::VIDEO;

/// MediaPipe's image landmarks: x right over the width, y down over the height, z (depth, away
/// from the camera) on the x scale. In pixels they keep the image's aspect, so ratios hold.
pub const IMAGE_AXES: InputAxes = InputAxes { up: UpAxis::NegY, left_handed: false };

/// A JSON file of the folder, or `None` (with the skip said) when the shared folder is missing.
pub fn json(test: &str, name: &str) -> Option<Value> {
    let path = test_corpus::pose_file_or_skip(test, &format!("handface/{name}"))?;
    Some(serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap())
}

/// Keypoints of one face a frame (all frames the same number of points), at `fps`.
pub fn keypoints(frames: Vec<Vec<Vec3>>, fps: f64) -> Keypoints {
    let joints = frames.first().map_or(0, Vec::len);
    let mut kp = Keypoints::missing(frames.len(), joints);
    kp.positions = frames.into_iter().flatten().collect();
    kp.fps = Some(fps);
    kp
}
