//! Every VMD in the shared corpus: counts as the manifest says, byte-identical round trips, and
//! the damaged or quirky files recovered by lenient reading.

use test_corpus::{corpus_or_skip, Entry};
use vmdkit::{ErrorKind, Motion, MotionView, ReadOptions};
use vmdkit::{Repair, Section};

const COUNT_COLUMNS: [(Section, &str); 6] = [
    (Section::Bone, "bone"),
    (Section::Morph, "morph"),
    (Section::Camera, "camera"),
    (Section::Light, "light"),
    (Section::SelfShadow, "shadow"),
    (Section::Property, "property"),
];

fn assert_counts_match(entry: &Entry, motion: &Motion) {
    for (section, column) in COUNT_COLUMNS {
        let expected = entry.count(column);
        let present = (section as usize) < motion.sections_present;
        assert_eq!(present, expected.is_some(), "{}: {section} presence", entry.local_path);
        assert_eq!(
            motion.count(section) as u64,
            expected.unwrap_or(0),
            "{}: {section}",
            entry.local_path
        );
    }
    assert_eq!(motion.trailing.len() as u64, entry.count("trailing_bytes").unwrap_or(0));
    let version = motion.header.version() as u8;
    assert_eq!(version.to_string(), entry.get("vmd_version"), "{}", entry.local_path);
}

#[test]
fn every_readable_vmd_matches_the_manifest_and_round_trips_byte_for_byte() {
    let Some(manifest) = corpus_or_skip("corpus round trip") else { return };
    let mut checked = 0;
    for entry in manifest.of_kind("vmd").filter(|e| e.parse_ok()) {
        let data = entry.bytes();
        let motion = Motion::parse(&data).unwrap_or_else(|e| panic!("{}: {e}", entry.local_path));
        assert_counts_match(entry, &motion);
        assert!(motion.to_bytes() == data, "{}: round trip differs", entry.local_path);
        assert_eq!(motion.encoded_len(), data.len());

        let view = MotionView::new(&data).unwrap();
        assert_eq!(view.bones().len(), motion.bones.len());
        assert!(view.bones().map(|b| b.to_key()).eq(motion.bones.iter().copied()));
        assert_eq!(view.properties().count(), motion.properties.len());

        let from_file = Motion::read_file(&entry.path).unwrap();
        assert_eq!(from_file.to_bytes(), data);
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} corpus VMDs were readable");
    println!("{checked} corpus VMD files round-tripped byte for byte");
}

#[test]
fn damaged_and_quirky_files_fail_strictly_and_are_recovered_leniently() {
    let Some(manifest) = corpus_or_skip("corpus quirks") else { return };
    let mut seen = 0;
    for entry in manifest.of_kind("vmd").filter(|e| !e.parse_ok()) {
        seen += 1;
        let data = entry.bytes();
        let err = Motion::parse(&data).expect_err(&entry.local_path);
        println!("{}: strict: {err}", entry.local_path);
        match Motion::parse_with(&data, ReadOptions::LENIENT) {
            Ok(parsed) => {
                assert!(
                    !parsed.repairs.is_empty(),
                    "{}: lenient read repaired nothing",
                    entry.local_path
                );
                for repair in &parsed.repairs {
                    println!("  lenient: {repair}");
                }
                // What was recovered is a valid file that reads back strictly to the same keys.
                let rewritten = parsed.motion.to_bytes();
                assert_eq!(Motion::parse(&rewritten).unwrap(), parsed.motion);
                check_recovery(entry, &parsed.motion, &parsed.repairs, data.len());
            }
            Err(lenient) => {
                assert!(
                    matches!(
                        lenient.kind,
                        ErrorKind::NotVmd { .. } | ErrorKind::TruncatedHeader { .. }
                    ),
                    "{}: lenient reading failed: {lenient}",
                    entry.local_path
                );
            }
        }
    }
    assert!(seen >= 3, "expected the manifest's damaged files, saw {seen}");
}

/// The recovery must keep every complete record the manifest counted before the damage.
fn check_recovery(entry: &Entry, motion: &Motion, repairs: &[Repair], len: usize) {
    let quirk = format!("{} {}", entry.get("errors"), entry.get("quirk"));
    for repair in repairs {
        match repair {
            Repair::Undercounted { section, declared: 0, recovered, .. } => {
                let wanted = format!("{} count 0 but {recovered} records follow", section.name());
                assert!(
                    quirk.contains(&wanted),
                    "{}: {repair} vs manifest {quirk:?}",
                    entry.local_path
                );
            }
            Repair::Truncated { section, declared, kept, dropped_bytes, .. } => {
                let fits = motion.encoded_len() as u64 + dropped_bytes;
                assert_eq!(fits, len as u64, "{}: bytes unaccounted for", entry.local_path);
                assert!(kept < declared);
                assert_eq!(motion.count(*section), *kept as usize);
            }
            _ => {}
        }
    }
    // Sections before the damage keep the manifest's counts.
    let first_repaired = repairs
        .iter()
        .filter_map(|r| match r {
            Repair::Undercounted { section, .. } | Repair::Truncated { section, .. } => {
                Some(*section)
            }
            _ => None,
        })
        .min()
        .unwrap_or(Section::Property);
    for (section, column) in COUNT_COLUMNS.iter().take_while(|(s, _)| *s < first_repaired) {
        let Some(expected) = entry.count(column) else { continue };
        assert_eq!(motion.count(*section) as u64, expected, "{}: {section}", entry.local_path);
    }
}

#[test]
fn a_non_vmd_in_the_corpus_is_a_clear_error() {
    let Some(manifest) = corpus_or_skip("corpus non-VMD") else { return };
    let entry = manifest.entries.iter().find(|e| e.get("errors") == "unknown signature").unwrap();
    let err = Motion::parse(&entry.bytes()).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::NotVmd { .. }), "{err}");
    assert!(err.to_string().contains("unknown signature"), "{err}");
}

/// Every file of the shared corpus and pose folders is named by `FileKind` for what it is, read
/// in place (only the first `DETECT_BYTES` of each).
#[test]
fn file_kinds_of_real_files() {
    use std::io::Read;
    use vmdkit::{FileKind, DETECT_BYTES};
    let head = |path: &std::path::Path| {
        let mut bytes = Vec::new();
        let file = std::fs::File::open(path).unwrap();
        file.take(DETECT_BYTES as u64).read_to_end(&mut bytes).unwrap();
        FileKind::detect(&bytes)
    };
    let Some(manifest) = corpus_or_skip("file_kinds_of_real_files") else { return };
    for entry in &manifest.entries {
        let expected = match entry.kind() {
            "vmd" => FileKind::Vmd,
            "pmx" => FileKind::Pmx,
            "pmd" => FileKind::Pmd,
            "vpd" => FileKind::Vpd,
            _ => continue,
        };
        // Damaged files keep their kind unless their signature is what is damaged.
        let kind = head(&entry.path);
        if entry.parse_ok() {
            assert_eq!(kind, expected, "{}", entry.local_path);
        }
    }
    let pose = test_corpus::pose_dir();
    let Ok(listing) = std::fs::read_to_string(pose.join("MANIFEST.tsv")) else { return };
    // What each file is, by its name; files whose name says nothing are only detected.
    let expected = |name: &str| match name.rsplit('.').next()? {
        "bvh" => Some(FileKind::Bvh),
        "png" => Some(FileKind::Png),
        "jpg" | "jpeg" => Some(FileKind::Jpeg),
        "trc" => Some(FileKind::Trc),
        "pose" => Some(FileKind::Pose),
        "vmd" => Some(FileKind::Vmd),
        "mp4" => Some(FileKind::Binary),
        "md" => Some(FileKind::Text),
        _ if name.ends_with("_landmarks.json") => Some(FileKind::KeypointJson),
        _ if name.ends_with("born.csv") => Some(FileKind::BoneCsv),
        _ if name.ends_with("landmarks.csv") || name.ends_with("posfile.csv") => {
            Some(FileKind::KeypointCsv)
        }
        _ => None,
    };
    let mut checked = 0;
    for name in listing.lines().skip(1).filter_map(|l| l.split('\t').next()) {
        let kind = head(&pose.join(name));
        if let Some(expected) = expected(name) {
            assert_eq!(kind, expected, "{name}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} pose files checked");
}
