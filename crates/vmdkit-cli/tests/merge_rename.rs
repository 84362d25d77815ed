//! `merge` keeps identical keys once, and `rename --to-english` / `--to-japanese` keep every
//! key of real dances with fingers, on corpus files read in place.

mod common;

use common::{assert_no_panic, vmdkit};
use std::path::PathBuf;
use test_corpus::corpus_or_skip;
use vmdkit::Motion;

const GREET: &str = "mmdagent__mmdagent-mirror/4d8f8e0b__MMDAgent_Example__Motion__mei_greeting__mei_greeting.vmd";
const WAVE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const BIG: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";

fn corpus_file(test: &str, name: &str) -> Option<PathBuf> {
    let manifest = corpus_or_skip(test)?;
    let path = manifest.dir.join(name);
    assert!(path.is_file(), "{test}: {} is missing from the corpus", path.display());
    Some(path)
}

#[test]
fn merging_a_file_with_itself_keeps_each_key_once() {
    let Some(greet) = corpus_file("merge A A", GREET) else {
        return;
    };
    let motion = Motion::read_file(&greet).unwrap();
    // The file repeats one morph key 78 times: duplicates inside a file stay as they are.
    assert_eq!(motion.morphs.len(), 98);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("twice.vmd");
    let output = vmdkit().arg("merge").arg(&greet).arg(&greet).arg("-o").arg(&out).output().unwrap();
    assert_no_panic(&output);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("{}: 456 bone, 98 morph keys\n", out.display())), "{stderr}");
    assert!(stderr.contains("456 bone, 98 morph keys dropped: identical to keys of earlier files"), "{stderr}");
    assert!(!stderr.contains("overrode"), "{stderr}");
    let merged = Motion::read_file(&out).unwrap();
    assert_eq!(merged.bones, motion.bones);
    assert_eq!(merged.morphs, motion.morphs);
    assert_eq!(merged.properties, motion.properties);
}

#[test]
fn merging_keys_that_differ_lets_the_later_file_win_and_counts_them() {
    let Some(greet) = corpus_file("merge override", GREET) else {
        return;
    };
    let motion = Motion::read_file(&greet).unwrap();
    let mut fixes = Motion::new(motion.header.model_name);
    let mut key = motion.bones[0];
    key.translation.x += 1.0;
    fixes.bones.push(key);
    fixes.bones.push(motion.bones[1]);
    let dir = tempfile::tempdir().unwrap();
    let fixes_path = dir.path().join("fixes.vmd");
    fixes.write_file(&fixes_path).unwrap();
    let out = dir.path().join("fixed.vmd");
    let output =
        vmdkit().arg("merge").arg(&greet).arg(&fixes_path).arg("-o").arg(&out).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("fixes.vmd: 1 bone keys dropped: identical"), "{stderr}");
    assert!(stderr.contains("fixes.vmd: 1 bone keys overrode different keys"), "{stderr}");
    let merged = Motion::read_file(&out).unwrap();
    assert_eq!(merged.bones.len(), motion.bones.len());
    assert_eq!(merged.bones[0], key);
}
