//! Judging a hand's 21 points (MediaPipe's `HandLandmark` order, any one set of axes): which
//! fingers are extended, the directions of the finger segments in the palm's frame, and the
//! model's finger bones read off a posed skeleton as the same 21 points.
//!
//! **The rule, fixed before any model result was seen** (SOURCES.md's rules A and B were the
//! guide: the distance test is the robust one, angle thresholds near 50° are fragile, so the
//! angle here is a wide one that only a finger bent well past a right angle fails):
//! * index to little: **extended** when the angle between the base segment (MCP→PIP) and the end
//!   segment (DIP→tip) is under 90° **and** the tip is farther from the wrist than the PIP;
//!   curled otherwise.
//! * thumb: **extended** when its tip is farther from the little finger's MCP than its IP is
//!   (rule B's thumb: a thumb folded across the palm turns at its base and barely bends, so its
//!   reach toward the little finger tells) **and** the IP bends less than 60° (the angle between
//!   MCP→IP and IP→tip); curled otherwise.
//!
//! On a model the points are the heads of its finger bones: wrist = 手首; thumb CMC = 親指０
//! (absent on models without it), MCP = 親指１, IP = 親指２, tip = 親指先; other fingers MCP =
//! `…１`, PIP = `…２`, DIP = `…３`, tip = `…先` (初音ミク.pmx names the index tip 人差指先).

#![allow(dead_code)] // each test module uses a part

use glam::{DMat3, DVec3};
use vmdkit::roles::{Finger, Side};
use vmdkit::skeleton::{Pose, Skeleton};

/// A hand's 21 points; `None` where the hand (or the model) has none.
pub type HandPoints = [Option<DVec3>; 21];

/// The angle between two vectors, in degrees.
pub fn angle(u: DVec3, v: DVec3) -> f64 {
    u.cross(v).length().atan2(u.dot(v)).to_degrees()
}

fn point(hand: &HandPoints, i: usize) -> DVec3 {
    hand[i].unwrap_or_else(|| panic!("hand point {i} is missing"))
}

/// The index of a finger's first point (CMC for the thumb, MCP for the others) among the 21.
pub fn first_point(finger: Finger) -> usize {
    1 + 4 * finger as usize
}

/// The module's rule: whether `finger` of `hand` is extended.
pub fn extended(hand: &HandPoints, finger: Finger) -> bool {
    let p = |k: usize| point(hand, first_point(finger) + k);
    let wrist = point(hand, 0);
    match finger {
        Finger::Thumb => {
            let little_mcp = point(hand, first_point(Finger::Pinky));
            let reach = p(3).distance(little_mcp) > p(2).distance(little_mcp);
            reach && angle(p(2) - p(1), p(3) - p(2)) < 60.0
        }
        _ => angle(p(1) - p(0), p(3) - p(2)) < 90.0 && p(3).distance(wrist) > p(1).distance(wrist),
    }
}

/// The numbers the rule looks at, for the report: for the thumb (IP bend°, tip reach − IP
/// reach toward the little MCP), for the others (base-to-end angle°, tip − PIP distance from
/// the wrist), in the points' units.
pub fn measures(hand: &HandPoints, finger: Finger) -> (f64, f64) {
    let p = |k: usize| point(hand, first_point(finger) + k);
    let wrist = point(hand, 0);
    match finger {
        Finger::Thumb => {
            let little_mcp = point(hand, first_point(Finger::Pinky));
            (angle(p(2) - p(1), p(3) - p(2)), p(3).distance(little_mcp) - p(2).distance(little_mcp))
        }
        _ => (angle(p(1) - p(0), p(3) - p(2)), p(3).distance(wrist) - p(1).distance(wrist)),
    }
}

/// The palm's frame as a rotation whose columns are its axes: y from the wrist to the middle
/// finger's MCP, x along the little finger's MCP → the index finger's made square to y, z = x × y.
/// This is the convention the finger solve matches palms by (branch `fingers`), so that the
/// check measures the fingers and not a second palm convention; the same formula on the model
/// and on the landmarks (both in MMD's axes) gives frames that mean the same thing.
pub fn palm_frame(hand: &HandPoints) -> DMat3 {
    let wrist = point(hand, 0);
    let y = (point(hand, 9) - wrist).normalize();
    let across = point(hand, 5) - point(hand, 17);
    let x = (across - y * across.dot(y)).normalize();
    DMat3::from_cols(x, y, x.cross(y))
}

/// The direction of the segment from point `a` to point `b` in the palm's frame, or `None`
/// where either point is missing.
pub fn direction_in_palm(hand: &HandPoints, frame: &DMat3, a: usize, b: usize) -> Option<DVec3> {
    let (pa, pb) = (hand[a]?, hand[b]?);
    Some(frame.transpose() * (pb - pa).normalize())
}

/// A finger's three segments, each as (from, to) point indices: CMC→MCP, MCP→IP, IP→tip for
/// the thumb; MCP→PIP, PIP→DIP, DIP→tip for the others.
pub fn segments(finger: Finger) -> [(usize, usize); 3] {
    let first = first_point(finger);
    [(first, first + 1), (first + 1, first + 2), (first + 2, first + 3)]
}

/// Per segment of `finger` ([`segments`]), the angle in degrees between its direction on
/// `model` and on `landmarks`, each in its own palm frame; `None` where either lacks it.
pub fn direction_errors(
    model: &HandPoints,
    landmarks: &HandPoints,
    finger: Finger,
) -> [Option<f64>; 3] {
    let (fm, fl) = (palm_frame(model), palm_frame(landmarks));
    segments(finger).map(|(a, b)| {
        let m = direction_in_palm(model, &fm, a, b)?;
        let l = direction_in_palm(landmarks, &fl, a, b)?;
        Some(angle(m, l))
    })
}

/// A model's finger bones as the 21 hand points (the module's mapping): per point the bone
/// whose head it is, `None` where the model has no such bone.
pub fn hand_bones(skeleton: &Skeleton, side: Side) -> [Option<usize>; 21] {
    let prefix = match side {
        Side::Left => "左",
        Side::Right => "右",
    };
    let bone =
        |names: &[&str]| names.iter().find_map(|n| skeleton.bone_index(&format!("{prefix}{n}")));
    let mut out = [None; 21];
    out[0] = bone(&["手首"]);
    let fingers: [(Finger, [&[&str]; 4]); 5] = [
        (Finger::Thumb, [&["親指０"], &["親指１"], &["親指２"], &["親指先"]]),
        (Finger::Index, [&["人指１"], &["人指２"], &["人指３"], &["人指先", "人差指先"]]),
        (Finger::Middle, [&["中指１"], &["中指２"], &["中指３"], &["中指先"]]),
        (Finger::Ring, [&["薬指１"], &["薬指２"], &["薬指３"], &["薬指先"]]),
        (Finger::Pinky, [&["小指１"], &["小指２"], &["小指３"], &["小指先"]]),
    ];
    for (finger, names) in fingers {
        for (k, n) in names.iter().enumerate() {
            out[first_point(finger) + k] = bone(n);
        }
    }
    out
}

/// The posed positions of [`hand_bones`].
pub fn hand_points(bones: &[Option<usize>; 21], pose: &Pose) -> HandPoints {
    bones.map(|b| b.map(|b| pose.position(b).as_dvec3()))
}

/// Landmarks as [`HandPoints`].
pub fn all_points(points: &[DVec3; 21]) -> HandPoints {
    points.map(Some)
}
