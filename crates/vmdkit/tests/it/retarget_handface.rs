//! Fingers from real photos and a real video (`../shared/pose/handface`, SOURCES.md there):
//! MediaPipe Hands' world landmarks ([`handface`] reads them and says which side each hand is)
//! retargeted **hand-only** (the hands alone; the body untouched) onto the trace model and the
//! corpus 初音ミク.pmx, then judged on the model's own FK ([`judge`] states the rule):
//! * every finger the photos label extended or curled is so on the model, for at least 95% of
//!   the labelled fingers of each model;
//! * the model's finger segments (MCP→PIP, PIP→DIP, DIP→tip; the thumb's CMC→MCP where the model
//!   has 親指０, MCP→IP, IP→tip), each in its palm's frame, follow the landmarks' within 3° mean;
//! * the video's hand turns no finger bone over (a flip): no frame-to-frame turn of a finger bone
//!   (in the hand's frame) over 30° where the landmarks' segment turns less than 10°.
//!
//! The tables: `cargo test -p vmdkit --test it retarget_handface -- --nocapture --test-threads 1`.

use super::common::hand_judge::{self as judge, HandPoints};
use super::common::handface::{self, Hand};
use super::common::skeleton::{MIKU, TRACE};
use glam::{DVec3, Quat};
use vmdkit::eval::MotionSampler;
use vmdkit::keypoints::{Keypoints, Units};
use vmdkit::model::Model;
use vmdkit::retarget::{retarget, RetargetOptions};
use vmdkit::roles::{Finger, Side};
use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};
use vmdkit::Motion;

/// The two models, or `None` when the corpus is missing (outside CI).
fn models(test: &str) -> Option<Vec<(&'static str, Skeleton)>> {
    test_corpus::corpus_or_skip(test)?;
    let read =
        |p: &str| Skeleton::new(&Model::read_file(test_corpus::corpus_dir().join(p)).unwrap());
    Some(vec![("trace", read(TRACE)), ("miku", read(MIKU))])
}

/// The keypoints retargeted onto `skeleton` with the default options (smoothing, thinned keys),
/// and the joints held at a backward-bend limit.
fn play(kp: &Keypoints, skeleton: &Skeleton, fps: f64) -> (Motion, usize) {
    let options = RetargetOptions {
        fps,
        axes: handface::MEDIAPIPE_WORLD,
        units: Some(Units::Metres),
        ..RetargetOptions::default()
    };
    let out = retarget(kp, &handface::hands_layout(), skeleton, &options).unwrap();
    (out.motion, out.report.fingers.expect("hands solved").clamps)
}

/// Bone keys on anything but a finger: a hand-only retargeting must leave the body alone.
fn body_keys(motion: &Motion) -> Vec<String> {
    let mut names: Vec<String> = (motion.bones.iter())
        .map(|k| k.name.to_string_lossy())
        .filter(|n| !n.contains('指'))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Poses `motion` on `skeleton` at each of `times` (MMD frames), handing the pose to `f`.
fn for_each_pose(skeleton: &Skeleton, motion: &Motion, times: &[f64], mut f: impl FnMut(&Pose)) {
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(skeleton, &sampler);
    let mut poser = Poser::new(skeleton, &sampler, &binding);
    let mut pose = Pose::new(skeleton);
    for &t in times {
        poser.pose_at(t, &mut pose);
        f(&pose);
    }
}

fn timrp(states: impl IntoIterator<Item = bool>) -> String {
    states.into_iter().map(|e| if e { '1' } else { '0' }).collect()
}

/// Landmarks in MMD's axes, as the 21 points the judge reads.
fn landmark_points(hand: &Hand) -> HandPoints {
    judge::all_points(&handface::in_mmd(&hand.world))
}

/// The mean of the present values.
fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values.into_iter().fold((0.0, 0), |(s, n), v| (s + v, n + 1));
    sum / n.max(1) as f64
}

#[test]
fn the_reader_puts_each_hand_on_the_side_its_shape_has() {
    let test = "the_reader_puts_each_hand_on_the_side_its_shape_has";
    let Some(photos) = handface::photos(test) else { return };
    let Some((video, fps)) = handface::video_hands(test, Side::Right) else { return };
    for photo in &photos {
        for hand in &photo.hands {
            assert_eq!(handface::chirality(&hand.world), hand.side, "{}", photo.name);
        }
    }
    // Photo #1: two left hands (labelled "Right" both); the others one hand each.
    let sides: Vec<Vec<Side>> =
        photos.iter().map(|p| p.hands.iter().map(|h| h.side).collect()).collect();
    assert_eq!(sides[0], [Side::Left, Side::Left]);
    assert!(sides[1..].iter().all(|s| s.len() == 1));
    assert_eq!(photos[0].extended, [true; 5]);
    assert_eq!(photos[4].extended, [false, true, true, false, false], "victory");
    // The video: the subject's right hand in 172 of 195 frames at 25 fps, never a left hand,
    // and the hand kept where a ghost appears is the one that goes on.
    assert_eq!((video.len(), fps), (195, 25.0));
    assert_eq!(video.iter().flatten().count(), 172);
    assert!(handface::video_hands(test, Side::Left).unwrap().0.iter().all(Option::is_none));
    for (f, hand) in video.iter().enumerate() {
        let Some(hand) = hand else { continue };
        assert_eq!(handface::chirality(&hand.world), Side::Right, "frame {f}");
        if let Some(Some(before)) = f.checked_sub(1).map(|b| &video[b]) {
            let step = hand.image[0].distance(before.image[0]);
            assert!(step < 0.1, "frame {f}: the wrist jumps by {step:.3} of the image");
        }
    }
    // The labels read as the keypoints carry them: the hand on its side, the other side empty.
    let kp = handface::one_hand_keypoints(&photos[0].hands[0]);
    let layout = handface::hands_layout();
    assert_eq!((kp.frame_count, kp.joint_count), (1, 42));
    let wrist = |side| layout.joint_of(vmdkit::roles::Role::hand_points(side)[0]).unwrap();
    assert!(kp.positions[wrist(Side::Left)].is_finite());
    assert!(kp.positions[wrist(Side::Right)].is_nan());
}

/// One hand of a photo played on one model: the judged states and direction errors.
struct Played {
    states: [bool; 5],
    errors: [[Option<f64>; 3]; 5],
}

fn play_photo_hand(skeleton: &Skeleton, hand: &Hand) -> Played {
    let (motion, clamps) = play(&handface::one_hand_keypoints(hand), skeleton, 30.0);
    // A real hand bends no joint past the limits (the thumb's IP reaches 24° back at most).
    assert_eq!(clamps, 0, "joints held at a backward-bend limit");
    let body = body_keys(&motion);
    assert!(body.is_empty(), "a hand-only retargeting keys {body:?}");
    let bones = judge::hand_bones(skeleton, hand.side);
    let mut model = [None; 21];
    for_each_pose(skeleton, &motion, &[0.0], |pose| model = judge::hand_points(&bones, pose));
    let landmarks = landmark_points(hand);
    Played {
        states: Finger::ALL.map(|f| judge::extended(&model, f)),
        errors: Finger::ALL.map(|f| judge::direction_errors(&model, &landmarks, f)),
    }
}

#[test]
fn labelled_photo_fingers_come_out_right_on_both_models() {
    let test = "labelled_photo_fingers_come_out_right_on_both_models";
    let (Some(photos), Some(models)) = (handface::photos(test), models(test)) else { return };
    println!(
        "model | photo | hand | label | on the model | rule on the landmarks | direction error° \
         per finger T I M R P (mean of its segments)"
    );
    for (name, skeleton) in &models {
        let (mut right, mut labelled, mut errors) = (0, 0, Vec::new());
        for photo in &photos {
            for (h, hand) in photo.hands.iter().enumerate() {
                let played = play_photo_hand(skeleton, hand);
                let own = landmark_points(hand);
                let on_landmarks = Finger::ALL.map(|f| judge::extended(&own, f));
                let per_finger: Vec<String> = (played.errors.iter())
                    .map(|e| format!("{:.1}", mean(e.iter().flatten().copied())))
                    .collect();
                println!(
                    "{name} | {} | {h} {} | {} | {} | {} | {}",
                    photo.name,
                    hand.side.name(),
                    timrp(photo.extended),
                    timrp(played.states),
                    timrp(on_landmarks),
                    per_finger.join(" ")
                );
                labelled += 5;
                right += (0..5).filter(|&i| played.states[i] == photo.extended[i]).count();
                errors.extend(played.errors.iter().flatten().flatten().copied());
            }
        }
        let share = right as f64 / labelled as f64;
        let direction = mean(errors.iter().copied());
        let worst = errors.iter().copied().fold(0.0, f64::max);
        println!(
            "{name}: {right} of {labelled} labelled fingers right ({:.1}%), segment directions \
             {direction:.2}° mean, {worst:.1}° max over {} segments",
            share * 100.0,
            errors.len()
        );
        assert!(share >= 0.95, "{name}: {right} of {labelled} fingers right");
        assert!(direction <= 3.0, "{name}: directions {direction:.2}° mean");
    }
}

/// The turn between two rotations, in degrees.
fn turn(a: Quat, b: Quat) -> f64 {
    let d = a.inverse() * b;
    (2.0 * (d.w.abs().min(1.0) as f64).acos()).to_degrees()
}

#[test]
fn the_video_hand_turns_no_finger_over() {
    let test = "the_video_hand_turns_no_finger_over";
    let (Some((video, fps)), Some(models)) =
        (handface::video_hands(test, Side::Right), models(test))
    else {
        return;
    };
    let frames: Vec<[Option<&[DVec3; 21]>; 2]> =
        video.iter().map(|h| [None, h.as_ref().map(|h| &h.world)]).collect();
    let kp = handface::hands_keypoints(&frames, fps);
    let times: Vec<f64> = (0..video.len()).map(|f| f as f64 * 30.0 / fps).collect();
    let landmarks: Vec<Option<HandPoints>> =
        video.iter().map(|h| h.as_ref().map(landmark_points)).collect();
    let mut failures = Vec::new();
    for (name, skeleton) in &models {
        let (motion, clamps) = play(&kp, skeleton, fps);
        assert_eq!(clamps, 0, "{name}: joints held at a backward-bend limit");
        let body = body_keys(&motion);
        assert!(body.is_empty(), "{name}: a hand-only retargeting keys {body:?}");
        let bones = judge::hand_bones(skeleton, Side::Right);
        let wrist = bones[0].unwrap();
        // Per frame: the 21 model points and each point's bone turned into the hand's frame.
        let mut model: Vec<(HandPoints, [Option<Quat>; 21])> = Vec::new();
        for_each_pose(skeleton, &motion, &times, |pose| {
            let hand = pose.rotation(wrist).inverse();
            let rotations = bones.map(|b| b.map(|b| hand * pose.rotation(b)));
            model.push((judge::hand_points(&bones, pose), rotations));
        });
        let (mut flips, mut pairs, mut turns) = (Vec::new(), 0, Vec::new());
        let (mut thumbs_up, mut held, mut errors) = (0, 0, Vec::new());
        for f in 0..video.len() {
            let Some(now) = &landmarks[f] else { continue };
            for finger in Finger::ALL {
                errors.extend(judge::direction_errors(&model[f].0, now, finger).iter().flatten());
            }
            if f >= 59 {
                held += 1;
                let states = Finger::ALL.map(|g| judge::extended(&model[f].0, g));
                thumbs_up += usize::from(states == [true, false, false, false, false]);
            }
            let Some(before) = f.checked_sub(1).and_then(|b| landmarks[b].as_ref()) else {
                continue;
            };
            pairs += 1;
            let (fb, fn_) = (judge::palm_frame(before), judge::palm_frame(now));
            for finger in Finger::ALL {
                for (a, b) in judge::segments(finger) {
                    let (Some(qa), Some(qb)) = (model[f - 1].1[a], model[f].1[a]) else {
                        continue;
                    };
                    let (Some(u), Some(v)) = (
                        judge::direction_in_palm(before, &fb, a, b),
                        judge::direction_in_palm(now, &fn_, a, b),
                    ) else {
                        continue;
                    };
                    let (bone, input) = (turn(qa, qb), judge::angle(u, v));
                    if bone > 30.0 && input < 10.0 {
                        flips.push((f, finger, a, bone, input));
                    }
                    turns.push((bone, input, f, finger, a));
                }
            }
        }
        turns.sort_by(|x, y| y.0.total_cmp(&x.0));
        let largest: Vec<String> = (turns.iter().take(5))
            .map(|(b, i, f, g, a)| format!("frame {f} {g:?} point {a}: {b:.1}° (input {i:.1}°)"))
            .collect();
        println!(
            "{name}: video, {pairs} frame pairs, {} flips; largest finger-bone turns: {}; \
             directions {:.2}° mean over {} segments; thumbs-up (10000) on the model in {thumbs_up} \
             of {held} frames from 59",
            flips.len(),
            largest.join(", "),
            mean(errors.iter().copied()),
            errors.len()
        );
        if !flips.is_empty() {
            failures.push(format!("{name}: flips {flips:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The judge's rule applied to the landmarks themselves: what a model that followed them
/// exactly would score, so that a model's miss can be told from the rule's own.
#[test]
fn the_rule_reads_the_labels_off_the_landmarks() {
    let test = "the_rule_reads_the_labels_off_the_landmarks";
    let Some(photos) = handface::photos(test) else { return };
    let (mut right, mut labelled) = (0, 0);
    for photo in &photos {
        for (h, hand) in photo.hands.iter().enumerate() {
            let points = landmark_points(hand);
            let states = Finger::ALL.map(|f| judge::extended(&points, f));
            let measures: Vec<String> = (Finger::ALL.iter())
                .map(|&f| judge::measures(&points, f))
                .map(|(a, d)| format!("{a:.0}°/{:+.1}cm", d * 100.0))
                .collect();
            println!(
                "{} hand {h}: label {} landmarks {} ({})",
                photo.name,
                timrp(photo.extended),
                timrp(states),
                measures.join(" ")
            );
            labelled += 5;
            right += (0..5).filter(|&i| states[i] == photo.extended[i]).count();
        }
    }
    println!("the rule on the landmarks: {right} of {labelled} labelled fingers right");
    assert!(right * 100 >= labelled * 95, "{right} of {labelled}");
}
