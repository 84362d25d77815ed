//! `vmdkit retarget MOTION --source-model MODEL`: the motion played on the model it was made
//! for and read off as every joint vmdkit can place, retargeted like keypoints; then every
//! other track it holds (fingers, eyes, hair, accessories, IK switches, morphs, camera, light,
//! self-shadow) carried over by `vmdkit::retarget::carry_over`, and accounted for in the
//! summary.

use super::{Args, Input, SmoothArg, Sourced};
use crate::input::{self, read_model};
use crate::shared::retarget::explain;
use serde::Serialize;
use std::path::Path;
use vmdkit::keypoints::{JointLayout, LayoutJoint};
use vmdkit::model::Model;
use vmdkit::retarget::{
    carry_over, size_ratio, BoneFate, CarryInputs, CarryReport, KeypointOptions, RetargetReport,
    Retargeted,
};
use vmdkit::roles::Role;
use vmdkit::Motion;

/// What the carrying-over needs beyond the fit: the source motion and its model.
pub(super) struct Carry {
    motion: Motion,
    model: Model,
    keypoints: KeypointOptions,
}

impl Carry {
    /// `out` with the source's other tracks added to its motion; what was kept and dropped.
    pub(super) fn carry(&self, out: &mut Retargeted, target: &Model) -> CarryReport {
        let carried = carry_over(&CarryInputs {
            source: &self.motion,
            source_model: &self.model,
            target_model: target,
            solved: &out.motion,
            size_ratio: size_ratio(&out.report, &self.keypoints),
        });
        out.motion = carried.motion;
        carried.report
    }
}

/// `--json` for a motion: the fit's report with what was carried over beside it.
#[derive(Serialize)]
pub(super) struct JsonReport<'a> {
    #[serde(flatten)]
    pub fit: &'a RetargetReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried: Option<&'a CarryReport>,
}

/// A layout of every role the retargeting knows, one joint each: what a motion played on a
/// model gives, so nothing the source skeleton can place is thrown away.
fn every_role() -> JointLayout {
    let joints = Role::ALL
        .iter()
        .map(|&role| LayoutJoint { name: role.name().to_string(), role: Some(role) })
        .collect();
    JointLayout { name: "every joint".to_string(), joints, synthetic: Vec::new(), face: None }
}

pub(super) fn from_motion(args: &Args, source: &Path) -> anyhow::Result<Input> {
    if !args.layout.eq_ignore_ascii_case("auto") {
        return Err(crate::error::usage(
            "--layout is for keypoints; a motion is read off as every joint vmdkit can place",
        ));
    }
    let model = read_model(source)?;
    let loaded = input::load_motion(&args.input, args.lenient, input::NO_TRAILING)?;
    let layout = every_role();
    let options =
        KeypointOptions { max_output_bytes: args.limit.bytes(), ..KeypointOptions::default() };
    let keypoints = crate::shared::eval::pose_keypoints(&loaded.motion, &model, &layout, &options)
        .map_err(|e| explain(e, &loaded.label, &source.display().to_string(), &layout))?;
    Ok(Input {
        keypoints,
        layout,
        layout_from: "played on the source model",
        fps: Sourced { value: options.fps, from: "played" },
        units: Some(options.units),
        axes: options.axes,
        source: Some(source.display().to_string()),
        smooth: SmoothArg::Normal,
        carry: Some(Carry { motion: loaded.motion, model, keypoints: options }),
    })
}

/// Names, at most a few, then how many more.
fn some(names: &[&str]) -> String {
    const SHOWN: usize = 8;
    let mut s = names.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ");
    if names.len() > SHOWN {
        s += &format!(" and {} more", names.len() - SHOWN);
    }
    s
}

/// The lines the summary adds for what was carried over.
pub(super) fn summary(r: &CarryReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let n = |f| r.count(f);
    let _ = writeln!(
        s,
        "bone tracks: {} of the source's {} kept: {} solved, {} solved through the body, {} \
         copied",
        r.kept_bones(),
        r.bone_tracks.len(),
        n(BoneFate::Solved),
        n(BoneFate::SolvedThrough),
        n(BoneFate::Copied)
    );
    let folded: Vec<&str> = (r.bone_tracks.iter())
        .filter(|t| t.fate == BoneFate::Folded)
        .map(|t| t.name.as_str())
        .collect();
    if !folded.is_empty() {
        let _ = writeln!(s, "  {} {}: {}", folded.len(), BoneFate::Folded.label(), some(&folded));
    }
    for fate in [BoneFate::MissingOnTarget, BoneFate::MissingOnSource, BoneFate::MovesSolvedBones] {
        let names: Vec<&str> =
            r.bone_tracks.iter().filter(|t| t.fate == fate).map(|t| t.name.as_str()).collect();
        if !names.is_empty() {
            let _ = writeln!(s, "  dropped {} ({}): {}", names.len(), fate.label(), some(&names));
        }
    }
    let dropped: Vec<&str> =
        r.morph_tracks.iter().filter(|t| t.target.is_none()).map(|t| t.name.as_str()).collect();
    let _ = writeln!(s, "morph tracks: {} of {} kept", r.kept_morphs(), r.morph_tracks.len());
    for t in r.morph_tracks.iter().filter(|t| t.target.as_deref().is_some_and(|n| n != t.name)) {
        let _ = writeln!(s, "  {} written as {}", t.name, t.target.as_deref().unwrap_or(""));
    }
    if !dropped.is_empty() {
        let _ = writeln!(
            s,
            "  dropped {} (no such morph on the target): {}",
            dropped.len(),
            dropped.join(", ")
        );
    }
    for f in &r.fingers {
        let (mean, max) = match f.method {
            "solved" => (f.solved_mean_degrees.unwrap_or(0.0), f.solved_max_degrees.unwrap_or(0.0)),
            "copied" => (f.copied_mean_degrees, f.copied_max_degrees),
            _ => (f.reexpressed_mean_degrees, f.reexpressed_max_degrees),
        };
        let solved = f.solved_mean_degrees.map_or(String::new(), |s| format!("solved {s:.2}°, "));
        let _ = writeln!(
            s,
            "{} fingers: {} ({} bones, rest directions {} within {:.1}°): direction error {:.2}° \
             mean, {:.2}° max ({solved}copied {:.2}°, re-expressed {:.2}°; the hand itself {:.2}°)",
            f.side,
            f.method,
            f.bones,
            if f.axes_agree { "agree" } else { "differ" },
            f.rest_disagreement_degrees,
            mean,
            max,
            f.copied_mean_degrees,
            f.reexpressed_mean_degrees,
            f.hand_mean_degrees
        );
    }
    let _ = writeln!(
        s,
        "size: copied translations ×{:.4} ({} keys); camera {}, light {}, self-shadow {} keys kept",
        r.size_ratio, r.scaled_translations, r.camera_keys, r.light_keys, r.shadow_keys
    );
    s
}
