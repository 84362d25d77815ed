//! [`RetargetReport`]: what a retargeting did and how well the motion it wrote fits its input,
//! measured by playing that motion back through the full evaluator (IK, appends) — not by
//! trusting the solver's own chain. Its thinned tracks' values at each frame are those the
//! thinning's verification played from the written keys with the library's sampler (the same
//! values a sampler built anew would give), so the keys are not sampled twice.

use super::conditioning::ConditioningNotes;
use super::feet::Floor;
use super::fingers::{self, FingerReport};
use super::handedness::HandednessCheck;
use super::inverse::{for_each_role_positions, role_positions};
use super::options::KeyMode;
use super::parts::Parts;
use super::rig::KeyedRig;
use super::scale::{Scale, SEGMENTS};
use super::solve::Observed;
use super::RetargetOptions;
use crate::eval::MotionSampler;
use crate::format::Motion;
use crate::keypoints::JointLayout;
use crate::roles::Role;
use crate::skeleton::Skeleton;
use glam::DVec3;
use serde::Serialize;

/// One layout joint's distance from its input position, after the motion is played back.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointResidual {
    /// The layout's name for the joint.
    pub joint: String,
    /// Its role.
    pub role: Role,
    /// Root mean square over the frames where the input has it, model units.
    pub rms: f64,
    /// Largest, model units.
    pub max: f64,
}

/// The angle between an input segment and the same segment of the played-back motion.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SegmentError {
    /// The segment's first role.
    pub from: Role,
    /// Its second role.
    pub to: Role,
    /// Mean over frames, degrees.
    pub mean_degrees: f64,
    /// Largest, degrees.
    pub max_degrees: f64,
}

/// What [`retarget`](super::retarget) did and measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetargetReport {
    /// The layout's name.
    pub layout: String,
    /// Output frames (30 fps).
    pub frames: usize,
    /// Whether the body was solved (false for hands or a face alone: the body is not keyed).
    pub body: bool,
    /// The fingers, where the layout has hands and the model fingers.
    pub fingers: Option<FingerReport>,
    /// Bones keyed.
    pub bones: Vec<String>,
    /// Keys written (bone keys).
    pub keys: usize,
    /// Keys before thinning.
    pub dense_keys: usize,
    /// Model units per input unit.
    pub scale: f64,
    /// Model units per metre, when the input's units are known.
    pub units_per_metre: Option<f64>,
    /// Segments the scale rests on, and the spread of their ratios ((max − min) / median).
    pub scale_segments: usize,
    /// See `scale_segments`.
    pub scale_spread: f64,
    /// The input's floor, model units, before it was moved to the model's (0 when kept).
    pub floor: f64,
    /// Frames raised so that no foot went below the floor.
    pub raised_frames: usize,
    /// Foot-frames held still for contact.
    pub contact_frames: usize,
    /// Deepest foot point below the floor in the output, model units.
    pub penetration: f64,
    /// Whether leg IK is keyed (true) or switched off.
    pub ik: bool,
    /// What conditioning repaired.
    pub conditioning: ConditioningNotes,
    /// Whether the input looked mirrored (wrong handedness), and whether it was corrected.
    pub handedness: HandednessCheck,
    /// Per layout joint with a role, its residual.
    pub residuals: Vec<JointResidual>,
    /// Mean of the joint residuals' RMS, model units: the self-consistency error.
    pub mean_residual: f64,
    /// Per segment (limbs, hips, shoulders, trunk), the direction error.
    pub directions: Vec<SegmentError>,
    /// Mean over segments of the mean direction error, degrees.
    pub mean_direction_degrees: f64,
    /// Jitter: mean length of the second difference of the played-back joints, model units per
    /// frame².
    pub jitter: f64,
    /// The input's jitter, measured the same way on the conditioned input.
    pub input_jitter: f64,
    /// With thinned keys: the largest distance between a joint of the thinned motion and of the
    /// dense one, over all frames and joints, model units.
    pub thinning_error: Option<f64>,
    /// The face's morphs, gaze and head, when the layout carries a face.
    pub face: Option<super::face::FaceReport>,
}

/// What [`measure`] reads.
pub(crate) struct Inputs<'a> {
    pub rig: &'a KeyedRig,
    pub skeleton: &'a Skeleton,
    pub layout: &'a JointLayout,
    /// Observations as solved, with the floor and origin moves applied.
    pub observed: &'a [Observed],
    /// How many keys the dense motion has.
    pub dense_keys: usize,
    /// The sampler of the dense keys.
    pub dense_sampler: &'a MotionSampler,
    pub motion: &'a Motion,
    /// How `motion` plays at its integer frames: the frames measured here.
    pub played: &'a MotionSampler,
    pub scale: Scale,
    pub floor: Floor,
    pub options: &'a RetargetOptions,
    pub conditioning: ConditioningNotes,
    pub handedness: HandednessCheck,
    pub parts: Parts,
    /// The fingers' counts from the solve, when hands were solved.
    pub fingers: Option<FingerReport>,
}

const TRUNK: [(Role, Role); 3] =
    [(Role::Pelvis, Role::Thorax), (Role::Thorax, Role::HeadTop), (Role::Thorax, Role::Nose)];

pub(crate) fn measure(inputs: Inputs<'_>) -> RetargetReport {
    let Inputs {
        rig,
        skeleton,
        layout,
        observed,
        dense_keys,
        dense_sampler,
        motion,
        played,
        scale,
        floor,
        options,
        ..
    } = inputs;
    let times: Vec<f64> = (0..observed.len()).map(|f| f as f64).collect();
    let roles: Vec<(String, Role)> =
        (layout.joints.iter()).filter_map(|j| Some((j.name.clone(), j.role?))).collect();
    // The hands' points are read (and their bones posed) only where something measures them:
    // the fingers' report, or hand roles of the layout.
    let hands = inputs.fingers.is_some()
        || roles.iter().any(|(_, r)| r.hand_part().is_some())
        || layout.synthetic.iter().any(|p| p.role.hand_part().is_some());
    let played = role_positions(rig, skeleton, played, &times, hands);
    let residuals: Vec<JointResidual> = roles
        .iter()
        .filter(|(_, role)| rig.anchor(*role).is_some())
        .filter_map(|(name, role)| {
            let d: Vec<f64> = (observed.iter().zip(&played))
                .filter(|(o, _)| o[*role as usize].1 > 0.0)
                .map(|(o, p)| (o[*role as usize].0 - p[*role as usize].0).length())
                .collect();
            (!d.is_empty()).then(|| JointResidual {
                joint: name.clone(),
                role: *role,
                rms: (d.iter().map(|x| x * x).sum::<f64>() / d.len() as f64).sqrt(),
                max: d.iter().copied().fold(0.0, f64::max),
            })
        })
        .collect();
    let directions: Vec<SegmentError> = (SEGMENTS.iter().chain(&TRUNK))
        .filter_map(|&(a, b)| segment_error(observed, &played, a, b))
        .collect();
    let thinning_error = match options.keys {
        KeyMode::Dense => None,
        KeyMode::Thinned(_) => {
            let mut worst = 0.0f64;
            for_each_role_positions(rig, skeleton, dense_sampler, &times, hands, |f, a| {
                let b = &played[f];
                for (_, r) in roles.iter().filter(|(_, r)| a[*r as usize].1 > 0.0) {
                    worst = worst.max((a[*r as usize].0 - b[*r as usize].0).length());
                }
            });
            Some(worst)
        }
    };
    let role_list: Vec<Role> = roles.iter().map(|r| r.1).collect();
    let fingers = inputs.fingers.map(|mut f| {
        fingers::measure(observed, &played, &mut f);
        f
    });
    let mut bones: Vec<String> = Vec::new();
    if inputs.parts.body {
        bones.extend(rig.bones.iter().map(|b| skeleton.bone_name(b.skel).to_string()));
    }
    if fingers.is_some() {
        for (side, _) in crate::roles::Side::BOTH.iter().zip(inputs.parts.hands).filter(|s| s.1) {
            let names = rig.fingers.bones(*side).into_iter().map(|b| skeleton.bone_name(b));
            bones.extend(names.map(str::to_string));
        }
    }
    let mean = |v: &mut dyn Iterator<Item = f64>| {
        let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
        if n == 0 {
            0.0
        } else {
            s / n as f64
        }
    };
    RetargetReport {
        face: None,
        layout: layout.name.clone(),
        frames: observed.len(),
        body: inputs.parts.body,
        fingers,
        bones,
        keys: motion.bones.len(),
        dense_keys,
        scale: scale.factor,
        units_per_metre: options.units.map(|u| scale.factor / u.metres()),
        scale_segments: scale.segments,
        scale_spread: scale.spread,
        floor: floor.height,
        raised_frames: floor.raised_frames,
        contact_frames: floor.contact_frames,
        penetration: floor.penetration,
        ik: options.ik,
        conditioning: inputs.conditioning,
        handedness: inputs.handedness,
        mean_residual: mean(&mut residuals.iter().map(|r| r.rms)),
        residuals,
        mean_direction_degrees: mean(&mut directions.iter().map(|d| d.mean_degrees)),
        directions,
        jitter: jitter(&played, observed, &role_list),
        input_jitter: jitter(observed, observed, &role_list),
        thinning_error,
    }
}

fn segment_error(
    observed: &[Observed],
    played: &[Observed],
    a: Role,
    b: Role,
) -> Option<SegmentError> {
    let angles: Vec<f64> = (observed.iter().zip(played))
        .filter(|(o, p)| {
            o[a as usize].1 > 0.0
                && o[b as usize].1 > 0.0
                && p[a as usize].1 > 0.0
                && p[b as usize].1 > 0.0
        })
        .filter_map(|(o, p)| {
            let u = o[b as usize].0 - o[a as usize].0;
            let v = p[b as usize].0 - p[a as usize].0;
            angle_degrees(u, v)
        })
        .collect();
    if angles.is_empty() {
        return None;
    }
    Some(SegmentError {
        from: a,
        to: b,
        mean_degrees: angles.iter().sum::<f64>() / angles.len() as f64,
        max_degrees: angles.iter().copied().fold(0.0, f64::max),
    })
}

/// The angle between two directions, degrees, by atan2 (exact near 0° too).
pub(crate) fn angle_degrees(u: DVec3, v: DVec3) -> Option<f64> {
    if u.length_squared() < 1e-18 || v.length_squared() < 1e-18 {
        return None;
    }
    Some(u.cross(v).length().atan2(u.dot(v)).to_degrees())
}

/// Mean second difference of `frames`' joints, counting a joint only over three frames where
/// the input (`mask`) has it, so that output and input are measured on the same samples.
fn jitter(frames: &[Observed], mask: &[Observed], roles: &[Role]) -> f64 {
    let mut sum = 0.0;
    let mut n = 0usize;
    for (w, m) in frames.windows(3).zip(mask.windows(3)) {
        for &r in roles {
            let i = r as usize;
            if m.iter().all(|f| f[i].1 > 0.0) && w.iter().all(|f| f[i].1 > 0.0) {
                sum += (w[2][i].0 - 2.0 * w[1][i].0 + w[0][i].0).length();
                n += 1;
            }
        }
    }
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}
