//! `--physics` and its settings, for every command that plays a motion on a model: the rigid
//! bodies (hair, skirts, accessories) simulated as MMD does, baked into the motion first.

use crate::error::usage;
use vmdkit::physics::PhysicsSettings;

/// The smallest and largest simulation step accepted, seconds: below, a long dance would take
/// hours; above, hair explodes (MMD's players step at 1/60 to 1/120).
const STEP_RANGE: (f32, f32) = (1.0 / 2000.0, 1.0 / 20.0);
/// The longest settling accepted, seconds: it is simulated before frame 0 on every reset.
const MAX_SETTLE: f32 = 60.0;

/// `--physics`, `--physics-step`, `--physics-settle` and `--physics-reset`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PhysicsArgs {
    /// Simulate the model's rigid bodies and joints (hair, skirts, accessories) as MMD does,
    /// from frame 0, and play the bones they move
    #[arg(long)]
    pub physics: bool,
    /// With --physics: the simulation's fixed step, seconds [default: 1/120]
    #[arg(long, value_name = "S", requires = "physics", value_parser = parse_seconds)]
    pub physics_step: Option<f32>,
    /// With --physics: seconds the bodies settle on the first frame's pose before frame 0
    /// [default: 1]
    #[arg(long, value_name = "S", requires = "physics", value_parser = parse_seconds)]
    pub physics_settle: Option<f32>,
    /// With --physics: a jump of the model's root (全ての親, else センター) by more than this
    /// many units between two frames is a cut: the bodies are put back on their bones and
    /// settled again; "off" never [default: 10]
    #[arg(long, value_name = "D", requires = "physics", value_parser = parse_reset)]
    pub physics_reset: Option<Reset>,
}

/// `--physics-reset`: a distance, or never.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reset {
    /// Reset when the root moves further than this between two frames.
    Beyond(f32),
    /// Never reset.
    Off,
}

impl PhysicsArgs {
    /// The simulation's settings when `--physics` is given, else `None`.
    pub fn settings(&self) -> anyhow::Result<Option<PhysicsSettings>> {
        if !self.physics {
            return Ok(None);
        }
        let mut settings = PhysicsSettings::default();
        if let Some(step) = self.physics_step {
            if !(STEP_RANGE.0..=STEP_RANGE.1).contains(&step) {
                return Err(usage(format!(
                    "--physics-step must be between {} and {} seconds (1/2000 and 1/20), not {step}",
                    STEP_RANGE.0, STEP_RANGE.1
                )));
            }
            settings.step = step;
        }
        if let Some(settle) = self.physics_settle {
            if settle > MAX_SETTLE {
                return Err(usage(format!(
                    "--physics-settle must be at most {MAX_SETTLE} seconds, not {settle}"
                )));
            }
            settings.settle_seconds = settle;
        }
        match self.physics_reset {
            Some(Reset::Beyond(d)) => settings.reset_distance = Some(d),
            Some(Reset::Off) => settings.reset_distance = None,
            None => {}
        }
        Ok(Some(settings))
    }

    /// The flags given, for a command to refuse where they do nothing.
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.physics, "--physics"),
            (self.physics_step.is_some(), "--physics-step"),
            (self.physics_settle.is_some(), "--physics-settle"),
            (self.physics_reset.is_some(), "--physics-reset"),
        ]
        .into_iter()
        .find_map(|(on, flag)| on.then_some(flag))
    }
}

/// A number of seconds: finite and not negative.
fn parse_seconds(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds (0 or more)")),
    }
}

/// A distance in model units (positive), or "off".
fn parse_reset(text: &str) -> Result<Reset, String> {
    if text.eq_ignore_ascii_case("off") {
        return Ok(Reset::Off);
    }
    match text.parse::<f32>() {
        Ok(d) if d.is_finite() && d > 0.0 => Ok(Reset::Beyond(d)),
        _ => Err(format!("{text:?} is not a positive distance in model units, nor off")),
    }
}
