//! The layouts with hands and faces on the command line: `--hand` for a lone hand whose names
//! do not say which, and `vmdkit keypoints` accepting the new layout names.

use crate::common;

use common::{assert_no_panic, example_dir, vmdkit};

/// Runs the binary; gives its exit code and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let output = vmdkit().args(args).output().unwrap();
    assert_no_panic(&output);
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// A keypoint JSON file of one hand under MediaPipe's unprefixed names, three frames.
fn unprefixed_hand(dir: &std::path::Path) -> String {
    let fingers = ["index_finger", "middle_finger", "ring_finger", "pinky"];
    let mut names = vec!["wrist".to_string()];
    names.extend(["thumb_cmc", "thumb_mcp", "thumb_ip", "thumb_tip"].map(String::from));
    for finger in fingers {
        names.extend(["mcp", "pip", "dip", "tip"].map(|j| format!("{finger}_{j}")));
    }
    let frames: Vec<Vec<[f64; 3]>> = (0..3)
        .map(|f| {
            (0..21).map(|i| [0.01 * i as f64, 0.02 * i as f64 + 0.001 * f as f64, 0.0]).collect()
        })
        .collect();
    let json = serde_json::json!({ "fps": 30, "names": names, "frames": frames });
    let path = common::write(dir, "hand.json", json.to_string().as_bytes());
    path.to_str().unwrap().to_string()
}

#[test]
fn a_hand_without_a_side_asks_for_hand() {
    let dir = tempfile::tempdir().unwrap();
    let input = unprefixed_hand(dir.path());
    let out = dir.path().join("x.vmd");
    let out = out.to_str().unwrap();
    let (code, stderr) = run(&["retarget", &input, "-o", out]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("the hand's side is unknown"), "{stderr}");
    assert!(
        stderr.contains("right_wrist") && stderr.contains("pass --hand left|right"),
        "{stderr}"
    );
    // Named, the layout needs the side as much.
    let (code, stderr) = run(&["retarget", &input, "--layout", "mediapipe_hand", "-o", out]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("pass --hand left|right"), "{stderr}");
    // With the side the layout is settled: whatever stops the retargeting then, it is not the
    // side.
    let (_, stderr) = run(&["retarget", &input, "--hand", "right", "-o", out]);
    assert!(!stderr.contains("side is unknown"), "{stderr}");
    let (code, stderr) = run(&["retarget", &input, "--hand", "middle", "-o", out]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("left") && stderr.contains("right"), "{stderr}");
}

#[test]
fn keypoints_takes_the_new_layout_names() {
    let (dir, example) = example_dir();
    let example = example.to_str().unwrap();
    for layout in [
        "mediapipe_hands",
        "holistic",
        "holistic_iris",
        "coco_wholebody",
        "smplx",
        "mediapipe_face",
    ] {
        let out = dir.path().join(format!("{layout}.json"));
        let (_, stderr) =
            run(&["keypoints", example, "--layout", layout, "-o", out.to_str().unwrap()]);
        assert!(!stderr.contains("unknown layout"), "{layout}: {stderr}");
    }
    let out = dir.path().join("hand.json");
    let out = out.to_str().unwrap();
    let (code, stderr) = run(&["keypoints", example, "--layout", "mediapipe_hand", "-o", out]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("pass --hand left|right"), "{stderr}");
    let (_, stderr) =
        run(&["keypoints", example, "--layout", "mediapipe_hand", "--hand", "left", "-o", out]);
    assert!(!stderr.contains("side is unknown") && !stderr.contains("unknown layout"), "{stderr}");
}
