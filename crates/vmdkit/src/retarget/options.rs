//! [`RetargetOptions`] and its choices.

use super::axes::InputAxes;
use super::RetargetError;
use crate::edit::{ReduceMethod, Tolerance};
use crate::keypoints::{Smoothing, Units};
use crate::text::UnknownName;
use std::str::FromStr;

/// How keypoint lengths become model units.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ScaleMode {
    /// From the input's segment lengths to the target's (robust over the clip).
    Estimate,
    /// Model units per input unit, as given.
    Fixed(f64),
}

/// Which keys the motion keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum KeyMode {
    /// One key per frame and bone.
    Dense,
    /// Keys thinned by [`edit::reduce`](crate::edit::reduce) to this tolerance; the report
    /// states the joint-position error that leaves.
    Thinned(Tolerance),
}

/// Where the motion stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FloorMode {
    /// The first frame's pelvis above the origin, the floor estimated from foot heights at the
    /// model's floor, no foot below it, feet still while in contact.
    Estimate,
    /// The input's own coordinates, only scaled: for inputs already in the model's space (the
    /// round-trip tests) and for callers that place the motion themselves.
    Keep,
}

impl FloorMode {
    /// The names [`FloorMode::from_str`] reads, in any case.
    pub const NAMES: &'static [&'static str] = &["estimate", "keep"];
}

impl FromStr for FloorMode {
    type Err = UnknownName;

    /// `estimate` or `keep`, in any case.
    fn from_str(text: &str) -> Result<Self, UnknownName> {
        match text.to_ascii_lowercase().as_str() {
            "estimate" => Ok(FloorMode::Estimate),
            "keep" => Ok(FloorMode::Keep),
            _ => Err(UnknownName::new(text, Self::NAMES)),
        }
    }
}

/// Everything [`retarget`](super::retarget) can be told.
#[derive(Clone, Debug, PartialEq)]
pub struct RetargetOptions {
    /// The input's frame rate; the output is 30 fps, resampled by time.
    pub fps: f64,
    /// The input's up axis and handedness.
    pub axes: InputAxes,
    /// The input's units, for the report's metres (the scale itself is estimated unless fixed).
    pub units: Option<Units>,
    /// Model units per input unit.
    pub scale: ScaleMode,
    /// Zero-phase smoothing of the joint positions before solving.
    pub smoothing: Smoothing,
    /// Leg IK: 足ＩＫ/つま先ＩＫ keyed (true), or switched off in the property section (false).
    pub ik: bool,
    /// Dense or thinned keys.
    pub keys: KeyMode,
    /// How thinned keys are chosen: [`ReduceMethod::Fast`] by default (a few percent more keys
    /// than [`ReduceMethod::Fitted`], in a fraction of the time), within the same tolerance.
    pub reduce_method: ReduceMethod,
    /// Placement on the floor.
    pub floor: FloorMode,
    /// Joints at or below this confidence count as missing.
    pub min_confidence: f32,
    /// The model name the motion's header carries.
    pub model_name: String,
    /// Mirror the input back when its anatomy (face, knees, toes) clearly faces the other way
    /// than its left/right labels imply (the sign of a wrong handedness), and turn it upright
    /// when its trunk points down (a wrong up axis). Reported either way.
    pub detect_handedness: bool,
    /// The largest dense motion allowed, in bytes of its VMD bone records: the solve makes a
    /// key per bone at every 30 fps frame before any thinning.
    pub max_output_bytes: u64,
    /// The face: the model's morphs, a morph map, the calibration frames.
    pub face: super::face::FaceOptions,
}

impl Default for RetargetOptions {
    fn default() -> Self {
        RetargetOptions {
            fps: 30.0,
            axes: InputAxes::default(),
            units: None,
            scale: ScaleMode::Estimate,
            smoothing: Smoothing::Normal,
            ik: true,
            keys: KeyMode::Thinned(Tolerance::default()),
            reduce_method: ReduceMethod::Fast,
            floor: FloorMode::Estimate,
            min_confidence: 0.3,
            model_name: String::new(),
            detect_handedness: true,
            max_output_bytes: crate::limit::DEFAULT_MAX_OUTPUT_BYTES,
            face: super::face::FaceOptions::default(),
        }
    }
}

impl RetargetOptions {
    pub(crate) fn validate(&self) -> Result<(), RetargetError> {
        if !(self.fps.is_finite() && self.fps > 0.0 && self.fps <= crate::math::MAX_FPS) {
            return Err(RetargetError::Option(format!(
                "the input frame rate must be above 0 and at most 10000, not {}",
                self.fps
            )));
        }
        if let ScaleMode::Fixed(s) = self.scale {
            if !(s.is_finite() && s > 0.0) {
                return Err(RetargetError::Option(format!("the scale must be above 0, not {s}")));
            }
        }
        Ok(())
    }
}
