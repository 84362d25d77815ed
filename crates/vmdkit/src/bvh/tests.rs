use super::*;
use glam::{DQuat, DVec3};

const TWO_JOINTS: &str = "HIERARCHY
ROOT Hips
{
\tOFFSET 1 2 3
\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
\tJOINT Spine
\t{
\t\tOFFSET 0 10 0
\t\tCHANNELS 3 Xrotation Yrotation Zrotation
\t\tEnd Site
\t\t{
\t\t\tOFFSET 0 5 0
\t\t}
\t}
}
MOTION
Frames: 2
Frame Time: 0.0333333
0 100 0 0 0 0 0 0 0
1 100 0 90 0 0 0 0 90
";

fn parse_error(text: &str) -> BvhError {
    Bvh::parse(text.as_bytes()).expect_err("the file is damaged")
}

#[test]
fn reads_joints_channels_and_end_sites() {
    let bvh = Bvh::parse(TWO_JOINTS.as_bytes()).unwrap();
    let names: Vec<&str> = bvh.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["Hips", "Spine", "Spine_End"]);
    assert_eq!(bvh.joints[2].kind, JointKind::EndSite);
    assert_eq!(bvh.joints[2].parent, Some(1));
    assert_eq!(bvh.channel_count, 9);
    assert_eq!(bvh.joints[1].first_channel, 6);
    assert_eq!(bvh.frame_count, 2);
    assert_eq!(bvh.fps(), 30.0);
    let odd = Bvh { frame_time: 0.007, ..Bvh::default() };
    assert_eq!(odd.fps(), 1.0 / 0.007);
    assert_eq!(bvh.frame(1)[3], 90.0);
}

#[test]
fn root_offset_is_replaced_or_added_as_asked() {
    let bvh = Bvh::parse(TWO_JOINTS.as_bytes()).unwrap();
    let replace = bvh.world_pose(0, FkOptions::default());
    assert!((replace[0].position - DVec3::new(0.0, 100.0, 0.0)).length() < 1e-12);
    let add = bvh.world_pose(0, FkOptions { position_offset: PositionOffset::Add });
    assert!((add[0].position - DVec3::new(1.0, 102.0, 3.0)).length() < 1e-12);
}

#[test]
fn rotations_are_intrinsic_in_channel_order() {
    let bvh = Bvh::parse(TWO_JOINTS.as_bytes()).unwrap();
    let pose = bvh.world_pose(1, FkOptions::default());
    // Root Rz(90): the spine's +Y offset points along −X; the spine's own Rz(90) turns its
    // End Site's +Y on to −Y in world.
    assert!((pose[1].position - DVec3::new(-9.0, 100.0, 0.0)).length() < 1e-9);
    assert!((pose[2].position - DVec3::new(-9.0, 95.0, 0.0)).length() < 1e-9);
    let expected = DQuat::from_rotation_z(90f64.to_radians());
    assert!(pose[0].rotation.angle_between(expected) < 1e-9);
}

#[test]
fn mixed_channel_counts_and_orders() {
    let text = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Yposition Xrotation Zposition\n\
        JOINT b\n{\nOFFSET 1 0 0\nCHANNELS 0\nJOINT c\n{\nOFFSET 1 0 0\nCHANNELS 1 Yrotation\n\
        End Site\n{\nOFFSET 1 0 0\n}\n}\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.01\n5 0 7 90\n";
    let bvh = Bvh::parse(text.as_bytes()).unwrap();
    assert_eq!(bvh.channel_count, 4);
    let pose = bvh.world_pose(0, FkOptions::default());
    // Position channels only on Y and Z: X keeps the OFFSET's 0.
    assert!((pose[0].position - DVec3::new(0.0, 5.0, 7.0)).length() < 1e-12);
    // c turned 90° about Y: its End Site's +X goes to −Z.
    assert!((pose[3].position - DVec3::new(2.0, 5.0, 6.0)).length() < 1e-9);
}

#[test]
fn several_roots_and_names_with_spaces() {
    let text = "HIERARCHY\nROOT mixamorig:Hips {\nOFFSET 0 0 0\nCHANNELS 0\n}\nROOT Left Prop\n\
        {\nOFFSET 1 1 1\n}\nMOTION\nFrames: 0\nFrame Time: 0.01\n";
    let bvh = Bvh::parse(text.as_bytes()).unwrap();
    assert_eq!(bvh.joints[0].name, "mixamorig:Hips");
    assert_eq!(bvh.joints[1].name, "Left Prop");
    assert_eq!(bvh.joints[1].parent, None);
    // A brace right after a name is part of it (found by fuzzing: it did not write back).
    let braced = "HIERARCHY\nROOT a{\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: 0\nFrame Time: 1\n";
    let bvh = Bvh::parse(braced.as_bytes()).unwrap();
    assert_eq!(bvh.joints[0].name, "a{");
    let mut text = Vec::new();
    bvh.write_to(&mut text).unwrap();
    assert_eq!(Bvh::parse(&text).unwrap().joints, bvh.joints);
}

#[test]
fn shift_jis_names_are_decoded() {
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("センター");
    let mut data = b"HIERARCHY\nROOT ".to_vec();
    data.extend_from_slice(&sjis);
    data.extend_from_slice(b"\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: 0\nFrame Time: 1\n");
    assert_eq!(Bvh::parse(&data).unwrap().joints[0].name, "センター");
    data[15] = 0xFF; // not Shift-JIS either: replaced, never an error
    assert!(Bvh::parse(&data).unwrap().joints[0].name.contains('\u{FFFD}'));
}

#[test]
fn errors_say_line_and_column() {
    let e = parse_error(&TWO_JOINTS.replace("Zrotation Xrotation", "Zrotation Wrotation"));
    assert_eq!((e.line, e.column), (5, 53), "{e}");
    assert!(matches!(e.kind, BvhErrorKind::UnknownChannel(ref c) if c == "Wrotation"));
    let e = parse_error(&TWO_JOINTS.replace("1 100 0 90", "1 100 x 90"));
    assert_eq!((e.line, e.column), (20, 7), "{e}");
    assert!(e.to_string().starts_with("line 20, column 7 (byte "), "{e}");
    let e = parse_error(&TWO_JOINTS.replace("\t\tOFFSET 0 10 0\n", ""));
    assert!(matches!(e.kind, BvhErrorKind::MissingOffset(ref j) if j == "Spine"), "{e}");
    let e = parse_error("MOTION");
    assert!(matches!(e.kind, BvhErrorKind::Expected { .. }) && e.offset == 0);
    let e = parse_error(&TWO_JOINTS.replace("CHANNELS 3", "CHANNELS 7"));
    assert_eq!(e.kind, BvhErrorKind::TooManyChannels(7));
    let e = parse_error(
        &TWO_JOINTS.replace("Xrotation Yrotation Zrotation", "Xrotation Xrotation Zrotation"),
    );
    assert!(matches!(e.kind, BvhErrorKind::RepeatedChannel(_)));
    let e = parse_error(&TWO_JOINTS.replace("0.0333333", "0"));
    assert!(matches!(e.kind, BvhErrorKind::BadFrameTime(_)));
    let e = parse_error(&TWO_JOINTS.replace("0 0 0 0 0 0 0\n", "0 0 0 0 0 0 nan\n"));
    assert!(matches!(e.kind, BvhErrorKind::BadNumber(_)));
}

#[test]
fn frame_counts_are_checked_against_the_data() {
    // Room for the values, but not the values: found short at the end.
    let padded = format!("{}{}", TWO_JOINTS.replace("Frames: 2", "Frames: 3"), " ".repeat(20));
    let e = parse_error(&padded);
    assert_eq!(e.kind, BvhErrorKind::TooFewValues { expected: 27, found: 18 });
    assert_eq!((e.line, e.column), (21, 21));
    let e = parse_error(&TWO_JOINTS.replace("Frames: 2", "Frames: 3"));
    assert!(matches!(e.kind, BvhErrorKind::DataTooShort { values: 27, .. }), "{e}");
    let e = parse_error(&TWO_JOINTS.replace("Frames: 2", "Frames: 1"));
    assert_eq!(e.kind, BvhErrorKind::TooManyValues { expected: 9 });
    assert_eq!((e.line, e.column), (20, 1));
    // A count far beyond the bytes present is refused before anything is allocated.
    let e = parse_error(&TWO_JOINTS.replace("Frames: 2", "Frames: 18446744073709551615"));
    assert!(matches!(e.kind, BvhErrorKind::TooManyFrames { .. }), "{e}");
    let e = parse_error(&TWO_JOINTS.replace("Frames: 2", "Frames: 30"));
    assert!(matches!(e.kind, BvhErrorKind::DataTooShort { values: 270, .. }), "{e}");
    // Joints without channels need no values, but posing them costs frames × joints.
    let still = "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\n\
        Frames: 30\nFrame Time: 1\n";
    assert_eq!(Bvh::parse(still.as_bytes()).unwrap().frame_count, 30);
    let e = parse_error(&still.replace("Frames: 30", "Frames: 100000"));
    assert!(matches!(e.kind, BvhErrorKind::TooManyFrames { joints: 2, .. }), "{e}");
}

#[test]
fn truncated_files_never_panic() {
    for cut in 0..TWO_JOINTS.len() {
        let _ = Bvh::parse(&TWO_JOINTS.as_bytes()[..cut]);
    }
    // Deep nesting costs no stack.
    let mut deep = String::from("HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\n");
    for _ in 0..200_000 {
        deep.push_str("JOINT j\n{\nOFFSET 0 1 0\n");
    }
    assert!(Bvh::parse(deep.as_bytes()).is_err());
}

#[test]
fn written_files_read_back_the_same() {
    let bvh = Bvh::parse(TWO_JOINTS.as_bytes()).unwrap();
    let mut text = Vec::new();
    bvh.write_to(&mut text).unwrap();
    let again = Bvh::parse(&text).unwrap();
    assert_eq!(again.joints, bvh.joints);
    assert_eq!(again.motion, bvh.motion);
    assert!((again.frame_time - bvh.frame_time).abs() < 1e-7);
    // A frame time seven decimals would round to zero (found by fuzzing) keeps its value.
    for frame_time in [1e-4, 4.5e-4, 2.5e7] {
        let tiny = Bvh { frame_time, ..bvh.clone() };
        let mut text = Vec::new();
        tiny.write_to(&mut text).unwrap();
        assert_eq!(Bvh::parse(&text).unwrap().frame_time, frame_time);
    }
    // Shorter than 10,000 frames a second is written as it is, and read as the damage it is.
    let tiny = Bvh { frame_time: 1e-9, ..bvh.clone() };
    let mut text = Vec::new();
    tiny.write_to(&mut text).unwrap();
    let e = Bvh::parse(&text).unwrap_err();
    assert_eq!(e.kind, BvhErrorKind::BadFrameTime("1e-9".into()), "{e}");
}

#[test]
fn euler_orders_match_the_reader() {
    let q = DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0).normalize();
    for order in ["xyz", "xzy", "yxz", "yzx", "zxy", "zyx"] {
        let order = EulerOrder::parse(order).unwrap();
        let (a, b, c) = q.to_euler(order.glam());
        let channels = order.channels();
        let mut r = DQuat::IDENTITY;
        for (ch, v) in channels.iter().zip([a, b, c]) {
            r *= match ch {
                Channel::Xrotation => DQuat::from_rotation_x(v),
                Channel::Yrotation => DQuat::from_rotation_y(v),
                _ => DQuat::from_rotation_z(v),
            };
        }
        assert!(r.angle_between(q) < 1e-9, "{order:?}");
    }
}

/// A BVH of (name, parent) joints listed depth first, one Z rotation channel each, one frame
/// of zeros.
fn skeleton(joints: &[(&str, Option<usize>)]) -> Bvh {
    let mut text = String::from("HIERARCHY\n");
    let mut depth: Vec<usize> = Vec::new();
    for (i, (name, parent)) in joints.iter().enumerate() {
        while depth.last().is_some_and(|&open| Some(open) != *parent) {
            text.push_str("}\n");
            depth.pop();
        }
        let word = if parent.is_none() { "ROOT" } else { "JOINT" };
        text.push_str(&format!("{word} {name}\n{{\nOFFSET 0 {i} 0\nCHANNELS 1 Zrotation\n"));
        depth.push(i);
    }
    text.push_str(&"}\n".repeat(depth.len()));
    text.push_str("MOTION\nFrames: 1\nFrame Time: 0.01\n");
    text.push_str(&vec!["0"; joints.len()].join(" "));
    Bvh::parse(text.as_bytes()).unwrap()
}

fn role_of(layout: &crate::keypoints::JointLayout, name: &str) -> Option<crate::roles::Role> {
    layout.joints.iter().find(|j| j.name == name).and_then(|j| j.role)
}

#[test]
fn joint_maps_are_found_by_name() {
    use crate::roles::Role;
    let limbs = |prefix: &str, names: [&str; 7]| {
        let mut joints = vec![(format!("{prefix}Hips"), None)];
        for side in ["Left", "Right"] {
            let (hip, knee, ankle) = (names[0], names[1], names[2]);
            let (collar, shoulder, elbow, wrist) = (names[3], names[4], names[5], names[6]);
            let chain = |list: &[&str], joints: &mut Vec<(String, Option<usize>)>| {
                for (k, n) in list.iter().enumerate() {
                    let parent = if k == 0 { 0 } else { joints.len() - 1 };
                    joints.push((format!("{prefix}{side}{n}"), Some(parent)));
                }
            };
            chain(&[hip, knee, ankle], &mut joints);
            chain(&[collar, shoulder, elbow, wrist], &mut joints);
        }
        joints
    };
    let mixamo =
        limbs("mixamorig:", ["UpLeg", "Leg", "Foot", "Shoulder", "Arm", "ForeArm", "Hand"]);
    let max = limbs("", ["Hip", "Knee", "Ankle", "Collar", "Shoulder", "Elbow", "Wrist"]);
    for (joints, table, shoulder_is) in
        [(mixamo, "cmu/mixamo", Role::LeftCollar), (max, "cmu-3dsmax", Role::LeftShoulder)]
    {
        let list: Vec<(&str, Option<usize>)> =
            joints.iter().map(|(n, p)| (n.as_str(), *p)).collect();
        let bvh = skeleton(&list);
        let layout = detect_layout(&bvh).unwrap();
        assert_eq!(layout.name, table);
        let prefix = if table == "cmu/mixamo" { "mixamorig:" } else { "" };
        // "LeftShoulder" is the collarbone in Mixamo's names and the shoulder joint in CMU's.
        assert_eq!(role_of(&layout, &format!("{prefix}LeftShoulder")), Some(shoulder_is));
        assert_eq!(role_of(&layout, &format!("{prefix}Hips")), None);
        let kp = to_keypoints(&bvh, &layout, FkOptions::default()).unwrap();
        // Each side's wrist is listed a second time, as the hand's own wrist.
        assert_eq!((kp.frame_count, kp.joint_count), (1, bvh.joints.len() + 2));
    }
    // A skeleton without legs fits no table, and the error names what it looked for.
    let err = detect_layout(&skeleton(&[("Hips", None), ("Spine", Some(0))])).unwrap_err();
    assert!(err.to_string().contains("left_knee (LeftLeg)"), "{err}");
    // It names no front end's flag; the front ends word the hint from the fact.
    assert!(!err.to_string().contains("--") && err.a_mapping_file_may_help(), "{err}");
}

#[test]
fn a_utf8_byte_order_mark_is_skipped() {
    let plain = Bvh::parse(TWO_JOINTS.as_bytes()).unwrap();
    let marked = Bvh::parse(format!("\u{feff}{TWO_JOINTS}").as_bytes()).unwrap();
    assert_eq!((marked.joints, marked.motion), (plain.joints, plain.motion));
    // Offsets still count the mark: the bad number is three bytes further on.
    let bad = TWO_JOINTS.replace("1 100 0 90", "1 100 x 90");
    let (e, marked) = (parse_error(&bad), parse_error(&format!("\u{feff}{bad}")));
    assert_eq!(marked.offset, e.offset + 3);
}

/// A Mixamo skeleton's arm and hand: every finger's joints 1 to 4 in a chain from the hand.
fn mixamo_hands() -> Vec<(String, Option<usize>)> {
    let mut joints = vec![("mixamorig:Hips".to_string(), None)];
    for side in ["Left", "Right"] {
        for leg in ["UpLeg", "Leg", "Foot"] {
            let parent = if leg == "UpLeg" { 0 } else { joints.len() - 1 };
            joints.push((format!("mixamorig:{side}{leg}"), Some(parent)));
        }
        for arm in ["Shoulder", "Arm", "ForeArm", "Hand"] {
            let parent = if arm == "Shoulder" { 0 } else { joints.len() - 1 };
            joints.push((format!("mixamorig:{side}{arm}"), Some(parent)));
        }
        let hand = joints.len() - 1;
        for finger in ["Thumb", "Index", "Middle", "Ring", "Pinky"] {
            for k in 1..=4 {
                let parent = if k == 1 { hand } else { joints.len() - 1 };
                joints.push((format!("mixamorig:{side}Hand{finger}{k}"), Some(parent)));
            }
        }
    }
    joints
}

#[test]
fn mixamo_fingers_map_onto_the_hand_roles_where_their_joints_are() {
    use crate::roles::{Finger, Role, Side};
    let joints = mixamo_hands();
    let list: Vec<(&str, Option<usize>)> = joints.iter().map(|(n, p)| (n.as_str(), *p)).collect();
    let bvh = skeleton(&list);
    let layout = detect_layout(&bvh).unwrap();
    assert_eq!(layout.name, "cmu/mixamo");
    assert_eq!(layout.hand_sides(), Side::BOTH);
    let kp = to_keypoints(&bvh, &layout, FkOptions::default()).unwrap();
    let mut pose = Vec::new();
    bvh.world_pose_into(0, FkOptions::default(), &mut pose);
    // Each role sits where its BVH joint is: `LeftHandIndex1` is the index finger's knuckle.
    let at = |role: Role| kp.positions[layout.joint_of(role).unwrap()];
    let joint_at = |name: &str| {
        let i = bvh.joints.iter().position(|j| j.name == name).unwrap();
        pose[i].position.as_vec3()
    };
    for (side, prefix) in [(Side::Left, "Left"), (Side::Right, "Right")] {
        for (finger, word) in
            Finger::ALL.into_iter().zip(["Thumb", "Index", "Middle", "Ring", "Pinky"])
        {
            for (k, role) in Role::finger_points(side, finger).into_iter().enumerate() {
                let name = format!("mixamorig:{prefix}Hand{word}{}", k + 1);
                assert_eq!(at(role), joint_at(&name), "{role}");
            }
        }
        let hand_wrist = Role::hand_points(side)[0];
        assert_eq!(at(hand_wrist), joint_at(&format!("mixamorig:{prefix}Hand")));
    }
    // The body's roles stay on the joints that had them; the finger roles of the same joints
    // come again at the end.
    assert_eq!(role_of(&layout, "mixamorig:LeftHand"), Some(Role::LeftWrist));
    assert_eq!(role_of(&layout, "mixamorig:LeftHandIndex1"), Some(Role::LeftIndex));
    assert_eq!(role_of(&layout, "mixamorig:RightHandMiddle1"), Some(Role::RightHand));
    assert_eq!(role_of(&layout, "mixamorig:LeftHandThumb1"), Some(Role::LeftThumbCmc));
    assert_eq!(layout.joints.len(), bvh.joints.len() + 2 * 4);
    assert_eq!(
        layout.joint_of(Role::LeftIndexFingerMcp).map(|i| i >= bvh.joints.len()),
        Some(true)
    );
}

/// A BVH of `joints` (name, parent) with an End Site on every leaf, a step along y.
fn skeleton_with_ends(joints: &[(String, Option<usize>)]) -> Bvh {
    fn write(joints: &[(String, Option<usize>)], i: usize, text: &mut String) {
        let word = if joints[i].1.is_none() { "ROOT" } else { "JOINT" };
        text.push_str(&format!("{word} {}\n{{\nOFFSET 0 1 0\nCHANNELS 1 Zrotation\n", joints[i].0));
        let children: Vec<usize> = (0..joints.len()).filter(|&c| joints[c].1 == Some(i)).collect();
        if children.is_empty() {
            text.push_str("End Site\n{\nOFFSET 0 1 0\n}\n");
        }
        for c in children {
            write(joints, c, text);
        }
        text.push_str("}\n");
    }
    let mut text = String::from("HIERARCHY\n");
    write(joints, 0, &mut text);
    let channels = joints.len();
    text.push_str(&format!(
        "MOTION\nFrames: 1\nFrame Time: 0.01\n{}\n",
        vec!["0"; channels].join(" ")
    ));
    Bvh::parse(text.as_bytes()).unwrap()
}

#[test]
fn mmd_fingers_map_by_their_bone_names_with_or_without_a_thumb_base() {
    use crate::roles::{Finger, Role, Side};
    let mut joints: Vec<(String, Option<usize>)> = vec![("センター".into(), None)];
    let add = |name: String, parent: usize, joints: &mut Vec<(String, Option<usize>)>| {
        joints.push((name, Some(parent)));
        joints.len() - 1
    };
    add("首".into(), 0, &mut joints);
    for side in ["左", "右"] {
        let mut at = 0;
        for leg in ["足", "ひざ", "足首", "つま先"] {
            at = add(format!("{side}{leg}"), at, &mut joints);
        }
        let mut at = 0;
        for arm in ["肩", "腕", "ひじ", "手首"] {
            at = add(format!("{side}{arm}"), at, &mut joints);
        }
        // The left hand with half-width digits and no 親指０, the right with MMD's own and
        // 親指０; no tip bones, so the tips are End Sites.
        let digits =
            if side == "左" { ["0", "1", "2", "3"] } else { ["０", "１", "２", "３"] };
        let thumb = if side == "左" { &[1, 2][..] } else { &[0, 1, 2][..] };
        let mut base = at;
        for &k in thumb {
            base = add(format!("{side}親指{}", digits[k]), base, &mut joints);
        }
        for stem in ["人指", "中指", "薬指", "小指"] {
            let mut base = at;
            for digit in &digits[1..] {
                base = add(format!("{side}{stem}{digit}"), base, &mut joints);
            }
        }
    }
    let bvh = skeleton_with_ends(&joints);
    let layout = detect_layout(&bvh).unwrap();
    assert_eq!(layout.name, "mmd");
    let name = |role: Role| layout.joint_of(role).map(|i| layout.joints[i].name.as_str());
    for (side, word, digits) in
        [(Side::Left, "左", ["1", "2", "3"]), (Side::Right, "右", ["１", "２", "３"])]
    {
        assert_eq!(name(Role::hand_points(side)[0]), Some(format!("{word}手首").as_str()));
        for (finger, stem) in Finger::ALL.into_iter().zip(["親指", "人指", "中指", "薬指", "小指"])
        {
            let points = Role::finger_points(side, finger);
            let expected: [Option<String>; 4] = if finger == Finger::Thumb {
                [
                    (side == Side::Right).then(|| format!("{word}親指０")),
                    Some(format!("{word}{stem}{}", digits[0])),
                    Some(format!("{word}{stem}{}", digits[1])),
                    Some(format!("{word}{stem}{}_End", digits[1])),
                ]
            } else {
                [0, 1, 2, 2].map(|k| Some(format!("{word}{stem}{}", digits[k])))
            };
            for (k, (role, want)) in points.into_iter().zip(&expected).enumerate() {
                let want = match (k, finger) {
                    (3, f) if f != Finger::Thumb => want.as_ref().map(|w| format!("{w}_End")),
                    _ => want.clone(),
                };
                assert_eq!(name(role).map(str::to_string), want, "{role}");
            }
        }
    }
    // The body's roles stay: 左人指１ is the hand's index point for the body fit too.
    assert_eq!(role_of(&layout, "左人指1"), Some(Role::LeftIndex));
    assert_eq!(role_of(&layout, "右手首"), Some(Role::RightWrist));
}
