//! Damaged input: cut files, flipped bytes, overwritten counts and files that are not VMDs at
//! all. Reading must give a motion or a typed error, never a panic, in strict and lenient mode;
//! lenient reading of a cut file keeps every complete record; a huge count is rejected before
//! anything is allocated for it.
//!
//! Corpus files are read in place (test-corpus); nothing derived from them is stored here.

use crate::common::read_checks;

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use read_checks::same;
use test_corpus::alloc::largest_allocation;
use test_corpus::{corpus_or_skip, Entry, Manifest};
use vmdkit::{Error, ErrorKind, Motion, MotionView, ReadOptions};
use vmdkit::{Layout, Repair, Section};

// ---------------------------------------------------------------------------------------------
// Helpers

/// Parses strictly and leniently, walks every record of both views, and checks what holds for
/// any input: no panic; a strict success round-trips to the input; a lenient success rewrites
/// to bytes that parse strictly to the same motion; lenient reading only fails in the header;
/// errors point inside the input and say where they are.
fn check_any(what: &str, data: &[u8]) -> (Result<Motion, Error>, Result<vmdkit::Parsed, Error>) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let strict = Motion::parse(data);
        let lenient = Motion::parse_with(data, ReadOptions::LENIENT);
        let strict_view = MotionView::new(data);
        let lenient_view = MotionView::with_options(data, ReadOptions::LENIENT);
        (strict, lenient, strict_view.map(|v| walk(&v)), lenient_view.map(|v| walk(&v)))
    }));
    let Ok((strict, lenient, strict_walk, lenient_walk)) = result else {
        panic!(
            "{what}: reading {} bytes panicked: {:02x?}",
            data.len(),
            &data[..data.len().min(200)]
        );
    };
    match &strict {
        Ok(motion) => {
            assert!(motion.to_bytes() == data, "{what}: strict read does not round-trip");
            assert_eq!(
                strict_walk.as_ref().ok(),
                Some(&total_records(motion)),
                "{what}: view record count"
            );
        }
        Err(err) => {
            assert_eq!(strict_walk.as_ref().err(), Some(err), "{what}: view and motion disagree");
            check_error_location(what, err, data);
        }
    }
    match &lenient {
        Ok(parsed) => {
            let rewritten = parsed.motion.to_bytes();
            let reparsed = Motion::parse(&rewritten).unwrap_or_else(|e| {
                panic!("{what}: lenient result rewritten does not parse strictly: {e}")
            });
            assert!(reparsed.to_bytes() == rewritten, "{what}: lenient rewrite is not stable");
            assert!(
                same(&reparsed, &parsed.motion),
                "{what}: lenient rewrite parses to a different motion"
            );
            if !has_nan(&parsed.motion) {
                assert_eq!(
                    reparsed, parsed.motion,
                    "{what}: lenient rewrite parses to a different motion"
                );
            }
            assert_eq!(lenient_walk.as_ref().ok(), Some(&total_records(&parsed.motion)), "{what}");
            if let Ok(motion) = &strict {
                assert!(parsed.repairs.is_empty(), "{what}: repairs on a valid file");
                assert!(same(&parsed.motion, motion), "{what}: lenient differs from strict");
            }
        }
        Err(err) => {
            assert!(strict.is_err(), "{what}: lenient fails where strict succeeds");
            assert!(
                matches!(err.kind, ErrorKind::NotVmd { .. } | ErrorKind::TruncatedHeader { .. }),
                "{what}: lenient reading failed past the header: {err}"
            );
            assert!(!err.lenient_may_help());
            check_error_location(what, err, data);
        }
    }
    (strict, lenient)
}

/// Touches every accessor of every record; returns the number of records.
fn walk(view: &MotionView<'_>) -> usize {
    let mut n = 0;
    for b in view.bones() {
        let key = b.to_key();
        assert_eq!(
            (b.name(), b.frame(), b.interpolation()),
            (&key.name, key.frame, &key.interpolation.0)
        );
        assert_eq!(
            b.translation().to_array().map(f32::to_bits),
            key.translation.to_array().map(f32::to_bits)
        );
        assert_eq!(
            b.rotation().to_array().map(f32::to_bits),
            key.rotation.to_array().map(f32::to_bits)
        );
        n += 1;
    }
    for m in view.morphs() {
        let key = m.to_key();
        assert_eq!(
            (m.name(), m.frame(), m.weight().to_bits()),
            (&key.name, key.frame, key.weight.to_bits())
        );
        n += 1;
    }
    for c in view.cameras() {
        assert_eq!(c.frame(), c.to_key().frame);
        n += 1;
    }
    for l in view.lights() {
        assert_eq!(l.frame(), l.to_key().frame);
        n += 1;
    }
    for s in view.shadows() {
        assert_eq!(s.frame(), s.to_key().frame);
        n += 1;
    }
    for p in view.properties() {
        let key = p.to_key();
        assert_eq!(
            (p.frame(), p.visible_byte(), p.ik().len()),
            (key.frame, key.visible_byte, key.ik.len())
        );
        assert_eq!(p.0.len(), key.encoded_len());
        n += 1;
    }
    let _ = (view.header(), view.trailing(), view.layout(), view.repairs());
    for section in Section::ALL {
        let _ = view.count(section);
    }
    n
}

fn total_records(motion: &Motion) -> usize {
    Section::ALL.iter().map(|&s| motion.count(s)).sum()
}

fn has_nan(m: &Motion) -> bool {
    m.bones.iter().any(|k| k.translation.is_nan() || k.rotation.is_nan())
        || m.morphs.iter().any(|k| k.weight.is_nan())
        || m.cameras.iter().any(|k| k.distance.is_nan() || k.target.is_nan() || k.rotation.is_nan())
        || m.lights.iter().any(|k| k.color.is_nan() || k.direction.is_nan())
        || m.shadows.iter().any(|k| k.distance.is_nan())
}

/// The error's offset lies in the input, and its message names the section, record and offset.
fn check_error_location(what: &str, err: &Error, data: &[u8]) {
    assert!(
        err.offset <= data.len() as u64,
        "{what}: offset {} past the end ({})",
        err.offset,
        data.len()
    );
    let text = err.to_string();
    assert!(text.contains(&format!("byte offset {}", err.offset)), "{what}: {text}");
    match err.section {
        Some(section) => {
            assert!(text.contains(&format!("{} section", section.name())), "{what}: {text}")
        }
        None => assert!(text.starts_with("header"), "{what}: {text}"),
    }
    if let Some(record) = err.record {
        assert!(text.contains(&format!("record {record}")), "{what}: {text}");
    }
}

/// Where each property record of a valid file ends.
fn property_record_ends(data: &[u8], layout: &Layout) -> Vec<usize> {
    let view = MotionView::new(data).unwrap();
    let mut pos = layout.span(Section::Property).map_or(0, |s| s.start);
    view.properties()
        .map(|p| {
            pos += p.0.len();
            pos
        })
        .collect()
}

/// What prefixes of one file showed, for the summary line.
#[derive(Default, Debug)]
struct PrefixStats {
    prefixes: usize,
    strict_ok: usize,
    truncated: usize,
    cut_count: usize,
    /// Cuts in a section after the bone section that lenient reading took for an undercounted
    /// earlier section (see `check_prefix`).
    reinterpreted: usize,
    /// Explanations considered and rejected (reported as [`Repair::Rejected`]).
    rejected: usize,
}

/// Checks the prefix `full[..len]` of a valid file against what the full file's layout says
/// about where the cut falls.
fn check_prefix(name: &str, full: &Full, len: usize, stats: &mut PrefixStats) {
    let (layout, keys, full) = (&full.layout, &full.keys, &full.bytes[..]);
    let data = &full[..len];
    let what = format!("{name} cut at {len}");
    let (strict, lenient) = check_any(&what, data);
    stats.prefixes += 1;
    if let Ok(parsed) = &lenient {
        assert_no_invented_keys(&what, keys, &parsed.motion);
        stats.rejected +=
            parsed.repairs.iter().filter(|r| matches!(r, Repair::Rejected { .. })).count();
    }
    let lenient = lenient.map(|mut parsed| {
        // What was considered and rejected is reported first; the checks below are of the
        // repair chosen.
        parsed.repairs.retain(|r| !matches!(r, Repair::Rejected { .. }));
        parsed
    });
    let header_len = layout.version.header_len();
    if len < header_len {
        let err = strict.expect_err(&what);
        let lenient_err = lenient.map(|_| ()).expect_err(&what);
        if len == 0 {
            assert!(matches!(err.kind, ErrorKind::NotVmd { .. }), "{what}: {err}");
        } else {
            assert!(matches!(err.kind, ErrorKind::TruncatedHeader { .. }), "{what}: {err}");
            assert!(
                matches!(lenient_err.kind, ErrorKind::TruncatedHeader { .. }),
                "{what}: {lenient_err}"
            );
        }
        return;
    }
    if len >= layout.end {
        // All sections are there; the rest is a prefix of the trailing bytes.
        let motion = strict.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(motion.sections_present, layout.sections.len(), "{what}");
        assert_eq!(motion.trailing, &full[layout.end..len], "{what}");
        stats.strict_ok += 1;
        return;
    }
    let (index, span) = layout
        .sections
        .iter()
        .enumerate()
        .find(|(_, s)| s.count_offset <= len && len < s.end.max(s.start))
        .unwrap_or_else(|| panic!("{what}: no section holds the cut"));
    let section = Section::ALL[index];
    if len == span.count_offset {
        // A cut at a section boundary is a valid file that ends early.
        let motion = strict.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(motion.sections_present, index, "{what}");
        stats.strict_ok += 1;
        return;
    }
    let err = strict.expect_err(&what);
    assert_eq!(err.section, Some(section), "{what}: {err}");
    let parsed = lenient.unwrap_or_else(|e| panic!("{what}: lenient: {e}"));
    if len < span.start {
        // Inside the 4-byte count: the sections before it are kept, nothing else.
        assert_eq!(
            err.kind,
            ErrorKind::TruncatedCount { available: len - span.count_offset },
            "{what}"
        );
        assert_eq!((err.offset, err.record), (span.count_offset as u64, None), "{what}");
        let cut_count = Repair::CutCount {
            section,
            offset: span.count_offset as u64,
            dropped_bytes: (len - span.count_offset) as u64,
        };
        if parsed.repairs == [cut_count.clone()] {
            assert_eq!(parsed.motion.sections_present, index, "{what}");
            assert!(
                parsed.motion.to_bytes() == full[..span.count_offset],
                "{what}: lenient result"
            );
            stats.cut_count += 1;
        } else {
            assert_reinterpreted(&what, section, &parsed.repairs, &cut_count);
            stats.reinterpreted += 1;
        }
        return;
    }
    // Inside the records: the complete ones, and where the last one ends.
    let (complete, complete_end) = match section.record_size() {
        Some(size) => {
            let n = (len - span.start) / size;
            (n, span.start + n * size)
        }
        None => {
            let ends = property_record_ends(full, layout);
            let n = ends.iter().take_while(|&&end| end <= len).count();
            (n, if n == 0 { span.start } else { ends[n - 1] })
        }
    };
    assert_eq!(err.record, Some(complete as u64), "{what}: {err}");
    assert_eq!(err.offset, complete_end as u64, "{what}: {err}");
    match section.record_size() {
        Some(_) => assert!(matches!(err.kind, ErrorKind::CountTooLarge { .. }), "{what}: {err}"),
        None => assert!(matches!(err.kind, ErrorKind::TruncatedRecord { .. }), "{what}: {err}"),
    }
    let truncated = Repair::Truncated {
        section,
        offset: span.count_offset as u64,
        declared: span.count,
        kept: complete as u32,
        dropped_bytes: (len - complete_end) as u64,
    };
    // Expected lenient result: the file up to the last complete record, with that count.
    let mut expected = full[..complete_end].to_vec();
    expected[span.count_offset..span.count_offset + 4]
        .copy_from_slice(&(complete as u32).to_le_bytes());
    if parsed.repairs == [truncated.clone()] {
        assert!(
            parsed.motion.to_bytes() == expected,
            "{what}: lenient result is not the complete records"
        );
        assert_eq!(parsed.motion.count(section), complete, "{what}");
        stats.truncated += 1;
        return;
    }
    assert_reinterpreted(&what, section, &parsed.repairs, &truncated);
    stats.reinterpreted += 1;
}

/// The only outcome other than keeping the complete records that lenient reading of a cut
/// file may give: the cut makes an *earlier* section look undercounted, because the rest of
/// the prefix happens to parse exactly with a larger count there (e.g. a cut at a record
/// boundary after a section the writer quirk left at 0). That is the quirk lenient reading
/// exists for; it is only taken when its records are real, which `assert_no_invented_keys`
/// checks. A cut inside the bone section has no earlier section, so there every complete
/// record must be kept.
fn assert_reinterpreted(what: &str, section: Section, repairs: &[Repair], expected: &Repair) {
    assert_ne!(section, Section::Bone, "{what}: expected {expected:?}, got {repairs:?}");
    assert!(
        matches!(repairs, [Repair::Undercounted { section: s, .. }] if *s < section),
        "{what}: expected {expected:?} or an earlier section undercounted, got {repairs:?}"
    );
}

/// A valid file whose prefixes are checked.
struct Full {
    bytes: Vec<u8>,
    layout: Layout,
    keys: HashSet<(Section, Vec<u8>)>,
}

fn check_prefixes(entry: &Entry, lengths: impl Iterator<Item = usize>) -> PrefixStats {
    let bytes = entry.bytes();
    let layout = MotionView::new(&bytes).unwrap().layout().clone();
    let keys = key_set(&Motion::parse(&bytes).unwrap());
    let full = Full { bytes, layout, keys };
    let mut stats = PrefixStats::default();
    for len in lengths {
        check_prefix(&entry.local_path, &full, len, &mut stats);
    }
    stats
}

/// Every key of `motion`, as its section and encoded bytes.
fn key_set(motion: &Motion) -> HashSet<(Section, Vec<u8>)> {
    let mut keys = HashSet::new();
    keys.extend(motion.bones.iter().map(|k| (Section::Bone, k.encode().to_vec())));
    keys.extend(motion.morphs.iter().map(|k| (Section::Morph, k.encode().to_vec())));
    keys.extend(motion.cameras.iter().map(|k| (Section::Camera, k.encode().to_vec())));
    keys.extend(motion.lights.iter().map(|k| (Section::Light, k.encode().to_vec())));
    keys.extend(motion.shadows.iter().map(|k| (Section::SelfShadow, k.encode().to_vec())));
    keys.extend(motion.properties.iter().map(|k| {
        let mut bytes = Vec::new();
        k.encode_into(&mut bytes);
        (Section::Property, bytes)
    }));
    keys
}

/// Lenient reading keeps only what the file holds: every key it gives is a key of the file.
fn assert_no_invented_keys(what: &str, full: &HashSet<(Section, Vec<u8>)>, read: &Motion) {
    let invented: Vec<_> = key_set(read).into_iter().filter(|k| !full.contains(k)).collect();
    assert!(
        invented.is_empty(),
        "{what}: {} keys that the full file does not have, e.g. {} {:02x?}",
        invented.len(),
        invented[0].0,
        invented[0].1
    );
}

/// The small readable VMDs of the corpus (at most 2 KiB).
fn small_vmds(manifest: &Manifest) -> Vec<&Entry> {
    let small: Vec<_> = manifest
        .of_kind("vmd")
        .filter(|e| e.parse_ok() && e.get("bytes").parse::<u64>().is_ok_and(|b| b <= 2048))
        .collect();
    assert!(small.len() >= 20, "only {} small VMDs in the corpus", small.len());
    small
}

// ---------------------------------------------------------------------------------------------
// Prefixes

#[test]
fn every_prefix_of_the_small_corpus_files() {
    let Some(manifest) = corpus_or_skip("every prefix of small files") else { return };
    let mut total = PrefixStats::default();
    let small = small_vmds(&manifest);
    for entry in &small {
        let len = entry.bytes().len();
        let stats = check_prefixes(entry, 0..=len);
        total.prefixes += stats.prefixes;
        total.strict_ok += stats.strict_ok;
        total.truncated += stats.truncated;
        total.cut_count += stats.cut_count;
        total.reinterpreted += stats.reinterpreted;
        total.rejected += stats.rejected;
    }
    println!("{} files: {total:?}", small.len());
    assert!(total.truncated > 1000, "{total:?}");
}

#[test]
fn first_5000_prefixes_of_a_mid_size_file() {
    let Some(manifest) = corpus_or_skip("prefixes of a mid-size file") else { return };
    // The smallest readable VMD of at least 10 kB with 50 or more bone keys: its first 5000
    // prefixes are mostly cuts inside the bone section.
    let entry = manifest
        .of_kind("vmd")
        .filter(|e| e.parse_ok() && e.count("bone").unwrap_or(0) >= 50)
        .filter(|e| e.get("bytes").parse::<u64>().is_ok_and(|b| b >= 10_000))
        .min_by_key(|e| (e.get("bytes").parse::<u64>().unwrap(), e.local_path.clone()))
        .expect("a mid-size VMD");
    let stats = check_prefixes(entry, 0..5000);
    println!("{}: {stats:?}", entry.local_path);
    assert!(stats.truncated > 4500, "{stats:?}");
    assert_eq!(stats.reinterpreted, 0);
}

#[test]
fn prefixes_through_the_property_section_and_trailing_bytes() {
    let Some(manifest) = corpus_or_skip("prefixes with properties and trailing bytes") else {
        return;
    };
    // The smallest readable files with IK entries and with trailing bytes: their last 1000
    // prefixes cut the property section and the trailing bytes.
    for column in ["ik_entries", "trailing_bytes"] {
        let entry = manifest
            .of_kind("vmd")
            .filter(|e| e.parse_ok() && e.count(column).unwrap_or(0) > 0)
            .filter(|e| e.get("bytes").parse::<u64>().is_ok_and(|b| b >= 4000))
            .min_by_key(|e| (e.get("bytes").parse::<u64>().unwrap(), e.local_path.clone()))
            .expect("a VMD with the column set");
        let len = entry.bytes().len();
        let stats = check_prefixes(entry, len - 1000..=len);
        println!("{}: {stats:?}", entry.local_path);
    }
}

// ---------------------------------------------------------------------------------------------
// Random damage

/// SplitMix64: a small seeded generator, so that every run checks the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Offsets of every u32 count in a valid file: section counts and property IK counts.
fn count_offsets(data: &[u8]) -> Vec<usize> {
    let view = MotionView::new(data).unwrap();
    let layout = view.layout();
    let mut offsets: Vec<usize> = layout.sections.iter().map(|s| s.count_offset).collect();
    if let Some(span) = layout.span(Section::Property) {
        let mut pos = span.start;
        for p in view.properties() {
            offsets.push(pos + 5);
            pos += p.0.len();
        }
    }
    offsets
}

fn mutate(rng: &mut Rng, original: &[u8], counts: &[usize]) -> (String, Vec<u8>) {
    let mut data = original.to_vec();
    let kind = rng.below(6);
    let what = match kind {
        0 => {
            let flips = 1 + rng.below(4);
            for _ in 0..flips {
                let at = rng.below(data.len());
                data[at] ^= 1 << rng.below(8);
            }
            format!("{flips} bit flips")
        }
        1 => {
            let at = rng.below(data.len());
            let n = (1 + rng.below(8)).min(data.len() - at);
            for b in &mut data[at..at + n] {
                *b = rng.next() as u8;
            }
            format!("{n} random bytes at {at}")
        }
        2 | 3 => {
            let at = counts[rng.below(counts.len())];
            let old = u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
            let value = match rng.below(8) {
                0 => 0,
                1 => old.wrapping_add(1),
                2 => old.wrapping_sub(1),
                3 => old.wrapping_add(1 + rng.below(4) as u32),
                4 => u32::MAX,
                5 => 0x8000_0000 | rng.next() as u32,
                6 => rng.below(2000) as u32,
                _ => rng.next() as u32,
            };
            data[at..at + 4].copy_from_slice(&value.to_le_bytes());
            if kind == 3 {
                let cut = rng.below(data.len() + 1);
                data.truncate(cut);
                format!("count at {at} = {value}, cut at {cut}")
            } else {
                format!("count at {at} = {value}")
            }
        }
        4 => {
            let at = rng.below(data.len() + 1);
            let n = 1 + rng.below(30);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            data.splice(at..at, bytes);
            format!("{n} bytes inserted at {at}")
        }
        _ => {
            let at = rng.below(data.len());
            let n = (1 + rng.below(30)).min(data.len() - at);
            data.drain(at..at + n);
            format!("{n} bytes removed at {at}")
        }
    };
    (what, data)
}

#[test]
fn random_damage_never_panics() {
    let Some(manifest) = corpus_or_skip("random damage") else { return };
    let mut files: Vec<(String, Vec<u8>)> =
        small_vmds(&manifest).iter().map(|e| (e.local_path.clone(), e.bytes())).collect();
    files.push(("example motion".into(), vmdkit::example::example_motion().to_bytes()));
    let mut rng = Rng(0x5EED_0FDA_4A6E);
    let (mut strict_ok, mut lenient_ok, mut total) = (0, 0, 0);
    for (name, original) in &files {
        let counts = count_offsets(original);
        for _ in 0..300 {
            let (how, data) = mutate(&mut rng, original, &counts);
            let (strict, lenient) = check_any(&format!("{name}: {how}"), &data);
            strict_ok += strict.is_ok() as usize;
            lenient_ok += lenient.is_ok() as usize;
            total += 1;
        }
    }
    println!("{total} damaged inputs: {strict_ok} read strictly, {lenient_ok} leniently");
    assert!(lenient_ok > strict_ok && strict_ok > 0);
}

#[test]
fn a_count_of_zero_before_records_is_recovered_exactly() {
    // The writer quirk lenient reading exists for: the count says 0 and the records follow.
    let Some(manifest) = corpus_or_skip("zero counts") else { return };
    let (mut recovered, mut ambiguous) = (0, 0);
    for entry in small_vmds(&manifest) {
        let original = entry.bytes();
        let layout = MotionView::new(&original).unwrap().layout().clone();
        for (index, span) in layout.sections.iter().enumerate() {
            if span.count == 0 {
                continue;
            }
            let mut data = original.clone();
            data[span.count_offset..span.count_offset + 4].fill(0);
            let what = format!("{}: {} count set to 0", entry.local_path, Section::ALL[index]);
            let (strict, lenient) = check_any(&what, &data);
            // Zeroing the last section's count may leave a valid file (its records become
            // trailing bytes or later sections); zeroing any other count cannot.
            if index + 1 < layout.sections.len() {
                assert!(strict.is_err(), "{what}");
            }
            if strict.is_err() {
                let mut parsed = lenient.unwrap();
                parsed.repairs.retain(|r| !matches!(r, Repair::Rejected { .. }));
                assert!(
                    matches!(parsed.repairs.as_slice(), [Repair::Undercounted { declared: 0, .. }]),
                    "{what}: {:?}",
                    parsed.repairs
                );
                if parsed.motion.to_bytes() == original {
                    recovered += 1;
                } else {
                    // Another section's count, raised, also explains the bytes exactly.
                    println!("{what}: ambiguous, read as {:?}", parsed.repairs);
                    ambiguous += 1;
                }
            }
        }
    }
    println!("{recovered} zeroed counts recovered exactly, {ambiguous} read another way");
    assert!(
        recovered >= 20 && ambiguous * 10 <= recovered,
        "{recovered} recovered, {ambiguous} ambiguous"
    );
}

// ---------------------------------------------------------------------------------------------
// Huge counts

fn v2_header() -> Vec<u8> {
    let mut data = b"Vocaloid Motion Data 0002\0\0\0\0\0".to_vec();
    data.extend_from_slice(&vmdkit::LongName::from_bytes_mmd(b"model").0);
    data
}

#[test]
fn a_huge_count_is_rejected_before_any_large_allocation() {
    // Sanity check of the tracker itself: it sees a 2 MB allocation.
    let (_, seen) = largest_allocation(|| Vec::<u8>::with_capacity(2 << 20));
    assert!(seen >= 2 << 20, "the allocation tracker does not work: {seen}");

    for section in 0..6 {
        // A 100-byte file: header, `section` empty sections, then a count of 0xFFFFFFFF.
        let mut data = v2_header();
        data.resize(data.len() + 4 * section, 0);
        data.extend_from_slice(&u32::MAX.to_le_bytes());
        data.resize(100, 0x11);
        let (results, largest) = largest_allocation(|| {
            let strict = Motion::parse(&data);
            let lenient = Motion::parse_with(&data, ReadOptions::LENIENT);
            let view = MotionView::new(&data).map(|v| walk(&v));
            (strict, lenient, view)
        });
        let (strict, lenient, view) = results;
        let what = format!("count 0xFFFFFFFF in the {} section", Section::ALL[section]);
        assert!(largest < 1 << 20, "{what}: an allocation of {largest} bytes");
        let err = strict.expect_err(&what);
        assert_eq!(err.section, Some(Section::ALL[section]), "{what}: {err}");
        assert_eq!(view.err(), Some(err.clone()));
        let parsed = lenient.expect(&what);
        // The bytes after the count (0x11 repeated) are no records: control characters for
        // names, 1e-28 for floats, 17 for flags. Lenient reading keeps none of them.
        assert_eq!(parsed.motion.count(Section::ALL[section]), 0, "{what}");
        let complete =
            if section == 5 { 0 } else { (46 - 4 * section) / [111, 23, 61, 28, 9][section] };
        if complete > 0 {
            assert!(
                matches!(&parsed.repairs[..], [Repair::Discarded { declared: u32::MAX, .. }]),
                "{what}: {:?}",
                parsed.repairs
            );
        }
        if section < 5 {
            assert!(
                matches!(err.kind, ErrorKind::CountTooLarge { count: u32::MAX, .. }),
                "{what}: {err}"
            );
        }
    }

    // The IK count of a property record.
    let mut data = v2_header();
    data.resize(data.len() + 4 * 5, 0);
    data.extend_from_slice(&1u32.to_le_bytes());
    data.extend_from_slice(&[0, 0, 0, 0, 1]);
    data.extend_from_slice(&u32::MAX.to_le_bytes());
    data.resize(100, 0x22);
    let ((strict, lenient), largest) = largest_allocation(|| {
        (Motion::parse(&data), Motion::parse_with(&data, ReadOptions::LENIENT))
    });
    assert!(largest < 1 << 20, "IK count 0xFFFFFFFF: an allocation of {largest} bytes");
    let err = strict.unwrap_err();
    assert_eq!((err.section, err.record), (Some(Section::Property), Some(0)));
    assert!(
        matches!(err.kind, ErrorKind::TruncatedRecord { needed, .. } if needed == 9 + 21 * u32::MAX as u64)
    );
    assert_eq!(lenient.unwrap().motion.properties.len(), 0);
}

// ---------------------------------------------------------------------------------------------
// Things that are not VMDs

fn not_vmd(data: &[u8]) -> String {
    for options in [ReadOptions::STRICT, ReadOptions::LENIENT] {
        let err = Motion::parse_with(data, options).map(|_| ()).unwrap_err();
        assert_eq!((err.section, err.record, err.offset), (None, None, 0), "{err}");
        assert!(!err.lenient_may_help());
        let ErrorKind::NotVmd { what, .. } = &err.kind else { panic!("not NotVmd: {err}") };
        assert!(err.to_string().contains(what.as_str()));
        if options == ReadOptions::LENIENT {
            return what.clone();
        }
    }
    unreachable!()
}

#[test]
fn placeholders_say_what_they_look_like() {
    let lfs = b"version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1601247\n";
    assert!(not_vmd(lfs).contains("Git LFS pointer"), "{}", not_vmd(lfs));

    assert!(not_vmd(b"").contains("empty"));

    let html = b"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Page not found</title>";
    assert!(not_vmd(html).to_lowercase().contains("html"), "{}", not_vmd(html));

    // A page with non-ASCII text near its start (a Japanese title) is still text: an HTML page.
    let html_ja =
        "<html><head><meta charset=\"utf-8\"><title>モーション配布ページ</title></head><body>"
            .as_bytes();
    let what = not_vmd(html_ja);
    assert!(what.to_lowercase().contains("html"), "{what}");
    assert!(what.contains("this is an HTML page"), "{what}");

    let github_404 = b"404: Not Found";
    assert!(not_vmd(github_404).contains("404: Not Found"), "{}", not_vmd(github_404));

    let mut pmx = b"PMX \x00\x00\x00\x40\x08\x00\x01\x01\x02\x02\x02\x02\x02".to_vec();
    pmx.resize(200, 0);
    assert!(not_vmd(&pmx).contains("PMX model"), "{}", not_vmd(&pmx));

    let mut pmd = b"Pmd\x00\x00\x80\x3F".to_vec();
    pmd.resize(300, 0);
    assert!(not_vmd(&pmd).contains("PMD model"), "{}", not_vmd(&pmd));

    let vpd = "Vocaloid Pose Data file\r\n\r\nmiku.osm;\r\n".as_bytes();
    assert!(not_vmd(vpd).contains("VPD pose"), "{}", not_vmd(vpd));

    // A lone UTF-8 lead byte is not text.
    assert!(not_vmd(&[0xE3, 0x81]).contains("e3, 81"), "{}", not_vmd(&[0xE3, 0x81]));

    let binary = [0x89u8, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D];
    assert!(not_vmd(&binary).contains("this is a PNG image"), "{}", not_vmd(&binary));
}

#[test]
fn an_unknown_signature_is_not_vmd_strictly_and_read_as_v2_leniently() {
    let mut data = b"Vocaloid Motion Data 0003\0\0\0\0\0".to_vec();
    data.extend_from_slice(&[0u8; 20]);
    data.extend_from_slice(&[0u8; 24]);
    let err = Motion::parse(&data).unwrap_err();
    let ErrorKind::NotVmd { what, .. } = &err.kind else { panic!("{err}") };
    // The message says what is wrong; that lenient reading helps is the front ends' to say.
    assert!(what.contains("0003") && err.lenient_may_help(), "{what}");
    let parsed = Motion::parse_with(&data, ReadOptions::LENIENT).unwrap();
    assert!(matches!(parsed.repairs.as_slice(), [Repair::UnknownSignature { .. }]));
    assert_eq!(parsed.motion.sections_present, 6);
    let (strict, lenient) = check_any("unknown signature", &data);
    assert!(strict.is_err() && lenient.is_ok());
}

// ---------------------------------------------------------------------------------------------
// Error messages

#[test]
fn error_display_names_section_record_and_offset() {
    // Three bone keys declared, two and a half present.
    let mut motion = Motion::default();
    for frame in 0..3 {
        motion.bones.push(vmdkit::BoneKey::new(vmdkit::KeyName::encode("センター").0, frame));
    }
    let bytes = motion.to_bytes();
    let cut = &bytes[..50 + 4 + 111 * 2 + 60];
    let err = Motion::parse(cut).unwrap_err();
    assert_eq!(err.kind, ErrorKind::CountTooLarge { count: 3, needed: 333, available: 282 });
    assert_eq!((err.section, err.record, err.offset), (Some(Section::Bone), Some(2), 276));
    let text = err.to_string();
    assert!(text.contains("bone section"), "{text}");
    assert!(text.contains("record 2"), "{text}");
    assert!(text.contains("byte offset 276"), "{text}");
    let with_path = err.clone().with_path("dance/motion.vmd").to_string();
    assert!(
        with_path.starts_with("dance/motion.vmd: bone section, record 2, byte offset 276"),
        "{with_path}"
    );

    // A cut property record.
    let mut motion = vmdkit::example::example_motion();
    motion.properties.push(motion.properties[0].clone());
    let bytes = motion.to_bytes();
    let err = Motion::parse(&bytes[..bytes.len() - 10]).unwrap_err();
    let text = err.to_string();
    assert_eq!((err.section, err.record), (Some(Section::Property), Some(1)));
    assert!(text.contains("property section, record 1, byte offset"), "{text}");
    assert!(text.contains(&format!("byte offset {}", bytes.len() - 51)), "{text}");

    // A cut count has a section but no record.
    let motion = Motion { sections_present: 2, ..Motion::default() };
    let bytes = motion.to_bytes();
    let err = Motion::parse(&bytes[..bytes.len() - 1]).unwrap_err();
    assert_eq!(err.kind, ErrorKind::TruncatedCount { available: 3 });
    assert_eq!(
        err.to_string(),
        "morph section, byte offset 54: file ends inside the section count (3 of 4 bytes)"
    );

    // A cut header names the header.
    let err = Motion::parse(&bytes[..40]).unwrap_err();
    assert!(err.to_string().starts_with("header, byte offset 40"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Regressions

/// Lenient reading of a file cut inside a section count used to keep the 1–3 bytes of the cut
/// count as "trailing bytes" while reporting them dropped; written back, they were read as a
/// cut count again, so the repaired motion could not be read strictly.
#[test]
fn regression_a_cut_count_is_dropped_not_kept_as_trailing_bytes() {
    let mut data = v2_header();
    data.extend_from_slice(&[0, 0, 0, 0]); // bone count 0
    data.extend_from_slice(&[7, 0]); // half a morph count
    let err = Motion::parse(&data).unwrap_err();
    assert_eq!(err.kind, ErrorKind::TruncatedCount { available: 2 });
    let parsed = Motion::parse_with(&data, ReadOptions::LENIENT).unwrap();
    assert_eq!(
        parsed.repairs,
        vec![Repair::CutCount { section: Section::Morph, offset: 54, dropped_bytes: 2 }]
    );
    assert_eq!(parsed.motion.sections_present, 1);
    assert!(parsed.motion.trailing.is_empty(), "{:?}", parsed.motion.trailing);
    assert_eq!(parsed.motion.to_bytes(), &data[..54]);
    assert_eq!(Motion::parse(&parsed.motion.to_bytes()).unwrap(), parsed.motion);
    let view = MotionView::with_options(&data, ReadOptions::LENIENT).unwrap();
    assert!(view.trailing().is_empty());
}

/// Lenient reading looks for an undercounted section. For the section that failed itself it
/// used the error's offset, which for a cut property record is the record's start, not the
/// count's: the record's frame number was taken for a count, and the bytes after it could be
/// "recovered" as property records that are not there. This input (a property record declaring
/// one IK entry but cut 8 bytes short) was read as two made-up records instead of zero.
#[test]
fn regression_a_cut_property_record_is_not_reinterpreted_from_its_frame_number() {
    let mut data = v2_header();
    data.extend_from_slice(&[0u8; 20]); // five empty sections
    data.extend_from_slice(&1u32.to_le_bytes()); // one property record at byte 74:
    data.extend_from_slice(&0u32.to_le_bytes()); //   frame 0
    data.push(0); //   hidden
    data.extend_from_slice(&1u32.to_le_bytes()); //   one IK entry (21 bytes) ...
    data.extend_from_slice(&[0u8; 13]); //   ... of which 13 are present
    assert_eq!(data.len(), 96);
    let err = Motion::parse(&data).unwrap_err();
    assert_eq!((err.section, err.record, err.offset), (Some(Section::Property), Some(0), 74));
    let parsed = Motion::parse_with(&data, ReadOptions::LENIENT).unwrap();
    assert_eq!(
        parsed.repairs,
        vec![Repair::Truncated {
            section: Section::Property,
            offset: 70,
            declared: 1,
            kept: 0,
            dropped_bytes: 22
        }]
    );
    assert!(parsed.motion.properties.is_empty());
    assert_eq!(parsed.motion.sections_present, 6);
    let (_, lenient) = check_any("cut property record", &data);
    assert!(lenient.is_ok());
}

// ---------------------------------------------------------------------------------------------
// Lenient reading invents nothing

/// Every prefix of every corpus VMD up to 16 KiB, the damaged ones included (their keys are
/// those lenient reading recovers from the whole file): no lenient reading of a prefix gives a
/// key that the file does not hold. Cut files imitate the writer quirk (a count of 0 before
/// records), and reading that quirk where there is none turned bytes of one section into keys
/// of another.
#[test]
fn no_prefix_reads_leniently_to_a_key_the_file_does_not_hold() {
    let Some(manifest) = corpus_or_skip("lenient prefixes") else { return };
    let (mut files, mut prefixes, mut rejected) = (0, 0, 0);
    for entry in manifest.of_kind("vmd") {
        if entry.get("bytes").parse::<u64>().map_or(true, |b| b > 16 << 10) {
            continue;
        }
        let full = entry.bytes();
        let Ok(whole) = Motion::parse_with(&full, ReadOptions::LENIENT) else { continue };
        let keys = key_set(&whole.motion);
        files += 1;
        for len in 0..=full.len() {
            let Ok(parsed) = Motion::parse_with(&full[..len], ReadOptions::LENIENT) else {
                continue;
            };
            let what = format!("{} cut at {len}", entry.local_path);
            assert_no_invented_keys(&what, &keys, &parsed.motion);
            rejected +=
                parsed.repairs.iter().filter(|r| matches!(r, Repair::Rejected { .. })).count();
            prefixes += 1;
        }
    }
    println!("{files} files, {prefixes} prefixes read, {rejected} explanations rejected");
    assert!(files >= 60, "only {files} corpus VMDs up to 16 KiB");
}

/// The case that showed the fault: the flag motion cut inside its property section read as
/// six morph keys made of property bytes (frames up to 4,261,281,277, weights up to 4.9e24)
/// instead of a property section cut inside its first record. The cut reading wins, and the report says why the other lost.
#[test]
fn regression_a_cut_flag_motion_keeps_its_properties_and_invents_no_morphs() {
    let Some(manifest) = corpus_or_skip("cut flag motion") else { return };
    let Some(entry) = manifest.of_kind("vmd").find(|e| e.local_path.ends_with("flag__flag.vmd"))
    else {
        panic!("the corpus has no flag.vmd");
    };
    let full = entry.bytes();
    let parsed = Motion::parse_with(&full[..196], ReadOptions::LENIENT).unwrap();
    assert!(parsed.motion.morphs.is_empty(), "{:?}", parsed.motion.morphs);
    // The first property record (with its IK entries) is longer than the 122 bytes left, so
    // no complete one remains: none is kept, and none is made up.
    assert!(parsed.motion.properties.is_empty());
    assert_eq!(parsed.motion.sections_present, 6);
    let [Repair::Rejected { section: Section::Morph, undercount: Some(6), reason, .. }, Repair::Truncated { section: Section::Property, .. }] =
        &parsed.repairs[..]
    else {
        panic!("{:?}", parsed.repairs);
    };
    println!("{}", parsed.repairs[0]);
    assert!(reason.starts_with("the record at byte"), "{reason}");
}
