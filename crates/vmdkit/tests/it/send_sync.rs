//! Compile-time checks that the types a caller keeps, or hands to another thread or to another
//! language's runtime (which may move objects between threads), are `Send + Sync`. A field that
//! would break this (an `Rc`, a `Cell`, a raw pointer) fails the build here, not in a
//! downstream crate.

use vmdkit::eval::{MotionSampler, Playhead};
use vmdkit::model::Model;
use vmdkit::skeleton::{
    Binding, BindingReport, Pose, PoseEvaluator, PoseInput, Poser, SharedPoser, Skeleton,
};
use vmdkit::Motion;

const fn send_sync<T: Send + Sync>() {}

/// `'static` as well: what a handle owned by another language needs.
const fn owned<T: Send + Sync + 'static>() {}

const _: () = {
    owned::<Motion>();
    owned::<MotionSampler>();
    owned::<Playhead>();
    owned::<Model>();
    owned::<Skeleton>();
    owned::<Binding>();
    owned::<BindingReport>();
    owned::<PoseInput>();
    owned::<Pose>();
    owned::<SharedPoser>();
    send_sync::<PoseEvaluator<'static>>();
    send_sync::<Poser<'static>>();
};
