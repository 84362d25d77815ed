//! VMD → BVH: a motion played on a model by vmdkit's own evaluator (IK and append transforms
//! included), written as BVH joints named after the model's bones ([`from_motion`]).

use super::{Bvh, Channel, Joint, JointKind};
use crate::eval::MotionSampler;
use crate::limit::{DenseSize, OutputTooLarge, DEFAULT_MAX_OUTPUT_BYTES};
use crate::model::{BoneFlags, Model, Tail};
use crate::skeleton::{Axes, Binding, Pose, PoseOptions, Poser, Skeleton, METRES_PER_UNIT};
use crate::text::UnknownName;
use glam::{DVec3, EulerRot};
use std::str::FromStr;

/// A translation this far (model units) from the rest offset at some frame gives a joint
/// position channels: well above f32 posing noise, well below anything visible.
const MOVES: f64 = 1e-5;

/// The length unit of a written BVH.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BvhUnits {
    /// MMD's own units (about 8 cm).
    #[default]
    Mmd,
    /// Metres, at [`METRES_PER_UNIT`] per MMD unit.
    Metres,
}

/// The order of a joint's rotation channels: `ZXY` writes `Zrotation Xrotation Yrotation`,
/// meaning `Rz · Rx · Ry`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EulerOrder {
    /// X, then Y, then Z.
    Xyz,
    /// X, Z, Y.
    Xzy,
    /// Y, X, Z.
    Yxz,
    /// Y, Z, X.
    Yzx,
    /// Z, X, Y: the most common order in BVH files (and bvh-toolbox's).
    #[default]
    Zxy,
    /// Z, Y, X (CMU's).
    Zyx,
}

impl EulerOrder {
    /// The names [`EulerOrder::from_str`] reads (in any case), one per order, in the order of
    /// the variants.
    pub const NAMES: &'static [&'static str] = &["xyz", "xzy", "yxz", "yzx", "zxy", "zyx"];

    /// `zxy`, `XYZ`…
    pub fn parse(text: &str) -> Option<EulerOrder> {
        Some(match text.to_ascii_lowercase().as_str() {
            "xyz" => EulerOrder::Xyz,
            "xzy" => EulerOrder::Xzy,
            "yxz" => EulerOrder::Yxz,
            "yzx" => EulerOrder::Yzx,
            "zxy" => EulerOrder::Zxy,
            "zyx" => EulerOrder::Zyx,
            _ => return None,
        })
    }

    pub(super) fn channels(self) -> [Channel; 3] {
        use Channel::{Xrotation as X, Yrotation as Y, Zrotation as Z};
        match self {
            EulerOrder::Xyz => [X, Y, Z],
            EulerOrder::Xzy => [X, Z, Y],
            EulerOrder::Yxz => [Y, X, Z],
            EulerOrder::Yzx => [Y, Z, X],
            EulerOrder::Zxy => [Z, X, Y],
            EulerOrder::Zyx => [Z, Y, X],
        }
    }

    /// glam's intrinsic order of the same name: `from_euler(ZXY, a, b, c)` is `Rz(a)·Rx(b)·Ry(c)`.
    pub(super) fn glam(self) -> EulerRot {
        match self {
            EulerOrder::Xyz => EulerRot::XYZ,
            EulerOrder::Xzy => EulerRot::XZY,
            EulerOrder::Yxz => EulerRot::YXZ,
            EulerOrder::Yzx => EulerRot::YZX,
            EulerOrder::Zxy => EulerRot::ZXY,
            EulerOrder::Zyx => EulerRot::ZYX,
        }
    }
}

impl FromStr for EulerOrder {
    type Err = UnknownName;

    /// As [`EulerOrder::parse`].
    fn from_str(text: &str) -> Result<Self, UnknownName> {
        EulerOrder::parse(text).ok_or_else(|| UnknownName::new(text, Self::NAMES))
    }
}

/// Options of [`from_motion`].
#[derive(Clone, Debug, PartialEq)]
pub struct BvhExportOptions {
    /// Output frames per second; sampled by time from MMD's 30 fps.
    pub fps: f64,
    /// Length unit.
    pub units: BvhUnits,
    /// Rotation channel order of every joint.
    pub order: EulerOrder,
    /// Joints named with the model's English bone names (the Japanese name where a bone has
    /// none).
    pub english_names: bool,
    /// Leave out IK controls (bones with an IK chain, and bones below them): what is left is
    /// what deforms the body. Without it every bone is a joint.
    pub deform_only: bool,
    /// How the model is posed (IK on, MMD's IK variant by default).
    pub pose: PoseOptions,
    /// The largest motion array allowed, in bytes (8 per value).
    pub max_output_bytes: u64,
}

impl Default for BvhExportOptions {
    fn default() -> Self {
        BvhExportOptions {
            fps: crate::math::FPS,
            units: BvhUnits::Mmd,
            order: EulerOrder::Zxy,
            english_names: false,
            deform_only: false,
            pose: PoseOptions::default(),
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }
}

/// Why [`from_motion`] could not start.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BvhExportError {
    /// The frame rate is not a positive finite number of at most 10,000.
    #[error("the frame rate must be above 0 and at most 10000, not {0}")]
    BadFrameRate(f64),
    /// The model has no bone to export.
    #[error("the model has no bones")]
    NoBones,
    /// Only deforming bones were asked for, and every bone is an IK control or below one.
    #[error("every bone of the model is an IK control or below one: none deforms the body")]
    NoDeformingBones,
    /// The output would be larger than the limit; nothing was posed.
    #[error(transparent)]
    TooLarge(#[from] OutputTooLarge),
    /// A joint's offset (`frame` is `None`) or a value of its pose at `frame` is not a finite
    /// number: the model's bone positions are (NaN or infinite in the file, or so far apart that
    /// their differences overflow), and a BVH cannot hold it.
    #[error("joint {joint}: its {} is not a finite number", match frame {
        Some(frame) => format!("pose at frame {frame}"),
        None => "rest offset".to_string(),
    })]
    NotFinite {
        /// The joint's name as written.
        joint: String,
        /// The output frame, or `None` for the rest offset.
        frame: Option<usize>,
    },
}

/// The size of [`from_motion`]'s motion array, worked out before posing: samples × the
/// model's bones × 6 values of 8 bytes (an upper bound: most joints get 3).
pub fn from_motion_size(
    skeleton: &Skeleton,
    sampler: &MotionSampler,
    fps: f64,
) -> Result<DenseSize, BvhExportError> {
    if !(fps.is_finite() && fps > 0.0 && fps <= crate::math::MAX_FPS) {
        return Err(BvhExportError::BadFrameRate(fps));
    }
    // Six channels of about eight characters per joint.
    Ok(crate::limit::bone_samples_size(sampler.last_frame(), fps, skeleton.bone_count(), 6 * 8, 0))
}

/// The motion `sampler` plays, posed on `model` by vmdkit's own evaluator (IK and append
/// transforms included), as a BVH sampled from frame 0 through the last key at `options.fps`.
///
/// * Offsets are the model's rest pose: a bone's head minus its (exported) parent's head.
/// * Each frame's joint rotation is the bone's posed rotation relative to its parent's, so IK,
///   appends and everything else the evaluator does are baked in; decomposed into Euler angles
///   in the chosen order.
/// * Axes: right-handed, Y up, Z mirrored (p → (x, y, −z), q → (−x, −y, z, w)), as BVH readers
///   expect and as [`Axes::RightHandedYUp`] converts; MMD units, or metres at
///   [`METRES_PER_UNIT`].
/// * One root: a model with several parentless bones (センター beside 足ＩＫ) gets a `Root` joint
///   at the origin above them, which never moves, since most BVH readers take one root.
/// * Channels: roots have six; other joints three, or six where the bone moves away from its
///   rest offset at some frame (センター, グルーブ, bones with translation appends). Position
///   channels hold the whole translation from the parent
///   ([`PositionOffset::Replace`](super::PositionOffset::Replace)).
pub fn from_motion(
    model: &Model,
    sampler: &MotionSampler,
    options: &BvhExportOptions,
) -> Result<Bvh, BvhExportError> {
    let skeleton = Skeleton::new(model);
    if skeleton.bone_count() == 0 {
        return Err(BvhExportError::NoBones);
    }
    let frames =
        from_motion_size(&skeleton, sampler, options.fps)?.within(options.max_output_bytes)?;
    let frames = frames.frames as usize;
    let binding = Binding::new(&skeleton, sampler);
    let kept = kept_bones(model, options.deform_only);
    if !kept.contains(&true) {
        return Err(BvhExportError::NoDeformingBones);
    }
    let parent = exported_parents(&skeleton, &kept);
    let scale = match options.units {
        BvhUnits::Mmd => 1.0,
        BvhUnits::Metres => METRES_PER_UNIT,
    };
    let axes = Axes::RightHandedYUp;
    let rest: Vec<DVec3> = (0..skeleton.bone_count())
        .map(|b| axes.position(skeleton.rest_position(b)).as_dvec3() * scale)
        .collect();
    let order = parents_first(&parent, &kept);
    let mut poser = Poser::with_options(&skeleton, sampler, &binding, options.pose);
    let mut pose = Pose::new(&skeleton);
    let time = |k: usize| k as f64 * crate::math::FPS / options.fps;
    let world = |pose: &Pose, b: usize| {
        let p = axes.position(pose.position(b)).as_dvec3() * scale;
        let q = axes.rotation(pose.rotation(b).normalize()).as_dquat();
        (p, q)
    };
    let local = |pose: &Pose, b: usize| {
        let (p, q) = world(pose, b);
        match parent[b] {
            Some(pb) => {
                let (pp, pq) = world(pose, pb);
                (pq.inverse() * (p - pp), (pq.inverse() * q).normalize())
            }
            None => (p, q),
        }
    };
    let offset = |b: usize| parent[b].map_or(rest[b], |p| rest[b] - rest[p]);
    // Pass 1: which joints translate.
    let mut moves = vec![false; skeleton.bone_count()];
    for k in 0..frames {
        poser.pose_at(time(k), &mut pose);
        for &b in &order {
            if !moves[b] && (local(&pose, b).0 - offset(b)).length() > MOVES * scale {
                moves[b] = true;
            }
        }
    }
    // Joints (under a root of their own when the model has several: most readers take one),
    // then the End Sites of leaves.
    let names = joint_names(model, options.english_names);
    let mut joints: Vec<Joint> = Vec::with_capacity(order.len() * 2 + 1);
    let mut index = vec![usize::MAX; skeleton.bone_count()];
    let mut channel_count = 0;
    let shared_root = order.iter().filter(|&&b| parent[b].is_none()).count() > 1;
    if shared_root {
        let mut name = "Root".to_string();
        while names.contains(&name) {
            name.push('_');
        }
        let channels = vec![Channel::Xposition, Channel::Yposition, Channel::Zposition];
        let channels = [channels, options.order.channels().to_vec()].concat();
        channel_count = channels.len();
        joints.push(Joint {
            name,
            kind: JointKind::Root,
            parent: None,
            offset: DVec3::ZERO,
            channels,
            first_channel: 0,
        });
    }
    for &b in &order {
        let mut channels = Vec::with_capacity(6);
        if parent[b].is_none() || moves[b] {
            channels.extend([Channel::Xposition, Channel::Yposition, Channel::Zposition]);
        }
        channels.extend(options.order.channels());
        index[b] = joints.len();
        let root = parent[b].is_none() && !shared_root;
        joints.push(Joint {
            name: names[b].clone(),
            kind: if root { JointKind::Root } else { JointKind::Joint },
            parent: parent[b].map(|p| index[p]).or(if root { None } else { Some(0) }),
            offset: offset(b),
            channels,
            first_channel: channel_count,
        });
        channel_count += joints.last().map_or(0, |j| j.channels.len());
    }
    let has_child: Vec<bool> = {
        let mut has = vec![false; joints.len()];
        for j in &joints {
            if let Some(p) = j.parent {
                has[p] = true;
            }
        }
        has
    };
    for &b in &order {
        if !has_child[index[b]] {
            let tip = tail_offset(model, &skeleton, b);
            joints.push(Joint {
                name: format!("{}_End", names[b]),
                kind: JointKind::EndSite,
                parent: Some(index[b]),
                offset: axes.position(tip).as_dvec3() * scale,
                channels: Vec::new(),
                first_channel: channel_count,
            });
        }
    }
    // Pass 2: the values.
    let mut motion = Vec::with_capacity(frames * channel_count);
    let euler = options.order.glam();
    for k in 0..frames {
        poser.pose_at(time(k), &mut pose);
        if shared_root {
            motion.extend_from_slice(&[0.0; 6]);
        }
        for &b in &order {
            let (t, q) = local(&pose, b);
            if parent[b].is_none() || moves[b] {
                motion.extend_from_slice(&t.to_array());
            }
            let (a, c, d) = q.to_euler(euler);
            motion.extend_from_slice(&[a.to_degrees(), c.to_degrees(), d.to_degrees()]);
        }
    }
    let bvh =
        Bvh { joints, frame_count: frames, frame_time: 1.0 / options.fps, channel_count, motion };
    check_finite(&bvh)?;
    Ok(bvh)
}

/// Every offset and value finite, or the first joint (and frame) that is not: a BVH written
/// with `NaN` or `inf` would not read again, here or in any other reader.
fn check_finite(bvh: &Bvh) -> Result<(), BvhExportError> {
    if let Some(joint) = bvh.joints.iter().find(|j| !j.offset.is_finite()) {
        return Err(BvhExportError::NotFinite { joint: joint.name.clone(), frame: None });
    }
    let Some(at) = bvh.motion.iter().position(|v| !v.is_finite()) else { return Ok(()) };
    let channel = at % bvh.channel_count;
    let joint = bvh
        .joints
        .iter()
        .find(|j| (j.first_channel..j.first_channel + j.channels.len()).contains(&channel))
        .map_or_else(String::new, |j| j.name.clone());
    Err(BvhExportError::NotFinite { joint, frame: Some(at / bvh.channel_count) })
}

/// Per bone, whether it becomes a joint.
fn kept_bones(model: &Model, deform_only: bool) -> Vec<bool> {
    let n = model.bones.len();
    if !deform_only {
        return vec![true; n];
    }
    // An IK control, or below one. Each bone's answer is its own flag or its parent's, worked
    // out once per bone by walking up to the first bone already known (a model's parents may
    // come after their children, so index order is no help), which keeps this linear in the
    // bone count however the parents are ordered; a parent that closes a cycle counts as none.
    let is_ik =
        |b: usize| model.bones[b].ik.is_some() || model.bones[b].flags.contains(BoneFlags::IK);
    let mut control: Vec<Option<bool>> = vec![None; n];
    let mut on_path = vec![false; n];
    let mut path = Vec::new();
    for start in 0..n {
        let mut b = start;
        // Walk up while unknown; `inherited` is what the first known ancestor says.
        let inherited = loop {
            if let Some(known) = control[b] {
                break known;
            }
            on_path[b] = true;
            path.push(b);
            match model.bones[b].parent.filter(|&p| p < n && !on_path[p]) {
                Some(p) => b = p,
                None => break false,
            }
        };
        let mut below_control = inherited;
        for &b in path.iter().rev() {
            below_control |= is_ik(b);
            control[b] = Some(below_control);
            on_path[b] = false;
        }
        path.clear();
    }
    control.into_iter().map(|c| c != Some(true)).collect()
}

/// Each kept bone's nearest kept ancestor (the skeleton's parents are already acyclic).
fn exported_parents(skeleton: &Skeleton, kept: &[bool]) -> Vec<Option<usize>> {
    (0..skeleton.bone_count())
        .map(|b| {
            let mut p = skeleton.parent(b);
            let mut steps = 0;
            while let Some(q) = p {
                if kept[q] || steps > kept.len() {
                    break;
                }
                p = skeleton.parent(q);
                steps += 1;
            }
            p.filter(|&q| kept[q])
        })
        .collect()
}

/// The kept bones, each after its exported parent: a model may name a later bone as a parent,
/// and a joint's parent must be written (and indexed) before it. Bone order otherwise, depth
/// first from each root, without recursion (a chain may be as deep as the model has bones).
fn parents_first(parent: &[Option<usize>], kept: &[bool]) -> Vec<usize> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); parent.len()];
    for b in (0..parent.len()).filter(|&b| kept[b]) {
        if let Some(p) = parent[b] {
            children[p].push(b);
        }
    }
    let mut order = Vec::with_capacity(parent.len());
    let mut stack = Vec::new();
    for root in (0..parent.len()).filter(|&b| kept[b] && parent[b].is_none()) {
        stack.push(root);
        while let Some(b) = stack.pop() {
            order.push(b);
            stack.extend(children[b].iter().rev());
        }
    }
    order
}

/// Joint names: the model's (or English) bone names with white space as `_`; an empty name
/// becomes `bone<index>`, and a repeated one gets `_<index>` appended, so every joint is told
/// apart by name.
fn joint_names(model: &Model, english: bool) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    model
        .bones
        .iter()
        .enumerate()
        .map(|(i, bone)| {
            let name =
                if english && !bone.name_en.trim().is_empty() { &bone.name_en } else { &bone.name };
            let mut name: String =
                name.trim().chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
            if name.is_empty() {
                name = format!("bone{i}");
            }
            if !seen.insert(name.clone()) {
                name = format!("{name}_{i}");
                seen.insert(name.clone());
            }
            name
        })
        .collect()
}

/// Where a leaf's End Site goes, from its head: the display tail (a bone's head or an offset),
/// else a short step up.
fn tail_offset(model: &Model, skeleton: &Skeleton, b: usize) -> glam::Vec3 {
    let head = skeleton.rest_position(b);
    let tip = match model.bones[b].tail {
        Tail::Offset(o) => o,
        Tail::Bone(Some(t)) if t < skeleton.bone_count() => skeleton.rest_position(t) - head,
        Tail::Bone(_) => glam::Vec3::ZERO,
    };
    if tip.length_squared() > 1e-12 {
        tip
    } else {
        glam::Vec3::new(0.0, 0.5, 0.0)
    }
}
