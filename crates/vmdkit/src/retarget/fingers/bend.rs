//! A finger's bend plane and bend axis, as its points show them: shared by the rig, which
//! works out each finger's axis at rest once, and the solve, which finds it in every frame.

use glam::DVec3;

/// Below this size of the fingers' bend (the sine of the angle), the bend plane gives way to
/// the palm's: 15°.
const PLANE_CONFIDENT: f64 = 0.2588;

/// The sum of the bends' normals from segment `first` on (`d₀ × d₁` is the bend axis times the
/// sine of the bend).
pub(super) fn plane(dir: &[Option<DVec3>; 3], first: usize) -> DVec3 {
    (first..2).filter_map(|k| Some(dir[k]?.cross(dir[k + 1]?))).fold(DVec3::ZERO, |a, b| a + b)
}

/// The bend axis of a finger pointing along `along`: its bend plane's normal `plane` (on the
/// side of `guess`) where the finger clearly bends, blending into `guess` as it straightens;
/// perpendicular to `along`.
pub(super) fn bend_axis(guess: DVec3, plane: DVec3, along: DVec3) -> DVec3 {
    let plane = if plane.dot(guess) < 0.0 { -plane } else { plane };
    let w = smoothstep(plane.length() / PLANE_CONFIDENT);
    let v = guess * (1.0 - w) + plane.normalize_or_zero() * w;
    (v - along * v.dot(along)).normalize_or(guess)
}

fn smoothstep(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}
