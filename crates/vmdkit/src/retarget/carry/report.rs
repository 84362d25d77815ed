//! [`CarryReport`]: what carrying a motion's tracks over to another model kept, changed and
//! dropped, track by track, and how well the fingers follow the source.

use serde::Serialize;

/// What became of one bone track of the source motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum BoneFate {
    /// The body fit keys this bone on the target.
    Solved,
    /// The bone moves the source's body joints, and the target has no key of its own for it:
    /// its motion is in the solved bones (a twist bone between two solved ones, a parent of
    /// the trunk, a leg IK bone when the legs are keyed directly).
    SolvedThrough,
    /// Copied as local keys, with their curves (fingers re-expressed where their rest axes
    /// differ, see [`FingerReport`]).
    Copied,
    /// The target has no bone of this name, but its rotation is kept: it is folded into the next
    /// bone of its finger, which the target has (親指０ into 親指１ on a model without 親指０).
    Folded,
    /// Dropped: the target model has no bone of this name.
    MissingOnTarget,
    /// Dropped: the source model has no bone of this name, so the motion's author never saw
    /// these keys play.
    MissingOnSource,
    /// Dropped: on the target the bone moves bones the body fit solves (it sits between them
    /// or drives them), so a key of its own would move the solved body.
    MovesSolvedBones,
}

impl BoneFate {
    /// True for the tracks whose motion is in the output: solved, copied or folded.
    pub fn kept(self) -> bool {
        matches!(
            self,
            BoneFate::Solved | BoneFate::SolvedThrough | BoneFate::Copied | BoneFate::Folded
        )
    }

    /// A few words for a summary.
    pub fn label(self) -> &'static str {
        match self {
            BoneFate::Solved => "solved",
            BoneFate::SolvedThrough => "solved through the body",
            BoneFate::Copied => "copied",
            BoneFate::Folded => "folded into the next finger bone",
            BoneFate::MissingOnTarget => "bone missing on the target",
            BoneFate::MissingOnSource => "bone missing on the source model",
            BoneFate::MovesSolvedBones => "moves solved bones on the target",
        }
    }
}

/// One bone track of the source motion.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoneTrack {
    /// The bone's name as the motion stores it.
    pub name: String,
    /// Keys the source holds for it.
    pub keys: usize,
    /// What became of it.
    pub fate: BoneFate,
}

/// How a morph track found its morph on the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MorphMatch {
    /// The same name.
    Exact,
    /// The same name once widths and kana are folded (`ｳｨﾝｸ２右` = `ウィンク２右`).
    Folded,
    /// One of MMD's usual alternative names (`まばたき` = `瞬き`).
    Variant,
    /// The source model's morph of this name and the target's share an English name.
    English,
}

/// One morph track of the source motion.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MorphTrack {
    /// The morph's name as the motion stores it.
    pub name: String,
    /// Keys the source holds for it.
    pub keys: usize,
    /// The target's morph it was written to, `None` when dropped.
    pub target: Option<String>,
    /// How it was found, `None` when dropped.
    pub matched: Option<MorphMatch>,
}

/// How one hand's fingers were carried over and how well they follow the source.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FingerReport {
    /// `left` or `right`.
    pub side: &'static str,
    /// Finger bones both models have on this hand.
    pub bones: usize,
    /// Largest angle between a finger bone's rest direction on the two models (head to the
    /// next joint, model axes), degrees; local axes where both models have them count too.
    pub rest_disagreement_degrees: f64,
    /// Whether that is within [`FINGER_AXES_TOLERANCE_DEGREES`].
    pub axes_agree: bool,
    /// `solved` (the body fit's fingers, solved from the source model's finger joints),
    /// `copied` (local rotations as they are) or `re-expressed` (turned so that each finger
    /// segment keeps its direction relative to the hand): whichever measures closest.
    pub method: &'static str,
    /// Finger segment direction error with the solved fingers, mean degrees, when the fit
    /// solved this hand's fingers (as for `copied_mean_degrees`).
    pub solved_mean_degrees: Option<f64>,
    /// See `solved_mean_degrees`.
    pub solved_max_degrees: Option<f64>,
    /// Finger segment direction error on the target against the source's FK, world axes,
    /// degrees, mean and largest over the frames measured: with local rotations copied.
    pub copied_mean_degrees: f64,
    /// See `copied_mean_degrees`.
    pub copied_max_degrees: f64,
    /// The same with the rotations re-expressed.
    pub reexpressed_mean_degrees: f64,
    /// See `reexpressed_mean_degrees`.
    pub reexpressed_max_degrees: f64,
    /// The hand's own direction error (wrist to the middle finger's base), mean degrees: what
    /// the body fit leaves, under every finger's error.
    pub hand_mean_degrees: f64,
    /// Frames measured.
    pub frames: usize,
}

/// The rest directions of two models' finger bones that differ by at most this are taken
/// to agree, degrees.
pub const FINGER_AXES_TOLERANCE_DEGREES: f64 = 5.0;

/// What [`carry_over`](super::carry_over) kept, changed and dropped.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CarryReport {
    /// Every bone track of the source, in the motion's order of first appearance.
    pub bone_tracks: Vec<BoneTrack>,
    /// Every morph track of the source.
    pub morph_tracks: Vec<MorphTrack>,
    /// Per hand with fingers on both models.
    pub fingers: Vec<FingerReport>,
    /// Target model units per source model unit: what translation keys of copied bones were
    /// multiplied by.
    pub size_ratio: f64,
    /// Copied keys with a translation, so scaled.
    pub scaled_translations: usize,
    /// Camera, light and self-shadow keys kept as they are.
    pub camera_keys: usize,
    /// See `camera_keys`.
    pub light_keys: usize,
    /// See `camera_keys`.
    pub shadow_keys: usize,
    /// IK bones whose on/off keys came from the source.
    pub ik_switches_kept: Vec<String>,
}

impl CarryReport {
    /// Bone tracks with this fate.
    pub fn count(&self, fate: BoneFate) -> usize {
        self.bone_tracks.iter().filter(|t| t.fate == fate).count()
    }

    /// Bone tracks kept in the output, solved or copied.
    pub fn kept_bones(&self) -> usize {
        self.bone_tracks.iter().filter(|t| t.fate.kept()).count()
    }

    /// Morph tracks written to the target.
    pub fn kept_morphs(&self) -> usize {
        self.morph_tracks.iter().filter(|t| t.target.is_some()).count()
    }
}
