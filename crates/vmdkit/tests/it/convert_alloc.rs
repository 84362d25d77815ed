//! Reading JSON and CSV motions streams: the heap holds the motion being built, never the text
//! nor a tree of it. A counting allocator records the peak of live heap bytes while reading.

use test_corpus::alloc::peak_heap;
use vmdkit::convert;
use vmdkit::Motion;

/// The example's keys repeated to 30,000 bone keys, every copy on later frames, with old MMD's
/// filler bytes in the interpolation blocks so each key carries a raw field, as many real
/// files' keys do.
fn big_motion() -> Motion {
    let example = vmdkit::example::example_motion();
    let mut motion = example.clone();
    motion.bones.clear();
    motion.morphs.clear();
    for copy in 0..30_000 / example.bones.len() as u32 + 1 {
        for key in &example.bones {
            let mut key = *key;
            key.frame += copy * 100;
            key.interpolation.0[31] = 1;
            motion.bones.push(key);
        }
        motion.morphs.extend(
            example.morphs.iter().map(|&k| vmdkit::MorphKey { frame: k.frame + copy * 100, ..k }),
        );
    }
    motion.bones.truncate(30_000);
    motion
}

/// The bar: at most twice the VMD's size. The motion alone is a little more than the
/// VMD (decoded keys are a little larger than the 111-byte records), and capacity doubling
/// briefly holds a section's old and new buffers: with 30,000 bone keys the last growth, from
/// 16,384 to 32,768, costs about 1.5 × the VMD. The texts are more than twice the VMD, so
/// holding one whole, let alone a tree of it, could not pass.
const BOUND: f64 = 2.0;

fn check(what: &str, text_len: usize, vmd_len: usize, peak: usize) {
    let ratio = peak as f64 / vmd_len as f64;
    println!(
        "{what}: text {text_len} bytes, VMD {vmd_len} bytes, peak heap {peak} bytes ({ratio:.2} × the VMD)"
    );
    assert!(ratio <= BOUND, "{what}: peak {ratio:.2} × the VMD size, above {BOUND}");
}

#[test]
fn reading_json_holds_the_motion_not_the_text() {
    let motion = big_motion();
    let vmd_len = motion.encoded_len();
    for pretty in [false, true] {
        let text = convert::to_json_string(&motion, pretty);
        assert!(text.len() as f64 > BOUND * vmd_len as f64);
        let (read, peak) = peak_heap(|| convert::from_json_reader(text.as_bytes()).unwrap().motion);
        assert_eq!(read.to_bytes(), motion.to_bytes());
        check(&format!("JSON reader, pretty {pretty}"), text.len(), vmd_len, peak);
        let (read, peak) = peak_heap(|| convert::from_json_str(&text).unwrap().motion);
        assert_eq!(read.to_bytes(), motion.to_bytes());
        check(&format!("JSON text, pretty {pretty}"), text.len(), vmd_len, peak);
    }
}

#[test]
fn reading_csv_holds_the_motion_not_the_table() {
    let motion = big_motion();
    let vmd_len = motion.encoded_len();
    let text = convert::to_csv_string(&motion);
    assert!(text.len() as f64 > BOUND * vmd_len as f64);
    let (read, peak) = peak_heap(|| convert::from_csv_reader(text.as_bytes()).unwrap().motion);
    assert_eq!(read.to_bytes(), motion.to_bytes());
    check("CSV reader", text.len(), vmd_len, peak);
    let (read, peak) = peak_heap(|| convert::from_csv_str(&text).unwrap().motion);
    assert_eq!(read.to_bytes(), motion.to_bytes());
    check("CSV text", text.len(), vmd_len, peak);
}
