//! Keypoint readers and writers on small fixtures made here: every format's shapes, round
//! trips that keep NaN, and the errors for input that cannot be keypoints.

use super::*;
use crate::{Categorize, Category};
use glam::Vec3;

/// Hostile input made here.
mod untrusted;

/// Two frames of three joints with a missing joint, names, confidences and a frame rate.
fn sample() -> Keypoints {
    let mut positions: Vec<Vec3> =
        (0..6).map(|i| Vec3::new(i as f32 * 0.25, -1.5 + i as f32, 1e-7 * i as f32)).collect();
    positions[4] = Vec3::NAN;
    Keypoints {
        frame_count: 2,
        joint_count: 3,
        positions,
        confidence: Some(vec![0.5, 1.0, 0.0, 0.125, 0.75, 1.0]),
        names: Some(vec!["hip".into(), "left_knee".into(), "r ankle".into()]),
        fps: Some(30.0),
        ..Keypoints::default()
    }
}

/// NaN-aware equality of positions.
fn same_positions(a: &[Vec3], b: &[Vec3]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(p, q)| {
            p.to_array()
                .iter()
                .zip(q.to_array())
                .all(|(x, y)| x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan())
        })
}

/// A `.npy` image with a hand-written header, as other writers make them.
pub(super) fn npy(descr: &str, shape: &str, fortran: bool, data: &[u8]) -> Vec<u8> {
    let order = if fortran { "True" } else { "False" };
    let dict = format!("{{'descr': '{descr}', 'fortran_order': {order}, 'shape': {shape}, }}\n");
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend_from_slice(data);
    out
}

fn kind(result: Result<Keypoints, KeypointError>) -> KeypointErrorKind {
    result.expect_err("the input must be refused").kind
}

/// Found by the `keypoints` fuzz target: brackets nested in the header made npyz's
/// backtracking dict grammar take seconds (33 levels: 11 s, each level doubling it).
#[test]
fn keypoints_npy_refuses_deeply_nested_headers_quickly() {
    let shape = format!("(2,{} 3)", "[".repeat(60));
    let bytes = npy("<f8", &shape, false, &[0; 48]);
    let err = Keypoints::parse(&bytes, KeypointFormat::Npy).unwrap_err();
    assert!(matches!(err.kind, KeypointErrorKind::Syntax(_)), "{err}");
    assert!(err.to_string().contains("nests"), "{err}");
    // Real headers, structured dtypes included, stay well inside the limit.
    let dtype = "[('a', '<f4', (3,)), ('b', [('c', '<f8', (2, 2))])]";
    assert!(crate::npy::nesting(&format!("{{'descr': {dtype}, 'shape': (2, 3), }}")) == 6);
}

#[test]
fn keypoints_formats_are_detected_by_signature_then_extension() {
    let path = |p: &str| Some(std::path::Path::new(p).to_owned());
    let guess = |bytes: &[u8], p: &str| KeypointFormat::guess(bytes, path(p).as_deref());
    assert_eq!(guess(b"\x93NUMPY\x01\x00", "x.csv"), KeypointFormat::Npy);
    assert_eq!(guess(b"PK\x03\x04....", "x.json"), KeypointFormat::Npz);
    assert_eq!(guess(&[0xcd, 0xcc, 0x4c, 0x3e, 0, 0, 0, 0, 0, 0, 0, 0], "x"), KeypointFormat::Pose);
    assert_eq!(guess(b"PathFileType\t4", "x.csv"), KeypointFormat::Trc);
    assert_eq!(guess(b"\xEF\xBB\xBF \n [[1,2,3]]", "x.csv"), KeypointFormat::Json);
    assert_eq!(guess(b"frame,a_x", "x.trc"), KeypointFormat::Trc);
    assert_eq!(guess(b"frame,a_x", "x"), KeypointFormat::Csv);
    assert_eq!(KeypointFormat::from_name(".NPZ"), Some(KeypointFormat::Npz));
    assert_eq!(KeypointFormat::from_name("pose"), Some(KeypointFormat::Pose));
    assert_eq!(KeypointFormat::from_name("bvh"), None);
}

#[test]
fn keypoints_npy_round_trip_keeps_nan() {
    let k = sample();
    let mut bytes = Vec::new();
    k.write_npy(&mut bytes).unwrap();
    let back = Keypoints::parse(&bytes, KeypointFormat::Npy).unwrap();
    assert_eq!((back.frame_count, back.joint_count), (2, 3));
    assert!(same_positions(&back.positions, &k.positions));
    assert_eq!(back.confidence, None);
}

#[test]
fn keypoints_npy_reads_every_numeric_dtype_and_order() {
    // f8 big-endian, one frame as J × 3.
    let data: Vec<u8> =
        [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0].iter().flat_map(|v| v.to_be_bytes()).collect();
    let k = Keypoints::parse(&npy(">f8", "(2, 3)", false, &data), KeypointFormat::Npy).unwrap();
    assert_eq!((k.frame_count, k.joint_count), (1, 2));
    assert_eq!(k.positions[1], Vec3::new(4.0, 5.0, 6.0));
    // i2, F × J × 4: the fourth value is the confidence.
    let data: Vec<u8> = [1i16, 2, 3, 1, -4, 5, 6, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let k = Keypoints::parse(&npy("<i2", "(2, 1, 4)", false, &data), KeypointFormat::Npy).unwrap();
    assert_eq!(k.positions, vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(-4.0, 5.0, 6.0)]);
    assert_eq!(k.confidence, Some(vec![1.0, 0.0]));
    // f2 (1.5 is 0x3E00), and u1.
    let data: Vec<u8> = [0x3E00u16; 3].iter().flat_map(|v| v.to_le_bytes()).collect();
    let k = Keypoints::parse(&npy("<f2", "(1, 3)", false, &data), KeypointFormat::Npy).unwrap();
    assert_eq!(k.positions[0], Vec3::splat(1.5));
    let k =
        Keypoints::parse(&npy("|u1", "(1, 1, 3)", false, &[7, 8, 9]), KeypointFormat::Npy).unwrap();
    assert_eq!(k.positions[0], Vec3::new(7.0, 8.0, 9.0));
    // Fortran order: the first axis is fastest, so a 2 × 3 array stores columns.
    let data: Vec<u8> =
        [1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let k = Keypoints::parse(&npy("<f4", "(2, 3)", true, &data), KeypointFormat::Npy).unwrap();
    assert_eq!(k.positions, vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.0, 5.0, 6.0)]);
}

#[test]
fn keypoints_npy_refuses_pickles_bad_shapes_and_lying_headers() {
    let pickled = npy("|O", "(1, 3)", false, b"\x80\x02");
    assert!(matches!(
        kind(Keypoints::parse(&pickled, KeypointFormat::Npy)),
        KeypointErrorKind::Unsupported(_)
    ));
    let flat = npy("<f4", "(3,)", false, &[0; 12]);
    assert!(matches!(
        kind(Keypoints::parse(&flat, KeypointFormat::Npy)),
        KeypointErrorKind::Invalid(_)
    ));
    // A header announcing a terabyte over 12 bytes of data: refused before any allocation.
    let huge = npy("<f4", "(100000000, 1000, 3)", false, &[0; 12]);
    let err = Keypoints::parse(&huge, KeypointFormat::Npy).unwrap_err();
    assert!(matches!(err.kind, KeypointErrorKind::Truncated { available: 12, .. }), "{err}");
    assert_eq!(err.category(), Category::Truncated);
    let overflow = npy("<f4", "(18446744073709551615, 3, 3)", false, &[]);
    assert!(Keypoints::parse(&overflow, KeypointFormat::Npy).is_err());
    // A header length past the end of the file.
    let mut cut = npy("<f4", "(1, 3)", false, &[]);
    cut.truncate(20);
    assert!(matches!(
        kind(Keypoints::parse(&cut, KeypointFormat::Npy)),
        KeypointErrorKind::Truncated { .. }
    ));
    let nan = npy("<f4", "(1, 3)", false, &f32::NAN.to_le_bytes().repeat(3));
    assert_eq!(kind(Keypoints::parse(&nan, KeypointFormat::Npy)), KeypointErrorKind::AllMissing);
    let empty = npy("<f4", "(0, 2, 3)", false, &[]);
    assert_eq!(kind(Keypoints::parse(&empty, KeypointFormat::Npy)), KeypointErrorKind::NoFrames);
}

/// An NPZ of `arrays` (name, dtype, shape, f32 values), written with npyz.
pub(super) fn npz(arrays: &[(&str, &[u64], &[f32])]) -> Vec<u8> {
    use npyz::WriterBuilder;
    let mut archive = npyz::npz::NpzWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, shape, values) in arrays {
        let options = npyz::zip::write::FileOptions::default();
        let mut w = archive
            .array::<f32>(name, options)
            .unwrap()
            .default_dtype()
            .shape(shape)
            .begin_nd()
            .unwrap();
        w.extend(values.iter().copied()).unwrap();
        w.finish().unwrap();
    }
    archive.zip_writer().finish().unwrap().into_inner()
}

#[test]
fn keypoints_npz_takes_the_named_positions_scores_and_fps() {
    let positions: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let bytes = npz(&[
        ("other", &[3], &[0.0; 3]),
        ("joints3d", &[2, 2, 3], &positions),
        ("scores", &[2, 2], &[0.5, 0.25, 1.0, 0.0]),
        ("fps", &[], &[25.0]),
    ]);
    assert_eq!(KeypointFormat::detect(&bytes), Some(KeypointFormat::Npz));
    let k = Keypoints::parse(&bytes, KeypointFormat::Npz).unwrap();
    assert_eq!((k.frame_count, k.joint_count, k.fps), (2, 2, Some(25.0)));
    assert_eq!(k.positions[3], Vec3::new(9.0, 10.0, 11.0));
    assert_eq!(k.confidence, Some(vec![0.5, 0.25, 1.0, 0.0]));
    // No known name: the one 3-D array.
    let k = Keypoints::parse(
        &npz(&[("a", &[2], &[0.0; 2]), ("b", &[1, 2, 3], &positions[..6])]),
        KeypointFormat::Npz,
    )
    .unwrap();
    assert_eq!(k.joint_count, 2);
    // Two 3-D arrays and no known name: which one is not guessed.
    let two = npz(&[("a", &[1, 2, 3], &positions[..6]), ("b", &[1, 2, 3], &positions[..6])]);
    assert!(matches!(
        kind(Keypoints::parse(&two, KeypointFormat::Npz)),
        KeypointErrorKind::Invalid(_)
    ));
    let bad_scores = npz(&[("kps", &[1, 2, 3], &positions[..6]), ("confidence", &[3], &[1.0; 3])]);
    let err = Keypoints::parse(&bad_scores, KeypointFormat::Npz).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("confidence"));
    assert!(Keypoints::parse(b"PK\x03\x04 not really", KeypointFormat::Npz).is_err());
}

#[cfg(feature = "csv")]
#[test]
fn keypoints_csv_reads_bom_blanks_time_and_confidence() {
    let text = "\u{feff}frame , time_s, a_x,a_y,a_z,a_vis, b_x,b_y,b_z\n\
                0, 0.0, 1, 2, 3, 0.5, 4,5,6\n\
                1, 0.04, ,  , , , 7,8,9\n\
                2, 0.08, 1.5, 2, 3, 1, 4,5,6\n";
    let k = Keypoints::parse(text.as_bytes(), KeypointFormat::Csv).unwrap();
    assert_eq!((k.frame_count, k.joint_count, k.fps), (3, 2, Some(25.0)));
    assert_eq!(k.names, Some(vec!["a".to_string(), "b".to_string()]));
    assert!(k.positions[2].is_nan() && k.positions[3] == Vec3::new(7.0, 8.0, 9.0));
    assert_eq!(k.confidence.as_ref().unwrap()[..2], [0.5, 1.0]);
}

#[cfg(feature = "csv")]
#[test]
fn keypoints_csv_errors_name_line_column_and_field() {
    let ragged = "frame,a_x,a_y,a_z\n0,1,2,3\n1,1,2\n";
    let err = Keypoints::parse(ragged.as_bytes(), KeypointFormat::Csv).unwrap_err();
    assert_eq!(err.kind, KeypointErrorKind::Ragged { expected: 4, found: 3 });
    assert_eq!(err.location, Some(Location::Line { line: 3, column: None }));
    let bad = "frame,a_x,a_y,a_z\n0,1,oops,3\n";
    let err = Keypoints::parse(bad.as_bytes(), KeypointFormat::Csv).unwrap_err();
    assert_eq!(err.location, Some(Location::Line { line: 2, column: Some(3) }));
    assert_eq!(err.field.as_deref(), Some("a_y"));
    assert!(err.to_string().starts_with("CSV, line 2, column 3, field `a_y`: "), "{err}");
    let missing_axis = "frame,a_x,a_y\n0,1,2\n";
    assert!(matches!(
        kind(Keypoints::parse(missing_axis.as_bytes(), KeypointFormat::Csv)),
        KeypointErrorKind::Invalid(_)
    ));
    let header_only = "frame,a_x,a_y,a_z\n";
    assert_eq!(
        kind(Keypoints::parse(header_only.as_bytes(), KeypointFormat::Csv)),
        KeypointErrorKind::NoFrames
    );
    let blank = "frame,a_x,a_y,a_z\n0,,,\n";
    assert_eq!(
        kind(Keypoints::parse(blank.as_bytes(), KeypointFormat::Csv)),
        KeypointErrorKind::AllMissing
    );
}

#[cfg(feature = "csv")]
#[test]
fn keypoints_csv_round_trip_keeps_nan_names_confidence_and_fps() {
    let k = sample();
    let mut bytes = Vec::new();
    k.write_csv(&mut bytes).unwrap();
    let back = Keypoints::parse(&bytes, KeypointFormat::Csv).unwrap();
    assert!(same_positions(&back.positions, &k.positions));
    assert_eq!((back.names, back.confidence, back.fps), (k.names, k.confidence, k.fps));
}

#[cfg(feature = "json")]
#[test]
fn keypoints_json_reads_arrays_objects_and_named_frames() {
    let nested = b"[[[1, 2, 3], null], [[4, 5, 6, 0.5], [7, null, 9]]]";
    let k = Keypoints::parse(nested, KeypointFormat::Json).unwrap();
    assert_eq!((k.frame_count, k.joint_count), (2, 2));
    assert!(k.positions[1].is_nan() && k.positions[3].y.is_nan());
    assert_eq!(k.confidence, Some(vec![1.0, 1.0, 0.5, 1.0]));
    let one_frame = Keypoints::parse(b"[[1, 2, 3], [4, 5, 6]]", KeypointFormat::Json).unwrap();
    assert_eq!((one_frame.frame_count, one_frame.joint_count), (1, 2));
    let object =
        br#"{"fps": 50, "joints": ["a"], "units": "mm", "up": "z", "frames": [[[1, 2, 3]]]}"#;
    let k = Keypoints::parse(object, KeypointFormat::Json).unwrap();
    assert_eq!(
        (k.fps, k.units, k.up),
        (Some(50.0), Some(crate::keypoints::Units::Millimetres), Some(crate::keypoints::UpAxis::Z))
    );
    let named = br#"[{"frame": 0, "zeta": [1, 2, 3], "alpha": {"x": 4, "y": 5, "z": 6, "visibility": 0.25}},
                     {"alpha": null, "beta": [7, 8, 9]}]"#;
    let k = Keypoints::parse(named, KeypointFormat::Json).unwrap();
    assert_eq!(k.names, Some(vec!["zeta".into(), "alpha".into(), "beta".into()]));
    assert_eq!(k.positions[1], Vec3::new(4.0, 5.0, 6.0));
    assert!(k.positions[2].is_nan() && k.positions[3].is_nan() && k.positions[4].is_nan());
    assert_eq!(k.positions[5], Vec3::new(7.0, 8.0, 9.0));
    assert_eq!(k.confidence.unwrap()[1], 0.25);
}

#[cfg(feature = "json")]
#[test]
fn keypoints_json_errors_and_round_trip() {
    let err = Keypoints::parse(b"[[[1, 2, 3]], [[1, 2, 3], [4, 5, 6]]]", KeypointFormat::Json)
        .unwrap_err();
    assert_eq!(err.field.as_deref(), Some("[1]"));
    let err = Keypoints::parse(b"[[[1, 2, 3]],\n [[1, 2,", KeypointFormat::Json).unwrap_err();
    assert!(matches!(err.location, Some(Location::Line { line: 2, .. })), "{err}");
    assert_eq!(kind(Keypoints::parse(b"[]", KeypointFormat::Json)), KeypointErrorKind::NoFrames);
    assert_eq!(
        kind(Keypoints::parse(b"[[null]]", KeypointFormat::Json)),
        KeypointErrorKind::AllMissing
    );
    let mut k = sample();
    k.units = Some(crate::keypoints::Units::Metres);
    let mut bytes = Vec::new();
    k.write_json(&mut bytes).unwrap();
    let back = Keypoints::parse(&bytes, KeypointFormat::Json).unwrap();
    assert!(same_positions(&back.positions, &k.positions));
    assert_eq!(
        (back.names, back.confidence, back.fps, back.units),
        (k.names, k.confidence, k.fps, k.units)
    );
}

/// A `.pose` v0.2 file: one component of `points` 3-D points, 2 people, frames as given.
pub(super) fn pose_file(
    component: &str,
    width: u16,
    height: u16,
    frames: &[[[f32; 4]; 2]],
) -> Vec<u8> {
    let mut out = 0.2f32.to_le_bytes().to_vec();
    for v in [width, height, 0, 1] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for s in [component, "XYZC"] {
        out.extend_from_slice(&(s.len() as u16).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    }
    for v in [1u16, 1, 1] {
        out.extend_from_slice(&v.to_le_bytes()); // one point, one limb, one colour
    }
    out.extend_from_slice(&1u16.to_le_bytes());
    out.push(b'P');
    out.extend_from_slice(&[0; 4]); // limb
    out.extend_from_slice(&[0; 6]); // colour
    out.extend_from_slice(&25.0f32.to_le_bytes());
    out.extend_from_slice(&(frames.len() as u32).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    for frame in frames {
        for person in frame {
            out.extend(person[..3].iter().flat_map(|v| v.to_le_bytes()));
        }
    }
    for frame in frames {
        for person in frame {
            out.extend_from_slice(&person[3].to_le_bytes());
        }
    }
    out
}

#[test]
fn keypoints_pose_unscales_world_landmarks_and_masks_zero_confidence() {
    let frames =
        [[[100.0, 50.0, 0.5, 0.9], [9.0, 9.0, 9.0, 1.0]], [[1.0, 1.0, 1.0, 0.0], [9.0; 4]]];
    let bytes = pose_file("POSE_WORLD_LANDMARKS", 200, 100, &frames);
    assert_eq!(KeypointFormat::detect(&bytes), Some(KeypointFormat::Pose));
    let k = Keypoints::parse(&bytes, KeypointFormat::Pose).unwrap();
    assert_eq!((k.frame_count, k.joint_count, k.fps), (2, 1, Some(25.0)));
    assert_eq!(k.positions[0], Vec3::new(0.5, 0.5, 0.5));
    assert!(k.positions[1].is_nan());
    assert_eq!(k.confidence, Some(vec![0.9, 0.0]));
    assert_eq!(k.names, Some(vec!["P".to_string()]));
    // Other components are not unscaled, and a missing component is named.
    let pixels = Keypoints::parse_pose_component(
        &pose_file("POSE_LANDMARKS", 200, 100, &frames),
        "POSE_LANDMARKS",
    )
    .unwrap();
    assert_eq!(pixels.positions[0], Vec3::new(100.0, 50.0, 0.5));
    let err =
        Keypoints::parse(&pose_file("HAND", 1, 1, &frames), KeypointFormat::Pose).unwrap_err();
    assert!(
        err.to_string().contains("no POSE_WORLD_LANDMARKS component (there are HAND)"),
        "{err}"
    );
    // Every cut is an error, never a panic; a frame count past the data is refused up front.
    for len in 0..bytes.len() {
        assert!(Keypoints::parse(&bytes[..len], KeypointFormat::Pose).is_err(), "cut at {len}");
    }
    let mut lying = bytes.clone();
    let count_at = bytes.len() - 2 * 2 * 16 - 2 - 4;
    lying[count_at..count_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = Keypoints::parse(&lying, KeypointFormat::Pose).unwrap_err();
    assert_eq!(err.category(), Category::Truncated);
}

#[test]
fn keypoints_trc_reads_header_markers_and_blank_cells() {
    let text = "PathFileType\t4\t(X/Y/Z)\tx.trc\n\
                DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\n\
                100\t100\t2\t2\tmm\n\
                Frame#\tTime\tA\t\t\tB\t\t\n\
                \t\tX1\tY1\tZ1\tX2\tY2\tZ2\n\
                \n\
                1\t0\t1\t2\t3\t4\t5\t6\n\
                2\t0.01\t\t\t\t7\t8\t9\n\
                3\t0.02\t1\t2\t3\n";
    let k = Keypoints::parse(text.as_bytes(), KeypointFormat::Trc).unwrap();
    assert_eq!((k.frame_count, k.joint_count, k.fps), (3, 2, Some(100.0)));
    assert_eq!(k.units, Some(crate::keypoints::Units::Millimetres));
    assert_eq!(k.names, Some(vec!["A".to_string(), "B".to_string()]));
    assert!(k.positions[2].is_nan() && k.positions[5].is_nan());
    assert_eq!(k.positions[3], Vec3::new(7.0, 8.0, 9.0));
    let bad = text.replace("7\t8", "7\tx");
    let err = Keypoints::parse(bad.as_bytes(), KeypointFormat::Trc).unwrap_err();
    assert_eq!(
        (err.location, err.field.as_deref()),
        (Some(Location::Line { line: 8, column: Some(7) }), Some("BY"))
    );
    let wrong_count = text.replace("100\t100\t2\t2", "100\t100\t2\t3");
    let err = Keypoints::parse(wrong_count.as_bytes(), KeypointFormat::Trc).unwrap_err();
    assert_eq!(err.field.as_deref(), Some("NumMarkers"));
}

#[test]
fn keypoints_write_file_reads_back_through_read_file() {
    let dir = std::env::temp_dir().join(format!("vmdkit-keypoints-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let k = sample();
    for format in [KeypointFormat::Npy, KeypointFormat::Csv, KeypointFormat::Json] {
        let path = dir.join(format!("k.{}", format.extension()));
        match k.write_file(&path, format) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Unsupported => continue, // feature off
            Err(e) => panic!("{format}: {e}"),
        }
        let back = Keypoints::read_file(&path).unwrap();
        assert!(same_positions(&back.positions, &k.positions), "{format}");
    }
    assert!(k.write_file(&dir.join("k.trc"), KeypointFormat::Trc).is_err());
    let missing = Keypoints::read_file(&dir.join("none.csv")).unwrap_err();
    assert_eq!(missing.category(), Category::Io);
    std::fs::remove_dir_all(&dir).unwrap();
}
