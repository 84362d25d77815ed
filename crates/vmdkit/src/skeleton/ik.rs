//! CCD IK (reference §10.1, §10.2), babylon-mmd's variant by default, three.js/saba's "plain"
//! clamp on request ([`IkVariant`]).
//!
//! Per solve: every link's IK rotation is reset to the identity (§10.1 "Reset"); if the effector
//! is already within 1e-4 of the goal nothing moves. Then `loop_count` iterations (capped at
//! 256, as BM), each visiting the links effector side first. One link step:
//!
//! 1. unit vectors from the link to the effector and to the goal (world); their cross product
//!    is the axis, brought into the parent's frame. A link whose vectors are closer than
//!    |cross|² < 1e-8 is skipped this time (BM).
//! 2. The angle between them, limited to `limit_angle × (link index + 1)` ([`IkVariant::Mmd`],
//!    BM and MMD as mmd-anim-runtime traces it; §12 row 14) or `limit_angle` ([`IkVariant::Plain`]).
//!    A non-positive or non-finite limit angle means no limit.
//! 3. The rotation is pre-multiplied onto the link's IK rotation in the parent frame.
//! 4. Links with angle limits: the link's whole local rotation (IK × keyed × append) is split
//!    into Euler angles in an order picked from the ranges (YXZ if the X range lies within
//!    ±90°, else ZYX if Y does, else XZY), the middle angle capped at ±88°, each angle limited,
//!    and the rotation rebuilt. In the first half of the iterations ([`IkVariant::Mmd`]) an angle
//!    past a bound is reflected back (2·bound − angle) when that lands in range, and a link
//!    limited to one axis (the knee rule: 左ひざ is X-only, −180°…−0.5°, §9.3) turns about
//!    that axis only, its sign taken from the world axis. Links whose limits are all zero never
//!    move (BM). BM splits `keyed × IK` instead of `IK × keyed`; the two agree whenever the
//!    link has no keyed rotation (the usual knee) and the latter is the rotation the bone gets.
//! 5. The bones from the link down to the effector are recomputed.
//!
//! The loop stops early when the effector is within 1e-4 of the goal (BM: distance² < 1e-8), or
//! when no link moved in a whole iteration (every later one would skip them all again: the
//! same result, sooner).
//! After the solve, every bone already deformed that the links move (descendants, and bones
//! that append from them) is recomputed.

use super::bones::SkelBone;
use super::notes::SkeletonNote;
use crate::model::Ik;
use crate::text::UnknownName;
use glam::{Mat3, Quat, Vec3};
use std::str::FromStr;

/// Which CCD step to take (reference §10.2, §12 rows 14–15).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IkVariant {
    /// babylon-mmd's solver, the reference's recommendation: the per-link clamp grows with the
    /// link's index, single-axis links snap to their axis and out-of-range angles reflect during
    /// the first half of the iterations.
    #[default]
    Mmd,
    /// The plain CCD clamp of three.js, saba and MMDAgent: every link limited to the IK's limit
    /// angle, no axis snapping, angles past a bound clamped.
    Plain,
}

impl IkVariant {
    /// The names [`IkVariant::from_str`] reads, in any case.
    pub const NAMES: &'static [&'static str] = &["mmd", "plain"];
}

impl FromStr for IkVariant {
    type Err = UnknownName;

    /// `mmd` or `plain`, in any case.
    fn from_str(text: &str) -> Result<Self, UnknownName> {
        match text.to_ascii_lowercase().as_str() {
            "mmd" => Ok(IkVariant::Mmd),
            "plain" => Ok(IkVariant::Plain),
            _ => Err(UnknownName::new(text, Self::NAMES)),
        }
    }
}

/// Iteration cap, as BM.
const MAX_ITERATIONS: u32 = 256;
/// Converged when the squared distance is below this (BM).
const CONVERGED: f32 = 1e-8;
/// Link skipped when |cross|² is below this (BM).
const ALIGNED: f32 = 1e-8;
/// BM's ±88° cap on the middle Euler angle.
const MIDDLE_CAP: f32 = 88.0 * std::f32::consts::PI / 180.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EulerOrder {
    Yxz,
    Zyx,
    Xzy,
}

/// How a limited link may turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SolveAxis {
    Free,
    /// All limits zero: the link never moves.
    Frozen,
    X,
    Y,
    Z,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Limits {
    min: Vec3,
    max: Vec3,
    order: EulerOrder,
    axis: SolveAxis,
}

impl Limits {
    fn new(a: Vec3, b: Vec3) -> Limits {
        let (min, max) = (a.min(b), a.max(b));
        let half_pi = std::f32::consts::FRAC_PI_2;
        let order = if -half_pi < min.x && max.x < half_pi {
            EulerOrder::Yxz
        } else if -half_pi < min.y && max.y < half_pi {
            EulerOrder::Zyx
        } else {
            EulerOrder::Xzy
        };
        let zero = |v: f32, w: f32| v == 0.0 && w == 0.0;
        let (zx, zy, zz) = (zero(min.x, max.x), zero(min.y, max.y), zero(min.z, max.z));
        let axis = match (zx, zy, zz) {
            (true, true, true) => SolveAxis::Frozen,
            (false, true, true) => SolveAxis::X,
            (true, false, true) => SolveAxis::Y,
            (true, true, false) => SolveAxis::Z,
            _ => SolveAxis::Free,
        };
        Limits { min, max, order, axis }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct IkLinkDef {
    pub bone: u32,
    limits: Option<Limits>,
    /// Where the link sits in [`IkChain::path`], if it is an ancestor of the effector.
    path_start: Option<u32>,
}

/// One IK bone's chain, precomputed.
#[derive(Clone, Debug)]
pub(crate) struct IkChain {
    pub ik_bone: u32,
    pub target: u32,
    iterations: u32,
    limit_angle: f32,
    pub links: Vec<IkLinkDef>,
    /// The effector's ancestry from the top-most link down to the effector, parents first: what
    /// a link step must recompute to move the effector.
    path: Vec<u32>,
    /// Bones deformed before the solve that the links move, in deform order.
    pub refresh: Vec<u32>,
}

impl IkChain {
    pub(crate) fn new(
        ik_bone: usize,
        ik: &Ik,
        parents: &[Option<u32>],
        notes: &mut Vec<SkeletonNote>,
    ) -> IkChain {
        let mut links = Vec::with_capacity(ik.links.len());
        for link in &ik.links {
            if link.bone == ik_bone || link.bone == ik.target {
                notes.push(SkeletonNote::IkLinkSkipped { ik_bone, link: link.bone });
                continue;
            }
            links.push(IkLinkDef {
                bone: link.bone as u32,
                limits: link.limits.map(|(a, b)| Limits::new(a, b)),
                path_start: None,
            });
        }
        // Ancestry of the effector, effector first; cut after the top-most link found on it.
        let mut ancestry = vec![ik.target as u32];
        let mut b = ik.target;
        while let Some(p) = parents[b] {
            ancestry.push(p);
            b = p as usize;
        }
        let top = ancestry.iter().rposition(|a| links.iter().any(|l| l.bone == *a)).unwrap_or(0);
        ancestry.truncate(top + 1);
        ancestry.reverse();
        for link in &mut links {
            link.path_start = ancestry.iter().position(|&a| a == link.bone).map(|p| p as u32);
        }
        IkChain {
            ik_bone: ik_bone as u32,
            target: ik.target as u32,
            iterations: ik.loop_count.clamp(0, MAX_ITERATIONS as i32) as u32,
            limit_angle: ik.limit_angle,
            links,
            path: ancestry,
            refresh: Vec::new(),
        }
    }

    /// The bones among `order[..end]` that this chain's links move: the links, their
    /// descendants, and bones appending from any of those; the IK bone itself excluded (its
    /// position is the goal).
    pub(crate) fn refresh_list(&self, bones: &[SkelBone], order: &[u32], end: usize) -> Vec<u32> {
        let mut moved = vec![false; bones.len()];
        let mut list = Vec::new();
        for &b in &order[..end] {
            let bone = &bones[b as usize];
            let hit = self.links.iter().any(|l| l.bone == b)
                || bone.parent.is_some_and(|p| moved[p as usize])
                || bone.append.is_some_and(|a| moved[a.source as usize]);
            if hit {
                moved[b as usize] = true;
                if b != self.ik_bone {
                    list.push(b);
                }
            }
        }
        list
    }
}

/// What the solver needs from the pose: bone state and a way to recompute one bone.
pub(crate) trait ChainState {
    fn world_position(&self, bone: u32) -> Vec3;
    fn world_rotation(&self, bone: u32) -> Quat;
    /// The bone's local rotation before IK (keyed, morph, fixed axis and append applied).
    fn pre_ik_rotation(&self, bone: u32) -> Quat;
    fn ik_rotation_mut(&mut self, bone: u32) -> &mut Quat;
    /// Recomputes the bone's local and world transform from its parent.
    fn update(&mut self, bone: u32);
}

/// Solves `chain` in place.
pub(crate) fn solve(
    chain: &IkChain,
    bones: &[SkelBone],
    variant: IkVariant,
    st: &mut impl ChainState,
) {
    reset(chain, st);
    let goal = st.world_position(chain.ik_bone);
    if goal.distance_squared(st.world_position(chain.target)) >= CONVERGED {
        iterate(chain, bones, variant, goal, st);
    }
    for &b in &chain.refresh {
        st.update(b);
    }
}

/// Every link's IK rotation back to the identity, and the bones it moves recomputed.
#[inline]
fn reset(chain: &IkChain, st: &mut impl ChainState) {
    for link in &chain.links {
        *st.ik_rotation_mut(link.bone) = Quat::IDENTITY;
    }
    // Another chain may have turned a shared link (足首 is つま先ＩＫ's link and 足ＩＫ's
    // effector): start from the reset state.
    for link in &chain.links {
        if link.path_start.is_none() {
            st.update(link.bone);
        }
    }
    for &b in &chain.path {
        st.update(b);
    }
}

/// The CCD iterations towards `goal`, until converged, stuck or out of iterations.
#[inline]
fn iterate(
    chain: &IkChain,
    bones: &[SkelBone],
    variant: IkVariant,
    goal: Vec3,
    st: &mut impl ChainState,
) {
    let mut effector = st.world_position(chain.target);
    let half = chain.iterations / 2;
    for iteration in 0..chain.iterations {
        let first_half = variant == IkVariant::Mmd && iteration < half;
        let mut moved = false;
        for (index, link) in chain.links.iter().enumerate() {
            if link.limits.is_some_and(|l| l.axis == SolveAxis::Frozen) {
                continue;
            }
            let limit = match variant {
                IkVariant::Mmd => chain.limit_angle * (index + 1) as f32,
                IkVariant::Plain => chain.limit_angle,
            };
            if !step(link, bones, goal, effector, limit, first_half, st) {
                continue;
            }
            moved = true;
            match link.path_start {
                Some(start) => {
                    for &b in &chain.path[start as usize..] {
                        st.update(b);
                    }
                }
                None => st.update(link.bone),
            }
            effector = st.world_position(chain.target);
        }
        // Converged; or no link moved, so every later iteration would skip them all again
        // (whether a link is skipped does not depend on the iteration): stopping here gives
        // the same pose, sooner.
        if !moved || goal.distance_squared(effector) < CONVERGED {
            break;
        }
    }
}

/// One CCD step on one link; false when the link did not move.
fn step(
    link: &IkLinkDef,
    bones: &[SkelBone],
    goal: Vec3,
    effector: Vec3,
    limit: f32,
    first_half: bool,
    st: &mut impl ChainState,
) -> bool {
    let at = st.world_position(link.bone);
    let to_effector = (at - effector).normalize_or_zero();
    let to_goal = (at - goal).normalize_or_zero();
    let cross = to_effector.cross(to_goal);
    let sin = cross.length();
    if sin * sin < ALIGNED {
        return false;
    }
    let parent = bones[link.bone as usize].parent.map_or(Quat::IDENTITY, |p| st.world_rotation(p));
    let snap = |unit: Vec3| {
        // The sign from the world axis against the parent's axis, as BM.
        if cross.dot(parent * unit) >= 0.0 {
            unit
        } else {
            -unit
        }
    };
    let axis = match link.limits.map(|l| l.axis) {
        Some(SolveAxis::X) if first_half => snap(Vec3::X),
        Some(SolveAxis::Y) if first_half => snap(Vec3::Y),
        Some(SolveAxis::Z) if first_half => snap(Vec3::Z),
        _ => (parent.inverse() * cross).normalize_or_zero(),
    };
    if axis == Vec3::ZERO {
        return false;
    }
    // atan2 keeps small angles accurate where acos(dot) would not.
    let mut angle = sin.atan2(to_effector.dot(to_goal));
    if limit.is_finite() && limit > 0.0 {
        angle = angle.min(limit);
    }
    let ik = st.ik_rotation_mut(link.bone);
    *ik = (Quat::from_axis_angle(axis, angle) * *ik).normalize();
    if let Some(limits) = link.limits {
        let pre = st.pre_ik_rotation(link.bone);
        let ik = st.ik_rotation_mut(link.bone);
        let limited = limit_rotation(*ik * pre, &limits, first_half);
        *ik = (limited * pre.inverse()).normalize();
    }
    true
}

/// `angle` brought within [min, max]: reflected back when `reflect` and that lands in range,
/// else clamped.
fn limit_angle(angle: f32, min: f32, max: f32, reflect: bool) -> f32 {
    if angle < min {
        let r = 2.0 * min - angle;
        if reflect && r <= max {
            r
        } else {
            min
        }
    } else if angle > max {
        let r = 2.0 * max - angle;
        if reflect && r >= min {
            r
        } else {
            max
        }
    } else {
        angle
    }
}

/// The rotation `q` with its Euler angles (in the limits' order) brought within the limits.
fn limit_rotation(q: Quat, limits: &Limits, reflect: bool) -> Quat {
    let angles = limits.order.angles(&Mat3::from_quat(q));
    let (lo, hi) = (limits.min, limits.max);
    limits.order.rotation(Vec3::new(
        limit_angle(angles.x, lo.x, hi.x, reflect),
        limit_angle(angles.y, lo.y, hi.y, reflect),
        limit_angle(angles.z, lo.z, hi.z, reflect),
    ))
}

impl EulerOrder {
    /// The angles about X, Y and Z of the rotation `m` split in this order, the middle one
    /// capped at ±88° as BM caps it.
    #[inline]
    fn angles(self, m: &Mat3) -> Vec3 {
        let cap = |a: f32| a.clamp(-MIDDLE_CAP, MIDDLE_CAP);
        match self {
            EulerOrder::Yxz => {
                // R = Ry·Rx·Rz: z axis = (sy·cx, −sx, cy·cx); x.y = cx·sz, y.y = cx·cz.
                let x = cap((-m.z_axis.y).clamp(-1.0, 1.0).asin());
                Vec3::new(x, m.z_axis.x.atan2(m.z_axis.z), m.x_axis.y.atan2(m.y_axis.y))
            }
            EulerOrder::Zyx => {
                // R = Rz·Ry·Rx: x axis = (cz·cy, sz·cy, −sy); y.z = cy·sx, z.z = cy·cx.
                let y = cap((-m.x_axis.z).clamp(-1.0, 1.0).asin());
                Vec3::new(m.y_axis.z.atan2(m.z_axis.z), y, m.x_axis.y.atan2(m.x_axis.x))
            }
            EulerOrder::Xzy => {
                // R = Rx·Rz·Ry: y axis = (−sz, cx·cz, sx·cz); z.x = cz·sy, x.x = cz·cy.
                let z = cap((-m.y_axis.x).clamp(-1.0, 1.0).asin());
                Vec3::new(m.y_axis.z.atan2(m.y_axis.y), m.z_axis.x.atan2(m.x_axis.x), z)
            }
        }
    }

    /// The rotation with angles `a` (about X, Y, Z) composed in this order.
    #[inline]
    fn rotation(self, a: Vec3) -> Quat {
        let (x, y, z) =
            (Quat::from_rotation_x(a.x), Quat::from_rotation_y(a.y), Quat::from_rotation_z(a.z));
        match self {
            EulerOrder::Yxz => y * x * z,
            EulerOrder::Zyx => z * y * x,
            EulerOrder::Xzy => x * z * y,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::tests::angle;

    #[test]
    fn skeleton_ik_euler_round_trip_in_every_order() {
        let wide = Vec3::splat(3.0);
        for (min, max) in [
            (Vec3::new(-1.0, -3.0, -3.0), Vec3::new(1.0, 3.0, 3.0)), // YXZ
            (Vec3::new(-3.0, -1.0, -3.0), Vec3::new(3.0, 1.0, 3.0)), // ZYX
            (-wide, wide),                                           // XZY
        ] {
            let limits = Limits::new(min, max);
            for q in [
                Quat::from_euler(glam::EulerRot::YXZ, 0.3, -0.4, 0.5),
                Quat::from_rotation_x(0.7),
                Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 1.1),
            ] {
                let back = limit_rotation(q, &limits, false);
                assert!(angle(back, q) < 1e-5, "{:?} {q:?} -> {back:?}", limits.order);
            }
        }
    }

    #[test]
    fn skeleton_ik_knee_limits_clamp_and_reflect() {
        let knee =
            Limits::new(Vec3::new(-std::f32::consts::PI, 0.0, 0.0), Vec3::new(-0.0087, 0.0, 0.0));
        assert_eq!(knee.axis, SolveAxis::X);
        assert_eq!(knee.order, EulerOrder::Zyx);
        // Bent forwards (+X) is out of range: reflected to the back in the first half...
        let forward = Quat::from_rotation_x(0.5);
        let r = limit_rotation(forward, &knee, true);
        assert!(angle(r, Quat::from_rotation_x(2.0 * -0.0087 - 0.5)) < 1e-5);
        // ...and clamped later.
        let c = limit_rotation(forward, &knee, false);
        assert!(angle(c, Quat::from_rotation_x(-0.0087)) < 1e-5);
        // A sideways twist is removed.
        let twisted = Quat::from_rotation_x(-0.8) * Quat::from_rotation_y(0.3);
        let t = limit_rotation(twisted, &knee, false);
        assert!(t.y.abs() < 1e-6 && t.z.abs() < 1e-6, "{t:?}");
        assert_eq!(limit_angle(-4.0, -3.0, 3.0, true), -2.0);
        assert_eq!(limit_angle(4.0, -3.0, 3.0, true), 2.0);
        assert_eq!(limit_angle(10.0, -3.0, 3.0, true), 3.0);
        assert!(Limits::new(Vec3::ZERO, Vec3::ZERO).axis == SolveAxis::Frozen);
    }
}
