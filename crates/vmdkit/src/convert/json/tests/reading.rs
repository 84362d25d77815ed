//! Reading JSON: errors that say where and why, a BOM and a schema link, readers and texts
//! alike, and the line, column and field path of stream and shape errors.

use super::*;

#[test]
fn errors_say_where_and_why() {
    let err = from_json_str(
        "{\"format\": \"vmdkit-motion\",\n \"schema_version\": 1, \"model_name\": 5}",
    )
    .unwrap_err();
    assert!(matches!(err, ConvertError::Json { line: 2, .. }), "{err}");
    assert!(err.to_string().starts_with("JSON line 2, column "), "{err}");

    let err = from_json_str(
        r#"{"format": "vmdkit-motion", "schema_version": 1, "model_name": "",
        "bones": [{"name": "a", "frame": 0, "name_raw": "00"}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("expected 15 bytes of hex, found 1"), "{err}");

    let err = from_json_str(
        r#"{"format": "vmdkit-motion", "schema_version": 1, "model_name": "",
        "bones": [{"name": "a", "frame": 0, "rotaton": [0, 0, 0, 1]}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("unknown field `rotaton`"), "{err}");

    let err = from_json_str(r#"{"bones": []}"#).unwrap_err();
    assert!(matches!(err, ConvertError::NotAMotion { .. }), "{err}");
    let err = from_json_str(r#"[1, 2]"#).unwrap_err();
    assert!(matches!(err, ConvertError::NotAMotion { .. }), "{err}");
    let err = from_json_str(
        r#"{"format": "vmdkit-motion", "schema_version": 2, "model_name": "", "new": 1}"#,
    )
    .unwrap_err();
    assert!(matches!(err, ConvertError::UnsupportedSchema { found: 2, supported: 1 }), "{err}");
    let err = from_json_str(
        r#"{"format": "vmdkit-motion", "schema_version": 1, "model_name": "", "vmd_version": 3}"#,
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "vmd_version: 3 is not a VMD version (1 or 2)");
    let err = from_json_str(
        r#"{"format": "vmdkit-motion", "schema_version": 1, "model_name": "",
        "morphs": [{"name": "a", "frame": 0, "weight": 1e39}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("out of the 32-bit float range"), "{err}");
}

#[test]
fn a_bom_and_a_schema_link_are_accepted() {
    let text = "\u{FEFF}{\"$schema\": \"vmd-json.schema.json\", \"format\": \"vmdkit-motion\", \
                \"schema_version\": 1, \"model_name\": \"\"}";
    assert_eq!(from_json_str(text).unwrap().motion, Motion::default());
}

/// Hands its text over a few bytes at a time, as a pipe may.
struct Trickle<'a>(&'a [u8], usize);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn a_reader_gives_what_the_text_gives() {
    for motion in [example_motion(), quirky_motion(), old_short_motion()] {
        let text = format!("\u{FEFF}{}", to_json_string(&motion, true));
        let Converted { motion: from_text, warnings } = from_json_str(&text).unwrap();
        for step in [1, 2, 7, 1 << 16] {
            let Converted { motion: read, warnings: read_warnings } =
                from_json_reader(Trickle(text.as_bytes(), step)).unwrap();
            assert_same_bytes(&read, &from_text);
            assert_eq!(read_warnings, warnings);
        }
    }
}

#[test]
fn the_encoding_may_come_after_the_keys() {
    let mut motion = example_motion();
    motion.bones[0].name = KeyName::encode_as("左手腕", TextEncoding::Gbk).0;
    motion.bones[1].name = KeyName::encode_as("头", TextEncoding::Gbk).0;
    // serde_json's map is sorted, as `jq -S` sorts: "bones" comes before "encoding".
    let sorted = to_json(&motion).to_string();
    assert!(sorted.find("\"bones\"").unwrap() < sorted.find("\"encoding\"").unwrap());
    assert_same_bytes(&from_json_str(&sorted).unwrap().motion, &motion);
    assert_same_bytes(&from_json_reader(sorted.as_bytes()).unwrap().motion, &motion);
}

#[test]
fn stream_errors_give_the_line_and_column() {
    let text = to_json_string(&example_motion(), true);
    // Cut inside the bone array.
    let cut = &text[..text.find("\"morphs\"").unwrap() - 20];
    let lines = cut.lines().count();
    for err in [from_json_str(cut).unwrap_err(), from_json_reader(cut.as_bytes()).unwrap_err()] {
        let ConvertError::Json { line, message, .. } = &err else { panic!("{err}") };
        assert_eq!(*line, lines, "{err}");
        assert!(message.contains("EOF"), "{err}");
    }
    // Wrong types, in a key and at the top.
    let wrong = text.replacen("\"frame\": 15", "\"frame\": \"15\"", 1);
    let at = wrong[..wrong.find("\"frame\": \"15\"").unwrap()].lines().count();
    for err in [from_json_str(&wrong).unwrap_err(), from_json_reader(wrong.as_bytes()).unwrap_err()]
    {
        assert!(matches!(err, ConvertError::Json { line, .. } if line == at), "{err}");
        assert!(err.to_string().contains("invalid type: string \"15\", expected u32"), "{err}");
    }
    let err = from_json_reader(&br#"{"format": "vmdkit-motion", "bones": {}}"#[..]).unwrap_err();
    assert!(err.to_string().contains("expected an array of bone keys"), "{err}");
    let err = from_json_reader(&br#"{"format": "vmdkit-motion", "bones": [], "bones": []}"#[..])
        .unwrap_err();
    assert!(err.to_string().contains("duplicate field `bones`"), "{err}");
    let err = from_json_reader(&b"[1, 2]"[..]).unwrap_err();
    assert!(matches!(err, ConvertError::NotAMotion { .. }), "{err}");
    let err = from_json_reader(&br#"{"format": "x", "bones": 5}"#[..]).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"not a vmdkit motion document: format is "x", expected "vmdkit-motion""#
    );
    // Text after the document is refused, as before.
    let err = from_json_reader(format!("{text} {{}}").as_bytes()).unwrap_err();
    assert!(err.to_string().contains("trailing characters"), "{err}");
    // Bytes that are no UTF-8 inside a string.
    let mut bad = text.clone().into_bytes();
    let at = text.find("右腕").unwrap();
    bad[at] = 0xFF;
    let err = from_json_reader(&bad[..]).unwrap_err();
    assert!(matches!(err, ConvertError::Json { line, .. } if line > 1), "{err}");
}

#[test]
fn an_identity_after_a_shape_error_explains_it_when_the_text_is_in_memory() {
    let text = r#"{"bones": [{"new_field": 1}], "format": "vmdkit-motion", "schema_version": 2}"#;
    let err = from_json_str(text).unwrap_err();
    assert!(matches!(err, ConvertError::UnsupportedSchema { found: 2, .. }), "{err}");
    let err = from_json_reader(text.as_bytes()).unwrap_err();
    assert!(err.to_string().contains("unknown field `new_field`"), "{err}");
}

#[test]
fn shape_errors_name_the_field_path_with_the_line_and_column() {
    // The fourth component of the second bone key's rotation, read from memory and streamed.
    let mut value = to_json(&example_motion());
    value["bones"][1]["rotation"][3] = json!(false);
    let wrong = serde_json::to_string_pretty(&value).unwrap();
    let line = wrong[..wrong.find("false").unwrap()].lines().count();
    let seekable = |text: &str| {
        // Not at the start of the stream: the reread goes back to where the document began.
        let mut file = std::io::Cursor::new(format!("  {text}").into_bytes());
        file.set_position(2);
        from_json_seekable(file).map(|read| read.motion)
    };
    for err in [from_json_str(&wrong).unwrap_err(), seekable(&wrong).unwrap_err()] {
        let ConvertError::Json { line: at, path, .. } = &err else { panic!("{err}") };
        assert_eq!((*at, path.as_deref()), (line, Some("bones[1].rotation[3]")), "{err}");
        let shown = err.to_string();
        assert!(shown.starts_with(&format!("JSON line {line}, column ")), "{shown}");
        assert!(shown.contains(": bones[1].rotation[3]: invalid type: boolean `false`"), "{shown}");
    }
    // A stream that cannot be read again names the key.
    let err = from_json_reader(wrong.as_bytes()).unwrap_err();
    assert!(
        matches!(&err, ConvertError::Json { line: at, path: Some(p), .. } if *at == line && p == "bones[1]"),
        "{err}"
    );
    // Read again, a stream's identity explains the error, as the text's does.
    let text = r#"{"bones": [{"new_field": 1}], "format": "vmdkit-motion", "schema_version": 2}"#;
    let err = seekable(text).unwrap_err();
    assert!(matches!(err, ConvertError::UnsupportedSchema { found: 2, .. }), "{err}");
    assert_same_bytes(
        &seekable(&to_json_string(&example_motion(), true)).unwrap(),
        &example_motion(),
    );
    // A field at the top, a key's unknown field, and a value tree (which has no lines).
    let err = from_json_str(
        r#"{"format": "vmdkit-motion", "schema_version": 1, "model_name": "", "vmd_version": "2"}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains(": vmd_version: invalid type: string"), "{err}");
    let err = from_json_str(
        r#"{"format": "vmdkit-motion", "schema_version": 1, "model_name": "",
        "morphs": [{"name": "a", "frame": 0, "weight": 1}, {"name": "b", "frame": -1, "weight": 1}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains(": morphs[1].frame: invalid value: integer `-1`"), "{err}");
    let mut value = to_json(&example_motion());
    value["cameras"][0]["distance"] = serde_json::json!([1]);
    let err = from_json_value(value).unwrap_err();
    assert!(err.to_string().contains("cameras[0].distance: invalid type: sequence"), "{err}");
    // Text after the document is at no field.
    let text = to_json_string(&example_motion(), false);
    let err = from_json_str(&format!("{text} 1")).unwrap_err();
    assert!(matches!(&err, ConvertError::Json { path: None, .. }), "{err}");
}
