//! Reads arbitrary bytes as a JSON motion document (from bytes, and from text when they are
//! UTF-8: the same result). A failure must say where; a motion that reads writes back as JSON,
//! CSV and VMD, each reading back to the same motion (`motion_checks`).

#![no_main]

mod motion_checks;
#[path = "../../crates/vmdkit/tests/it/common/read_checks.rs"]
mod read_checks;

use libfuzzer_sys::fuzz_target;
use read_checks::same;
use vmdkit::convert::{self, ConvertError};

fuzz_target!(|data: &[u8]| {
    let motion = match convert::from_json_reader(data) {
        Ok(read) => read.motion,
        Err(err) => {
            assert!(!err.to_string().is_empty());
            if let ConvertError::Json { line, .. } = err {
                let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
                assert!(line <= lines, "{err}: only {lines} lines");
            }
            if let Ok(text) = std::str::from_utf8(data) {
                assert!(convert::from_json_str(text).is_err(), "text reads where bytes do not");
            }
            return;
        }
    };
    if let Ok(text) = std::str::from_utf8(data) {
        let again = convert::from_json_str(text).unwrap().motion;
        assert!(same(&motion, &again), "text and bytes read differently");
    }
    motion_checks::check_all(&motion);
});
