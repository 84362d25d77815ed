//! How the text formats carry the bytes after a VMD's last section: as hex, in pieces of at
//! most [`PIECE`] bytes so that neither writing nor reading holds the text of gigabytes at once,
//! and cut to a cap when the writer is asked to, with the full length recorded.

use super::warning::{ConvertWarning, ConvertWarningKind};
use crate::format::Motion;

/// Bytes per hex string (a JSON array element, a CSV `#meta` `trailing` row) when there are
/// more than fit in one.
pub(crate) const PIECE: usize = 1 << 16;

/// What a writer that may keep `max` bytes puts out: the bytes, and the length of the file's
/// trailing bytes when that is more, because they are cut now or were cut before.
pub(crate) fn kept(motion: &Motion, max: usize) -> (&[u8], Option<u64>) {
    let all = &motion.trailing;
    let kept = &all[..all.len().min(max)];
    let len = all.len() as u64 + motion.trailing_omitted;
    (kept, (len > kept.len() as u64).then_some(len))
}

/// How many bytes a recorded length says were cut from the `given` ones.
pub(crate) fn omitted(len: u64, given: usize) -> Result<u64, String> {
    len.checked_sub(given as u64)
        .ok_or_else(|| format!("{len} is less than the {given} trailing bytes the document holds"))
}

/// The warning of a reader that meets a recorded length: the VMD it makes is not the original.
pub(crate) fn cut_warning(field: impl Into<String>, len: u64, given: usize) -> ConvertWarning {
    ConvertWarning::new(field, ConvertWarningKind::TrailingCut { len, given })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_is_recorded_only_when_bytes_are_missing() {
        let mut motion = Motion { trailing: vec![7; 10], ..Motion::default() };
        assert_eq!(kept(&motion, usize::MAX), (&[7u8; 10][..], None));
        assert_eq!(kept(&motion, 10), (&[7u8; 10][..], None));
        assert_eq!(kept(&motion, 4), (&[7u8; 4][..], Some(10)));
        motion.trailing_omitted = 5;
        assert_eq!(kept(&motion, usize::MAX), (&[7u8; 10][..], Some(15)));
        assert_eq!(omitted(15, 10), Ok(5));
        assert!(omitted(9, 10).is_err());
        assert!(cut_warning("trailing_len", 15, 10).to_string().ends_with("lacks the other 5"));
    }

    #[cfg(all(feature = "json", feature = "csv"))]
    mod formats {
        use super::super::PIECE;
        use crate::convert::test_motions::with_messages;
        use crate::convert::*;
        use crate::format::Motion;

        fn padded(len: usize) -> Motion {
            let mut motion = crate::example::example_motion();
            motion.trailing = (0..len).map(|i| (i % 251) as u8).collect();
            motion
        }

        fn json_with(motion: &Motion, max: usize) -> String {
            let mut out = Vec::new();
            write_json(motion, &mut out, JsonOptions { pretty: true, max_trailing: max }).unwrap();
            String::from_utf8(out).unwrap()
        }

        fn csv_with(motion: &Motion, max: usize) -> String {
            let mut out = Vec::new();
            write_csv(motion, &mut out, CsvOptions { max_trailing: max, ..CsvOptions::default() })
                .unwrap();
            String::from_utf8(out).unwrap()
        }

        #[test]
        fn many_trailing_bytes_are_written_in_pieces_and_read_back_whole() {
            let motion = padded(3 * PIECE + 5);
            let json = json_with(&motion, usize::MAX);
            let value: serde_json::Value = serde_json::from_str(&json).unwrap();
            let pieces = value["trailing"].as_array().unwrap();
            assert_eq!(pieces.len(), 4);
            assert_eq!(pieces[0].as_str().unwrap().len(), 2 * PIECE);
            assert!(value.get("trailing_len").is_none());
            let csv = csv_with(&motion, usize::MAX);
            assert_eq!(csv.lines().filter(|l| l.starts_with("#meta,trailing,")).count(), 4);
            for back in [
                with_messages(from_json_str(&json)).unwrap(),
                with_messages(from_json_reader(json.as_bytes())).unwrap(),
                with_messages(from_csv_str(&csv)).unwrap(),
            ] {
                assert_eq!(back.0.to_bytes(), motion.to_bytes());
                assert!(back.1.is_empty(), "{:?}", back.1);
            }
        }

        #[test]
        fn cut_trailing_bytes_record_their_length_and_read_back_with_a_warning() {
            let motion = padded(1000);
            let json = json_with(&motion, 10);
            let value: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(value["trailing"], "00010203040506070809");
            assert_eq!(value["trailing_len"], 1000);
            let csv = csv_with(&motion, 10);
            assert!(csv.contains(",00010203040506070809\n#meta,trailing_len,"), "{csv}");
            let (from_json, json_warnings) = with_messages(from_json_str(&json)).unwrap();
            let (from_csv, csv_warnings) = with_messages(from_csv_str(&csv)).unwrap();
            for (back, warnings) in [(&from_json, &json_warnings), (&from_csv, &csv_warnings)] {
                assert_eq!(back.trailing, &motion.trailing[..10]);
                assert_eq!(back.trailing_omitted, 990);
                assert_eq!(back.bones, motion.bones);
                assert_eq!(warnings.len(), 1, "{warnings:?}");
                assert!(warnings[0].contains("the VMD had 1000 bytes after its last section"));
                assert!(warnings[0].ends_with("lacks the other 990"), "{warnings:?}");
            }
            assert!(json_warnings[0].starts_with("trailing_len: "), "{json_warnings:?}");
            assert!(csv_warnings[0].starts_with("CSV line "), "{csv_warnings:?}");
            // Written again, the document still says what the VMD had.
            let again: serde_json::Value =
                serde_json::from_str(&to_json_string(&from_csv, false)).unwrap();
            assert_eq!(again["trailing_len"], 1000);
            assert!(to_csv_string(&from_json).contains("#meta,trailing_len,"));
            // A length that matches the bytes given is no cut.
            let exact =
                json_with(&motion, usize::MAX).replace("\n}", ",\n  \"trailing_len\": 1000\n}");
            let Converted { motion: exact, warnings } = from_json_str(&exact).unwrap();
            assert_eq!((exact.trailing_omitted, warnings.len()), (0, 0));
            // Every byte cut: only the length is left.
            let none = from_json_str(&json_with(&motion, 0)).unwrap().motion;
            assert_eq!((none.trailing.len(), none.trailing_omitted), (0, 1000));
        }

        #[test]
        fn a_length_below_the_bytes_given_is_an_error() {
            let json =
                json_with(&padded(4), usize::MAX).replace("\n}", ",\n  \"trailing_len\": 3\n}");
            let err = from_json_str(&json).unwrap_err();
            assert_eq!(
                err.to_string(),
                "trailing_len: 3 is less than the 4 trailing bytes the document holds"
            );
            let csv = csv_with(&padded(4), usize::MAX)
                + "#meta,trailing_len,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,x\n";
            let err = from_csv_str(&csv).unwrap_err();
            assert!(err.to_string().contains("trailing_len \"x\" is not a whole number"), "{err}");
        }
    }
}
