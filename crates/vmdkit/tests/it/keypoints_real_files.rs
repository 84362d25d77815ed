//! The readers on real files from ../shared/pose, read in place: the VMD-Lifting and MediaPipe
//! CSVs, Pose2Sim's TRC, and the two `pose-format` files checked against the world-landmark
//! CSVs exported from them.

use test_corpus::pose_file_or_skip;
use vmdkit::keypoints::{KeypointFormat, Keypoints};

const EXAMPLE_POSE: &str = "sign-language-processing__pose__example.pose";
const EXAMPLE_CSV: &str = "sign-language-processing__pose__example__world_landmarks.csv";
const OTHER_POSE: &str = "sign-language-processing__pose__84322c38ff23406f222641da30d0a49b.pose";
const OTHER_CSV: &str =
    "sign-language-processing__pose__84322c38ff23406f222641da30d0a49b__world_landmarks.csv";

#[cfg(feature = "csv")]
#[test]
fn keypoints_real_csvs_have_their_frames_joints_and_rates() {
    let test = "keypoints_real_csvs_have_their_frames_joints_and_rates";
    let Some(path) = pose_file_or_skip(test, "wayne931121__VMD-Lifting__posfile.csv") else {
        return;
    };
    let k = Keypoints::read_file(&path).unwrap();
    assert_eq!((k.frame_count, k.joint_count, k.fps), (1561, 17, None));
    assert_eq!(k.names.as_ref().unwrap()[..3], ["hip", "r_hip", "r_knee"]);
    assert!(k.confidence.is_none());
    let Some(path) = pose_file_or_skip(test, EXAMPLE_CSV) else { return };
    let k = Keypoints::read_file(&path).unwrap();
    assert_eq!((k.frame_count, k.joint_count), (97, 33));
    assert_eq!(k.names.as_ref().unwrap()[0], "nose");
    assert!(k.fps.is_some_and(|f| f > 0.0) && k.confidence.is_some());
    let Some(path) = pose_file_or_skip(test, OTHER_CSV) else { return };
    assert_eq!(Keypoints::read_file(&path).unwrap().frame_count, 47);
}

#[test]
fn keypoints_real_trc_has_markers_metres_and_rate() {
    let test = "keypoints_real_trc_has_markers_metres_and_rate";
    let name = "perfanalytics__pose2sim__S00_P00_T00_StaticTrial_0-12.trc";
    let Some(path) = pose_file_or_skip(test, name) else { return };
    let k = Keypoints::read_file(&path).unwrap();
    assert_eq!((k.frame_count, k.joint_count, k.fps), (12, 21, Some(60.0)));
    assert_eq!(k.units, Some(vmdkit::keypoints::Units::Metres));
    let names = k.names.as_ref().unwrap();
    assert_eq!((names[0].as_str(), names[20].as_str()), ("RHip", "LWrist"));
    assert!(k.positions.iter().all(|p| p.is_finite()));
    assert!((k.positions[0].y - 0.869_695).abs() < 1e-5);
}

/// The `.pose` file's world landmarks agree with the CSV exported from it: same names, frames,
/// fps, confidences, and coordinates within 1e-5 once the width/height scaling is undone.
#[cfg(feature = "csv")]
fn pose_matches_csv(test: &str, pose: &str, csv: &str) {
    let (Some(pose), Some(csv)) = (pose_file_or_skip(test, pose), pose_file_or_skip(test, csv))
    else {
        return;
    };
    let p = Keypoints::read_file(&pose).unwrap();
    let c = Keypoints::read_file(&csv).unwrap();
    assert_eq!((p.frame_count, p.joint_count), (c.frame_count, c.joint_count));
    let lower: Vec<String> = p.names.as_ref().unwrap().iter().map(|n| n.to_lowercase()).collect();
    assert_eq!(&lower, c.names.as_ref().unwrap());
    if let (Some(a), Some(b)) = (p.fps, c.fps) {
        assert!((a - b).abs() < 1e-3 * a, "fps {a} vs {b}");
    }
    let mut compared = 0;
    for (i, (a, b)) in p.positions.iter().zip(&c.positions).enumerate() {
        assert_eq!(a.is_nan(), b.is_nan(), "point {i}: {a} vs {b}");
        if a.is_finite() {
            assert!((*a - *b).abs().max_element() < 1e-5, "point {i}: {a} vs {b}");
            compared += 1;
        }
    }
    assert!(compared > 0);
    let (pc, cc) = (p.confidence.unwrap(), c.confidence.unwrap());
    assert!(pc.iter().zip(&cc).all(|(a, b)| (a - b).abs() < 1e-5));
}

#[cfg(feature = "csv")]
#[test]
fn keypoints_real_pose_example_matches_its_world_landmark_csv() {
    pose_matches_csv(
        "keypoints_real_pose_example_matches_its_world_landmark_csv",
        EXAMPLE_POSE,
        EXAMPLE_CSV,
    );
}

#[cfg(feature = "csv")]
#[test]
fn keypoints_real_pose_84322c_matches_its_world_landmark_csv() {
    pose_matches_csv(
        "keypoints_real_pose_84322c_matches_its_world_landmark_csv",
        OTHER_POSE,
        OTHER_CSV,
    );
}

#[test]
fn keypoints_real_pose_falls_back_to_image_landmarks_only_when_asked() {
    let test = "keypoints_real_pose_falls_back_to_image_landmarks_only_when_asked";
    let Some(path) = pose_file_or_skip(test, EXAMPLE_POSE) else { return };
    let bytes = std::fs::read(path).unwrap();
    let image = Keypoints::parse_pose_component(&bytes, "POSE_LANDMARKS").unwrap();
    assert_eq!(image.joint_count, 33);
    // Every cut of a real file is an error, never a panic (sampled: the header and the body).
    for len in (0..bytes.len()).step_by(997) {
        assert!(Keypoints::parse(&bytes[..len], KeypointFormat::Pose).is_err(), "cut at {len}");
    }
}
