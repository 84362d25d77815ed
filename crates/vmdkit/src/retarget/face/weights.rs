//! One frame's measures, against the neutral face, as morph weights in 0–1. Each rule names
//! the span it maps onto 0–1; the spans are stated relative to the neutral measure so that a
//! calibrated clip and the population defaults read the same way.

use super::calibration::Calibration;
use super::features::Features;
use super::roles::MorphRole;

/// The eye aspect ratio, as a fraction of the neutral one, at which an eye starts closing…
pub const CLOSING_START: f64 = 0.73;
/// …and at which it counts as shut. With the default 0.30 these are 0.22 and 0.12, around
/// Soukupová and Čech's blink threshold of 0.2.
pub const CLOSED: f64 = 0.40;
/// The lip gap, over the eye-corner span, of a wide-open mouth (あ at 1).
pub const GAP_FULL: f64 = 0.35;
/// Lip gaps this far above the neutral one still count as closed (lips that barely part).
pub const GAP_DEAD: f64 = 0.02;

/// Per role, the weight one frame asks for; the eyes' closure before hysteresis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameWeights {
    /// Each eye's closure (subject's right, left), 0 open to 1 shut, before hysteresis.
    pub closure: [f64; 2],
    /// Every other role's weight, by [`MorphRole::ALL`]'s order (the blink roles are 0 here).
    pub roles: [f64; MorphRole::ALL.len()],
}

fn ramp(x: f64, from: f64, to: f64) -> f64 {
    ((x - from) / (to - from)).clamp(0.0, 1.0)
}

/// The weights for `f` measured against `neutral`.
pub fn weights(f: &Features, neutral: &Calibration) -> FrameWeights {
    let mut out = FrameWeights::default();
    let mut squint = 0.0;
    for k in 0..2 {
        let open = neutral.eye_aspect[k].max(1e-6);
        out.closure[k] = ramp(f.eye_aspect[k], CLOSING_START * open, CLOSED * open);
        squint += ramp(f.eye_aspect[k], open, (1.0 - CLOSED) * open) / 2.0;
    }
    // Mouth opening, and how much of it a smile explains: a smile that parts the lips pulls the
    // corners up to the upper lip; a dropped jaw leaves them halfway.
    let open = ramp(f.mouth_gap, neutral.mouth_gap + GAP_DEAD, GAP_FULL);
    let smile_open = ramp(f.corner_position, 0.65, 0.9);
    let wide = f.mouth_width / neutral.mouth_width.max(1e-6);
    let spread = ramp(wide, 1.05, 1.35);
    let lift = ramp(f.corner_lift - neutral.corner_lift, 0.0, 0.08);
    let smile = (spread + lift) / 2.0;
    // Rounded lips are narrower than at rest; a fifth narrower is the start, two fifths full.
    let round = ramp(wide, 0.8, 0.6);
    let half_open = (1.0 - (open - 0.4).abs() / 0.4).max(0.0);
    let set = |out: &mut FrameWeights, r: MorphRole, w: f64| out.roles[r as usize] = w;
    set(&mut out, MorphRole::A, open * (1.0 - smile_open) * (1.0 - round));
    set(&mut out, MorphRole::I, open * smile_open * (1.0 - round));
    set(&mut out, MorphRole::E, 0.5 * half_open * spread * (1.0 - smile_open));
    set(&mut out, MorphRole::U, round * (1.0 - open));
    set(&mut out, MorphRole::O, round * open);
    set(&mut out, MorphRole::MouthSmile, smile);
    set(&mut out, MorphRole::SmileEyes, squint * smile);
    // Brows: heights over the eye-corner span, from a twentieth of the resting height (the
    // spread of resting brows between people) to a fifth of it.
    let brow = (f.brow_height[0] + f.brow_height[1]) / 2.0;
    let rest = neutral.brow_height.abs().max(0.1);
    let (dead, full) = (0.05 * rest, 0.2 * rest);
    set(&mut out, MorphRole::BrowUp, ramp(brow - neutral.brow_height, dead, full));
    set(&mut out, MorphRole::BrowDown, ramp(neutral.brow_height - brow, dead, full));
    // The inner ends: 困る is their own rise (MediaPipe's browInnerUp), not their height over
    // the middles, which a smile's lowered brows raise too; 怒り is the inner ends pulled down
    // below the middles (the frown's V) while they drop.
    let inner = (f.brow_inner[0] + f.brow_inner[1]) / 2.0 - neutral.brow_inner;
    let inner_rise = brow - neutral.brow_height + inner;
    set(&mut out, MorphRole::BrowSad, ramp(inner_rise, dead, full));
    set(&mut out, MorphRole::BrowAngry, ramp(-inner, 0.01, 0.05) * ramp(-inner_rise, 0.0, dead));
    out
}

/// Blink hysteresis: an eye shuts when its closure reaches [`SHUT_AT`] and opens again only
/// below [`OPEN_AT`]; while shut it is held fully closed, so a blink is not a flicker of
/// half-closures, and a lid that wavers around one threshold does not blink on and off.
pub const SHUT_AT: f64 = 0.6;
/// See [`SHUT_AT`].
pub const OPEN_AT: f64 = 0.35;

/// Per frame, the eye's weight after hysteresis, from its closures in order.
pub fn hysteresis(closure: &[f64]) -> Vec<f64> {
    let mut shut = false;
    closure
        .iter()
        .map(|&c| {
            shut = if shut { c >= OPEN_AT } else { c >= SHUT_AT };
            if shut {
                1.0
            } else {
                c.min(SHUT_AT)
            }
        })
        .collect()
}
