//! Gaze from the irises: the iris centre's offset within the eye, as a fraction of the eye's
//! width, read as the eyeball's turn. An eyeball's radius (about 12 mm) is about 0.4 of an
//! eye opening's width (about 30 mm), so sin(angle) ≈ 2.5 × the offset.

use glam::{DQuat, DVec2};

/// The turn's limits, degrees: ±20° across, ±10° up and down, the range MMD models' eye bones
/// usually look right in before the iris leaves the eye white.
pub const MAX_YAW_DEGREES: f64 = 20.0;
/// See [`MAX_YAW_DEGREES`].
pub const MAX_PITCH_DEGREES: f64 = 10.0;

/// Eyeball radius over the eye opening's width.
const RADIUS_OVER_WIDTH: f64 = 0.4;

/// The eyes' turn (yaw toward the subject's left, pitch up; degrees, limited) for the irises'
/// mean offset `iris` from its resting position `rest`.
pub fn angles(iris: [DVec2; 2], rest: [f64; 2]) -> (f64, f64) {
    let mean = (iris[0] + iris[1]) / 2.0;
    let turn = |offset: f64, max: f64| {
        let s = (offset / RADIUS_OVER_WIDTH).clamp(-1.0, 1.0);
        s.asin().to_degrees().clamp(-max, max)
    };
    (turn(mean.x - rest[0], MAX_YAW_DEGREES), turn(mean.y - rest[1], MAX_PITCH_DEGREES))
}

/// The eye bone's rotation in MMD's axes for `(yaw, pitch)` degrees. The model faces −Z with
/// its left at +X: turning the gaze toward +X is a negative turn about Y, raising it toward +Y
/// a positive turn about X.
pub fn rotation(yaw: f64, pitch: f64) -> DQuat {
    DQuat::from_rotation_y(-yaw.to_radians()) * DQuat::from_rotation_x(pitch.to_radians())
}
