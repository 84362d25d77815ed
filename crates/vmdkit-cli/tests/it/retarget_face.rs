//! `vmdkit retarget` on a face alone: MediaPipe's face mesh of a real video
//! (`../shared/pose/handface`) onto 初音ミク.pmx, its morphs and eyes keyed, the body at rest,
//! the morphs it lacks named, and `--morph-map` / `--calibrate`.

use crate::common::{assert_no_panic, vmdkit};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use test_corpus::{corpus_or_skip, pose_file_or_skip};
use vmdkit::Motion;

const MIKU_MODEL: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const VIDEO: &str = "handface/google-ai-edge__mediapipe-samples__examples__gesture_recognizer__android__app__src__androidTest__assets__test_video.mp4.face.json";

/// The video's face as a keypoint JSON file in pixels (y down), 478 named joints at 25 fps.
fn face_keypoints(dir: &Path) -> Option<PathBuf> {
    let source = pose_file_or_skip("retarget_face", VIDEO)?;
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(source).unwrap()).unwrap();
    let (w, h) = (doc["width"].as_f64().unwrap(), doc["height"].as_f64().unwrap());
    let frames: Vec<Value> = (doc["frames"].as_array().unwrap().iter())
        .map(|f| {
            let points = f[0]["landmarks"].as_array().unwrap();
            let xyz = |p: &Value, i: usize| p[i].as_f64().unwrap();
            Value::Array(
                (points.iter())
                    .map(|p| json!([xyz(p, 0) * w, xyz(p, 1) * h, xyz(p, 2) * w]))
                    .collect(),
            )
        })
        .collect();
    let names: Vec<String> = (0..478).map(|i| format!("face_{i}")).collect();
    let path = dir.join("face.json");
    let file = json!({"fps": 25.0, "names": names, "up": "-y", "frames": frames});
    std::fs::write(&path, file.to_string()).unwrap();
    Some(path)
}

fn run(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let output = vmdkit().args(args).output().unwrap();
    assert_no_panic(&output);
    output
}

#[test]
fn a_face_alone_keys_the_models_morphs_and_names_the_missing_ones() {
    let Some(manifest) = corpus_or_skip("retarget_face") else { return };
    let dir = tempfile::tempdir().unwrap();
    let Some(input) = face_keypoints(dir.path()) else { return };
    let model = manifest.dir.join(MIKU_MODEL);
    let out = dir.path().join("face.vmd");
    let map = dir.path().join("map.txt");
    std::fs::write(&map, "# Miku has no え: her お will do\ne = お\n").unwrap();
    let os = |s: &str| std::ffi::OsString::from(s);
    let mut args = vec![os("retarget"), input.into(), os("-o"), out.clone().into()];
    args.extend([os("--model"), model.into(), os("--layout"), os("mediapipe_face_iris")]);
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let output = run(&refs);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    let text = format!("{stdout}{stderr}");
    assert!(text.contains("233 of 233 frames with a face"), "{text}");
    assert!(text.contains("no morph for e (looked for え"), "{text}");
    assert!(text.contains("no morph for blink_right (looked for ウィンク右"), "{text}");
    // The body was not solved: the summary says what was (the face), not an empty body.
    assert!(text.contains("3 face bones and 12 morphs keyed"), "{text}");
    assert!(text.contains("face morphs: ") && !text.contains("bones keyed"), "{text}");
    for body in ["scale:", "floor:", "self-consistency:", "fingers:"] {
        assert!(!text.contains(body), "{body} printed for a face alone: {text}");
    }
    let motion = Motion::read_file(&out).unwrap();
    let mut bones: Vec<String> = motion.bones.iter().map(|k| k.name.to_string_lossy()).collect();
    bones.sort();
    bones.dedup();
    assert_eq!(bones, ["両目", "頭", "首"]);
    assert!(!motion.morphs.is_empty());

    // With the map, え is お; the first 30 frames calibrate; the report is JSON.
    let mut mapped = refs.clone();
    let extra = [os("--morph-map"), map.clone().into(), os("--calibrate"), os("30"), os("--json")];
    mapped.extend(extra.iter().map(|a| a.as_os_str()));
    let output = run(&mapped);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["body"], false);
    assert!(report["fingers"].is_null(), "{}", report["fingers"]);
    let face = &report["face"];
    assert_eq!(face["calibration"], json!({"kind": "first_frames", "frames": 30}));
    let missing: Vec<&str> =
        face["missing"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(missing, ["blink_right"]);
    assert!(face["morphs"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["role"] == "e" && m["morph"] == "お"));

    // A map naming no role is refused before any work.
    std::fs::write(&map, "wink = ウィンク\n").unwrap();
    let mut bad = refs.clone();
    let extra = [os("--morph-map"), map.into()];
    bad.extend(extra.iter().map(|a| a.as_os_str()));
    let output = run(&bad);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown face role `wink`"));
}
