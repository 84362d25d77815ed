//! [`PoserBase`]: a motion bound to a skeleton, posed at any time. One implementation, two ways
//! to hold its three inputs: [`Poser`] borrows them (no reference counting, for Rust callers
//! that own the data), [`SharedPoser`] holds [`Arc`]s (no lifetimes, so a binding to another
//! language can keep it alive on its own, and send it to another thread).

use super::binding::Binding;
use super::pose::{Pose, PoseEvaluator, PoseInput, PoseOptions};
use super::subset::BoneSubset;
use super::Skeleton;
use crate::eval::{Cursor, MotionSampler};
use std::ops::Deref;
use std::sync::Arc;

/// A motion bound to a skeleton: [`PoserBase::pose_at`] samples the tracks and evaluates.
///
/// `S`, `M` and `B` say how the skeleton, the sampler and the binding are held: anything that
/// dereferences to them. [`Poser`] and [`SharedPoser`] are the two usual choices.
///
/// ```no_run
/// use vmdkit::eval::MotionSampler;
/// use vmdkit::model::Model;
/// use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};
///
/// let model = Model::read_file("miku.pmx")?;
/// let motion = vmdkit::Motion::read_file("dance.vmd")?;
/// let skeleton = Skeleton::new(&model);
/// let sampler = MotionSampler::new(&motion);
/// let binding = Binding::new(&skeleton, &sampler);
/// let mut poser = Poser::new(&skeleton, &sampler, &binding);
/// let mut pose = Pose::new(&skeleton);
/// let head = skeleton.bone_index("頭").expect("a head bone");
/// for frame in 0..=sampler.last_frame().unwrap_or(0) {
///     poser.pose_at(frame, &mut pose);
///     println!("{}", pose.position(head));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PoserBase<S, M, B> {
    skeleton: S,
    sampler: M,
    binding: B,
    options: PoseOptions,
    input: PoseInput,
    /// Per bound track: the last segment, so that playback steps instead of searching. Only a
    /// speed-up: a sample never depends on it.
    bone_cursors: Vec<Cursor>,
    morph_cursors: Vec<Cursor>,
    ik_cursors: Vec<Cursor>,
}

/// A [`PoserBase`] that borrows its skeleton, sampler and binding.
pub type Poser<'a> = PoserBase<&'a Skeleton, &'a MotionSampler, &'a Binding>;

/// A [`PoserBase`] that shares ownership of its skeleton, sampler and binding: `'static`,
/// `Send` and `Sync`, and cheap to clone (the clone keeps its own cursors and input).
///
/// ```no_run
/// use std::sync::Arc;
/// use vmdkit::eval::MotionSampler;
/// use vmdkit::skeleton::{Binding, Pose, SharedPoser, Skeleton};
///
/// let skeleton = Arc::new(Skeleton::new(&vmdkit::model::Model::read_file("miku.pmx")?));
/// let sampler = Arc::new(MotionSampler::new(&vmdkit::Motion::read_file("dance.vmd")?));
/// let binding = Arc::new(Binding::new(&skeleton, &sampler));
/// let mut poser = SharedPoser::new(skeleton.clone(), sampler, binding);
/// let worker = std::thread::spawn(move || {
///     let mut pose = Pose::new(poser.skeleton());
///     poser.pose_at(30, &mut pose);
///     pose
/// });
/// let pose = worker.join().expect("posing does not panic");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type SharedPoser = PoserBase<Arc<Skeleton>, Arc<MotionSampler>, Arc<Binding>>;

impl<S, M, B> PoserBase<S, M, B>
where
    S: Deref<Target = Skeleton>,
    M: Deref<Target = MotionSampler>,
    B: Deref<Target = Binding>,
{
    /// Poses `sampler` on `skeleton` through `binding`, with the default [`PoseOptions`].
    pub fn new(skeleton: S, sampler: M, binding: B) -> Self {
        Self::with_options(skeleton, sampler, binding, PoseOptions::default())
    }

    /// Poses `sampler` on `skeleton` through `binding`, with `options`. `binding` must have
    /// been made for this skeleton and sampler.
    pub fn with_options(skeleton: S, sampler: M, binding: B, options: PoseOptions) -> Self {
        PoserBase {
            input: PoseInput::new(&skeleton),
            bone_cursors: vec![Cursor::default(); binding.bones.len()],
            morph_cursors: vec![Cursor::default(); binding.morphs.len()],
            ik_cursors: vec![Cursor::default(); binding.iks.len()],
            skeleton,
            sampler,
            binding,
            options,
        }
    }

    /// The skeleton being posed.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// Samples every bound track at frame `t` (30 fps, any fraction) into the input, which
    /// [`PoserBase::input`] then shows. Unbound bones stay at rest, unswitched IK on.
    pub fn sample(&mut self, t: impl Into<f64>) -> &PoseInput {
        self.sample_bones_where(t.into(), |_| true);
        &self.input
    }

    /// Samples the tracks of the bones `wanted` keeps, and every morph and IK switch, into the
    /// input.
    fn sample_bones_where(&mut self, t: f64, wanted: impl Fn(usize) -> bool) {
        let (sampler, binding, input) = (&*self.sampler, &*self.binding, &mut self.input);
        let tracks = sampler.bone_tracks();
        for (&(track, bone), cursor) in binding.bones.iter().zip(&mut self.bone_cursors) {
            if wanted(bone as usize) {
                input.bones[bone as usize] = tracks[track as usize].sample_with(cursor, t);
            }
        }
        let tracks = sampler.morph_tracks();
        for (&(track, morph), cursor) in binding.morphs.iter().zip(&mut self.morph_cursors) {
            input.morphs[morph as usize] = tracks[track as usize].sample_with(cursor, t);
        }
        let tracks = sampler.ik_tracks();
        for (&(track, k), cursor) in binding.iks.iter().zip(&mut self.ik_cursors) {
            input.ik_enabled[k as usize] = tracks[track as usize].track().sample_with(cursor, t);
        }
    }

    /// The choices it evaluates with.
    pub fn options(&self) -> PoseOptions {
        self.options
    }

    /// The input of the last [`PoserBase::sample`] or [`PoserBase::pose_at`].
    pub fn input(&self) -> &PoseInput {
        &self.input
    }

    /// The bones of `subset` at frame `t` into `pose`, exactly as [`PoserBase::pose_at`] gives
    /// them, sampling only their tracks; other bones must not be read (see
    /// [`PoseEvaluator::evaluate_subset`]).
    pub(crate) fn pose_subset_at(&mut self, t: f64, pose: &mut Pose, subset: &BoneSubset) {
        self.sample_bones_where(t, |bone| subset.contains(bone));
        let evaluator = PoseEvaluator::with_options(&self.skeleton, self.options);
        evaluator.evaluate_subset(&self.input, pose, subset);
    }

    /// Every bone at frame `t` into `pose`, without allocating.
    pub fn pose_at(&mut self, t: impl Into<f64>, pose: &mut Pose) {
        self.sample(t);
        PoseEvaluator::with_options(&self.skeleton, self.options).evaluate(&self.input, pose);
    }
}
