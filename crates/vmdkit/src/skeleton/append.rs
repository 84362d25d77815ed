//! Append (付与) and fixed axes (reference §9.2), babylon-mmd's rules where the players differ.
//!
//! A bone with append rotation r from source s turns by `keyed · slerp(identity, S, r)`, where S
//! is the source's rotation:
//!
//! * **not local**: the source's full local rotation before IK, i.e. its keyed rotation and, when
//!   the source itself appends, its appended part too (chained append, §12 row 17: BM's "full
//!   rotation"; saba chains the appended part only), then pre-multiplied by the source's IK
//!   rotation when some chain moves the source (BM, SB);
//! * **local** (flag 0x0080): the source's world rotation (§12 row 16: BM; saba uses the
//!   local rotation, three.js ignores the flag).
//!
//! The reference gives no recommendation for rows 16 and 17; both follow babylon-mmd, the
//! implementation §10.2 recommends as the reference for this part of MMD. Negative ratios turn
//! the other way: slerp(identity, S, −r) = slerp(identity, S⁻¹, r) (MMDAgent's rule). The
//! slerp takes the short way (S and −S are the same rotation).
//!
//! Append translation adds `r × T` to the bone's offset, T being the source's keyed offset
//! plus its morph offset (§12 row 18: BM and MMDAgent, the reference's recommendation; saba uses
//! the morph only), or its own appended offset when the source appends translation too; with
//! the local flag, the source's world position minus its rest position (BM).
//!
//! An append whose source deforms later in the order reads the source's value as it stands:
//! its keyed value, before its own append and IK (the pose starts each frame from that).
//!
//! **Fixed axis** (0x0400): the keyed rotation, as axis and angle, becomes the same angle about
//! the fixed axis, negated when the keyed axis points away from it (BM's run-time rule; MMD
//! rewrites the keys on loading, saba and three.js ignore the axis). Only keys are projected:
//! morphs, append and IK act on top.

use super::bones::AppendRef;
use glam::{Quat, Vec3};

/// `slerp(identity, q, ratio)` along the short way, for any ratio (negative ones turn the other
/// way, ratios past 1 extrapolate), computed as an angle scale about q's axis.
#[inline]
pub(crate) fn scale_rotation(q: Quat, ratio: f32) -> Quat {
    if ratio == 1.0 {
        return q;
    }
    let q = if q.w < 0.0 { -q } else { q };
    let v = Vec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-12 || ratio == 0.0 {
        return Quat::IDENTITY;
    }
    let half = s.atan2(q.w) * ratio;
    let (sin, cos) = half.sin_cos();
    let v = v * (sin / s);
    Quat::from_xyzw(v.x, v.y, v.z, cos)
}

/// The keyed rotation `q` turned into a rotation about `axis` (unit, or zero for "no rotation")
/// by the same angle, signed by the keyed axis' side of the fixed one.
#[inline]
pub(crate) fn project_to_axis(q: Quat, axis: Vec3) -> Quat {
    if axis == Vec3::ZERO {
        return Quat::IDENTITY;
    }
    let v = Vec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s < 1e-12 {
        return Quat::IDENTITY;
    }
    // q as (axis v/s, angle 2·atan2(s, w)); flip the angle if v points away from the axis.
    let half = s.atan2(q.w);
    let half = if v.dot(axis) < 0.0 { -half } else { half };
    let (sin, cos) = half.sin_cos();
    let v = axis * sin;
    Quat::from_xyzw(v.x, v.y, v.z, cos)
}

/// The per-bone state append reads: see [`crate::skeleton::Pose`].
pub(crate) struct Sources<'a> {
    /// Local rotation before IK, after the bone's own append.
    pub full_rotation: &'a [Quat],
    pub full_offset: &'a [Vec3],
    pub ik_rotation: &'a [Quat],
    pub world_rotation: &'a [Quat],
    pub world_position: &'a [Vec3],
}

/// Applies `append` to a bone's local rotation and offset.
#[inline]
pub(crate) fn apply(
    append: &AppendRef,
    source_is_link: bool,
    source_rest: Vec3,
    src: &Sources<'_>,
    rotation: &mut Quat,
    offset: &mut Vec3,
) {
    let s = append.source as usize;
    if append.rotation {
        let from = if append.local {
            src.world_rotation[s]
        } else if source_is_link {
            src.ik_rotation[s] * src.full_rotation[s]
        } else {
            src.full_rotation[s]
        };
        *rotation = (*rotation * scale_rotation(from, append.ratio)).normalize();
    }
    if append.translation {
        let from =
            if append.local { src.world_position[s] - source_rest } else { src.full_offset[s] };
        *offset += from * append.ratio;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::tests::angle;

    #[test]
    fn skeleton_append_scale_matches_slerp_and_inverts_for_negative_ratios() {
        let q = Quat::from_axis_angle(Vec3::new(0.3, 1.0, -0.2).normalize(), 1.2);
        for r in [0.0f32, 0.25, 0.5, 1.0] {
            assert!(angle(scale_rotation(q, r), Quat::IDENTITY.slerp(q, r)) < 1e-5, "r = {r}");
            // −q is the same rotation: the short way gives the same result.
            assert!(angle(scale_rotation(-q, r), Quat::IDENTITY.slerp(q, r)) < 1e-5, "r = {r}");
        }
        assert!(angle(scale_rotation(q, -1.0), q.inverse()) < 1e-6);
        assert!(angle(scale_rotation(q, -0.5), Quat::IDENTITY.slerp(q.inverse(), 0.5)) < 1e-6);
        assert!(angle(scale_rotation(q, 2.0), q * q) < 1e-5);
    }

    #[test]
    fn skeleton_fixed_axis_projection_keeps_the_angle_and_its_sign() {
        let axis = Vec3::new(1.0, -1.0, 0.0).normalize();
        let on_axis = Quat::from_axis_angle(axis, 0.8);
        assert!(angle(project_to_axis(on_axis, axis), on_axis) < 1e-6);
        let opposite = Quat::from_axis_angle(-axis, 0.8);
        assert!(angle(project_to_axis(opposite, axis), Quat::from_axis_angle(axis, -0.8)) < 1e-6);
        // A key slightly off the axis keeps its angle, about the axis.
        let off = Quat::from_axis_angle((axis + Vec3::Z * 0.1).normalize(), 0.5);
        assert!(angle(project_to_axis(off, axis), Quat::from_axis_angle(axis, 0.5)) < 1e-6);
        assert_eq!(project_to_axis(on_axis, Vec3::ZERO), Quat::IDENTITY);
    }
}
