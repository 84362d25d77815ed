//! Round-trip checks shared by the `json`, `csv` and `roundtrip` targets: however a motion was
//! made, writing it as VMD, JSON or CSV and reading that back gives the same motion. Each target
//! includes this file as a module, beside `read_checks` (whose `same` compares floats by bits).

use crate::read_checks::same;
use vmdkit::{convert, Motion};

/// The motion a VMD write and read give back: the file has a count for every section up to the
/// last one written, so those read back as present.
pub fn as_read_back(motion: &Motion) -> Motion {
    let mut expected = motion.clone();
    expected.sections_present = motion.sections_to_write();
    expected
}

/// VMD bytes read back strictly to the motion, and write again byte for byte.
pub fn check_vmd(motion: &Motion) {
    let bytes = motion.to_bytes();
    assert_eq!(bytes.len(), motion.encoded_len());
    let back = Motion::parse(&bytes).unwrap_or_else(|e| panic!("written VMD does not read: {e}"));
    assert!(same(&as_read_back(motion), &back), "VMD round trip changes the motion");
    assert!(back.to_bytes() == bytes, "VMD read back writes other bytes");
}

/// JSON text (compact and pretty) and the JSON value tree read back to the motion.
pub fn check_json(motion: &Motion) {
    for pretty in [false, true] {
        let text = convert::to_json_string(motion, pretty);
        let back = convert::from_json_str(&text)
            .unwrap_or_else(|e| panic!("written JSON does not read: {e}\n{text}"))
            .motion;
        assert!(same(motion, &back), "JSON round trip changes the motion\n{text}");
    }
    let back = convert::from_json_value(convert::to_json(motion))
        .unwrap_or_else(|e| panic!("JSON value tree does not read: {e}"))
        .motion;
    assert!(same(motion, &back), "JSON value round trip changes the motion");
}

/// CSV text reads back to the motion.
pub fn check_csv(motion: &Motion) {
    let text = convert::to_csv_string(motion);
    let back = convert::from_csv_str(&text)
        .unwrap_or_else(|e| panic!("written CSV does not read: {e}\n{text}"))
        .motion;
    assert!(same(motion, &back), "CSV round trip changes the motion\n{text}");
}

/// Every write and read back, of a motion that came from a reader or from the fuzzer.
pub fn check_all(motion: &Motion) {
    check_vmd(motion);
    check_json(motion);
    check_csv(motion);
}
