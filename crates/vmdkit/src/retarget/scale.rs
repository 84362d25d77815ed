//! Model units per input unit: for each segment the layout and the target both have (thighs,
//! shins, upper arms, forearms, hip and shoulder widths), the target's rest length over the
//! input's median length; then the median over segments. Medians keep frame-to-frame length
//! noise (8–21 % on real estimator output) and a few wrong frames from moving it.

use super::options::ScaleMode;
use super::rig::KeyedRig;
use super::solve::Observed;
use super::{RetargetError, RetargetOptions};
use crate::roles::Role;

/// The chosen scale and what it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scale {
    /// Model units per input unit.
    pub factor: f64,
    /// Segments measured (0 when fixed).
    pub segments: usize,
    /// Spread of the per-segment ratios: (max − min) / median.
    pub spread: f64,
}

/// The segments measured, as role pairs.
pub(crate) const SEGMENTS: [(Role, Role); 10] = {
    use Role::*;
    [
        (LeftHip, LeftKnee),
        (RightHip, RightKnee),
        (LeftKnee, LeftAnkle),
        (RightKnee, RightAnkle),
        (LeftShoulder, LeftElbow),
        (RightShoulder, RightElbow),
        (LeftElbow, LeftWrist),
        (RightElbow, RightWrist),
        (LeftHip, RightHip),
        (LeftShoulder, RightShoulder),
    ]
};

pub(crate) fn estimate(
    rig: &KeyedRig,
    frames: &[Observed],
    options: &RetargetOptions,
) -> Result<Scale, RetargetError> {
    if let Some(fixed) = fixed(options) {
        return Ok(fixed);
    }
    let mut ratios = Vec::new();
    let mut lengths = Vec::with_capacity(frames.len());
    for (a, b) in SEGMENTS {
        let (Some(ra), Some(rb)) = (rig.anchor(a), rig.anchor(b)) else { continue };
        let target = (ra.rest - rb.rest).length();
        lengths.clear();
        lengths.extend(frames.iter().filter_map(|f| {
            let (pa, wa) = f[a as usize];
            let (pb, wb) = f[b as usize];
            (wa > 0.0 && wb > 0.0).then(|| (pa - pb).length()).filter(|l| *l > 0.0)
        }));
        if let Some(input) = median(&mut lengths) {
            ratios.push(target / input);
        }
    }
    from_ratios(ratios)
}

/// The scale the options fix, if they fix one.
pub(crate) fn fixed(options: &RetargetOptions) -> Option<Scale> {
    match options.scale {
        ScaleMode::Fixed(factor) => Some(Scale { factor, segments: 0, spread: 0.0 }),
        _ => None,
    }
}

/// The scale from per-measure ratios (the model's length over the input's median): their
/// median, with their spread relative to it.
pub(crate) fn from_ratios(mut ratios: Vec<f64>) -> Result<Scale, RetargetError> {
    let segments = ratios.len();
    let factor = median(&mut ratios).ok_or(RetargetError::Empty)?;
    let spread = (ratios.last().unwrap() - ratios[0]) / factor;
    Ok(Scale { factor, segments, spread })
}

/// The median (mean of the middle two for even lengths); sorts `values`.
pub(crate) fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 })
}
