//! Every strictly readable VMD in the shared corpus through JSON and CSV and back, byte for
//! byte, with every JSON document validated against `docs/vmd-json.schema.json`.

use serde_json::{json, Value};
use std::collections::HashMap;
use test_corpus::corpus_or_skip;
use vmdkit::convert;
use vmdkit::Motion;

#[test]
fn convert_round_trips_every_readable_corpus_vmd_through_json_and_csv() {
    let Some(manifest) = corpus_or_skip("convert corpus round trip") else { return };
    let schema = Schema::load();
    let (mut checked, mut raw_fields) = (0, HashMap::<String, usize>::new());
    for entry in manifest.of_kind("vmd").filter(|e| e.parse_ok()) {
        let path = &entry.local_path;
        let data = entry.bytes();
        let motion = Motion::parse(&data).unwrap_or_else(|e| panic!("{path}: {e}"));

        let text = convert::to_json_string(&motion, true);
        let back =
            convert::from_json_str(&text).unwrap_or_else(|e| panic!("{path}: JSON: {e}")).motion;
        assert!(back.to_bytes() == data, "{path}: VMD -> JSON -> VMD differs");

        let value: Value = serde_json::from_str(&text).unwrap();
        let errors = schema.validate(&value);
        assert!(
            errors.is_empty(),
            "{path}: JSON does not match the schema:\n{}",
            errors.join("\n")
        );
        check_structure(&value, &motion, path);
        count_raw_fields(&value, &mut raw_fields);

        let table = convert::to_csv_string(&motion);
        let back =
            convert::from_csv_str(&table).unwrap_or_else(|e| panic!("{path}: CSV: {e}")).motion;
        assert!(back.to_bytes() == data, "{path}: VMD -> CSV -> VMD differs");
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} corpus VMDs were readable");
    let mut raw_fields: Vec<_> = raw_fields.into_iter().collect();
    raw_fields.sort();
    println!(
        "{checked} corpus VMDs round-tripped through JSON and CSV; raw fields used: {raw_fields:?}"
    );
}

/// What the schema cannot say: the arrays hold every key, and names are decoded text.
fn check_structure(doc: &Value, motion: &Motion, path: &str) {
    assert_eq!(doc["format"], "vmdkit-motion", "{path}");
    assert_eq!(doc["schema_version"], convert::SCHEMA_VERSION, "{path}");
    let counts = [
        ("bones", motion.bones.len()),
        ("morphs", motion.morphs.len()),
        ("cameras", motion.cameras.len()),
        ("lights", motion.lights.len()),
        ("self_shadows", motion.shadows.len()),
        ("properties", motion.properties.len()),
    ];
    for (key, count) in counts {
        assert_eq!(doc[key].as_array().map(Vec::len), Some(count), "{path}: {key}");
    }
    if let Some(bone) = doc["bones"].get(0) {
        assert_eq!(bone["frame"], motion.bones[0].frame, "{path}");
        if bone.get("name_raw").is_none() {
            assert_eq!(
                vmdkit::KeyName::encode_as(
                    bone["name"].as_str().unwrap(),
                    motion.detect_encoding()
                )
                .0,
                motion.bones[0].name
            );
        }
    }
}

fn count_raw_fields(value: &Value, counts: &mut HashMap<String, usize>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key.ends_with("_raw") || key == "trailing" || key == "sections_present" {
                    *counts.entry(key.clone()).or_default() += 1;
                }
                count_raw_fields(v, counts);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| count_raw_fields(v, counts)),
        _ => {}
    }
}

#[test]
fn convert_schema_accepts_written_documents_and_rejects_broken_ones() {
    let schema = Schema::load();
    let doc = convert::to_json(&vmdkit::example::example_motion());
    assert_eq!(schema.validate(&doc), Vec::<String>::new());

    let mut odd = vmdkit::example::example_motion();
    odd.bones[0].translation.x = f32::NAN;
    odd.bones[0].name.0[10] = 0;
    odd.bones[0].interpolation.0[31] = 1;
    odd.cameras[0].perspective_byte = 9;
    odd.properties[0].visible_byte = 2;
    odd.properties[0].ik[0].enabled_byte = 2;
    odd.header.signature[29] = 1;
    odd.sections_present = 3;
    odd.trailing = vec![1, 2, 3];
    let doc = convert::to_json(&odd);
    assert_eq!(schema.validate(&doc), Vec::<String>::new());
    assert!(convert::from_json_value(doc).unwrap().motion.to_bytes() == odd.to_bytes());

    let broken = |change: fn(&mut Value)| {
        let mut doc = convert::to_json(&vmdkit::example::example_motion());
        change(&mut doc);
        schema.validate(&doc)
    };
    assert!(!broken(|d| drop(d.as_object_mut().unwrap().remove("model_name"))).is_empty());
    assert!(!broken(|d| d["bones"][0]["euler_deg"] = json!([0, 0, 0])).is_empty());
    assert!(!broken(|d| d["bones"][0]["translation"][0] = json!("abc")).is_empty());
    assert!(!broken(|d| d["bones"][0]["curves"]["x"] = json!([1, 2, 3])).is_empty());
    assert!(!broken(|d| d["bones"][0]["physics"] = json!("maybe")).is_empty());
    assert!(!broken(|d| d["bones"][0]["name_raw"] = json!("00")).is_empty());
    assert!(!broken(|d| d["cameras"][0]["extra"] = json!(1)).is_empty());
    assert!(!broken(|d| d["schema_version"] = json!(2)).is_empty());
    assert!(!broken(|d| d["properties"][0]["frame"] = json!(-1)).is_empty());
}

/// A JSON Schema validator for exactly the keywords `docs/vmd-json.schema.json` uses; it panics
/// on any other keyword, so the schema cannot grow a rule this test silently skips.
struct Schema {
    root: Value,
    patterns: HashMap<String, regex::Regex>,
}

const ANNOTATIONS: [&str; 6] = ["$schema", "title", "description", "default", "$defs", "$comment"];

impl Schema {
    fn load() -> Schema {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/vmd-json.schema.json");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let root: Value = serde_json::from_str(&text).unwrap();
        let mut patterns = HashMap::new();
        collect_patterns(&root, &mut patterns);
        Schema { root, patterns }
    }

    fn validate(&self, doc: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(&self.root, doc, &|| "$".to_string(), &mut errors);
        errors
    }

    fn resolve<'a>(&'a self, reference: &str) -> &'a Value {
        let name = reference
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("unsupported $ref {reference}"));
        &self.root["$defs"][name]
    }

    /// `at` builds the path only when there is an error to report: corpus documents are big.
    fn check(&self, schema: &Value, v: &Value, at: &dyn Fn() -> String, errors: &mut Vec<String>) {
        let schema = schema.as_object().expect("schemas are objects");
        macro_rules! fail {
            ($($message:tt)*) => { errors.push(format!("{}: {}", at(), format!($($message)*))) };
        }
        for (keyword, rule) in schema {
            match keyword.as_str() {
                k if ANNOTATIONS.contains(&k) => {}
                "$ref" => self.check(self.resolve(rule.as_str().unwrap()), v, at, errors),
                "type" => {
                    let ok = match rule.as_str().unwrap() {
                        "object" => v.is_object(),
                        "array" => v.is_array(),
                        "string" => v.is_string(),
                        "number" => v.is_number(),
                        "integer" => v.is_i64() || v.is_u64(),
                        "boolean" => v.is_boolean(),
                        t => panic!("unsupported type {t}"),
                    };
                    if !ok {
                        fail!("{v} is not of type {rule}");
                    }
                }
                "const" if v != rule => fail!("{v} is not {rule}"),
                "enum" if !rule.as_array().unwrap().contains(v) => {
                    fail!("{v} is not one of {rule}")
                }
                "required" => {
                    for key in rule.as_array().unwrap() {
                        if v.as_object().is_some_and(|o| !o.contains_key(key.as_str().unwrap())) {
                            fail!("missing {key}");
                        }
                    }
                }
                "properties" => {
                    for (key, sub) in v.as_object().into_iter().flatten() {
                        if let Some(prop) = rule.get(key) {
                            self.check(prop, sub, &|| format!("{}.{key}", at()), errors);
                        }
                    }
                }
                "additionalProperties" => {
                    assert_eq!(
                        rule,
                        &Value::Bool(false),
                        "only additionalProperties: false is supported"
                    );
                    let known = schema["properties"].as_object().unwrap();
                    for key in v.as_object().into_iter().flat_map(|o| o.keys()) {
                        if !known.contains_key(key) {
                            fail!("unexpected property {key:?}");
                        }
                    }
                }
                "items" => {
                    for (i, item) in v.as_array().into_iter().flatten().enumerate() {
                        self.check(rule, item, &|| format!("{}[{i}]", at()), errors);
                    }
                }
                "minItems" | "maxItems" => {
                    let (len, bound) =
                        (v.as_array().map_or(0, Vec::len) as u64, rule.as_u64().unwrap());
                    if v.is_array()
                        && (keyword == "minItems" && len < bound
                            || keyword == "maxItems" && len > bound)
                    {
                        fail!("{len} items breaks {keyword} {bound}");
                    }
                }
                "minimum" | "maximum" => {
                    if let (Some(x), Some(bound)) = (v.as_f64(), rule.as_f64()) {
                        if keyword == "minimum" && x < bound || keyword == "maximum" && x > bound {
                            fail!("{x} breaks {keyword} {bound}");
                        }
                    }
                }
                "pattern" => {
                    if let Some(s) = v.as_str() {
                        if !self.patterns[rule.as_str().unwrap()].is_match(s) {
                            fail!("{s:?} does not match {rule}");
                        }
                    }
                }
                "oneOf" => {
                    let matches = rule.as_array().unwrap().iter().filter(|s| {
                        let mut sub = Vec::new();
                        self.check(s, v, at, &mut sub);
                        sub.is_empty()
                    });
                    let n = matches.count();
                    if n != 1 {
                        fail!("{v} matches {n} of oneOf, not exactly 1");
                    }
                }
                "not" => {
                    let mut sub = Vec::new();
                    self.check(rule, v, at, &mut sub);
                    if sub.is_empty() {
                        fail!("matches the forbidden schema {rule}");
                    }
                }
                "const" | "enum" => {}
                k => panic!("the schema uses {k:?}, which this validator does not implement"),
            }
        }
    }
}

fn collect_patterns(schema: &Value, out: &mut HashMap<String, regex::Regex>) {
    match schema {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("pattern", Value::String(p)) => {
                        out.insert(p.clone(), regex::Regex::new(p).unwrap());
                    }
                    _ => collect_patterns(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_patterns(v, out)),
        _ => {}
    }
}
