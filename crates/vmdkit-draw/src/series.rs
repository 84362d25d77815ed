//! Charts of a track's values over time: a bone's translation and panel angles, a morph's
//! weight, the camera's target, distance, angles and field of view. Several motions' tracks
//! overlay, told apart by dash patterns.

use crate::plot::{Chart, Panel, Series};
use crate::style::{CHANNELS, INK};
use vmdkit::angles::quat_to_mmd_euler_deg;
use vmdkit::eval::{BoneTrack, CameraTrack, MorphTrack};

/// Dash patterns of the first, second... motion on one chart.
const DASHES: [&[f32]; 4] = [&[], &[7.0, 4.0], &[2.0, 3.0], &[9.0, 3.0, 2.0, 3.0]];
/// At most this many samples a curve, however long the range.
const MAX_SAMPLES: u64 = 2048;

/// The frames a chart covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleRange {
    /// First frame.
    pub from: f64,
    /// Last frame (not before `from`).
    pub to: f64,
}

impl SampleRange {
    /// The sample times: every frame, or evenly spread when there are more than 2048.
    fn times(self) -> Vec<f64> {
        let span = (self.to - self.from).max(0.0);
        let n = (span.ceil() as u64).clamp(1, MAX_SAMPLES);
        (0..=n).map(|i| self.from + span * i as f64 / n as f64).collect()
    }

    fn contains(self, frame: f64) -> bool {
        (self.from..=self.to).contains(&frame)
    }
}

/// One panel's title and channel names.
struct PanelSpec<'a> {
    title: &'a str,
    channels: &'a [&'a str],
}

/// Builds panels from a per-motion sampler returning every channel's value at a time and
/// per-motion keys (frame, every channel's value).
fn build(
    title: String,
    labels: &[String],
    specs: &[PanelSpec],
    range: SampleRange,
    sample: impl Fn(usize, f64) -> Vec<f64>,
    keys: impl Fn(usize) -> Vec<(f64, Vec<f64>)>,
) -> Chart {
    let times = range.times();
    let mut panels: Vec<Panel> =
        specs.iter().map(|s| Panel { title: s.title.to_string(), series: Vec::new() }).collect();
    for (m, label) in labels.iter().enumerate() {
        let samples: Vec<Vec<f64>> = times.iter().map(|&t| sample(m, t)).collect();
        let keyed: Vec<(f64, Vec<f64>)> =
            keys(m).into_iter().filter(|(f, _)| range.contains(*f)).collect();
        let mut channel = 0;
        for (panel, spec) in panels.iter_mut().zip(specs) {
            for (c, name) in spec.channels.iter().enumerate() {
                panel.series.push(Series {
                    label: format!("{label} {name}"),
                    // A lone channel (weight, distance) is not the X of the legend.
                    colour: if spec.channels.len() == 1 {
                        CHANNELS[3]
                    } else {
                        CHANNELS[c % CHANNELS.len()]
                    },
                    dash: DASHES[m % DASHES.len()].to_vec(),
                    points: times.iter().zip(&samples).map(|(&t, v)| (t, v[channel])).collect(),
                    keys: keyed.iter().map(|(f, v)| (*f, v[channel])).collect(),
                });
                channel += 1;
            }
        }
    }
    let mut legend = Vec::new();
    let widest = specs.iter().map(|s| s.channels).max_by_key(|c| c.len()).unwrap_or(&[]);
    if widest.len() > 1 {
        for (c, name) in widest.iter().enumerate() {
            legend.push((name.to_string(), CHANNELS[c % CHANNELS.len()], Vec::new()));
        }
    }
    for (m, label) in labels.iter().enumerate() {
        legend.push((label.clone(), INK, DASHES[m % DASHES.len()].to_vec()));
    }
    Chart { title, panels, legend }
}

/// A bone's translation (MMD units) and MMD panel angles (degrees) in each motion
/// (`labels[i]` names `tracks[i]`).
pub fn bone_panels(
    name: &str,
    labels: &[String],
    tracks: &[&BoneTrack],
    range: SampleRange,
) -> Chart {
    let values = |s: vmdkit::eval::BoneSample| {
        let (t, r) = (s.translation, quat_to_mmd_euler_deg(s.rotation));
        vec![t.x, t.y, t.z, r.x, r.y, r.z].into_iter().map(f64::from).collect()
    };
    let specs = [
        PanelSpec { title: "translation (MMD units)", channels: &["X", "Y", "Z"] },
        PanelSpec { title: "rotation (MMD panel degrees)", channels: &["X", "Y", "Z"] },
    ];
    build(
        format!("bone {name}"),
        labels,
        &specs,
        range,
        |m, t| values(tracks[m].sample(t)),
        |m| {
            (0..tracks[m].len())
                .map(|i| (f64::from(tracks[m].frames()[i]), values(tracks[m].key(i))))
                .collect()
        },
    )
}

/// A morph's weight in each motion.
pub fn morph_panels(
    name: &str,
    labels: &[String],
    tracks: &[&MorphTrack],
    range: SampleRange,
) -> Chart {
    let specs = [PanelSpec { title: "weight", channels: &["weight"] }];
    build(
        format!("morph {name}"),
        labels,
        &specs,
        range,
        |m, t| vec![f64::from(tracks[m].sample(t))],
        |m| {
            let t = tracks[m];
            t.frames()
                .iter()
                .zip(t.weights())
                .map(|(&f, &w)| (f64::from(f), vec![f64::from(w)]))
                .collect()
        },
    )
}

/// The camera's target, distance, angles (degrees, as stored) and field of view in each motion.
pub fn camera_panels(labels: &[String], tracks: &[&CameraTrack], range: SampleRange) -> Chart {
    let values = |s: vmdkit::eval::CameraSample| {
        let r = s.rotation * (180.0 / std::f32::consts::PI);
        [s.target.x, s.target.y, s.target.z, s.distance, r.x, r.y, r.z, s.fov]
            .into_iter()
            .map(f64::from)
            .collect()
    };
    let specs = [
        PanelSpec { title: "target (MMD units)", channels: &["X", "Y", "Z"] },
        PanelSpec { title: "distance", channels: &["distance"] },
        PanelSpec { title: "rotation (degrees as stored)", channels: &["X", "Y", "Z"] },
        PanelSpec { title: "field of view (degrees)", channels: &["fov"] },
    ];
    build(
        "camera".to_string(),
        labels,
        &specs,
        range,
        |m, t| values(tracks[m].sample(t)),
        |m| {
            let t = tracks[m];
            t.frames().iter().enumerate().map(|(i, &f)| (f64::from(f), values(t.key(i)))).collect()
        },
    )
}
