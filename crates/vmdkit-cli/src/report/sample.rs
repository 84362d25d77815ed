//! What a motion says at one time, as printed by `vmdkit sample --json`: one bone, one morph,
//! or a [`SampleDoc`] with any of the other tracks.

use serde::ser::{Serialize, SerializeMap, Serializer};
use vmdkit::eval::{
    BoneSample, CameraSample, LightSample, MotionSample, ShadowSample, TrackLabels,
};

/// One bone at one time.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoneDoc<'a> {
    /// The time, in frames.
    pub frame: f64,
    /// The bone's name as asked for.
    pub bone: &'a str,
    /// The offset from the rest position.
    pub translation: [f32; 3],
    /// The quaternion (x, y, z, w).
    pub rotation: [f32; 4],
}

impl<'a> BoneDoc<'a> {
    /// The document for bone `bone` sampled at `frame`.
    pub fn new(frame: f64, bone: &'a str, s: &BoneSample) -> Self {
        let BoneValue { translation, rotation } = BoneValue::from(s);
        BoneDoc { frame, bone, translation, rotation }
    }
}

/// One morph at one time.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MorphDoc<'a> {
    /// The time, in frames.
    pub frame: f64,
    /// The morph's name as asked for.
    pub morph: &'a str,
    /// The weight.
    pub weight: f32,
}

/// A bone's value within a [`SampleDoc`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct BoneValue {
    /// The offset from the rest position.
    pub translation: [f32; 3],
    /// The quaternion (x, y, z, w).
    pub rotation: [f32; 4],
}

impl From<&BoneSample> for BoneValue {
    fn from(s: &BoneSample) -> Self {
        BoneValue { translation: s.translation.to_array(), rotation: s.rotation.to_array() }
    }
}

/// The camera at one time, with the view it gives.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CameraDoc {
    /// The point the camera looks at.
    pub target: [f32; 3],
    /// The distance from the target.
    pub distance: f32,
    /// Radians, as stored.
    pub rotation: [f32; 3],
    /// The view angle in degrees.
    pub fov: f32,
    /// Perspective, or orthographic.
    pub perspective: bool,
    /// The eye position.
    pub eye: [f32; 3],
    /// The unit viewing direction.
    pub forward: [f32; 3],
    /// The unit up direction.
    pub up: [f32; 3],
}

impl From<CameraSample> for CameraDoc {
    fn from(c: CameraSample) -> Self {
        let v = c.view();
        CameraDoc {
            target: c.target.to_array(),
            distance: c.distance,
            rotation: c.rotation.to_array(),
            fov: c.fov,
            perspective: c.perspective,
            eye: v.eye.to_array(),
            forward: v.forward.to_array(),
            up: v.up.to_array(),
        }
    }
}

/// The light at one time.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LightDoc {
    /// The colour (MMD's 0-255 panel value / 256).
    pub color: [f32; 3],
    /// The direction.
    pub direction: [f32; 3],
}

impl From<LightSample> for LightDoc {
    fn from(l: LightSample) -> Self {
        LightDoc { color: l.color.to_array(), direction: l.direction.to_array() }
    }
}

/// The self-shadow at one time.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ShadowDoc {
    /// 0 off, 1 or 2 the shadow mode.
    pub mode: u8,
    /// The distance as stored.
    pub distance: f32,
}

impl From<ShadowSample> for ShadowDoc {
    fn from(s: ShadowSample) -> Self {
        ShadowDoc { mode: s.mode, distance: s.distance }
    }
}

/// Several tracks at one time. A member that is `None` is left out; a present member may be
/// `null` (`Some(None)`): the motion has no keys for that track.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SampleDoc<'a> {
    /// The time, in frames.
    pub frame: f64,
    /// Every bone, by label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bones: Option<Named<'a, BoneValue>>,
    /// Every morph's weight, by label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub morphs: Option<Named<'a, f32>>,
    /// The camera.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub camera: Option<Option<CameraDoc>>,
    /// The light.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub light: Option<Option<LightDoc>>,
    /// The self-shadow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_shadow: Option<Option<ShadowDoc>>,
    /// The model's visibility.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible: Option<Option<bool>>,
    /// Every IK switch, by label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ik: Option<Named<'a, bool>>,
}

impl<'a> SampleDoc<'a> {
    /// Every track of `sample`, taken at `frame`, labelled by `labels` (from the same sampler).
    pub fn of_sample(frame: f64, labels: &'a TrackLabels, sample: &MotionSample) -> Self {
        SampleDoc {
            frame,
            bones: Some(Named::zip(&labels.bones, sample.bones.iter().map(BoneValue::from))),
            morphs: Some(Named::zip(&labels.morphs, sample.morphs.iter().copied())),
            camera: Some(sample.camera.map(CameraDoc::from)),
            light: Some(sample.light.map(LightDoc::from)),
            self_shadow: Some(sample.shadow.map(ShadowDoc::from)),
            visible: Some(sample.visible),
            ik: Some(Named::zip(&labels.ik, sample.ik.iter().copied())),
        }
    }
}

/// A JSON object keyed by name, in track order (the order names first appear in the file),
/// which a map type would not keep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Named<'a, T>(pub Vec<(&'a str, T)>);

impl<'a, T> Named<'a, T> {
    /// Pairs each label with a value, in order.
    pub fn zip(labels: &'a [String], values: impl IntoIterator<Item = T>) -> Self {
        Named(labels.iter().map(String::as_str).zip(values).collect())
    }
}

impl<T: Serialize> Serialize for Named<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
