//! Reads arbitrary bytes (as UTF-8, invalid sequences replaced) as a CSV motion table. A
//! failure must name a line of the input; a motion that reads writes back as CSV, JSON and
//! VMD, each reading back to the same motion (`motion_checks`).

#![no_main]

mod motion_checks;
#[path = "../../crates/vmdkit/tests/it/common/read_checks.rs"]
mod read_checks;

use libfuzzer_sys::fuzz_target;
use vmdkit::convert::{self, ConvertError};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match convert::from_csv_str(&text) {
        Ok(convert::Converted { motion, warnings }) => {
            assert!(warnings.iter().all(|w| !w.to_string().is_empty()));
            motion_checks::check_all(&motion);
        }
        Err(err) => {
            assert!(!err.to_string().is_empty());
            if let ConvertError::Csv { line, .. } = err {
                // Quoted cells may hold line breaks of any kind; each still counts once.
                let lines = text.matches(['\n', '\r']).count() as u64 + 1;
                assert!(line <= lines, "{err}: only {lines} lines");
            }
        }
    }
});
