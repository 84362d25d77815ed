//! Bone CSV reading: the two shared PmxEditor exports, read in place, and small fixtures made
//! here for the errors.

use super::super::{CsvProblem, Model, ModelErrorKind, ModelFormat, ModelSection, Tail};
use crate::skeleton::Skeleton;
use glam::Vec3;

const CLASSIC: &str = "miu200521358__VMD-3d-pose-baseline-multi__animasa_miku_born.csv";
const SEMI_STANDARD: &str =
    "miu200521358__VMD-3d-pose-baseline-multi__animasa_miku_semi_standard_born.csv";

/// The shared file read through [`Model::read_file`], so that the format detection is tested
/// too, with the number of its `Bone` rows counted independently of the reader.
fn shared(test: &str, name: &str) -> Option<(Model, usize)> {
    let path = test_corpus::pose_file_or_skip(test, name)?;
    let text = std::fs::read_to_string(&path).unwrap();
    let rows = text.lines().filter(|l| l.starts_with("Bone,")).count();
    let model = Model::read_file(&path).unwrap_or_else(|e| panic!("{e}"));
    Some((model, rows))
}

fn bone<'m>(model: &'m Model, name: &str) -> &'m super::super::Bone {
    &model.bones[model.bone_index(name).unwrap_or_else(|| panic!("no bone {name}"))]
}

fn parent_name<'m>(model: &'m Model, name: &str) -> Option<&'m str> {
    bone(model, name).parent.map(|p| model.bones[p].name.as_str())
}

/// What both exports share: the trunk, the leg IK and a hierarchy the skeleton accepts.
fn check_common(model: &Model, rows: usize) {
    assert_eq!(model.format, ModelFormat::BoneCsv);
    assert_eq!(model.bones.len(), rows);
    assert!(model.morphs.is_empty());
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    for (i, b) in model.bones.iter().enumerate() {
        assert_eq!(b.name_cp932, super::key_name(&b.name), "{}", b.name);
        assert!(b.parent.is_none_or(|p| p < model.bones.len()), "{}", names[i]);
    }

    let ik = bone(model, "左足ＩＫ").ik.as_ref().expect("左足ＩＫ has an IK chain");
    assert_eq!(model.bones[ik.target].name, "左足首");
    assert_eq!(ik.loop_count, 40);
    assert!((ik.limit_angle - 2.0).abs() < 1e-5, "114.5916° is 2 rad: {}", ik.limit_angle);
    let links: Vec<&str> = ik.links.iter().map(|l| model.bones[l.bone].name.as_str()).collect();
    assert_eq!(links, ["左ひざ", "左足"]);
    let (min, max) = ik.links[0].limits.expect("the knee is limited");
    assert!(min.abs_diff_eq(Vec3::new(-std::f32::consts::PI, 0.0, 0.0), 1e-5), "{min}");
    assert!(max.abs_diff_eq(Vec3::new(-0.5f32.to_radians(), 0.0, 0.0), 1e-6), "{max}");
    assert_eq!(ik.links[1].limits, None);
    assert!(bone(model, "左ひざ").ik.is_none());

    let skeleton = Skeleton::new(model);
    for note in skeleton.notes() {
        println!("skeleton note: {note}");
    }
    assert!(skeleton.notes().is_empty(), "{:?}", skeleton.notes());
}

#[test]
fn classic_export_reads_with_its_hierarchy_and_ik() {
    let Some((model, rows)) = shared("classic_export_reads_with_its_hierarchy_and_ik", CLASSIC)
    else {
        return;
    };
    assert_eq!(rows, 122);
    check_common(&model, rows);
    assert_eq!(parent_name(&model, "首"), Some("上半身"));
    assert_eq!(parent_name(&model, "上半身"), Some("センター"));
    assert_eq!(parent_name(&model, "センター"), None);
    let center = bone(&model, "センター");
    assert_eq!(center.position, Vec3::new(0.0, 8.0, 0.0));
    assert_eq!(center.name_en, "center");
    assert_eq!(center.tail, Tail::Bone(model.bone_index("センター先")));
    assert!(model.bone_index("上半身2").is_none());
    let eye = bone(&model, "左目");
    let append = eye.append.expect("左目 follows 両目");
    assert_eq!(model.bones[append.parent].name, "両目");
    assert!(append.rotation && !append.translation && append.ratio == 1.0);
    assert_eq!(eye.deform_layer, 2);
}

#[test]
fn semi_standard_export_reads_its_extra_bones() {
    let Some((model, rows)) = shared("semi_standard_export_reads_its_extra_bones", SEMI_STANDARD)
    else {
        return;
    };
    assert_eq!(rows, 150);
    check_common(&model, rows);
    assert_eq!(parent_name(&model, "首"), Some("上半身2"));
    assert_eq!(parent_name(&model, "上半身2"), Some("上半身"));
    // The semi-standard rig puts 腰 between センター and the trunk; the chain still reaches it.
    let mut chain = vec!["首"];
    while let Some(p) = parent_name(&model, chain.last().unwrap()) {
        chain.push(p);
    }
    let at = |n: &str| chain.iter().position(|c| *c == n).unwrap_or_else(|| panic!("{chain:?}"));
    assert!(at("首") < at("上半身") && at("上半身") < at("センター"), "{chain:?}");

    let twist = bone(&model, "左腕捩");
    let axis = twist.fixed_axis.expect("左腕捩 has a fixed axis");
    assert!(axis.abs_diff_eq(Vec3::new(0.8197415, -0.5727338, 0.0), 1e-7), "{axis}");
    assert!(twist.flags.contains(super::BoneFlags::FIXED_AXIS));

    let cancel = bone(&model, "腰キャンセル左");
    let append = cancel.append.expect("腰キャンセル左 appends");
    assert_eq!(model.bones[append.parent].name, "腰");
    assert!(append.rotation && append.ratio == -1.0, "{append:?}");

    let thumb = bone(&model, "左親指０");
    let (x, z) = thumb.local_axes.expect("the thumb has local axes");
    assert!(x.abs_diff_eq(Vec3::new(0.4202958, -0.6970893, -0.5808769), 1e-7), "{x}");
    assert!(z.abs_diff_eq(Vec3::new(-0.765015, 0.07203109, -0.6399716), 1e-7), "{z}");
    // Local axes are kept only where the flag is on, though every row writes some.
    assert_eq!(bone(&model, "首").local_axes, None);
    assert!(model.bones.iter().any(|b| matches!(b.tail, Tail::Offset(_))));
}

/// A `Bone` row of the export's 40 columns: name, parent, then the given columns overwritten.
fn row(name: &str, parent: &str, set: &[(usize, &str)]) -> String {
    let mut fields: Vec<String> =
        "Bone,,,0,0,0,0,0,1,0,0,1,1,,1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578"
            .split(',')
            .map(str::to_string)
            .collect();
    fields[1] = name.to_string();
    fields[13] = parent.to_string();
    for &(column, value) in set {
        fields[column] = value.to_string();
    }
    fields.join(",")
}

fn fixture(rows: &[String]) -> String {
    let mut text = String::from("\u{feff};Bone,ボーン名,...\r\n");
    for r in rows {
        text.push_str(r);
        text.push_str("\r\n");
    }
    text
}

#[test]
fn small_fixture_reads_quotes_bom_crlf_forward_names_and_ik() {
    let text = fixture(&[
        row("\"子,\"\"a\"\"\"", "親", &[(15, "親")]),
        "Material,ignored,\"multi\nline\"".to_string(),
        row("親", "", &[(10, "1"), (37, "\"子,\"\"a\"\"\""), (38, "7"), (39, "90")]),
        ";IKLink,...".to_string(),
        "IKLink,親,\"子,\"\"a\"\"\",1,-90,0,0,0,0,45".to_string(),
    ]);
    assert!(crate::file_kind::is_bone_csv(text.as_bytes()));
    let model = Model::parse(text.as_bytes()).unwrap();
    assert_eq!(model.bones.len(), 2);
    assert_eq!(model.bones[0].name, "子,\"a\"");
    assert_eq!(model.bones[0].parent, Some(1));
    assert_eq!(model.bones[0].tail, Tail::Bone(Some(1)));
    let ik = model.bones[1].ik.as_ref().unwrap();
    assert_eq!((ik.target, ik.loop_count), (0, 7));
    assert!((ik.limit_angle - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    let (min, max) = ik.links[0].limits.unwrap();
    assert!(min.abs_diff_eq(Vec3::new(-std::f32::consts::FRAC_PI_2, 0.0, 0.0), 1e-6));
    assert!(max.abs_diff_eq(Vec3::new(0.0, 0.0, std::f32::consts::FRAC_PI_4), 1e-6));
    // Not a CSV, and a CSV that only looks like text of another kind.
    assert!(!crate::file_kind::is_bone_csv(b"PMX "));
    assert!(!crate::file_kind::is_bone_csv(b";Material,x\nBone,a"));
}

/// The error of parsing `rows`, with its message printed for reading in the test output.
fn error(rows: &[String]) -> super::ModelError {
    let e = Model::parse_bone_csv(&fixture(rows)).unwrap_err();
    println!("{e}");
    e
}

#[test]
fn errors_name_the_line_column_and_field() {
    let e = error(&[row("a", "", &[]), row("b", "nobody", &[])]);
    assert_eq!(
        e.kind,
        ModelErrorKind::CsvField {
            line: 3,
            column: 14,
            field: "parent name",
            problem: CsvProblem::UnknownBone { name: "nobody".into() },
        }
    );
    assert_eq!((e.section, e.record), (ModelSection::Bones, Some(1)));
    assert!(e.to_string().contains("line 3, column 14 (parent name)"), "{e}");

    let e = error(&[row("a", "", &[(6, "1.2.3")])]);
    assert_eq!(
        e.kind,
        ModelErrorKind::CsvField {
            line: 2,
            column: 7,
            field: "position y",
            problem: CsvProblem::NotANumber { value: "1.2.3".into() },
        }
    );
    let text = fixture(&[row("a", "", &[(6, "1.2.3")])]);
    assert_eq!(&text[e.offset as usize..][..5], "1.2.3");

    let e = error(&[row("a", "", &[(9, "yes")])]);
    assert!(
        matches!(
            e.kind,
            ModelErrorKind::CsvField {
                column: 10,
                field: "movable",
                problem: CsvProblem::NotAFlag { .. },
                ..
            }
        ),
        "{e}"
    );

    let short = row("a", "", &[]);
    let short = short.rsplitn(4, ',').last().unwrap().to_string();
    let e = error(&[short]);
    assert_eq!(
        e.kind,
        ModelErrorKind::CsvRowTooShort { line: 2, row: "Bone", needed: 40, found: 37 }
    );

    let e = error(&[row("a", "", &[]), "IKLink,a,a,0".to_string()]);
    assert!(matches!(e.kind, ModelErrorKind::CsvRowTooShort { row: "IKLink", .. }), "{e}");
    let e = error(&[row("a", "", &[]), "IKLink,a,a,0,0,0,0,0,0,0".to_string()]);
    assert_eq!(e.section, ModelSection::Ik);
    assert!(
        matches!(e.kind, ModelErrorKind::CsvField { problem: CsvProblem::NotAnIkBone { .. }, .. }),
        "{e}"
    );
    let e = error(&[row("a", "", &[(10, "1")])]);
    assert!(
        matches!(
            e.kind,
            ModelErrorKind::CsvField { field: "IK target name", problem: CsvProblem::Empty, .. }
        ),
        "{e}"
    );
    let e = error(&[row("\"a", "", &[])]);
    assert!(
        matches!(e.kind, ModelErrorKind::CsvField { problem: CsvProblem::UnclosedQuote, .. }),
        "{e}"
    );

    let e = Model::parse_bone_csv(";Bone,x\n").unwrap_err();
    assert!(matches!(e.kind, ModelErrorKind::NotAModel { .. }), "{e}");
    let e = Model::parse(b";Bone,\xff\xff\n").unwrap_err();
    assert_eq!((e.kind, e.offset), (ModelErrorKind::CsvNotText, 6));
}

#[test]
fn shift_jis_export_reads_as_utf8_would() {
    let text = fixture(&[row("センター", "", &[]), row("上半身", "センター", &[])]);
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&text[3..]);
    assert!(!unmappable);
    let model = Model::parse(&sjis).unwrap();
    assert_eq!(model, Model::parse_bone_csv(&text).unwrap());
}

/// Found by the `model` fuzz target: offsets in a Shift-JIS CSV counted bytes of its UTF-8
/// decoding, so an error after Japanese text pointed past the end of a short file.
#[test]
fn shift_jis_error_offsets_count_the_file_bytes() {
    let text = fixture(&[row("センター", "", &[(6, "1.2.3")])]);
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&text[3..]);
    assert!(!unmappable);
    let e = Model::parse(&sjis).unwrap_err();
    assert_eq!(&sjis[e.offset as usize..][..5], b"1.2.3", "{e}");

    // A row too short after a header of Japanese text: 3 bytes a character in UTF-8, 2 in
    // Shift-JIS, and 1 for the half-width katakana.
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(";Bone,ボーン名ｱ\nBone,a,c0");
    let e = Model::parse(&sjis).unwrap_err();
    assert!(matches!(e.kind, ModelErrorKind::CsvRowTooShort { found: 3, .. }), "{e}");
    assert_eq!(&sjis[e.offset as usize..], b"Bone,a,c0", "{e}");
}
