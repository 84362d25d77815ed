//! `vmdkit retarget` on hands alone: MediaPipe Hands' world landmarks of a real video
//! (`../shared/pose/handface`) onto 初音ミク.pmx. The summary says what the fingers solve did
//! and prints no body lines (scale, floor, residual) for a body that was not solved; `--json`
//! carries the `fingers` section.

use crate::common::{assert_no_panic, vmdkit};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use test_corpus::{corpus_or_skip, pose_file_or_skip};

const MIKU_MODEL: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const VIDEO: &str = "handface/google-ai-edge__mediapipe-samples__examples__gesture_recognizer__android__app__src__androidTest__assets__test_video.mp4.hands.json";

/// MediaPipe's 21 hand points in order, unprefixed.
fn hand_names() -> Vec<String> {
    let mut names = vec!["hand_wrist".to_string()];
    names.extend(["thumb_cmc", "thumb_mcp", "thumb_ip", "thumb_tip"].map(String::from));
    for finger in ["index_finger", "middle_finger", "ring_finger", "pinky"] {
        names.extend(["mcp", "pip", "dip", "tip"].map(|j| format!("{finger}_{j}")));
    }
    names
}

/// The video's hands as a `mediapipe_hands` keypoint JSON file: world landmarks in metres
/// (y down), null where a hand was not found. MediaPipe labels hands as if the picture were a
/// selfie (SOURCES.md), so its "Left" is the anatomical right hand: taken as labelled, the
/// fingers' direction error is 59° instead of 1.6°.
fn hand_keypoints(dir: &Path) -> Option<PathBuf> {
    let source = pose_file_or_skip("retarget_hands", VIDEO)?;
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(source).unwrap()).unwrap();
    let frames: Vec<Value> = (doc["frames"].as_array().unwrap().iter())
        .map(|hands| {
            let mut joints = vec![Value::Null; 42];
            for hand in hands.as_array().unwrap() {
                let first = if hand["handedness"]["label"] == "Left" { 21 } else { 0 };
                for (i, p) in hand["world_landmarks"].as_array().unwrap().iter().enumerate() {
                    joints[first + i] = p.clone();
                }
            }
            Value::Array(joints)
        })
        .collect();
    let names: Vec<String> = ["left", "right"]
        .iter()
        .flat_map(|side| hand_names().into_iter().map(move |n| format!("{side}_{n}")))
        .collect();
    let path = dir.join("hands.json");
    let file = json!({"fps": 25.0, "names": names, "up": "-y", "units": "m", "frames": frames});
    std::fs::write(&path, file.to_string()).unwrap();
    Some(path)
}

#[test]
fn hands_alone_say_what_the_fingers_solve_did_and_nothing_of_a_body() {
    let Some(manifest) = corpus_or_skip("retarget_hands") else { return };
    let dir = tempfile::tempdir().unwrap();
    let Some(input) = hand_keypoints(dir.path()) else { return };
    let model = manifest.dir.join(MIKU_MODEL);
    let out = dir.path().join("hands.vmd");
    let mut cmd = vmdkit();
    cmd.arg("retarget").arg(&input).arg("-o").arg(&out).arg("--model").arg(&model);
    cmd.args(["--layout", "mediapipe_hands"]);
    let output = cmd.output().unwrap();
    assert_no_panic(&output);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{text}");
    assert!(text.contains("fingers: right hand "), "{text}");
    assert!(text.contains(" frames solved, "), "{text}");
    for body in ["scale:", "floor:", "self-consistency:"] {
        assert!(!text.contains(body), "{body} printed for hands alone: {text}");
    }

    let output = vmdkit()
        .arg("retarget")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--model")
        .arg(&model)
        .args(["--layout", "mediapipe_hands", "--json"])
        .output()
        .unwrap();
    assert_no_panic(&output);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["body"], false);
    assert!(report["face"].is_null(), "{}", report["face"]);
    let fingers = &report["fingers"];
    let solved: Vec<u64> =
        fingers["solved_frames"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    // The video shows a hand in 172 of its 195 frames (7 with two), resampled to 30 fps.
    assert!(solved.iter().sum::<u64>() > 150, "{fingers}");
    // Measured 0.15 units (1.2 cm) and 1.6°: the solve follows the real hand's fingers.
    assert!(fingers["joint_error_mean"].as_f64().unwrap() < 0.3, "{fingers}");
    assert!(fingers["direction_mean_degrees"].as_f64().unwrap() < 5.0, "{fingers}");
}
