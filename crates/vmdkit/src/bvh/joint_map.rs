//! BVH → keypoints: which BVH joint is which anatomical [`Role`], found by name for the common
//! skeletons or given by a user layout file, and the joints' world positions per frame, which
//! the retargeting engine then fits like any keypoints.
//!
//! A role is a joint's *head* (where the joint is), so a knee is the BVH joint that starts at
//! the knee (CMU's `LeftLeg`), and a tip is an End Site (`Head_End` for the top of the head).
//! Names are compared without a namespace prefix (`mixamorig:`, `Character1:`), case and
//! punctuation, as keypoint layouts compare them.
//!
//! | skeleton | hip, knee, ankle, toe tip | collar, shoulder, elbow, wrist | neck base, head top |
//! |---|---|---|---|
//! | CMU (original), Mixamo, bvh-toolbox | `LeftUpLeg`, `LeftLeg`, `LeftFoot`, `LeftToeBase_End` / `LeftToe_End` / `LeftFoot_End` | `LeftShoulder`, `LeftArm`, `LeftForeArm`, `LeftHand` | `Neck`, `Head_End` / `HeadTop_End` |
//! | CMU as converted for 3ds Max | `LeftHip`, `LeftKnee`, `LeftAnkle`, `LeftToe_End` | `LeftCollar`, `LeftShoulder`, `LeftElbow`, `LeftWrist` | `lowerneck`, `Head_End` |
//! | MMD (vmdkit's own BVH export) | `左足`, `左ひざ`, `左足首`, `左つま先` | `左肩`, `左腕`, `左ひじ`, `左手首` | `首`, – |
//! | MMD, English names | `leg_L`, `knee_L`, `ankle_L`, `toe_L` | `shoulder_L`, `arm_L`, `elbow_L`, `wrist_L` | `neck`, – |
//!
//! Fingers, onto the hand roles (a hand's 21 points in MediaPipe's order):
//! * Mixamo: `LeftHandThumb1..4` are the thumb's CMC, MCP, IP and tip, `LeftHandIndex1..4` (and
//!   `Middle`, `Ring`, `Pinky`) a finger's MCP, PIP, DIP and tip, each joint sitting where the
//!   finger bends; `LeftHand`, the body's wrist, is also the hand's own.
//! * CMU: the hand is crude, one palm, one stub for all four fingers and one for the thumb. The
//!   finger stub (`LeftHandIndex1`, `LFingers` in the 3ds Max conversion) starts at the end of
//!   the palm and is mapped as the index finger's knuckle, its End Site as that finger's tip;
//!   the thumb stub (`LThumb`) starts at the wrist, standing for the thumb's CMC, and its End
//!   Site is the thumb's tip. The middle, ring and little fingers and the joints between are
//!   absent: the motion has none.
//! * MMD: `左人指１/２/３` a finger's MCP, PIP, DIP, its tip bone (`左人指先`, `左人差指先`) or
//!   `左人指３`'s End Site the tip; `左親指０/１/２` the thumb's CMC, MCP, IP, `左親指先` or
//!   `左親指２`'s End Site the tip; without `親指０` the CMC is absent, `親指１` staying the MCP
//!   (see `FINGERS_MMD` for why).
//!
//! A BVH joint with a body role and a hand role (Mixamo's `LeftHand`, wrist of both) is listed
//! a second time, at the end of the layout, for its hand role.
//!
//! The root (`Hips`) has no role: it sits above or behind the hip joints by an amount that
//! differs between skeletons, so the pelvis is taken as the hips' midpoint, as on the model.
//! Mixamo's finger bases (`LeftHandMiddle1`, `LeftHandIndex1`, `LeftHandPinky1`) and MMD's
//! (`左中指１`, `左人指１`, `左小指１`) give the hand's points. Spine joints are left without a
//! role: where they sit along the back differs from skeleton to skeleton, and the trunk is fitted
//! from the pelvis and the neck base.

use super::{Bvh, FkOptions};
use crate::keypoints::{JointLayout, Keypoints, LayoutJoint, UpAxis};
use crate::roles::{normalize, Role};
use glam::Vec3;
use std::collections::HashMap;
use Role::*;

/// One built-in name table: central joints, and left-side joints with their right-side names.
struct Table {
    name: &'static str,
    central: &'static [(&'static str, Role)],
    sides: &'static [(&'static str, &'static str, Role)],
    /// Finger joints, after the body's: a name both lists have gets both roles.
    fingers: &'static [(&'static str, &'static str, Role)],
}

const HANDS_MIXAMO: [(&str, &str, Role); 3] = [
    ("LeftHandMiddle1", "RightHandMiddle1", LeftHand),
    ("LeftHandIndex1", "RightHandIndex1", LeftIndex),
    ("LeftHandPinky1", "RightHandPinky1", LeftPinky),
];

/// Mixamo's fingers, base to tip (and CMU's finger and thumb stubs, which share the cmu/mixamo
/// names); listed after the body's joints, so a joint that has a body role keeps it and is
/// listed again for its finger role.
const FINGERS_MIXAMO: &[(&str, &str, Role)] = &[
    ("LeftHand", "RightHand", LeftHandWrist),
    ("LeftHandThumb1", "RightHandThumb1", LeftThumbCmc),
    ("LeftHandThumb2", "RightHandThumb2", LeftThumbMcp),
    ("LeftHandThumb3", "RightHandThumb3", LeftThumbIp),
    ("LeftHandThumb4", "RightHandThumb4", LeftThumbTip),
    ("LeftHandIndex1", "RightHandIndex1", LeftIndexFingerMcp),
    ("LeftHandIndex2", "RightHandIndex2", LeftIndexFingerPip),
    ("LeftHandIndex3", "RightHandIndex3", LeftIndexFingerDip),
    ("LeftHandIndex4", "RightHandIndex4", LeftIndexFingerTip),
    ("LeftHandMiddle1", "RightHandMiddle1", LeftMiddleFingerMcp),
    ("LeftHandMiddle2", "RightHandMiddle2", LeftMiddleFingerPip),
    ("LeftHandMiddle3", "RightHandMiddle3", LeftMiddleFingerDip),
    ("LeftHandMiddle4", "RightHandMiddle4", LeftMiddleFingerTip),
    ("LeftHandRing1", "RightHandRing1", LeftRingFingerMcp),
    ("LeftHandRing2", "RightHandRing2", LeftRingFingerPip),
    ("LeftHandRing3", "RightHandRing3", LeftRingFingerDip),
    ("LeftHandRing4", "RightHandRing4", LeftRingFingerTip),
    ("LeftHandPinky1", "RightHandPinky1", LeftPinkyMcp),
    ("LeftHandPinky2", "RightHandPinky2", LeftPinkyPip),
    ("LeftHandPinky3", "RightHandPinky3", LeftPinkyDip),
    ("LeftHandPinky4", "RightHandPinky4", LeftPinkyTip),
    // CMU: the finger stub's end, and the thumb stub from the wrist.
    ("LeftHandIndex1_End", "RightHandIndex1_End", LeftIndexFingerTip),
    ("LThumb", "RThumb", LeftThumbCmc),
    ("LThumb_End", "RThumb_End", LeftThumbTip),
];

/// CMU's hand as converted for 3ds Max: the wrist, the finger stub and the thumb stub.
const FINGERS_CMU_3DSMAX: &[(&str, &str, Role)] = &[
    ("LeftWrist", "RightWrist", LeftHandWrist),
    ("LFingers", "RFingers", LeftIndexFingerMcp),
    ("LFingers_End", "RFingers_End", LeftIndexFingerTip),
    ("LThumb", "RThumb", LeftThumbCmc),
    ("LThumb_End", "RThumb_End", LeftThumbTip),
];

/// MMD's fingers, by the model's own bone names (BVH exported from MMD models by mmd_tools,
/// MMD's exporters or vmdkit's own), each role on the bone whose head is that point, as
/// `retarget::fingers` places the hand points on a model: 人指１'s head is the index finger's
/// MCP, 人指２'s the PIP, 人指３'s the DIP, and the tip is the tip bone (人指先, or 人差指先 as
/// older models name it) or, without one, 人指３'s End Site (the BVH writer puts it at the
/// bone's tail, where the finger ends). The thumb: the semi-standard 親指０ is the metacarpal,
/// so its head is the CMC, 親指１'s the MCP, 親指２'s the IP, and 親指先 (or 親指２'s End
/// Site) the tip. Models without 親指０ keep 親指１ and ２ where the semi-standard ones are
/// (親指１'s head at the MCP, a palm's length from the wrist), so 親指１ is the MCP there too
/// and the CMC is simply absent, as it is from a hand the solver takes without one: naming
/// 親指１ the CMC instead would put the thumb's base a segment too far out and bend the whole
/// thumb by the metacarpal's angle. 手首 is the hand's wrist as well as the body's.
const FINGERS_MMD: &[(&str, &str, Role)] = &[
    ("左手首", "右手首", LeftHandWrist),
    ("左親指０", "右親指０", LeftThumbCmc),
    ("左親指１", "右親指１", LeftThumbMcp),
    ("左親指２", "右親指２", LeftThumbIp),
    ("左親指先", "右親指先", LeftThumbTip),
    ("左親指２_End", "右親指２_End", LeftThumbTip),
    ("左人指１", "右人指１", LeftIndexFingerMcp),
    ("左人指２", "右人指２", LeftIndexFingerPip),
    ("左人指３", "右人指３", LeftIndexFingerDip),
    ("左人指先", "右人指先", LeftIndexFingerTip),
    ("左人差指先", "右人差指先", LeftIndexFingerTip),
    ("左人指３_End", "右人指３_End", LeftIndexFingerTip),
    ("左中指１", "右中指１", LeftMiddleFingerMcp),
    ("左中指２", "右中指２", LeftMiddleFingerPip),
    ("左中指３", "右中指３", LeftMiddleFingerDip),
    ("左中指先", "右中指先", LeftMiddleFingerTip),
    ("左中指３_End", "右中指３_End", LeftMiddleFingerTip),
    ("左薬指１", "右薬指１", LeftRingFingerMcp),
    ("左薬指２", "右薬指２", LeftRingFingerPip),
    ("左薬指３", "右薬指３", LeftRingFingerDip),
    ("左薬指先", "右薬指先", LeftRingFingerTip),
    ("左薬指３_End", "右薬指３_End", LeftRingFingerTip),
    ("左小指１", "右小指１", LeftPinkyMcp),
    ("左小指２", "右小指２", LeftPinkyPip),
    ("左小指３", "右小指３", LeftPinkyDip),
    ("左小指先", "右小指先", LeftPinkyTip),
    ("左小指３_End", "右小指３_End", LeftPinkyTip),
];

/// The built-in tables, in the order ties are broken.
const TABLES: &[Table] = &[
    Table {
        name: "cmu/mixamo",
        central: &[("Neck", Thorax), ("Head_End", HeadTop), ("HeadTop_End", HeadTop)],
        sides: &[
            ("LeftUpLeg", "RightUpLeg", LeftHip),
            ("LeftLeg", "RightLeg", LeftKnee),
            ("LeftFoot", "RightFoot", LeftAnkle),
            ("LeftToeBase_End", "RightToeBase_End", LeftToe),
            ("LeftToe_End", "RightToe_End", LeftToe),
            ("LeftFoot_End", "RightFoot_End", LeftToe),
            ("LeftShoulder", "RightShoulder", LeftCollar),
            ("LeftArm", "RightArm", LeftShoulder),
            ("LeftForeArm", "RightForeArm", LeftElbow),
            ("LeftHand", "RightHand", LeftWrist),
            HANDS_MIXAMO[0],
            HANDS_MIXAMO[1],
            HANDS_MIXAMO[2],
        ],
        fingers: FINGERS_MIXAMO,
    },
    Table {
        name: "cmu-3dsmax",
        central: &[("lowerneck", Thorax), ("Head_End", HeadTop)],
        sides: &[
            ("LeftHip", "RightHip", LeftHip),
            ("LeftKnee", "RightKnee", LeftKnee),
            ("LeftAnkle", "RightAnkle", LeftAnkle),
            ("LeftToe_End", "RightToe_End", LeftToe),
            ("LeftCollar", "RightCollar", LeftCollar),
            ("LeftShoulder", "RightShoulder", LeftShoulder),
            ("LeftElbow", "RightElbow", LeftElbow),
            ("LeftWrist", "RightWrist", LeftWrist),
        ],
        fingers: FINGERS_CMU_3DSMAX,
    },
    Table {
        name: "mmd",
        central: &[("首", Thorax)],
        sides: &[
            ("左足", "右足", LeftHip),
            ("左ひざ", "右ひざ", LeftKnee),
            ("左足首", "右足首", LeftAnkle),
            ("左つま先", "右つま先", LeftToe),
            ("左肩", "右肩", LeftCollar),
            ("左腕", "右腕", LeftShoulder),
            ("左ひじ", "右ひじ", LeftElbow),
            ("左手首", "右手首", LeftWrist),
            ("左中指１", "右中指１", LeftHand),
            ("左人指１", "右人指１", LeftIndex),
            ("左小指１", "右小指１", LeftPinky),
        ],
        fingers: FINGERS_MMD,
    },
    Table {
        name: "mmd-english",
        central: &[("neck", Thorax)],
        sides: &[
            ("leg_L", "leg_R", LeftHip),
            ("knee_L", "knee_R", LeftKnee),
            ("ankle_L", "ankle_R", LeftAnkle),
            ("toe_L", "toe_R", LeftToe),
            ("shoulder_L", "shoulder_R", LeftCollar),
            ("arm_L", "arm_R", LeftShoulder),
            ("elbow_L", "elbow_R", LeftElbow),
            ("wrist_L", "wrist_R", LeftWrist),
            ("middle1_L", "middle1_R", LeftHand),
            ("index1_L", "index1_R", LeftIndex),
            ("little1_L", "little1_R", LeftPinky),
        ],
        fingers: &[],
    },
];

/// The names of the built-in tables [`detect_layout`] chooses from.
pub const NAME_TABLES: &[&str] = &["cmu/mixamo", "cmu-3dsmax", "mmd", "mmd-english"];

/// Why a BVH's joints could not be mapped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BvhLayoutError {
    /// No built-in table names the joints the retargeting needs.
    #[error(
        "no built-in joint map ({}) fits the BVH's joints; the best, {best}, lacks {}",
        NAME_TABLES.join(", "),
        missing.join(", ")
    )]
    NoTable {
        /// The table that recognised the most joints.
        best: &'static str,
        /// What it lacks, as role names with the joint names it looked for.
        missing: Vec<String>,
    },
    /// A mapping names joints the BVH does not have.
    #[error("the BVH has no joint named {}", .0.join(", "))]
    MissingJoints(Vec<String>),
}

impl BvhLayoutError {
    /// Whether naming the joints with a mapping file resolves this error: the front ends add
    /// their own words for how (a flag, an argument).
    pub fn a_mapping_file_may_help(&self) -> bool {
        matches!(self, BvhLayoutError::NoTable { .. })
    }
}

/// A joint name as tables compare it: without a namespace (`mixamorig:`), letters and digits
/// in lower case, full-width digits as ASCII ones (MMD's `人指１` written `人指1` by some tools).
fn key(name: &str) -> String {
    let name = name.rsplit(':').next().unwrap_or(name);
    let narrow = |c: char| match c {
        '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
        c => c,
    };
    normalize(&name.chars().map(narrow).collect::<String>())
}

fn entries(table: &Table) -> impl Iterator<Item = (&'static str, Role)> + '_ {
    let sided =
        |&(l, r, role): &(&'static str, &'static str, Role)| [(l, role), (r, role.mirrored())];
    (table.central.iter().copied())
        .chain(table.sides.iter().flat_map(sided))
        .chain(table.fingers.iter().flat_map(sided))
}

/// The layout of `bvh`'s joints (every joint and End Site, in file order), with roles from the
/// built-in table that recognises the most joints and gives what the retargeting needs.
pub fn detect_layout(bvh: &Bvh) -> Result<JointLayout, BvhLayoutError> {
    let keys: Vec<String> = bvh.joints.iter().map(|j| key(&j.name)).collect();
    let mut best: Option<(usize, JointLayout, &Table)> = None;
    for table in TABLES {
        // Each table's names compared once, not once per joint: a file may hold hundreds of
        // thousands of joints. The first entry of a name is the one that counts.
        // A name's roles in the table's order: its body role first, then its finger role.
        let mut roles: HashMap<String, Vec<Role>> = HashMap::new();
        for (name, role) in entries(table) {
            let list = roles.entry(key(name)).or_default();
            if !list.contains(&role) {
                list.push(role);
            }
        }
        let mut joints = Vec::with_capacity(keys.len());
        let mut again = Vec::new();
        let mut used = Vec::new();
        for (joint, k) in bvh.joints.iter().zip(&keys) {
            // `used` holds at most one of each of the table's roles.
            let mut found = roles.get(k).into_iter().flatten().copied();
            let mut fresh = |used: &mut Vec<Role>| {
                let role = found.find(|role| !used.contains(role));
                used.extend(role);
                role
            };
            let role = fresh(&mut used);
            joints.push(LayoutJoint { name: joint.name.clone(), role });
            while let Some(role) = role.and_then(|_| fresh(&mut used)) {
                again.push(LayoutJoint { name: joint.name.clone(), role: Some(role) });
            }
        }
        joints.extend(again);
        let layout =
            JointLayout { name: table.name.to_string(), joints, synthetic: Vec::new(), face: None };
        let score = used.len();
        if best.as_ref().is_none_or(|(s, _, _)| score > *s) {
            best = Some((score, layout, table));
        }
    }
    let (_, layout, table) = best.expect("there are tables");
    let mut missing = layout.missing_body_roles();
    if missing.is_empty() {
        return Ok(layout);
    }
    // No table maps a pelvis: it is the hips' midpoint, so the hips are what is missing.
    if let Some(i) = missing.iter().position(|r| *r == Pelvis) {
        let hips = [LeftHip, RightHip].into_iter().filter(|r| !layout.has(*r));
        missing.splice(i..=i, hips);
    }
    let looked_for = |role: Role| {
        let names: Vec<&str> = entries(table).filter(|(_, r)| *r == role).map(|(n, _)| n).collect();
        if names.is_empty() {
            role.name().to_string()
        } else {
            format!("{} ({})", role.name(), names.join(" or "))
        }
    };
    Err(BvhLayoutError::NoTable {
        best: table.name,
        missing: missing.into_iter().map(looked_for).collect(),
    })
}

/// The world positions of `layout`'s joints at every frame, found in `bvh` by name (exactly, or
/// as [`detect_layout`] compares names), in the file's axes and units, with its frame rate and
/// Y up.
pub fn to_keypoints(
    bvh: &Bvh,
    layout: &JointLayout,
    fk: FkOptions,
) -> Result<Keypoints, BvhLayoutError> {
    // The first joint of each name and of each compared name, found by hashing: a layout names
    // as many joints as the file may hold.
    let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(bvh.joints.len());
    let mut by_key: HashMap<String, usize> = HashMap::with_capacity(bvh.joints.len());
    for (i, j) in bvh.joints.iter().enumerate().rev() {
        by_name.insert(&j.name, i);
        by_key.insert(key(&j.name), i);
    }
    let mut index = Vec::with_capacity(layout.joints.len());
    let mut missing = Vec::new();
    for joint in &layout.joints {
        let exact = by_name.get(joint.name.as_str()).copied();
        match exact.or_else(|| by_key.get(&key(&joint.name)).copied()) {
            Some(i) => index.push(i),
            None if joint.role.is_none() => index.push(usize::MAX),
            None => missing.push(joint.name.clone()),
        }
    }
    if !missing.is_empty() {
        return Err(BvhLayoutError::MissingJoints(missing));
    }
    let n = layout.joints.len();
    let mut positions = Vec::with_capacity(bvh.frame_count * n);
    let mut pose = Vec::with_capacity(bvh.joints.len());
    for frame in 0..bvh.frame_count {
        bvh.world_pose_into(frame, fk, &mut pose);
        positions
            .extend(index.iter().map(|&i| pose.get(i).map_or(Vec3::NAN, |p| p.position.as_vec3())));
    }
    Ok(Keypoints {
        frame_count: bvh.frame_count,
        joint_count: n,
        positions,
        confidence: None,
        names: Some(layout.joints.iter().map(|j| j.name.clone()).collect()),
        fps: Some(bvh.fps()),
        units: None,
        up: Some(UpAxis::Y),
    })
}
