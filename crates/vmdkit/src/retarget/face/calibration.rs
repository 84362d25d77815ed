//! The neutral face a clip's expressions are measured from: each measure's median over the clip
//! (or over its first frames, when told), so that a face that is mostly at rest defines rest.
//! A single photo or a clip too short to hold a resting face cannot define its own rest: it is
//! measured from [`Calibration::DEFAULT`] instead.

use super::features::Features;
use glam::DVec2;
use serde::Serialize;

/// Fewer frames with a face than this (one second at 30 fps) use the population defaults.
pub const MIN_CLIP_FRAMES: usize = 30;

/// A neutral face's measures, in [`Features`]' units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Calibration {
    /// Open eyes' aspect ratio, subject's right then left.
    pub eye_aspect: [f64; 2],
    /// The resting lips' gap.
    pub mouth_gap: f64,
    /// The resting mouth's width.
    pub mouth_width: f64,
    /// The resting corners' lift.
    pub corner_lift: f64,
    /// The resting brows' height (mean of both sides).
    pub brow_height: f64,
    /// The resting inner brow's height over the middle's (mean of both sides).
    pub brow_inner: f64,
    /// The irises' resting position (mean of both eyes), when the mesh has irises.
    pub iris: [f64; 2],
}

impl Calibration {
    /// Population defaults: the medians of the MediaPipe 0.10.21 face mesh over the 195 frames
    /// of MediaPipe's `test_video.mp4` (a woman facing the camera, neutral throughout), rounded.
    /// That clip is calibrated on itself when retargeted, and none of the photos whose answers
    /// the tests check shows her, so no test measures a face against its own rest. The eye
    /// ratio agrees with Soukupová and Čech (2016, "Real-Time Eye Blink Detection using Facial
    /// Landmarks"): about 0.3 open, with blinks under 0.2.
    pub const DEFAULT: Calibration = Calibration {
        eye_aspect: [0.30, 0.30],
        mouth_gap: 0.004,
        mouth_width: 0.578,
        corner_lift: -0.016,
        brow_height: 0.27,
        brow_inner: -0.033,
        iris: [0.0, 0.08],
    };

    /// Defaults for iBUG's 68 points, measured the same way ([`Calibration::DEFAULT`]'s clip,
    /// its MediaPipe meshes brought to the 68 points): that face frame's up axis runs from the
    /// chin to the nose bridge, not to the forehead, so the brows and the mouth corners sit at
    /// other heights along it.
    pub const DEFAULT_68: Calibration = Calibration {
        corner_lift: -0.030,
        brow_height: 0.28,
        brow_inner: -0.023,
        ..Calibration::DEFAULT
    };

    /// The population defaults for landmarks of `mesh`.
    pub fn defaults(mesh: crate::keypoints::FaceMesh) -> Calibration {
        match mesh {
            crate::keypoints::FaceMesh::Ibug68 => Calibration::DEFAULT_68,
            _ => Calibration::DEFAULT,
        }
    }

    /// The median of each measure over `frames` (the frames with a face).
    pub fn median(frames: &[Features]) -> Calibration {
        let m = |f: &dyn Fn(&Features) -> f64| median(frames.iter().map(f).collect());
        let irises: Vec<[DVec2; 2]> = frames.iter().filter_map(|f| f.iris).collect();
        let iris = if irises.is_empty() {
            Calibration::DEFAULT.iris
        } else {
            [
                median(irises.iter().map(|i| (i[0].x + i[1].x) / 2.0).collect()),
                median(irises.iter().map(|i| (i[0].y + i[1].y) / 2.0).collect()),
            ]
        };
        Calibration {
            eye_aspect: [m(&|f| f.eye_aspect[0]), m(&|f| f.eye_aspect[1])],
            mouth_gap: m(&|f| f.mouth_gap),
            mouth_width: m(&|f| f.mouth_width),
            corner_lift: m(&|f| f.corner_lift),
            brow_height: m(&|f| (f.brow_height[0] + f.brow_height[1]) / 2.0),
            brow_inner: m(&|f| (f.brow_inner[0] + f.brow_inner[1]) / 2.0),
            iris,
        }
    }
}

/// How the neutral face was found, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[non_exhaustive]
pub enum CalibrationSource {
    /// Medians over every frame with a face.
    Clip {
        /// Frames measured.
        frames: usize,
    },
    /// Medians over the clip's first frames, as asked.
    FirstFrames {
        /// Frames measured (those of the first ones that had a face).
        frames: usize,
    },
    /// The population defaults ([`Calibration::defaults`]): too few frames to calibrate on.
    Defaults {
        /// Frames with a face.
        frames: usize,
    },
}

/// The calibration for a clip's `features` (per frame, `None` without a face): medians over the
/// first `first` frames when given, else over the whole clip, else `defaults`.
pub fn calibrate(
    features: &[Option<Features>],
    first: Option<usize>,
    defaults: Calibration,
) -> (Calibration, CalibrationSource) {
    match first {
        Some(n) => {
            let some: Vec<Features> = features.iter().take(n).flatten().copied().collect();
            if some.is_empty() {
                (defaults, CalibrationSource::Defaults { frames: 0 })
            } else {
                (Calibration::median(&some), CalibrationSource::FirstFrames { frames: some.len() })
            }
        }
        None => {
            let some: Vec<Features> = features.iter().flatten().copied().collect();
            if some.len() < MIN_CLIP_FRAMES {
                (defaults, CalibrationSource::Defaults { frames: some.len() })
            } else {
                (Calibration::median(&some), CalibrationSource::Clip { frames: some.len() })
            }
        }
    }
}

/// The median of `v`, 0 when empty.
fn median(mut v: Vec<f64>) -> f64 {
    crate::retarget::scale::median(&mut v).unwrap_or(0.0)
}
