use super::{JointLayout, JointLayoutError};
use crate::keypoints::{FaceBlock, FaceMesh};
use crate::roles::{Finger, Role, Side};
use std::collections::HashSet;

fn names_of(layout: &JointLayout) -> Vec<String> {
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

/// The joint names of a built-in layout read on `side`.
fn builtin_names_of(name: &str, side: Option<Side>) -> Vec<String> {
    names_of(&JointLayout::builtin_for(name, side, None).unwrap())
}

#[test]
fn hand_layouts_follow_mediapipe_hand_landmark_order() {
    let names = builtin_names_of("mediapipe_hand", Some(Side::Left));
    assert_eq!(names[..5], ["wrist", "thumb_cmc", "thumb_mcp", "thumb_ip", "thumb_tip"]);
    assert_eq!(names[5], "index_finger_mcp");
    assert_eq!(names[12], "middle_finger_tip");
    assert_eq!(names[13], "ring_finger_mcp");
    assert_eq!(names[17..], ["pinky_mcp", "pinky_pip", "pinky_dip", "pinky_tip"]);
    for side in Side::BOTH {
        let hand = JointLayout::builtin_for("MediaPipe_Hand", Some(side), None).unwrap();
        let roles: Vec<Role> = hand.joints.iter().map(|j| j.role.unwrap()).collect();
        assert_eq!(roles, Role::hand_points(side));
        assert_eq!(hand.hand_sides(), [side]);
        assert!(!hand.has_body() && hand.face.is_none());
    }
    let hands = JointLayout::builtin("mediapipe_hands").unwrap();
    assert_eq!(hands.joints[0].name, "left_hand_wrist");
    assert_eq!(hands.joints[21].name, "right_hand_wrist");
    assert_eq!(hands.joints[27].name, "right_index_finger_pip");
    let roles: Vec<Role> = hands.joints.iter().map(|j| j.role.unwrap()).collect();
    assert_eq!(roles[..21], Role::hand_points(Side::Left));
    assert_eq!(roles[21..], Role::hand_points(Side::Right));
    assert_eq!(hands.hand_sides(), Side::BOTH);
    assert!(JointLayout::builtin("mediapipe_hand").is_none(), "a lone hand needs its side");
    let err = JointLayout::builtin_or_error("mediapipe_hand").unwrap_err();
    assert!(err.giving_the_hand_side_may_help(), "{err}");
}

#[test]
fn holistic_is_pose_then_hands_then_face() {
    for (name, mesh, count) in
        [("holistic", FaceMesh::MediaPipe468, 543), ("holistic_iris", FaceMesh::MediaPipe478, 553)]
    {
        let layout = JointLayout::builtin(name).unwrap();
        assert_eq!(layout.joints.len(), count);
        let blaze = JointLayout::builtin("blazepose33").unwrap();
        assert_eq!(layout.joints[..33], blaze.joints[..]);
        assert_eq!(layout.joint_of(Role::LeftHandWrist), Some(33));
        assert_eq!(layout.joints[33].name, "left_hand_wrist");
        assert_eq!(layout.joint_of(Role::RightPinkyTip), Some(74));
        assert_eq!(layout.face, Some(FaceBlock { mesh, first: 75 }));
        assert_eq!(layout.joints[75].name, "face_0");
        assert_eq!(layout.joints[count - 1].name, format!("face_{}", mesh.len() - 1));
        assert!(layout.joints[75..].iter().all(|j| j.role.is_none()));
        assert!(layout.has_body() && layout.has_face() && layout.hand_sides() == Side::BOTH);
        // The body's wrist and the hand's own are different joints.
        assert_eq!(layout.joint_of(Role::LeftWrist), Some(15));
    }
    let face = JointLayout::builtin("mediapipe_face").unwrap();
    assert_eq!(face.face, Some(FaceBlock { mesh: FaceMesh::MediaPipe468, first: 0 }));
    assert!(!face.has_body() && face.hand_sides().is_empty());
    // Named for a file of the iris variant's size, a layout is that variant.
    let iris = JointLayout::builtin_for("mediapipe_face", None, Some(478)).unwrap();
    assert_eq!(iris.face.unwrap().mesh, FaceMesh::MediaPipe478);
    assert_eq!(
        JointLayout::builtin_for("holistic", None, Some(553)).unwrap().name,
        "holistic_iris"
    );
    assert_eq!(JointLayout::builtin_for("holistic", None, Some(543)).unwrap().name, "holistic");
}

#[test]
fn coco_wholebody_has_mmpose_names_and_an_ibug_face() {
    let layout = JointLayout::builtin("coco_wholebody").unwrap();
    let names = names_of(&layout);
    assert_eq!(names.len(), 133);
    assert_eq!(names[16], "right_ankle");
    assert_eq!(
        names[17..23],
        [
            "left_big_toe",
            "left_small_toe",
            "left_heel",
            "right_big_toe",
            "right_small_toe",
            "right_heel"
        ]
    );
    assert_eq!((names[23].as_str(), names[90].as_str()), ("face-0", "face-67"));
    assert_eq!(layout.face, Some(FaceBlock { mesh: FaceMesh::Ibug68, first: 23 }));
    assert_eq!(
        names[91..96],
        ["left_hand_root", "left_thumb1", "left_thumb2", "left_thumb3", "left_thumb4"]
    );
    assert_eq!(names[96], "left_forefinger1");
    assert_eq!(names[100], "left_middle_finger1");
    assert_eq!(names[104], "left_ring_finger1");
    assert_eq!(
        (names[111].as_str(), names[112].as_str()),
        ("left_pinky_finger4", "right_hand_root")
    );
    assert_eq!(names[132], "right_pinky_finger4");
    for (first, side) in [(91, Side::Left), (112, Side::Right)] {
        let roles: Vec<Role> =
            layout.joints[first..first + 21].iter().map(|j| j.role.unwrap()).collect();
        assert_eq!(roles, Role::hand_points(side));
    }
    assert_eq!(layout.joint_of(Role::LeftHeel), Some(19));
    assert!(layout.has(Role::Pelvis) && layout.joint_of(Role::Pelvis).is_none());
}

#[test]
fn smplx_has_its_published_joint_order_and_no_finger_tips() {
    let layout = JointLayout::builtin("smplx").unwrap();
    let names = names_of(&layout);
    assert_eq!(names.len(), 55);
    let smpl = builtin_names_of("smpl24", None);
    assert_eq!(names[..22], smpl[..22]);
    assert_eq!(names[22..26], ["jaw", "left_eye_smplhf", "right_eye_smplhf", "left_index1"]);
    assert_eq!(names[37..40], ["left_thumb1", "left_thumb2", "left_thumb3"]);
    assert_eq!((names[40].as_str(), names[54].as_str()), ("right_index1", "right_thumb3"));
    assert_eq!(layout.joint_of(Role::Jaw), Some(22));
    assert_eq!(layout.joint_of(Role::LeftEye), Some(23));
    assert_eq!(layout.joint_of(Role::RightEye), Some(24));
    for side in Side::BOTH {
        for finger in Finger::ALL {
            let [base, middle, end, tip] = Role::finger_points(side, finger);
            assert!(layout.joint_of(base).is_some() && layout.joint_of(middle).is_some());
            assert!(layout.joint_of(end).is_some() && !layout.has(tip), "{tip}");
        }
    }
    // thumb1..3 are the thumb's CMC, MCP and IP; index1 the index finger's knuckle.
    assert_eq!(layout.joint_of(Role::LeftThumbCmc), Some(37));
    assert_eq!(layout.joint_of(Role::RightThumbIp), Some(54));
    assert_eq!(layout.joint_of(Role::LeftIndexFingerMcp), Some(25));
    assert_eq!(layout.joint_of(Role::RightPinkyDip), Some(48));
    assert!(layout.has(Role::LeftHandWrist) && layout.joint_of(Role::LeftHandWrist).is_none());
}

#[test]
fn counts_find_the_whole_body_layouts_and_a_lone_hand_needs_its_side() {
    for (count, name) in [
        (42, "mediapipe_hands"),
        (543, "holistic"),
        (553, "holistic_iris"),
        (468, "mediapipe_face"),
        (478, "mediapipe_face_iris"),
        (133, "coco_wholebody"),
        (55, "smplx"),
    ] {
        assert_eq!(JointLayout::detect(None, count).unwrap().name, name);
    }
    let err = JointLayout::detect(None, 21).unwrap_err();
    assert!(matches!(err, JointLayoutError::HandSideUnknown { layout: "mediapipe_hand" }));
    let text = err.to_string();
    assert!(text.contains("side is unknown") && text.contains("right_wrist"), "{text}");
    assert!(text.contains("right_index_finger_pip") && !text.contains("--"), "{text}");
    assert!(err.giving_the_hand_side_may_help() && !err.choosing_a_layout_may_help());
    let right = JointLayout::detect_with(None, 21, Some(Side::Right)).unwrap();
    assert_eq!(right.joint_of(Role::RightHandWrist), Some(0));
    assert_eq!(right.hand_sides(), [Side::Right]);
}

#[test]
fn hand_names_say_their_side_or_need_one() {
    // MediaPipe's own unprefixed names: a side is needed.
    let unprefixed = builtin_names_of("mediapipe_hand", Some(Side::Left));
    let err = JointLayout::detect(Some(&unprefixed), 21).unwrap_err();
    assert!(err.giving_the_hand_side_may_help(), "{err}");
    let found = JointLayout::detect_with(Some(&unprefixed), 21, Some(Side::Right)).unwrap();
    assert_eq!(found.joint_of(Role::RightIndexFingerPip), Some(6));
    assert!(!found.has_hand(Side::Left));
    // Upper-case names, as the enum spells them, are the same names.
    let upper: Vec<String> = unprefixed.iter().map(|n| n.to_uppercase()).collect();
    assert_eq!(
        JointLayout::detect_with(Some(&upper), 21, Some(Side::Left)).unwrap().name,
        "mediapipe_hand"
    );
    // Prefixed names say the side, with `right_wrist` for the hand's wrist; a given side does
    // not override them.
    let prefixed: Vec<String> = unprefixed.iter().map(|n| format!("right_{n}")).collect();
    for hand in [None, Some(Side::Left)] {
        let found = JointLayout::detect_with(Some(&prefixed), 21, hand).unwrap();
        assert_eq!(found.name, "mediapipe_hands");
        assert_eq!(found.joint_of(Role::RightHandWrist), Some(0));
        assert_eq!(found.hand_sides(), [Side::Right]);
    }
    // Both hands in the other order keep the file's order.
    let mut both = builtin_names_of("mediapipe_hands", None);
    both.rotate_left(21);
    let found = JointLayout::detect(Some(&both), 42).unwrap();
    assert_eq!(found.joint_of(Role::LeftHandWrist), Some(21));
}

#[test]
fn whole_body_names_are_detected_with_their_face_block() {
    // Holistic without the face's last ten points (no irises) is holistic's face.
    let mut names = builtin_names_of("holistic_iris", None);
    names.truncate(543);
    let found = JointLayout::detect(Some(&names), 543).unwrap();
    assert_eq!(found.name, "holistic");
    assert_eq!(found.face, Some(FaceBlock { mesh: FaceMesh::MediaPipe468, first: 75 }));
    // A face whose points are not all there, in order, is no face block.
    names.swap(100, 101);
    let found = JointLayout::detect(Some(&names), 543).unwrap();
    assert_eq!((found.name.as_str(), found.face), ("holistic", None));
    // The face alone, as MediaPipe's 478 points.
    let face = builtin_names_of("mediapipe_face_iris", None);
    let found = JointLayout::detect(Some(&face), 478).unwrap();
    assert_eq!(found.face, Some(FaceBlock { mesh: FaceMesh::MediaPipe478, first: 0 }));
    // COCO-WholeBody's names; SMPL-X's beside SMPL's.
    let coco = builtin_names_of("coco_wholebody", None);
    assert_eq!(JointLayout::detect(Some(&coco), 133).unwrap().face.unwrap().mesh, FaceMesh::Ibug68);
    let smplx = builtin_names_of("smplx", None);
    assert_eq!(JointLayout::detect(Some(&smplx), 55).unwrap().name, "smplx");
    assert_eq!(JointLayout::detect(Some(&smplx[..24].to_vec()), 24).unwrap().name, "smplx");
    let smpl = builtin_names_of("smpl24", None);
    assert_eq!(JointLayout::detect(Some(&smpl), 24).unwrap().name, "smpl24");
}

#[test]
fn mapping_files_declare_a_face_block() {
    let text = "Hips = pelvis\nLeftUpLeg = left_hip\nface mediapipe478 first=2\nJaw = jaw\n";
    let layout = JointLayout::from_mapping("rig", text).unwrap();
    assert_eq!(layout.joints.len(), 2 + 478 + 1);
    assert_eq!(layout.face, Some(FaceBlock { mesh: FaceMesh::MediaPipe478, first: 2 }));
    assert_eq!(layout.joints[2].name, "face_0");
    assert_eq!(layout.joint_of(Role::Jaw), Some(480));
    let err = JointLayout::from_mapping("rig", "Hips = pelvis\nface ibug68 first=3\n").unwrap_err();
    assert!(
        err.to_string().contains("line 2") && err.to_string().contains("start at joint 3"),
        "{err}"
    );
    let err = JointLayout::from_mapping("rig", "face blendshapes\n").unwrap_err();
    assert!(err.to_string().contains("mediapipe478"), "{err}");
    // A joint called face is still a joint.
    let layout = JointLayout::from_mapping("rig", "face = nose\n").unwrap();
    assert_eq!((layout.joint_of(Role::Nose), layout.face), (Some(0), None));
    #[cfg(feature = "json")]
    {
        let json = r#"{"joints": [["Hips", "pelvis"], ["Head", "head_top"]], "face": {"mesh": "ibug68", "first": 1}}"#;
        let layout = JointLayout::from_mapping("rig", json).unwrap();
        assert_eq!(layout.face, Some(FaceBlock { mesh: FaceMesh::Ibug68, first: 1 }));
        assert_eq!(layout.joint_of(Role::HeadTop), Some(69));
        let json = r#"{"joints": [["Hips", "pelvis"]], "face": "mediapipe468"}"#;
        let layout = JointLayout::from_mapping("rig", json).unwrap();
        assert_eq!(layout.face.unwrap().first, 1);
    }
}
