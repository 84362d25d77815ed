//! Is the input mirrored? An input read with the wrong handedness (a left-handed file taken
//! for a right-handed one, or the other way) is the subject's mirror image: its left side is on
//! the right of the way it faces. The labels alone cannot show it, but anatomy can: the face,
//! bent knees and toes point forward. Per frame, the forward direction that the labels imply
//! (up × (left − right), MMD's axes) is compared with the one the anatomy shows; a clear
//! majority against the labels means the input is mirrored.
//!
//! Before that, the same kind of check for the up axis: a trunk that points down in nearly
//! every frame means the input's up axis was given the wrong way round (MediaPipe's y points
//! down), and the input is turned upright (half a turn about X) before anything else.

use super::solve::Observed;
use crate::roles::Role;
use glam::DVec3;

/// What the check saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct HandednessCheck {
    /// Frames with evidence either way.
    pub frames: usize,
    /// Of those, frames that look mirrored.
    pub mirrored: usize,
    /// Whether the input was mirrored back (Z negated) before solving.
    pub corrected: bool,
    /// Frames whose trunk (pelvis → neck base) points down along the up axis given.
    pub upside_down: usize,
    /// Whether the input was turned upright (Y and Z negated) before solving.
    pub turned_upright: bool,
    /// Hands without a body (`hand_chirality.rs`), per side (left, right): frames whose
    /// hand's shape could be told, of those the ones shaped as the other side's hand, and the
    /// verdict on the median frame: `Some(true)` mirrored, `Some(false)` as labelled, `None`
    /// unsure or no such hand.
    pub hand_frames: [usize; 2],
    /// See `hand_frames`.
    pub hand_mirrored_frames: [usize; 2],
    /// See `hand_frames`.
    pub hand_mirrored: [Option<bool>; 2],
    /// Whether a hands-only input was mirrored back (Z negated) before solving: every hand
    /// with a verdict was mirrored.
    pub hands_corrected: bool,
}

/// At least this many frames of evidence, and this share of them mirrored, to correct.
const MIN_FRAMES: usize = 10;
const MIN_SHARE: f64 = 0.8;

/// Checks `frames` and, when they are clearly mirrored and `correct` is set, negates Z.
pub(crate) fn check_and_correct(frames: &mut [Observed], correct: bool) -> HandednessCheck {
    let mut check = HandednessCheck::default();
    let mut trunks = 0;
    for f in frames.iter() {
        if let Some(up) = trunk(f).map(|t| t.y) {
            trunks += 1;
            check.upside_down += (up < 0.0) as usize;
        }
    }
    if correct && trunks >= MIN_FRAMES && check.upside_down as f64 >= MIN_SHARE * trunks as f64 {
        for f in frames.iter_mut() {
            for (p, _) in f.iter_mut() {
                *p = DVec3::new(p.x, -p.y, -p.z);
            }
        }
        check.turned_upright = true;
    }
    for f in frames.iter() {
        if let Some(sign) = frame_evidence(f) {
            check.frames += 1;
            check.mirrored += (sign < 0.0) as usize;
        }
    }
    let clear =
        check.frames >= MIN_FRAMES && check.mirrored as f64 >= MIN_SHARE * check.frames as f64;
    if clear && correct {
        for f in frames.iter_mut() {
            for (p, _) in f.iter_mut() {
                p.z = -p.z;
            }
        }
        check.corrected = true;
    }
    check
}

/// The trunk's direction (pelvis or the hips' mean → neck base or the shoulders' mean), unit.
fn trunk(f: &Observed) -> Option<DVec3> {
    let get = |r: Role| Some(f[r as usize]).filter(|o| o.1 > 0.0).map(|o| o.0);
    let mid = |a: Role, b: Role| Some((get(a)? + get(b)?) / 2.0);
    let pelvis = get(Role::Pelvis).or_else(|| mid(Role::LeftHip, Role::RightHip))?;
    let top = get(Role::Thorax).or_else(|| mid(Role::LeftShoulder, Role::RightShoulder))?;
    (top - pelvis).try_normalize()
}

/// The sign of (label forward) · (anatomical forward) in one frame, when both are clear.
fn frame_evidence(f: &Observed) -> Option<f64> {
    let get = |r: Role| Some(f[r as usize]).filter(|o| o.1 > 0.0).map(|o| o.0);
    let mid = |a: Role, b: Role| Some((get(a)? + get(b)?) / 2.0);
    let pelvis = get(Role::Pelvis).or_else(|| mid(Role::LeftHip, Role::RightHip))?;
    let top = get(Role::Thorax).or_else(|| mid(Role::LeftShoulder, Role::RightShoulder))?;
    let up = (top - pelvis).try_normalize()?;
    let side = (get(Role::LeftHip)? - get(Role::RightHip)?)
        + (get(Role::LeftShoulder)? - get(Role::RightShoulder)?);
    let forward = up.cross(side).try_normalize()?;
    let flat = |v: DVec3| v - up * v.dot(up);
    let mut anatomy = DVec3::ZERO;
    // The face is in front of the head's centre (or of the line from neck base to head top).
    let head = mid(Role::LeftEar, Role::RightEar)
        .or_else(|| get(Role::HeadCentre))
        .or_else(|| mid(Role::Thorax, Role::HeadTop));
    if let (Some(nose), Some(head)) = (get(Role::Nose), head) {
        anatomy += flat(nose - head).normalize_or_zero();
    }
    // Bent knees are in front of the hip–ankle line; toes in front of heels.
    for (hip, knee, ankle) in [
        (Role::LeftHip, Role::LeftKnee, Role::LeftAnkle),
        (Role::RightHip, Role::RightKnee, Role::RightAnkle),
    ] {
        if let (Some(h), Some(k), Some(a)) = (get(hip), get(knee), get(ankle)) {
            let bend = flat(k - (h + a) / 2.0);
            if bend.length() > 0.05 * (h - a).length() {
                anatomy += bend.normalize();
            }
        }
    }
    for (toe, heel) in [(Role::LeftToe, Role::LeftHeel), (Role::RightToe, Role::RightHeel)] {
        if let (Some(t), Some(h)) = (get(toe), get(heel)) {
            anatomy += flat(t - h).normalize_or_zero();
        }
    }
    let score = forward.dot(anatomy);
    (score.abs() > 0.3).then_some(score)
}
