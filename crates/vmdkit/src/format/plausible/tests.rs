use super::*;
use crate::format::{scan_layout, ReadOptions};

/// The checks are only as good as their silence on real files: every record of every corpus
/// VMD that reads strictly must pass them, or lenient reading would discard real keys.
#[test]
fn plausible_corpus_records_have_no_defect() {
    let Some(manifest) = test_corpus::corpus_or_skip("plausible_corpus_records_have_no_defect")
    else {
        return;
    };
    let (mut files, mut records) = (0, 0u64);
    let mut failures = Vec::new();
    for entry in manifest.of_kind("vmd") {
        let data = entry.bytes();
        let Ok((layout, _)) = scan_layout(&data, ReadOptions::STRICT) else { continue };
        files += 1;
        let mut verdict = Verdict::default();
        let mut frames_seen = None;
        for (i, span) in layout.sections.iter().enumerate() {
            // The frame scale is judged as lenient reading judges it: against what came before.
            let limit = frame_limit(frames_seen);
            let section = Section::ALL[i];
            let before = verdict.records;
            verdict.add_section(&data, section, span.start, span.count, limit);
            records += verdict.records - before;
            if let Some((offset, defect)) = verdict.hard.take() {
                failures.push(format!("{} {section} at {offset}: {defect}", entry.local_path));
            }
            frames_seen = frames_seen.max(last_frame_of(&data, span, i));
        }
        if verdict.soft > 0 {
            failures.push(format!("{}: {:?}", entry.local_path, verdict.first_soft));
        }
    }
    println!("{files} files, {records} records checked");
    assert!(files >= 100, "only {files} corpus VMDs read");
    assert!(
        failures.is_empty(),
        "{} defects in real files:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn bone(name: &[u8], frame: u32, rotation: [f32; 4]) -> Vec<u8> {
    let mut b = vec![0u8; 111];
    b[..name.len()].copy_from_slice(name);
    b[15..19].copy_from_slice(&frame.to_le_bytes());
    for (i, x) in rotation.iter().enumerate() {
        b[31 + 4 * i..35 + 4 * i].copy_from_slice(&x.to_le_bytes());
    }
    b
}

#[test]
fn defects_name_the_field_and_value() {
    let ok = bone("センター".as_bytes(), 10, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(defect(Section::Bone, &ok, 1000), None);
    let d = defect(Section::Bone, &bone(b"", 10, [0.0, 0.0, 0.0, 1.0]), 1000).unwrap();
    assert!(d.hard && d.what == "empty name", "{d:?}");
    let d = defect(Section::Bone, &bone(b"\x1e\x01", 10, [0.0, 0.0, 0.0, 1.0]), 1000).unwrap();
    assert!(d.hard && d.what.starts_with("name bytes"), "{d:?}");
    let d = defect(Section::Bone, &bone(b"a", 10, [0.0, 0.0, 3.0, 1.0]), 1000).unwrap();
    assert!(d.hard && d.what.starts_with("rotation"), "{d:?}");
    let d = defect(Section::Bone, &bone(b"a", 10, [0.0, 0.0, f32::NAN, 1.0]), 1000).unwrap();
    assert!(d.hard, "{d:?}");
    // A far frame is only a doubt.
    let d = defect(Section::Bone, &bone(b"a", 5000, [0.0, 0.0, 0.0, 1.0]), 1000).unwrap();
    assert!(!d.hard && d.what.starts_with("frame 5000"), "{d:?}");

    let mut morph = vec![0u8; 23];
    morph[..1].copy_from_slice(b"a");
    morph[19..23].copy_from_slice(&4.9e24f32.to_le_bytes());
    assert_eq!(defect(Section::Morph, &morph, 1000).unwrap().what, "weight 4.9e24");
    let mut shadow = vec![0u8; 9];
    shadow[4] = 3;
    assert_eq!(defect(Section::SelfShadow, &shadow, 1000).unwrap().what, "mode 3");
    shadow[4] = 1;
    assert_eq!(defect(Section::SelfShadow, &shadow, 1000), None);
}
