//! The head's turn from the face's rigid frame: the cheeks (or jaw ends) give its left axis,
//! chin to forehead (or nose bridge) its up axis. Expressions barely move these points, so the
//! frame turns with the skull alone. At rest the face looks at the camera: its left along +X,
//! up along +Y, facing −Z in MMD's axes, which is the model's own rest.

use glam::{DMat3, DQuat, DVec3};

/// Of the head's turn, the part 首 takes; 頭 takes the rest on top of it.
pub const NECK_SHARE: f64 = 0.4;

/// The face's rotation from rest, from its points in MMD's axes: `left` minus `right` cheek
/// and `top` minus `chin`. `None` when the points are degenerate.
pub fn rotation(right: DVec3, left: DVec3, top: DVec3, chin: DVec3) -> Option<DQuat> {
    let x = (left - right).try_normalize()?;
    let back = x.cross(top - chin).try_normalize()?;
    let y = back.cross(x);
    Some(DQuat::from_mat3(&DMat3::from_cols(x, y, back)).normalize())
}

/// The turn split between 首 and 頭: `(neck, head)` local rotations whose product is `turn`.
pub fn split(turn: DQuat) -> (DQuat, DQuat) {
    let neck = DQuat::IDENTITY.slerp(turn, NECK_SHARE);
    (neck, (neck.inverse() * turn).normalize())
}
