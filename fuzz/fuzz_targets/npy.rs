//! Reads arbitrary bytes as an NPY array and as an NPZ archive of them, the two containers
//! whose headers state sizes the data must then justify: a header's shape, dtype and order, an
//! archive's member names and inflated sizes. Refusing is fine; panicking, aborting on an
//! allocation, or allocating beyond what the bytes justify is not (libFuzzer's malloc limit
//! catches the last). Every array that reads has the shape its positions fill.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::keypoints::{KeypointFormat, Keypoints};

fuzz_target!(|data: &[u8]| {
    for format in [KeypointFormat::Npy, KeypointFormat::Npz] {
        match Keypoints::parse(data, format) {
            Ok(k) => {
                assert!(k.frame_count > 0 && k.joint_count > 0);
                assert_eq!(k.positions.len(), k.frame_count * k.joint_count);
                // Three f32 per position: never more than an uncompressed file could hold
                // at one byte per value, nor more than a deflated member could inflate to.
                let values = k.positions.len() as u64 * 3;
                assert!(values <= 1032 * data.len() as u64 + 3, "{values} values from {} bytes", data.len());
            }
            Err(err) => assert!(!err.to_string().is_empty()),
        }
    }
});
