//! Hands without a body are judged by their shape (`retarget/hand_chirality.rs`): every hand
//! of the handface photos, and the video's hand, MediaPipe's world landmarks on their anatomical
//! side, is found shaped as that side's hand; the same hands mirrored (x negated) are found
//! mirrored and mirrored back, so that their fingers come out as the originals' do. Figures:
//! `cargo test -p vmdkit --test it retarget_hand_chirality:: -- --nocapture`.

use crate::common::handface::{self, Hand};
use crate::common::skeleton::MIKU;
use vmdkit::keypoints::{Keypoints, Units};
use vmdkit::model::Model;
use vmdkit::retarget::{retarget, HandednessCheck, RetargetOptions};
use vmdkit::skeleton::Skeleton;
use vmdkit::Motion;

fn play(kp: &Keypoints, fps: f64, skeleton: &Skeleton) -> (HandednessCheck, Motion) {
    let options = RetargetOptions {
        fps,
        axes: handface::MEDIAPIPE_WORLD,
        units: Some(Units::Metres),
        ..RetargetOptions::default()
    };
    let out = retarget(kp, &handface::hands_layout(), skeleton, &options).unwrap();
    (out.report.handedness, out.motion)
}

/// `hand` mirrored across the image's vertical axis: the other side's shape, the same side's
/// label.
fn mirrored(hand: &Hand) -> Hand {
    let mut m = hand.clone();
    m.world = hand.world.map(|p| glam::DVec3::new(-p.x, p.y, p.z));
    m
}

/// The largest angle between two motions' keys of the same bone and frame, degrees.
fn largest_difference(a: &Motion, b: &Motion) -> f64 {
    let mut worst = 0.0f64;
    for k in &a.bones {
        let other = b.bones.iter().find(|o| o.name == k.name && o.frame == k.frame).unwrap();
        worst = worst.max(k.rotation.angle_between(other.rotation).to_degrees() as f64);
    }
    worst
}

#[test]
fn every_real_hand_is_found_on_its_side_and_mirrored_copies_mirrored() {
    let Some(photos) = handface::photos("retarget_hand_chirality") else { return };
    let dir = test_corpus::corpus_dir();
    let skeleton = Skeleton::new(&Model::read_file(dir.join(MIKU)).unwrap());
    let mut judged = 0;
    for photo in &photos {
        for hand in &photo.hands {
            let s = hand.side as usize;
            let (check, motion) = play(&handface::one_hand_keypoints(hand), 30.0, &skeleton);
            println!(
                "{} {:?}: {} frame, mirrored {:?}",
                photo.name, hand.side, check.hand_frames[s], check.hand_mirrored[s]
            );
            assert_eq!(check.hand_mirrored[s], Some(false), "{} {:?}", photo.name, hand.side);
            assert!(!check.hands_corrected);
            let copy = mirrored(hand);
            let (check, back) = play(&handface::one_hand_keypoints(&copy), 30.0, &skeleton);
            assert_eq!(check.hand_mirrored[s], Some(true), "{} mirrored", photo.name);
            assert!(check.hands_corrected, "{} mirrored", photo.name);
            // Mirrored back, the copy is the original again.
            let worst = largest_difference(&motion, &back);
            println!(
                "  mirrored copy: mirrored {:?}, back within {worst:.3}°",
                check.hand_mirrored[s]
            );
            assert!(worst < 0.1, "{} mirrored back: {worst}°", photo.name);
            judged += 1;
        }
    }
    assert!(judged >= 8, "{judged} hands");
    // The video's right hand over its 195 frames.
    let Some((frames, fps)) =
        handface::video_hands("retarget_hand_chirality", vmdkit::roles::Side::Right)
    else {
        return;
    };
    let sides: Vec<[Option<&[glam::DVec3; 21]>; 2]> =
        frames.iter().map(|h| [None, h.as_ref().map(|h| &h.world)]).collect();
    let (check, _) = play(&handface::hands_keypoints(&sides, fps), fps, &skeleton);
    println!("video: {check:?}");
    assert_eq!(check.hand_mirrored, [None, Some(false)]);
    let copies: Vec<Option<Hand>> = frames.iter().map(|h| h.as_ref().map(mirrored)).collect();
    let sides: Vec<[Option<&[glam::DVec3; 21]>; 2]> =
        copies.iter().map(|h| [None, h.as_ref().map(|h| &h.world)]).collect();
    let (check, _) = play(&handface::hands_keypoints(&sides, fps), fps, &skeleton);
    println!("video mirrored: {check:?}");
    assert_eq!(check.hand_mirrored, [None, Some(true)]);
    assert!(check.hands_corrected);
}
