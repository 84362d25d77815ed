//! What `vmdkit retarget` prints when it is done: the keys written, where the input's frame
//! rate, layout, scale and floor came from (for a body), what the fit left, the fingers and
//! the face solved, and the warnings that name the
//! flag a rerun wants.

use super::{Args, Input};
use vmdkit::retarget::face::{CalibrationSource, FaceReport, MIN_CLIP_FRAMES};
use vmdkit::retarget::fingers::FingerReport;
use vmdkit::retarget::{KeyMode, RetargetOptions, RetargetReport};
use vmdkit::skeleton::METRES_PER_UNIT;

/// Model units as centimetres, at MMD's 8 cm per unit.
fn cm(units: f64) -> f64 {
    units * METRES_PER_UNIT * 100.0
}

pub(super) fn summary(
    args: &Args,
    input: &Input,
    model: &str,
    options: &RetargetOptions,
    r: &RetargetReport,
) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} frames at 30 fps onto {model}, {}",
        args.output.display(),
        r.frames,
        keyed(r)
    );
    let _ = match &input.source {
        Some(source) => writeln!(
            s,
            "input: {} played on {source}, {} frames",
            args.input.display(),
            input.keypoints.frame_count
        ),
        None => writeln!(
            s,
            "input: {} frames of {} joints at {} fps ({}), layout {} ({}), up {}{}",
            input.keypoints.frame_count,
            input.keypoints.joint_count,
            input.fps.value,
            input.fps.from,
            input.layout.name,
            input.layout_from,
            options.axes.up.label(),
            if options.axes.left_handed { ", left-handed" } else { "" }
        ),
    };
    // A face or hands alone leave the body at rest: no scale, floor or fit to speak of.
    if r.body {
        body_lines(&mut s, r);
    }
    if let Some(f) = &r.fingers {
        finger_lines(&mut s, f);
    }
    let _ = match (options.keys, r.thinning_error) {
        (KeyMode::Thinned(t), Some(e)) => writeln!(
            s,
            "thinning: keys within {} units / {}°; largest joint drift {:.4} units ({:.2} cm)",
            t.position,
            t.angle_degrees,
            e,
            cm(e)
        ),
        _ => writeln!(s, "thinning: none (dense keys)"),
    };
    if let Some(face) = &r.face {
        face_lines(&mut s, face);
    }
    let h = r.handedness;
    if h.turned_upright {
        let _ = writeln!(
            s,
            "warning: the input's trunk pointed down in {} frames, so it was turned upright: \
             pass --up with the axis that points up in the file (MediaPipe's y points down: \
             --up=-y)",
            h.upside_down
        );
    }
    if h.corrected {
        // Say which flag fits this run: the file's handedness is the opposite of the one taken.
        let fix = if options.axes.left_handed {
            "the file looks right-handed: run again without --left-handed"
        } else {
            "the file looks left-handed, as MMD writes: run again with --left-handed"
        };
        let _ = writeln!(
            s,
            "warning: the input looked mirrored in {} of {} frames (its face, knees and toes \
             point the other way than its left and right imply), so it was mirrored back; \
             {fix} (the same motion, without this warning), or with --keep-handedness to keep \
             it as written",
            h.mirrored, h.frames
        );
    }
    if h.hands_corrected {
        let sides: Vec<String> = (0..2)
            .filter(|&i| h.hand_mirrored[i] == Some(true))
            .map(|i| {
                let side = ["left", "right"][i];
                format!(
                    "the {side} hand in {} of {} frames",
                    h.hand_mirrored_frames[i], h.hand_frames[i]
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "warning: the input's hands are shaped as the other side's ({}), so they were \
             mirrored back: the file's axes are mirrored or its hands' sides swapped (check \
             --left-handed, --hand or the names' left_/right_); --keep-handedness keeps them as \
             written",
            sides.join(", ")
        );
    }
    s
}

/// What was keyed: the body's and fingers' bones, then the face's bones and morphs, which the
/// face solver keys after the rest and counts apart.
fn keyed(r: &RetargetReport) -> String {
    let mut parts = Vec::new();
    if r.body || r.fingers.is_some() || r.face.is_none() {
        parts.push(format!(
            "{} bones keyed, {} keys ({} dense)",
            r.bones.len(),
            r.keys,
            r.dense_keys
        ));
    }
    if let Some(face) = &r.face {
        parts.push(format!(
            "{} face bones and {} morphs keyed, {} keys",
            face.gaze_bones.len() + face.head_bones.len(),
            face.morphs.len(),
            face.bone_keys + face.morph_keys
        ));
    }
    parts.join("; ")
}

/// The body's lines: scale, floor, and the fit's residual and direction error.
fn body_lines(s: &mut String, r: &RetargetReport) {
    use std::fmt::Write;
    let per_metre = match r.units_per_metre {
        Some(u) => format!(", {u:.3} per metre"),
        None => ", input units unknown".to_string(),
    };
    let _ = writeln!(
        s,
        "scale: {:.6} model units per input unit{per_metre} (from {} segments, spread {:.2})",
        r.scale, r.scale_segments, r.scale_spread
    );
    let _ = writeln!(
        s,
        "floor: input floor at {:.3} units moved to the model's; {} frames raised, {} contact \
         foot-frames, deepest penetration {:.4} units",
        r.floor, r.raised_frames, r.contact_frames, r.penetration
    );
    let _ = writeln!(
        s,
        "self-consistency: mean residual {:.4} units ({:.2} cm), mean direction error {:.2}°",
        r.mean_residual,
        cm(r.mean_residual),
        r.mean_direction_degrees
    );
}

/// The fingers' line: frames solved and held per hand, and how close the played-back fingers
/// come to the input's, in the palm's frame.
fn finger_lines(s: &mut String, f: &FingerReport) {
    use std::fmt::Write;
    let hands: Vec<String> = ["left", "right"]
        .iter()
        .enumerate()
        .filter(|&(i, _)| f.solved_frames[i] + f.held_frames[i] > 0)
        .map(|(i, side)| {
            format!("{side} hand {} frames solved, {} held", f.solved_frames[i], f.held_frames[i])
        })
        .collect();
    let hands = if hands.is_empty() { "no hand solved".to_string() } else { hands.join(", ") };
    let _ = writeln!(
        s,
        "fingers: {hands}; joint error mean {:.4} units ({:.2} cm), max {:.4}; direction error \
         mean {:.2}°, max {:.2}°; {} joints held at the bend limit",
        f.joint_error_mean,
        cm(f.joint_error_mean),
        f.joint_error_max,
        f.direction_mean_degrees,
        f.direction_max_degrees,
        f.clamps
    );
}

/// The face section: frames, calibration, morphs driven and missing, bones.
fn face_lines(s: &mut String, face: &FaceReport) {
    use std::fmt::Write;
    let calibration = match face.calibration {
        CalibrationSource::Clip { frames } => {
            format!("neutral face from the clip's {frames} frames")
        }
        CalibrationSource::FirstFrames { frames } => {
            format!("neutral face from the first {frames} frames")
        }
        CalibrationSource::Defaults { frames } => format!(
            "population defaults (only {frames} frames with a face, fewer than {MIN_CLIP_FRAMES})"
        ),
        _ => "neutral face: other".to_string(),
    };
    let _ = writeln!(
        s,
        "face: {} of {} frames with a face; {calibration}; {} morph keys ({} dense), {} bone keys",
        face.frames_with_face, face.frames, face.morph_keys, face.dense_morph_keys, face.bone_keys
    );
    let driven: Vec<String> = (face.morphs.iter())
        .map(|m| format!("{} {} (max {:.2})", m.role.name(), m.morph, m.max_weight))
        .collect();
    if !driven.is_empty() {
        let _ = writeln!(s, "face morphs: {}", driven.join(", "));
    }
    if !face.morphs_known {
        let _ = writeln!(s, "face morphs: none keyed, the model's morphs are unknown");
    }
    for m in &face.missing {
        let _ = writeln!(
            s,
            "warning: the model has no morph for {} (looked for {}); give one with --morph-map",
            m.role.name(),
            m.looked_for.join(", ")
        );
    }
    let bones: Vec<&str> =
        face.gaze_bones.iter().chain(&face.head_bones).map(String::as_str).collect();
    if !bones.is_empty() {
        let _ = writeln!(s, "face bones: {}", bones.join(", "));
    }
}
