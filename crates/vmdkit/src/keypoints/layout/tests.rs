mod whole_body;

use super::{JointLayout, JointLayoutError};
use crate::roles::{Role, Side};
use std::collections::HashSet;

pub(super) fn names_of(layout: &JointLayout) -> Vec<String> {
    layout.joints.iter().map(|j| j.name.clone()).collect()
}

/// Every built-in layout, `mediapipe_hand` as a left hand.
fn builtins() -> impl Iterator<Item = JointLayout> {
    let hand = Some(Side::Left);
    JointLayout::builtin_names()
        .iter()
        .map(move |n| JointLayout::builtin_for(n, hand, None).unwrap())
}

/// Whether a built-in layout is a body's, not hands or a face alone.
fn is_body(layout: &JointLayout) -> bool {
    !["mediapipe_hand", "mediapipe_hands", "mediapipe_face", "mediapipe_face_iris"]
        .contains(&layout.name.as_str())
}

#[test]
fn every_builtin_has_unique_names_a_body_and_both_sides() {
    for layout in builtins() {
        let keys: HashSet<String> =
            layout.joints.iter().map(|j| super::normalize(&j.name)).collect();
        assert_eq!(keys.len(), layout.joints.len(), "{}: repeated joint names", layout.name);
        let roles: Vec<Role> = layout.joints.iter().filter_map(|j| j.role).collect();
        let unique: HashSet<Role> = roles.iter().copied().collect();
        assert_eq!(unique.len(), roles.len(), "{}: a role on two joints", layout.name);
        assert_eq!(layout.has_body(), is_body(&layout), "{}", layout.name);
        let one_hand = layout.name == "mediapipe_hand";
        for role in Role::ALL.iter().copied().filter(|r| layout.has(*r) && !one_hand) {
            assert!(layout.has(role.mirrored()), "{}: {role} without its mirror", layout.name);
        }
        for point in &layout.synthetic {
            assert!(layout.joint_of(point.role).is_none(), "{}: {}", layout.name, point.role);
            assert!(point.mean_of.iter().all(|r| layout.joint_of(*r).is_some()));
        }
    }
}

#[test]
fn builtins_have_their_documented_sizes_and_key_joints() {
    let size =
        |name: &str| JointLayout::builtin_for(name, Some(Side::Right), None).unwrap().joints.len();
    let sizes: Vec<usize> = JointLayout::builtin_names().iter().map(|n| size(n)).collect();
    assert_eq!(sizes, [17, 17, 17, 33, 25, 25, 24, 21, 42, 543, 553, 468, 478, 133, 55]);
    let h36m = JointLayout::builtin("H36M").unwrap();
    assert_eq!(h36m.joint_of(Role::Nose), Some(9));
    assert_eq!(h36m.joint_of(Role::HeadTop), Some(10));
    assert_eq!(h36m.joint_of(Role::RightAnkle), Some(3));
    let blaze = JointLayout::builtin("blazepose33").unwrap();
    assert_eq!(blaze.joint_of(Role::LeftToe), Some(31));
    assert!(blaze.has(Role::Pelvis) && blaze.joint_of(Role::Pelvis).is_none());
    let body25b = JointLayout::builtin("BODY_25B").unwrap();
    assert_eq!(body25b.joints[17].name, "UpperNeck");
    assert_eq!(body25b.joint_of(Role::HeadTop), Some(18));
    assert_eq!(JointLayout::builtin("smpl24").unwrap().joint_of(Role::LeftCollar), Some(13));
    assert!(JointLayout::builtin("coco18").is_none());
    let err = JointLayout::builtin_or_error("coco18").unwrap_err().to_string();
    assert!(err.contains("coco18") && err.contains("blazepose33"), "{err}");
}

#[test]
fn each_builtin_is_detected_from_its_own_names() {
    for layout in builtins() {
        let names = names_of(&layout);
        let found = JointLayout::detect_with(Some(&names), names.len(), Some(Side::Left));
        assert_eq!(found.unwrap(), layout);
        if layout.face.is_some_and(|f| f.joints().len() == names.len()) {
            continue; // a face alone has no order but its own
        }
        // Case and punctuation do not matter, and the file's order is kept (a face mesh's
        // points, left together, as a block).
        let face = layout.face.map_or(names.len()..names.len(), |f| f.joints());
        let mut shuffled: Vec<String> = names.iter().map(|n| n.to_uppercase()).collect();
        let tail = shuffled.split_off(face.end);
        let mid = shuffled.split_off(face.start);
        shuffled.reverse();
        shuffled.swap(0, 1);
        let start = tail.len();
        shuffled = tail.into_iter().rev().chain(mid).chain(shuffled).collect();
        let found = JointLayout::detect_with(Some(&shuffled), names.len(), Some(Side::Left));
        let found = found.unwrap();
        assert_eq!(found.face.map(|f| f.first), layout.face.map(|_| start), "{}", layout.name);
        assert_eq!(found.name, layout.name);
        assert_eq!(names_of(&found), shuffled);
        for (joint, name) in found.joints.iter().zip(&shuffled) {
            let original = layout.joints.iter().find(|j| j.name.to_uppercase() == *name).unwrap();
            assert_eq!(joint.role, original.role, "{}", layout.name);
        }
        assert_eq!(found.synthetic, layout.synthetic);
    }
}

#[test]
fn counts_decide_only_when_one_layout_fits() {
    assert_eq!(JointLayout::detect(None, 33).unwrap().name, "blazepose33");
    assert_eq!(JointLayout::detect(None, 24).unwrap().name, "smpl24");
    match JointLayout::detect(None, 25) {
        Err(JointLayoutError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, ["body25", "body25b"])
        }
        other => panic!("{other:?}"),
    }
    let err = JointLayout::detect(None, 17).unwrap_err();
    let text = err.to_string();
    for name in ["h36m", "lftd17", "coco17"] {
        assert!(text.contains(name), "{text}");
    }
    // The library says what is wrong and that a choice helps; each front end words the hint.
    assert!(!text.contains("--"), "a library message names a flag: {text}");
    assert!(err.choosing_a_layout_may_help());
    let err = JointLayout::detect(None, 19).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("19 joints") && text.contains("smpl24: 24"), "{text}");
    assert!(!text.contains("--") && err.choosing_a_layout_may_help(), "{text}");
    // Names that say nothing fall back to the count.
    let generic: Vec<String> = (0..24).map(|i| format!("joint{i}")).collect();
    assert_eq!(JointLayout::detect(Some(&generic), 24).unwrap().name, "smpl24");
}

#[test]
fn a_subset_with_unknown_names_keeps_them_without_roles() {
    let mut names: Vec<String> = names_of(&JointLayout::builtin("coco17").unwrap())
        .into_iter()
        .filter(|n| !n.contains("ear"))
        .collect();
    names.insert(3, "prop".to_string());
    let found = JointLayout::detect(Some(&names), names.len()).unwrap();
    assert_eq!(found.name, "coco17");
    assert_eq!(found.joints[3].role, None);
    assert_eq!(found.joint_of(Role::LeftShoulder), names.iter().position(|n| n == "left_shoulder"));
    assert!(found.has(Role::Pelvis));
}

/// The marker row of Pose2Sim's TRC file: BODY_25B's points under Pose2Sim's names, in its
/// skeleton's order, 21 of the 25.
fn trc_markers(test: &str) -> Option<Vec<String>> {
    let path = test_corpus::pose_file_or_skip(
        test,
        "perfanalytics__pose2sim__S00_P00_T00_StaticTrial_0-12.trc",
    )?;
    let text = std::fs::read_to_string(path).unwrap();
    let row = text.lines().nth(3).unwrap();
    Some(
        row.split('\t')
            .skip(2)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
    )
}

#[test]
fn pose2sim_trc_markers_are_body25b_by_name() {
    let Some(names) = trc_markers("pose2sim_trc_markers_are_body25b_by_name") else { return };
    assert_eq!(names.len(), 21);
    let found = JointLayout::detect(Some(&names), names.len()).unwrap();
    assert_eq!(found.name, "body25b");
    assert_eq!(names_of(&found), names);
    let role = |name: &str| found.joints[names.iter().position(|n| n == name).unwrap()].role;
    assert_eq!(role("Head"), Some(Role::HeadTop));
    assert_eq!(role("Neck"), None);
    assert_eq!(role("RBigToe"), Some(Role::RightBigToe));
    assert_eq!(role("LWrist"), Some(Role::LeftWrist));
    assert!(found.has(Role::Pelvis) && found.has(Role::Thorax));
    assert!(found.joints.iter().filter(|j| j.role.is_none()).count() == 1);
}

#[test]
fn csv_headers_of_the_shared_files_are_detected() {
    for (file, expected, suffixes) in [
        ("wayne931121__VMD-Lifting__posfile.csv", "lftd17", &["_x"][..]),
        ("sign-language-processing__pose__example__world_landmarks.csv", "blazepose33", &["_x"]),
    ] {
        let Some(path) = test_corpus::pose_file_or_skip("csv_headers_of_the_shared_files", file)
        else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let header = text.lines().next().unwrap();
        let names: Vec<String> = header
            .split(',')
            .filter_map(|c| suffixes.iter().find_map(|s| c.strip_suffix(s)))
            .map(String::from)
            .collect();
        let found = JointLayout::detect(Some(&names), names.len()).unwrap();
        assert_eq!(found, JointLayout::builtin(expected).unwrap(), "{file}");
    }
}

#[test]
fn mapping_text_reads_roles_comments_and_blanks() {
    let text = "# rig\n\nHips = pelvis\nLeftUpLeg=left_hip # thigh\nRightUpLeg = right_hip\n\
                Prop = -\nTail = none\nLeftArm = LEFT_SHOULDER\n";
    let layout = JointLayout::from_mapping("rig", text).unwrap();
    assert_eq!(layout.name, "rig");
    let pairs: Vec<(&str, Option<Role>)> =
        layout.joints.iter().map(|j| (j.name.as_str(), j.role)).collect();
    assert_eq!(
        pairs,
        [
            ("Hips", Some(Role::Pelvis)),
            ("LeftUpLeg", Some(Role::LeftHip)),
            ("RightUpLeg", Some(Role::RightHip)),
            ("Prop", None),
            ("Tail", None),
            ("LeftArm", Some(Role::LeftShoulder)),
        ]
    );
    assert!(layout.synthetic.is_empty());
}

#[test]
fn mapping_errors_name_the_line() {
    let line_of = |text: &str| match JointLayout::from_mapping("x", text) {
        Err(JointLayoutError::Mapping { line, message }) => (line, message),
        other => panic!("{other:?}"),
    };
    let (line, message) = line_of("a = pelvis\n# c\nb = elbow\n");
    assert_eq!(line, 3);
    assert!(message.contains("elbow") && message.contains("left_elbow"), "{message}");
    assert_eq!(line_of("a = pelvis\nb pelvis\n").0, 2);
    assert_eq!(line_of("a = pelvis\nA = -\n").0, 2);
    let (line, message) = line_of("a = pelvis\nb = left_hip\nc = pelvis\n");
    assert_eq!(line, 3);
    assert!(message.contains("line 1"), "{message}");
    assert_eq!(line_of("# nothing\n").0, 0);
}

#[cfg(feature = "json")]
#[test]
fn mapping_json_keeps_the_written_order() {
    let object = "{\n  \"z_hip\": \"left_hip\",\n  \"a_hip\": \"right_hip\",\n  \"prop\": null\n}";
    let layout = JointLayout::from_mapping("j", object).unwrap();
    assert_eq!(names_of(&layout), ["z_hip", "a_hip", "prop"]);
    assert_eq!(layout.joints[2].role, None);
    assert_eq!(layout.synthetic.len(), 1, "the pelvis between the hips");
    let listed = r#"{"name": "mine", "joints": [["Zed", "left_wrist"], ["Ann", "-"]]}"#;
    let layout = JointLayout::from_mapping("j", listed).unwrap();
    assert_eq!(layout.name, "mine");
    assert_eq!(names_of(&layout), ["Zed", "Ann"]);
    assert_eq!(layout.joints[0].role, Some(Role::LeftWrist));
    match JointLayout::from_mapping("j", "{\n \"a\": \"pelvis\",\n \"b\": \"tail\"\n}") {
        Err(JointLayoutError::Mapping { line: 3, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        JointLayout::from_mapping("j", "{\"a\": 1"),
        Err(JointLayoutError::Mapping { line: 1, .. })
    ));
}

#[test]
fn mapping_files_are_named_after_their_stem() {
    let path = std::env::temp_dir().join(format!("vmdkit-layout-{}.txt", std::process::id()));
    std::fs::write(&path, "l = left_knee\nr = right_knee\n").unwrap();
    let layout = JointLayout::from_file(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(layout.name, format!("vmdkit-layout-{}", std::process::id()));
    assert!(matches!(JointLayout::from_file(&path), Err(JointLayoutError::Read { .. })));
}
