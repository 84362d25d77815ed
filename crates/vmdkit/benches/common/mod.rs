//! Inputs shared by the benchmarks and the peak-memory example: the largest corpus motion and a
//! ~200 MB motion built in memory by repeating a corpus dance's keys with shifted frame numbers.
//!
//! The large motion is assembled byte by byte here, not with vmdkit's writer, so a writer bug
//! cannot change what the readers are measured on.

#![allow(dead_code)]

use std::path::PathBuf;

/// The dance whose bone and morph keys are repeated (1.6 MB: 14160 bone, 1279 morph keys).
pub const DANCE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
/// About how large the repeated motion is.
pub const LARGE_TARGET_BYTES: usize = 200_000_000;

const HEADER_LEN: usize = 50; // v2: 30-byte signature + 20-byte model name
const BONE: usize = 111;
const MORPH: usize = 23;

/// The largest VMD of the shared corpus (name, bytes), or `None` when the corpus is missing.
pub fn largest_corpus_vmd() -> Option<(String, Vec<u8>)> {
    let manifest = test_corpus::corpus_or_skip("bench: largest corpus VMD")?;
    let entry = manifest.largest("vmd");
    Some((entry.local_path.clone(), entry.bytes()))
}

/// The dance file's path in the corpus, or `None` when the corpus is missing.
pub fn dance_path() -> Option<PathBuf> {
    let manifest = test_corpus::corpus_or_skip("bench: 200 MB motion")?;
    let entry = manifest.entries.iter().find(|e| e.local_path == DANCE).expect("dance in manifest");
    Some(entry.path.clone())
}

/// A v2 motion of about [`LARGE_TARGET_BYTES`]: the dance's bone keys, then its morph keys,
/// repeated with each copy's frames shifted past the previous copy's last frame. The camera,
/// light, self-shadow and property sections are present and empty, as MMD writes them.
pub fn large_motion() -> Option<Vec<u8>> {
    let dance = std::fs::read(dance_path()?).expect("read dance");
    Some(repeat_keys(&dance, LARGE_TARGET_BYTES))
}

/// Repeats `vmd`'s bone and morph records until the result reaches about `target` bytes.
pub fn repeat_keys(vmd: &[u8], target: usize) -> Vec<u8> {
    assert!(vmd.starts_with(b"Vocaloid Motion Data 0002"), "a v2 VMD");
    let u32_at = |at: usize| u32::from_le_bytes(vmd[at..at + 4].try_into().unwrap());
    let bones_at = HEADER_LEN + 4;
    let n_bones = u32_at(HEADER_LEN) as usize;
    let bones = &vmd[bones_at..bones_at + n_bones * BONE];
    let morphs_at = bones_at + bones.len() + 4;
    let n_morphs = u32_at(morphs_at - 4) as usize;
    let morphs = &vmd[morphs_at..morphs_at + n_morphs * MORPH];

    let frame_of = |record: &[u8]| u32::from_le_bytes(record[15..19].try_into().unwrap());
    let last_frame = bones.chunks_exact(BONE).chain(morphs.chunks_exact(MORPH)).map(frame_of).max();
    let period = last_frame.unwrap_or(0) + 1;
    let copies = target.div_ceil(bones.len() + morphs.len()).max(1);

    let len = HEADER_LEN + 6 * 4 + copies * (bones.len() + morphs.len());
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(&vmd[..HEADER_LEN]);
    for (records, size, n) in [(bones, BONE, n_bones), (morphs, MORPH, n_morphs)] {
        out.extend_from_slice(&((n * copies) as u32).to_le_bytes());
        for copy in 0..copies as u32 {
            for record in records.chunks_exact(size) {
                let start = out.len();
                out.extend_from_slice(record);
                let frame = frame_of(record) + copy * period;
                out[start + 15..start + 19].copy_from_slice(&frame.to_le_bytes());
            }
        }
    }
    out.extend_from_slice(&[0; 16]); // camera, light, self-shadow, property: 0 keys
    assert_eq!(out.len(), len);
    out
}
