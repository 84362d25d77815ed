//! Keypoint readers on hostile input made here (issue 24): shapes that overflow or hide,
//! points the file cannot hold, and frame rates beyond any capture.

use super::super::*;
use super::{npy, npz, pose_file};

/// Issue 24: zero-byte elements let any shape pass the size check (`Vec::with_capacity` then
/// aborted); a double-quoted header hid its shape from the overflow check, the count wrapped,
/// and filters indexed past the positions.
#[test]
fn keypoints_npy_refuses_zero_size_dtypes_and_overflowing_shapes_however_quoted() {
    for descr in ["|S0", "|V0", "<U0"] {
        let bytes = npy(descr, "(1000000000000000, 17, 3)", false, &[]);
        let e = Keypoints::parse(&bytes, KeypointFormat::Npy).unwrap_err();
        assert!(matches!(e.kind, KeypointErrorKind::Unsupported(_)), "{descr}: {e}");
    }
    let dict =
        "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (6148914691236517206, 17, 3)}\n";
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    bytes.extend_from_slice(dict.as_bytes());
    bytes.extend_from_slice(&[0; 1024]);
    let e = Keypoints::parse(&bytes, KeypointFormat::Npy).unwrap_err();
    assert!(e.to_string().contains("too many elements"), "{e}");
    // A product that fits but whose bytes do not, and a zero axis beside huge ones.
    let e = Keypoints::parse(
        &npy("<f8", "(3074457345618258603, 1, 3)", false, &[]),
        KeypointFormat::Npy,
    )
    .unwrap_err();
    assert!(matches!(e.kind, KeypointErrorKind::Truncated { .. }), "{e}");
    let e = Keypoints::parse(
        &npy("<f4", "(0, 4294967296, 4294967296, 3)", false, &[]),
        KeypointFormat::Npy,
    )
    .unwrap_err();
    assert!(matches!(e.kind, KeypointErrorKind::Invalid(_)), "{e}");
}

/// Issue 24: a few hundred kilobytes of TRC or JSON naming many markers or joints, each row or
/// frame holding almost none, asked for gigabytes of missing points.
#[test]
fn keypoints_text_readers_bound_points_by_the_input_size() {
    let markers = 2000;
    let mut trc = String::from("PathFileType\t4\t(X/Y/Z)\tx.trc\nNumMarkers\n");
    trc.push_str(&format!("{markers}\nFrame#\tTime"));
    for m in 0..markers {
        trc.push_str(&format!("\tm{m}\t\t"));
    }
    trc.push_str("\n\tX1\n");
    for f in 0..2000 {
        trc.push_str(&format!("{f}\t0\n"));
    }
    let e = Keypoints::parse(trc.as_bytes(), KeypointFormat::Trc).unwrap_err();
    assert!(e.to_string().contains("points from"), "{e}");
    let frames: Vec<String> = (0..2000).map(|f| format!("{{\"j{f}\": [0, 0, 0]}}")).collect();
    let json = format!("[{}]", frames.join(","));
    let e = Keypoints::parse(json.as_bytes(), KeypointFormat::Json).unwrap_err();
    assert!(e.to_string().contains("points from"), "{e}");
    // What the rows hold is read, missing points and all.
    let small = format!("[{}]", frames[..100].join(","));
    let k = Keypoints::parse(small.as_bytes(), KeypointFormat::Json).unwrap();
    assert_eq!((k.frame_count, k.joint_count, k.confidence), (100, 100, None));
}

/// Issue 24: frame rates a file declares beyond 10,000 (a `.pose` fps of 3e38, an NPZ or JSON
/// `fps` of 1e30, a TRC DataRate) are the file's damage, named by field; rates worked out from
/// a time column that fast are no rate.
#[test]
fn keypoints_declared_frame_rates_beyond_10000_are_refused_naming_the_field() {
    let frames = [[[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 1.0]]];
    let mut pose = pose_file("POSE_WORLD_LANDMARKS", 1, 1, &frames);
    let at = pose.windows(4).position(|w| w == 25.0f32.to_le_bytes()).unwrap();
    pose[at..at + 4].copy_from_slice(&3e38f32.to_le_bytes());
    let e = Keypoints::parse(&pose, KeypointFormat::Pose).unwrap_err();
    assert_eq!((e.field.as_deref(), e.location), (Some("fps"), Some(Location::Offset(at as u64))));
    let npz = npz(&[("keypoints", &[1, 1, 3], &[0.0; 3]), ("fps", &[], &[1e30])]);
    let e = Keypoints::parse(&npz, KeypointFormat::Npz).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("fps"), "{e}");
    let json = br#"{"fps": 1e30, "frames": [[[0, 0, 0]]]}"#;
    let e = Keypoints::parse(json, KeypointFormat::Json).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("fps"), "{e}");
    let trc =
        "PathFileType\t4\nDataRate\tNumMarkers\n1e30\t1\nFrame#\tTime\ta\n\tX1\n1\t0\t0\t0\t0\n";
    let e = Keypoints::parse(trc.as_bytes(), KeypointFormat::Trc).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("DataRate"), "{e}");
    let csv = "frame,time,a_x,a_y,a_z\n0,0,0,0,0\n1,1e-12,0,0,0\n2,2e-12,0,0,0\n";
    assert_eq!(Keypoints::parse(csv.as_bytes(), KeypointFormat::Csv).unwrap().fps, None);
}

/// Issue 24: a file of another kind read as keypoints is named as what it is, not reported as
/// the CSV it was guessed to be (a BVH said "CSV parse error").
#[test]
fn keypoints_read_file_names_a_file_of_another_kind() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 3] = [
        ("walk.bvh", b"HIERARCHY\nROOT Hips\n{\n", "BVH"),
        ("dance.vmd", b"Vocaloid Motion Data 0002\0\0\0\0\0", "VMD"),
        ("photo.csv", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "PNG"),
    ];
    for (name, bytes, kind) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let text = Keypoints::read_file(&path).unwrap_err().to_string();
        assert!(text.contains(&format!("this is a {kind}")), "{name}: {text}");
        assert!(!text.contains("CSV parse"), "{name}: {text}");
    }
}
