//! The layouts with hands and faces: orders, roles, detection, mapping files' face blocks.

use super::super::{JointLayout, JointLayoutError};
use super::names_of;
use crate::keypoints::{FaceBlock, FaceMesh};
use crate::roles::{Finger, Role, Side};

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
