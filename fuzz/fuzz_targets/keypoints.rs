//! Parses arbitrary bytes as every keypoint format (and as each `.pose` component name the
//! input suggests), checks the shape invariants of every success and the error of every
//! failure, and writes each success back as NPY (and CSV and JSON) to read it again: the same
//! shape and the same values, NaN staying NaN.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::keypoints::{KeypointError, KeypointFormat, Keypoints, Location};

fn check_shape(k: &Keypoints) {
    assert!(k.frame_count > 0 && k.joint_count > 0);
    assert_eq!(k.positions.len(), k.frame_count * k.joint_count);
    if let Some(c) = &k.confidence {
        assert_eq!(c.len(), k.positions.len());
    }
    if let Some(n) = &k.names {
        assert_eq!(n.len(), k.joint_count);
    }
}

fn check_error(err: &KeypointError, format: KeypointFormat, data: &[u8]) {
    assert!(!err.to_string().is_empty());
    // NPZ offsets count from the start of the (decompressed) archive member, not the input.
    if let (Some(Location::Offset(offset)), false) = (err.location, format == KeypointFormat::Npz) {
        assert!(offset <= data.len() as u64, "{err}: offset past the end ({})", data.len());
    }
}

fn same_f32(a: f32, b: f32) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Positions as written and read back agree: same shape, same values, NaN for NaN.
fn same_positions(a: &Keypoints, b: &Keypoints) -> bool {
    a.frame_count == b.frame_count
        && a.joint_count == b.joint_count
        && a.positions
            .iter()
            .zip(&b.positions)
            .all(|(p, q)| p.to_array().iter().zip(q.to_array()).all(|(&x, y)| same_f32(x, y)))
}

/// The same through a text format, which has no infinities: a joint with every coordinate
/// finite reads back exactly, any other reads back missing (not finite).
fn same_finite_positions(a: &Keypoints, b: &Keypoints) -> bool {
    a.frame_count == b.frame_count
        && a.joint_count == b.joint_count
        && a.positions.iter().zip(&b.positions).all(|(p, q)| {
            if p.is_finite() {
                p == q
            } else {
                !q.is_finite()
            }
        })
}

/// Names the wide CSV can carry through its `<name>_x` headers unchanged.
fn plain_names(k: &Keypoints) -> bool {
    let Some(names) = &k.names else { return true };
    let mut seen = std::collections::HashSet::new();
    names.iter().all(|n| {
        !n.is_empty()
            && n.chars().all(|c| c.is_ascii_alphanumeric())
            && seen.insert(n.to_ascii_lowercase())
    })
}

fn round_trip(k: &Keypoints) {
    let mut npy = Vec::new();
    k.write_npy(&mut npy).unwrap();
    let back = Keypoints::parse(&npy, KeypointFormat::Npy)
        .unwrap_or_else(|e| panic!("written NPY does not read: {e}"));
    assert!(same_positions(k, &back), "NPY round trip changes the positions");
    assert_eq!(KeypointFormat::detect(&npy), Some(KeypointFormat::Npy));

    let mut json = Vec::new();
    k.write_json(&mut json).unwrap();
    let back = Keypoints::parse(&json, KeypointFormat::Json)
        .unwrap_or_else(|e| panic!("written JSON does not read: {e}"));
    assert!(same_finite_positions(k, &back), "JSON round trip changes the positions");

    if plain_names(k) {
        let mut csv = Vec::new();
        k.write_csv(&mut csv).unwrap();
        let back = Keypoints::parse(&csv, KeypointFormat::Csv)
            .unwrap_or_else(|e| panic!("written CSV does not read: {e}"));
        assert!(same_finite_positions(k, &back), "CSV round trip changes the positions");
    }
}

fuzz_target!(|data: &[u8]| {
    let detected = KeypointFormat::detect(data);
    let guessed = KeypointFormat::guess(data, None);
    if let Some(d) = detected {
        assert_eq!(guessed, d);
    }
    for format in KeypointFormat::ALL {
        match Keypoints::parse(data, format) {
            Ok(k) => {
                check_shape(&k);
                round_trip(&k);
            }
            Err(err) => check_error(&err, format, data),
        }
    }
    for component in ["POSE_LANDMARKS", "FACE_LANDMARKS", "LEFT_HAND_LANDMARKS", ""] {
        match Keypoints::parse_pose_component(data, component) {
            Ok(k) => check_shape(&k),
            Err(err) => check_error(&err, KeypointFormat::Pose, data),
        }
    }
});
