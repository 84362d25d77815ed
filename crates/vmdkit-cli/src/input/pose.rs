//! Reading a VPD pose, and playing one as a motion with one key per bone and morph at frame 0
//! (`VpdPose::to_motion`), for the commands that list or play keys.

use crate::input::kind::InputKind;
use crate::input::motion::{load_motion, Loaded};
use crate::input::seen::note_input;
use crate::input::stdio::{input_size, is_stdio, stdin_bytes};
use std::path::Path;
use vmdkit::model::VpdPose;

/// Reads a VPD pose; the error names the file and line.
pub fn read_pose(path: &Path) -> anyhow::Result<VpdPose> {
    if is_stdio(path) {
        return VpdPose::parse(stdin_bytes()?)
            .map_err(|e| anyhow::anyhow!("cannot read the pose from stdin: {e}"));
    }
    note_input(path);
    VpdPose::read_file(path).map_err(|e| anyhow::anyhow!("cannot read the pose: {e}"))
}

/// A pose as a motion with its keys at `frame`, warning about names it could not store.
pub fn pose_as_motion(path: &Path, pose: &VpdPose, frame: u32) -> Loaded {
    let label = path.display().to_string();
    let (motion, notes) = pose.to_motion(frame);
    for (kind, name) in notes.names {
        say!(
            "warning: {label}: the {kind} name {:?} does not fit a VMD's name field in \
             Shift-JIS; it is stored cut or with ? for what Shift-JIS lacks",
            vmdkit::shown::shown(&name)
        );
    }
    let bytes = input_size(path);
    Loaded { label, motion, repairs: Vec::new(), bytes }
}

/// Reads a motion, or a pose as a motion at frame 0: what commands that list or play keys
/// take. See [`load_motion`] for `lenient` and `max_trailing`.
pub fn load_motion_or_pose(
    path: &Path,
    lenient: bool,
    max_trailing: usize,
) -> anyhow::Result<Loaded> {
    match InputKind::of(path) {
        InputKind::Pose => Ok(pose_as_motion(path, &read_pose(path)?, 0)),
        // A model is named as such by the motion reader, as where only motions are read.
        InputKind::Motion | InputKind::Model => load_motion(path, lenient, max_trailing),
    }
}
