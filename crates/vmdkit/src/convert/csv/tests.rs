use super::*;
use crate::convert::test_motions::{
    assert_same_bytes, name, old_short_motion, quirky_motion, with_messages,
};
use crate::convert::Converted;
use crate::curve::Curve;
use crate::example::example_motion;
use crate::format::{BoneInterpolation, BoneKey, PhysicsToggle};
use crate::text::{KeyName, TextEncoding};
use glam::Quat;

/// A CSV as a grid of cells, for editing the way a spreadsheet does.
struct Sheet {
    rows: Vec<Vec<String>>,
}

impl Sheet {
    fn of(motion: &Motion) -> Sheet {
        let text = to_csv_string(motion);
        let mut reader =
            ::csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
        Sheet {
            rows: reader.records().map(|r| r.unwrap().iter().map(String::from).collect()).collect(),
        }
    }

    fn column(&self, name: &str) -> usize {
        self.rows[0].iter().position(|c| c.trim_start_matches('\u{FEFF}') == name).unwrap()
    }

    /// The `n`th row of a section (0-based).
    fn row(&mut self, section: &str, n: usize) -> &mut Vec<String> {
        self.rows.iter_mut().filter(|r| r[0] == section).nth(n).unwrap()
    }

    fn set(&mut self, section: &str, n: usize, column: &str, value: &str) {
        let c = self.column(column);
        self.row(section, n)[c] = value.to_string();
    }

    fn text(&self) -> String {
        let mut out = ::csv::WriterBuilder::new().from_writer(Vec::new());
        self.rows.iter().for_each(|r| out.write_record(r).unwrap());
        String::from_utf8(out.into_inner().unwrap()).unwrap()
    }

    fn read(&self) -> Result<(Motion, Vec<String>), ConvertError> {
        with_messages(from_csv_str(&self.text()))
    }

    /// The message of the error reading the sheet must give.
    fn error(&self) -> String {
        self.read().unwrap_err().to_string()
    }
}

#[test]
fn every_kind_of_quirk_round_trips_byte_for_byte() {
    for motion in [example_motion(), quirky_motion(), old_short_motion(), Motion::default()] {
        let text = to_csv_string(&motion);
        assert_same_bytes(&from_csv_str(&text).unwrap().motion, &motion);
        let mut streamed = Vec::new();
        write_csv(&motion, &mut streamed, CsvOptions::default()).unwrap();
        assert_eq!(streamed, text.as_bytes());
    }
}

#[test]
fn the_layout_is_one_table_with_a_header_and_meta_rows() {
    let text = to_csv_string(&example_motion());
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), COLUMNS.join(","));
    let blanks = ",".repeat(COLUMNS.len() - 3);
    assert_eq!(lines.next().unwrap(), format!("#meta,format{blanks},vmdkit-motion"));
    assert!(text.contains(&format!("#meta,model_name{blanks},vmdkit example\n")));
    let arm = text.lines().find(|l| l.starts_with("bone,右腕,15,")).unwrap();
    assert!(arm.starts_with("bone,右腕,15,0,0,0,0,0,-0.3007058,0.95371693,,,,"), "{arm}");
    assert!(arm.contains(",64 0 64 127,64 0 64 127,64 0 64 127,64 0 64 127,,,on,,"), "{arm}");
    assert!(text.contains("\nik,右足ＩＫ,0,"), "{text}");
    assert!(text.lines().all(|l| l.split(',').count() == COLUMNS.len()));
    assert!(!text.contains('\r'));
}

#[test]
fn an_edited_cell_wins_over_the_raw_record_but_keeps_what_it_did_not_touch() {
    let quirky = quirky_motion();
    let mut sheet = Sheet::of(&quirky);
    // Bone 1 has a zero-padded name and an old-style block: rename it only.
    sheet.set("bone", 1, "name", "下半身");
    sheet.set("bone", 1, "y", "2.5");
    let (motion, warnings) = sheet.read().unwrap();
    assert!(warnings.is_empty());
    let bone = motion.bones[1];
    assert_eq!(bone.name, KeyName::encode("下半身").0);
    assert_eq!(bone.translation.y, 2.5);
    assert_eq!(bone.interpolation, quirky.bones[1].interpolation, "the block was not edited");

    sheet.set("bone", 1, "curve_x", "30 0 97 127");
    sheet.set("camera", 2, "perspective", "TRUE");
    sheet.set("property", 0, "visible", "FALSE");
    sheet.set("ik", 1, "enabled", "0");
    let (motion, _) = sheet.read().unwrap();
    assert!(motion.bones[1].interpolation.is_canonical());
    assert_eq!(motion.bones[1].interpolation.curves()[0], Curve::new(30, 0, 97, 127));
    assert_eq!(motion.cameras[2].perspective_byte, 0);
    assert_eq!(motion.properties[0].visible_byte, 0);
    assert_eq!(motion.properties[0].ik[1].enabled_byte, 0);
    assert_eq!(motion.properties[0].ik[1].name, quirky.properties[0].ik[1].name);
}

#[test]
fn a_hand_written_sheet_makes_a_valid_vmd() {
    let text = "section,name,frame,euler_x,euler_y,euler_z,weight,physics,value\r\n\
                #meta,model_name,,,,,,,初音ミク\r\n\
                # a comment row,,,,,,,,\r\n\
                bone,センター,0,,,,,,\r\n\
                bone,\"右腕,2\",10,0,45,0,,off,\r\n\
                ,,,,,,,,\r\n\
                morph,あ,5,,,,0.5,,\r\n";
    let motion = from_csv_str(text).unwrap().motion;
    assert_eq!(motion.header.model_name, crate::text::LongName::encode("初音ミク").0);
    assert_eq!(motion.bones[0], BoneKey::new(name("センター"), 0));
    let arm = motion.bones[1];
    assert_eq!(arm.name, name("右腕,2"));
    assert!(arm.rotation.dot(Quat::from_xyzw(0.0, -0.382683, 0.0, 0.923880)).abs() > 1.0 - 1e-6);
    assert_eq!(
        arm.interpolation,
        BoneInterpolation::canonical([Curve::LINEAR; 4], PhysicsToggle::Off)
    );
    assert_eq!(motion.morphs[0].weight, 0.5);
    assert_eq!(crate::Motion::parse(&motion.to_bytes()).unwrap(), motion);
}

#[test]
fn long_names_are_shortened_with_a_warning() {
    let mut sheet = Sheet::of(&example_motion());
    sheet.set("bone", 0, "name", "左足ＩＫ親左足ＩＫ");
    let (motion, warnings) = sheet.read().unwrap();
    assert_eq!(motion.bones[0].name.decode(TextEncoding::ShiftJis).text, "左足ＩＫ親左足");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].starts_with("CSV line 7: name: "), "{warnings:?}");
}

#[test]
fn errors_name_the_line_and_column() {
    let mut sheet = Sheet::of(&example_motion());
    sheet.set("bone", 2, "qx", "abc");
    let err = sheet.read().unwrap_err();
    assert_eq!(err.to_string(), "CSV line 9, column `qx`: \"abc\" is not a number");

    let mut sheet = Sheet::of(&example_motion());
    sheet.set("bone", 0, "qw", "");
    assert!(sheet.error().contains("column `qw`: fill all of these cells or none"));

    let mut sheet = Sheet::of(&example_motion());
    for column in ["euler_x", "euler_y", "euler_z"] {
        sheet.set("bone", 0, column, "10");
    }
    assert!(sheet.error().contains("not both"));

    let mut sheet = Sheet::of(&example_motion());
    sheet.set("ik", 0, "frame", "7");
    assert!(sheet.error().contains("keep ik rows under their property row"));

    let mut sheet = Sheet::of(&example_motion());
    sheet.rows[0][3] = "xx".into();
    let err = sheet.read().unwrap_err();
    assert!(
        matches!(err, ConvertError::Csv { line: 1, .. })
            && err.to_string().contains("unknown column \"xx\"")
    );

    let mut sheet = Sheet::of(&quirky_motion());
    sheet.set("bone", 1, "raw", "00");
    assert!(sheet.error().contains("column `raw`: expected 111 bytes of hex, found 1"));

    let text = "section,name,frame\nik,右足ＩＫ,0\n";
    assert!(from_csv_str(text).unwrap_err().to_string().contains("must follow the property row"));
    let text = "section,name,frame\nbones,a,0\n";
    assert!(from_csv_str(text).unwrap_err().to_string().contains("unknown section \"bones\""));
    let text = "section,name,value\n#meta,schema_version,2\n";
    assert!(matches!(
        from_csv_str(text).unwrap_err(),
        ConvertError::UnsupportedSchema { found: 2, .. }
    ));
    assert!(from_csv_str("").is_err());

    // Found by the `csv` target's checks: these bytes would be read as the camera count.
    let text = "section,name,frame,value\n#meta,sections_present,,2\n#meta,trailing,,0102\n";
    let err = from_csv_str(text).unwrap_err().to_string();
    assert!(err.starts_with("CSV line 3, column `value`: trailing: bytes after"), "{err}");
}

#[test]
fn a_reader_gives_what_the_text_gives_and_meta_rows_may_come_last() {
    let mut motion = example_motion();
    motion.bones[0].name = KeyName::encode_as("左手腕", TextEncoding::Gbk).0;
    let text = to_csv_string(&motion);
    assert!(text.contains("#meta,encoding,") && text.contains(",gbk\n"), "{text}");
    let Converted { motion: from_text, warnings } = from_csv_str(&text).unwrap();
    assert_same_bytes(&from_text, &motion);
    let Converted { motion: read, warnings: read_warnings } =
        from_csv_reader(text.as_bytes()).unwrap();
    assert_same_bytes(&read, &motion);
    assert_eq!(read_warnings, warnings);
    // The same sheet with its meta rows moved below the keys: names wait for the encoding.
    let (meta, keys): (Vec<&str>, Vec<&str>) =
        text.lines().skip(1).partition(|l| l.starts_with("#meta"));
    let header = text.lines().next().unwrap();
    let moved: String =
        std::iter::once(header).chain(keys).chain(meta).map(|l| l.to_string() + "\n").collect();
    assert_same_bytes(&from_csv_reader(moved.as_bytes()).unwrap().motion, &motion);
}

#[test]
fn stream_errors_name_the_line() {
    let text = to_csv_string(&example_motion());
    let mut bad = text.clone().into_bytes();
    let at = text.find("右腕").unwrap();
    bad[at] = 0xFF;
    let line = text[..at].lines().count() as u64;
    let err = from_csv_reader(&bad[..]).unwrap_err();
    assert!(matches!(err, ConvertError::Csv { line: l, .. } if l == line), "{err}");
    assert!(err.to_string().contains("invalid utf-8"), "{err}");
    // A sheet cut inside a row: the cut row is still read, and misses its cells.
    let cut = &text[..text.find("bone,右腕,15,").unwrap() + "bone,右腕,15,0".len()];
    let err = from_csv_reader(cut.as_bytes()).unwrap_err();
    assert!(err.to_string().starts_with("CSV line 8, column `y`: fill all"), "{err}");
    // A format row after key rows still stops the read.
    let other = format!("{text}#meta,format,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,something-else\n");
    let err = from_csv_reader(other.as_bytes()).unwrap_err();
    assert!(err.to_string().contains("given twice"), "{err}");
    let sheet = "section,name,value\n#meta,format,something-else\nbone,a,\n";
    let err = from_csv_reader(sheet.as_bytes()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "CSV line 2, column `value`: format is \"something-else\", expected \"vmdkit-motion\""
    );
}

#[test]
fn a_byte_order_mark_is_written_only_when_asked_and_read_either_way() {
    let motion = example_motion();
    let plain = to_csv_string(&motion);
    assert!(plain.starts_with("section,"), "{}", &plain[..20]);
    let mut marked = Vec::new();
    write_csv(&motion, &mut marked, CsvOptions { bom: true, ..CsvOptions::default() }).unwrap();
    assert_eq!(marked, [b"\xEF\xBB\xBF", plain.as_bytes()].concat());
    for text in [plain.as_bytes(), &marked[..]] {
        assert_same_bytes(&from_csv_reader(text).unwrap().motion, &motion);
        let text = std::str::from_utf8(text).unwrap();
        assert_same_bytes(&from_csv_str(text).unwrap().motion, &motion);
    }
}

#[test]
fn a_closed_pipe_is_reported_as_one() {
    struct Closed;
    impl std::io::Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // More rows than the writer buffers, so that a row's write meets the closed pipe.
    let mut motion = example_motion();
    motion.bones = motion.bones.iter().cycle().take(5000).cloned().collect();
    for bom in [false, true] {
        let err = write_csv(&motion, Closed, CsvOptions { bom, ..CsvOptions::default() });
        assert_eq!(err.unwrap_err().kind(), std::io::ErrorKind::BrokenPipe);
    }
}
