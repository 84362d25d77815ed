//! The hand photos and the hand video of `../shared/pose/handface` (its SOURCES.md says what
//! each is), read in place: MediaPipe 0.10.21 Hands' **world** landmarks turned into
//! [`Keypoints`] for the `mediapipe_hands` roles, each hand on its anatomical side, with the
//! per-finger labels (extended or curled) of the photo's `.expected.json`.
//!
//! **Axes.** World landmarks are metres with the origin at the hand's centre, x to the image's
//! right, y down and z away from the camera (a right-handed frame), so they are passed as
//! [`MEDIAPIPE_WORLD`]: up `-y`, right-handed, units metres, the same as BlazePose's world
//! landmarks. A subject facing the camera then faces −Z on the model, their left at +X.
//!
//! **Side.** Hands' legacy handedness label is written as if the image were a mirrored selfie
//! (SOURCES.md "Handedness"), and none of these files is mirrored, so the anatomical side is the
//! label **flipped**: "Left" is the subject's right hand. The 3-D landmarks agree on every hand of
//! the folder: [`chirality`] (which way the fingers curl against the palm's orientation) gives
//! the same side. On photo #1 (`hands.jpg`) both hands are labelled "Right", so both are left
//! hands; the 3-D shape says so too, and it matches the label "back of the hand toward the
//! camera": a right hand with its palm to the camera would draw the mirror image. The Tasks
//! test's "Left" for that photo is the one label against it, and it is not used. Photo #1's two
//! hands are therefore played one at a time, each on the model's left hand.
//!
//! **Duplicates (video).** Hands tracks the video; in 7 frames it also returns a ghost second
//! hand on the same side. Per frame and side the hand kept is the one whose wrist (image
//! position) is nearest the hand kept at the previous frame, or the most confident one when
//! there is no previous hand.

#![allow(dead_code)] // each test module uses a part

use glam::DVec3;
use serde_json::Value;
use std::path::PathBuf;
use vmdkit::keypoints::{JointLayout, Keypoints, LayoutJoint, Units, UpAxis};
use vmdkit::retarget::InputAxes;
use vmdkit::roles::{Role, Side};

/// The axes of MediaPipe's world landmarks: y down, z away from the camera, right-handed.
pub const MEDIAPIPE_WORLD: InputAxes = InputAxes { up: UpAxis::NegY, left_handed: false };

/// The labelled photos: a short name (SOURCES.md's number) and the file's name in the folder.
pub const PHOTOS: [(&str, &str); 7] = [
    ("#1 hands", "tensorflow__tfjs-models__hand-pose-detection__test_data__hands.jpg"),
    (
        "#2 thumbs-up.png",
        "google-ai-edge__mediapipe-samples__examples__gesture_recognizer__ios__GestureRecognizerTests__thumbs-up.png",
    ),
    (
        "#3 thumbs_up",
        "yanghaku__mediapipe-rs-dev__assets__testdata__img__gesture_recognition_google_samples__thumbs_up.jpg",
    ),
    (
        "#4 thumbs_down",
        "yanghaku__mediapipe-rs-dev__assets__testdata__img__gesture_recognition_google_samples__thumbs_down.jpg",
    ),
    (
        "#5 victory",
        "yanghaku__mediapipe-rs-dev__assets__testdata__img__gesture_recognition_google_samples__victory.jpg",
    ),
    (
        "#7 call",
        "google-ai-edge__mediapipe__mediapipe__model_maker__python__vision__gesture_recognizer__testdata__raw_data__call__17b3aa02-dc4d-448d-8601-e2b67193d436.jpg",
    ),
    (
        "#8 rock",
        "google-ai-edge__mediapipe__mediapipe__model_maker__python__vision__gesture_recognizer__testdata__raw_data__rock__10eacf4b-8aaf-46d9-be21-7fb8d8353005.jpg",
    ),
];

/// The video with a hand (#12): 195 frames at 25 fps, the subject's right hand.
pub const VIDEO: &str = "google-ai-edge__mediapipe-samples__examples__gesture_recognizer__android__app__src__androidTest__assets__test_video.mp4";

/// One hand MediaPipe found.
#[derive(Clone, Debug)]
pub struct Hand {
    /// The anatomical side: the legacy label flipped.
    pub side: Side,
    /// The legacy handedness label as written ("Left" or "Right").
    pub label: String,
    /// The label's score.
    pub score: f64,
    /// World landmarks (metres, MediaPipe's axes), in `HandLandmark` order.
    pub world: [DVec3; 21],
    /// Image landmarks (x, y normalised to the image, z on x's scale).
    pub image: [DVec3; 21],
}

/// A labelled photo's hands.
#[derive(Clone, Debug)]
pub struct Photo {
    /// SOURCES.md's number and a short name.
    pub name: &'static str,
    /// The hands found, in MediaPipe's order.
    pub hands: Vec<Hand>,
    /// Per finger, thumb first: extended (true) or curled, as `.expected.json` labels every
    /// hand of the photo.
    pub extended: [bool; 5],
}

/// A file of the handface folder, or `None` (after a notice) when it is missing outside CI.
pub fn file(test: &str, name: &str) -> Option<PathBuf> {
    test_corpus::pose_file_or_skip(test, &format!("handface/{name}"))
}

fn json(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn points(value: &Value) -> [DVec3; 21] {
    let list = value.as_array().unwrap();
    assert_eq!(list.len(), 21);
    std::array::from_fn(|i| {
        let p = list[i].as_array().unwrap();
        DVec3::new(p[0].as_f64().unwrap(), p[1].as_f64().unwrap(), p[2].as_f64().unwrap())
    })
}

/// The anatomical side of a MediaPipe handedness label (which is mirrored).
pub fn side_of_label(label: &str) -> Side {
    match label {
        "Left" => Side::Right,
        "Right" => Side::Left,
        other => panic!("unknown handedness label {other:?}"),
    }
}

fn hand(value: &Value) -> Hand {
    let handedness = &value["handedness"];
    let label = handedness["label"].as_str().unwrap().to_string();
    Hand {
        side: side_of_label(&label),
        score: handedness["score"].as_f64().unwrap(),
        label,
        world: points(&value["world_landmarks"]),
        image: points(&value["landmarks"]),
    }
}

/// The side whose shape the 3-D landmarks have, in MediaPipe's right-handed axes: the palm's
/// orientation `(index MCP − wrist) × (little MCP − wrist)` points out of the palm of a right
/// hand and out of the back of a left one, and fingers curl toward the palm, so the sign of the
/// fingertips' offsets from their MCPs along it tells the sides apart.
pub fn chirality(world: &[DVec3; 21]) -> Side {
    let palm = (world[5] - world[0]).cross(world[17] - world[0]);
    let curl: f64 = [(5, 8), (9, 12), (13, 16), (17, 20)]
        .iter()
        .map(|&(mcp, tip)| (world[tip] - world[mcp]).dot(palm))
        .sum();
    if curl > 0.0 {
        Side::Right
    } else {
        Side::Left
    }
}

/// The finger labels of an `.expected.json`, thumb first, when it labels the fingers of
/// `hands` hands: its one labelled entry applies to every hand found when it names "both
/// hands" for two, or when one hand was found.
fn labels(expected: &Value, hands: usize) -> Option<[bool; 5]> {
    let labelled: Vec<&Value> =
        (expected["hands"].as_array()?.iter()).filter(|h| h["fingers"].is_object()).collect();
    let [entry] = labelled[..] else { return None };
    let which = entry["which"].as_str().unwrap_or("");
    if !(hands == 1 || (hands == 2 && which.contains("both"))) {
        return None;
    }
    let names = ["thumb", "index", "middle", "ring", "pinky"];
    Some(names.map(|n| match entry["fingers"][n].as_str() {
        Some("extended") => true,
        Some("curled") => false,
        other => panic!("finger {n}: label {other:?}"),
    }))
}

/// A labelled photo, or `None` when the folder is missing (outside CI).
pub fn photo(test: &str, name: &'static str, file_name: &str) -> Option<Photo> {
    let hands_json = json(&file(test, &format!("{file_name}.hands.json"))?);
    let expected = json(&file(test, &format!("{file_name}.expected.json"))?);
    let hands: Vec<Hand> = hands_json["hands"].as_array().unwrap().iter().map(hand).collect();
    let extended = labels(&expected, hands.len())
        .unwrap_or_else(|| panic!("{name}: no finger labels for {} hands", hands.len()));
    Some(Photo { name, hands, extended })
}

/// Every labelled photo, or `None` when the folder is missing (outside CI).
pub fn photos(test: &str) -> Option<Vec<Photo>> {
    PHOTOS.iter().map(|&(name, file_name)| photo(test, name, file_name)).collect()
}

/// The video's hands on `side`, one per frame (or `None`), duplicates removed as the module's
/// documentation says, with the video's frame rate.
pub fn video_hands(test: &str, side: Side) -> Option<(Vec<Option<Hand>>, f64)> {
    let video = json(&file(test, &format!("{VIDEO}.hands.json"))?);
    let fps = video["fps"].as_f64().unwrap();
    let mut kept: Vec<Option<Hand>> = Vec::new();
    let mut previous: Option<DVec3> = None;
    for frame in video["frames"].as_array().unwrap() {
        let candidates: Vec<Hand> =
            (frame.as_array().unwrap().iter()).map(hand).filter(|h| h.side == side).collect();
        let best = match previous {
            Some(wrist) => candidates.into_iter().min_by(|a, b| {
                let (da, db) = (a.image[0].distance(wrist), b.image[0].distance(wrist));
                da.total_cmp(&db)
            }),
            None => candidates.into_iter().max_by(|a, b| a.score.total_cmp(&b.score)),
        };
        previous = best.as_ref().map(|h| h.image[0]).or(previous);
        kept.push(best);
    }
    Some((kept, fps))
}

/// The `mediapipe_hands` layout: 42 joints, the left hand's role names then the right's.
pub fn hands_layout() -> JointLayout {
    if let Some(layout) = JointLayout::builtin("mediapipe_hands") {
        return layout;
    }
    // Before the built-in table exists: the same joints, built from the roles.
    let joints = (Side::BOTH.iter())
        .flat_map(|&side| Role::hand_points(side))
        .map(|role| LayoutJoint { name: role.name().to_string(), role: Some(role) })
        .collect();
    JointLayout { name: "mediapipe_hands".into(), joints, synthetic: Vec::new(), face: None }
}

/// Keypoints of the `mediapipe_hands` layout ([`hands_layout`]): per frame, the world
/// landmarks of the hand on each side (left, right) or nothing, at `fps`, in metres and
/// MediaPipe's axes ([`MEDIAPIPE_WORLD`]).
pub fn hands_keypoints(frames: &[[Option<&[DVec3; 21]>; 2]], fps: f64) -> Keypoints {
    let layout = hands_layout();
    let mut kp = Keypoints::missing(frames.len(), layout.joints.len());
    for (f, sides) in frames.iter().enumerate() {
        for (s, side) in Side::BOTH.into_iter().enumerate() {
            let Some(world) = sides[s] else { continue };
            for (i, role) in Role::hand_points(side).into_iter().enumerate() {
                let j = layout.joint_of(role).unwrap();
                kp.positions[f * kp.joint_count + j] = world[i].as_vec3();
            }
        }
    }
    kp.names = Some(layout.joints.iter().map(|j| j.name.clone()).collect());
    kp.fps = Some(fps);
    kp.units = Some(Units::Metres);
    kp.up = Some(MEDIAPIPE_WORLD.up);
    kp
}

/// One hand alone as one frame of `mediapipe_hands` keypoints, on its side.
pub fn one_hand_keypoints(hand: &Hand) -> Keypoints {
    let mut sides = [None, None];
    sides[hand.side as usize] = Some(&hand.world);
    hands_keypoints(&[sides], 30.0)
}

/// The position of a hand point (`HandLandmark` index) in MMD's axes.
pub fn in_mmd(world: &[DVec3; 21]) -> [DVec3; 21] {
    world.map(|p| MEDIAPIPE_WORLD.to_mmd(p))
}
