//! [`PhysicsPoser`]: a motion posed frame after frame with physics, for callers that play or
//! bake a motion in order.

use super::{PhysicsSettings, PhysicsWorld};
use crate::eval::MotionSampler;
use crate::model::Model;
use crate::skeleton::{Binding, Pose, PoseEvaluator, PoserBase, Skeleton};
use std::ops::Deref;

/// MMD's frame rate: motion frames per second.
const FPS: f64 = 30.0;

/// The largest step forward, in frames, simulated rather than started afresh: one second, the
/// most [`PhysicsWorld::pose`] simulates per pose.
const MAX_GAP: f64 = FPS;

/// A [`PoserBase`] with a [`PhysicsWorld`]: each [`PhysicsPoser::pose_at`] simulates the time
/// since the previous one. Going backwards (or jumping more than a second ahead, which
/// [`PhysicsWorld::pose`] would cut) starts the simulation afresh at that frame, as a cut does.
///
/// ```no_run
/// use vmdkit::eval::MotionSampler;
/// use vmdkit::model::Model;
/// use vmdkit::physics::{PhysicsPoser, PhysicsSettings};
/// use vmdkit::skeleton::{Binding, Pose, Poser, Skeleton};
///
/// let model = Model::read_file("miku.pmx")?;
/// let motion = vmdkit::Motion::read_file("dance.vmd")?;
/// let skeleton = Skeleton::new(&model);
/// let sampler = MotionSampler::new(&motion);
/// let binding = Binding::new(&skeleton, &sampler);
/// let poser = Poser::new(&skeleton, &sampler, &binding);
/// let mut physics = PhysicsPoser::new(poser, &model, &PhysicsSettings::default());
/// let mut pose = Pose::new(&skeleton);
/// for frame in 0..=sampler.last_frame().unwrap_or(0) {
///     physics.pose_at(frame, &mut pose);
/// }
/// println!("{:?}", physics.world().stats());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PhysicsPoser<S, M, B> {
    poser: PoserBase<S, M, B>,
    world: PhysicsWorld,
    last: Option<f64>,
}

impl<S, M, B> PhysicsPoser<S, M, B>
where
    S: Deref<Target = Skeleton>,
    M: Deref<Target = MotionSampler>,
    B: Deref<Target = Binding>,
{
    /// `poser`'s motion with the physics of `model` (the model `poser`'s skeleton was made from).
    pub fn new(poser: PoserBase<S, M, B>, model: &Model, settings: &PhysicsSettings) -> Self {
        let world = PhysicsWorld::new(model, poser.skeleton(), settings);
        PhysicsPoser { poser, world, last: None }
    }

    /// Every bone at frame `t` (30 fps) into `pose`, with the simulation carried from the
    /// previous call.
    pub fn pose_at(&mut self, t: impl Into<f64>, pose: &mut Pose) {
        let t = t.into();
        let dt = match self.last {
            Some(last) if t >= last && t - last <= MAX_GAP => (t - last) / FPS,
            _ => {
                self.world.reset();
                0.0
            }
        };
        self.last = Some(t);
        self.poser.sample(t);
        let evaluator = PoseEvaluator::with_options(self.poser.skeleton(), self.poser.options());
        self.world.pose(&evaluator, self.poser.input(), dt as f32, pose);
    }

    /// Makes the next [`PhysicsPoser::pose_at`] start afresh.
    pub fn reset(&mut self) {
        self.world.reset();
        self.last = None;
    }

    /// The physics world (stats, notes).
    pub fn world(&self) -> &PhysicsWorld {
        &self.world
    }

    /// The poser it samples with.
    pub fn poser(&self) -> &PoserBase<S, M, B> {
        &self.poser
    }
}
