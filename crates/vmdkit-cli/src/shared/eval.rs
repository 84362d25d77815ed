//! What the commands that evaluate a motion share beyond their arguments: the warnings about
//! what evaluation ignores or holds, the times of a range, and a motion played as keypoints.

use crate::args::frames::check_frame;
use vmdkit::eval::MotionSampler;
use vmdkit::retarget::{keypoints_from_motion_with_progress, KeypointOptions};
use vmdkit::skeleton::{Binding, Skeleton};

/// Most frames one command draws: 30 minutes at 30 fps. A damaged last frame number must not
/// start billions of frames.
const MAX_FRAMES: usize = 54_000;

/// Warns when keys were dropped because a later key has the same name and frame.
pub fn warn_duplicates(label: &str, sampler: &MotionSampler) {
    if !sampler.duplicates().is_empty() {
        say!(
            "warning: {label}: {} keys share a name and frame with a later key; the later one is used",
            sampler.duplicates().len()
        );
    }
}

/// Binds the motion's tracks to the model's bones and prints what did not bind (see
/// `crate::report::binding`); `label` names the motion.
pub fn bind(label: &str, skeleton: &Skeleton, sampler: &MotionSampler) -> Binding {
    let binding = Binding::new(skeleton, sampler);
    for message in crate::report::binding_warnings(label, skeleton, &binding) {
        say!("warning: {message}");
    }
    binding
}

/// Says once on stderr when the times `from`..=`to` reach outside the motion's keys (before
/// frame 0 or after its last key): allowed, MMD holds the first and last keys, but a mistyped
/// frame should not pass unnoticed. Nothing for a motion without keys or a VPD pose.
pub fn note_outside(label: &str, motion: &vmdkit::Motion, from: f64, to: f64) {
    let Some(last) = MotionSampler::new(motion).last_frame() else { return };
    let last_f = f64::from(last);
    let what = if from == to {
        format!("frame {from} is")
    } else {
        format!("frames {from} to {to} reach")
    };
    if to > last_f {
        say!(
            "note: {what} past the last key of {label} (frame {last}): posed as MMD does, holding that key"
        );
    } else if from < 0.0 {
        say!("note: {what} before frame 0 of {label}: posed as MMD does, with its first keys");
    }
}

/// Motion times from `from` (default 0) to `to` (default the last key) at `fps`, refusing
/// more than 54,000. Too many frames up to `--to` is a usage error; up to the last key of
/// `motion` (read from `label`), a fact of the file: exit 1, naming it and the key.
pub fn range_times(
    from: Option<f64>,
    to: Option<f64>,
    fps: f64,
    motion: &vmdkit::Motion,
    label: &str,
) -> anyhow::Result<Vec<f64>> {
    let to_given = to.is_some();
    let from = from.unwrap_or(0.0);
    let last = MotionSampler::new(motion).last_frame().unwrap_or(0);
    let to = to.unwrap_or(f64::from(last));
    check_frame(from)?;
    check_frame(to)?;
    if to < from {
        return Err(crate::error::usage(format!("--to {to} is before --from {from}")));
    }
    let step = 30.0 / fps;
    let count = ((to - from) / step + 1e-9).floor() + 1.0;
    if count > MAX_FRAMES as f64 {
        let span = format!("{from} to {to} at {fps} fps is {count} frames");
        if to_given {
            return Err(crate::error::usage(format!(
                "{span}, more than the {MAX_FRAMES} one command draws"
            )));
        }
        anyhow::bail!(
            "{label}: its last key is at frame {last}: {span}, more than the {MAX_FRAMES} one \
             command draws; pass --to (or --from) to draw part of it"
        );
    }
    Ok((0..count as usize).map(|i| from + i as f64 * step).collect())
}

/// `motion` played on `model` as `layout`'s joints, with a progress bar over the frames when
/// they are many (a minute at 30 fps): what `keypoints` and `retarget --source-model` do.
pub fn pose_keypoints(
    motion: &vmdkit::Motion,
    model: &vmdkit::model::Model,
    layout: &vmdkit::keypoints::JointLayout,
    options: &KeypointOptions,
) -> Result<vmdkit::keypoints::Keypoints, vmdkit::retarget::RetargetError> {
    let long = vmdkit::retarget::keypoints_size(motion, 1, options.fps).frames >= 1800;
    let bar = crate::batch::progress_bar(0, long, "frames");
    let keypoints = keypoints_from_motion_with_progress(
        motion,
        &Skeleton::new(model),
        layout,
        options,
        &|done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    keypoints
}
